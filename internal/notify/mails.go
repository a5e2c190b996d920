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

// OptOut composes c for a kind of mail the member may turn off (one of the
// settings' kinds or one added with AddOptOut): the footer says why it came
// and how to stop it, and the message carries the one-click unsubscribe
// link for mail clients.
func (s *Service) OptOut(ctx context.Context, userID, kind string, c mail.Content) (mail.Message, error) {
	link, err := s.UnsubscribeURL(ctx, userID, kind)
	if err != nil {
		return mail.Message{}, err
	}
	label := s.Label(kind)
	c.Footer = "You get this because " + label + " are on in your profile (" + s.baseURL +
		"/members, Profile). Stop " + label + " in one click: " + link
	if kind == KindWeeklyDigest || kind == KindLevelReached {
		c.Footer = "You get this because " + label + " is on in your profile (" + s.baseURL +
			"/members, Profile). Stop " + label + " in one click: " + link
	}
	m := mail.Compose(c)
	m.ListUnsubscribe = link
	return m, nil
}
