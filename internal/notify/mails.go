package notify

import (
	"context"

	"tribe/internal/mail"
)

// recipient is a member a planned mail goes to.
type recipient struct {
	UserID, Email, Name, Zone string
}

func (r recipient) greeting() string {
	if r.Name == "" {
		return "Hello,"
	}
	return "Hello " + r.Name + ","
}

// optOut composes c for a kind of mail the member may turn off: the footer
// says why it came and how to stop it, and the message carries the
// one-click unsubscribe link for mail clients.
func (s *Service) optOut(ctx context.Context, userID, kind string, c mail.Content) (mail.Message, error) {
	link, err := s.UnsubscribeURL(ctx, userID, kind)
	if err != nil {
		return mail.Message{}, err
	}
	c.Footer = "You get this because " + KindLabel(kind) + " are on in your profile (" + s.baseURL +
		"/members, Profile). Stop " + KindLabel(kind) + " in one click: " + link
	if kind == KindWeeklyDigest || kind == KindLevelReached {
		c.Footer = "You get this because " + KindLabel(kind) + " is on in your profile (" + s.baseURL +
			"/members, Profile). Stop " + KindLabel(kind) + " in one click: " + link
	}
	m := mail.Compose(c)
	m.ListUnsubscribe = link
	return m, nil
}
