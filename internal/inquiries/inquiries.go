// Package inquiries takes enterprise inquiries: a team asking about the
// enterprise package through the site's form instead of a mail link nobody
// tracks. An inquiry is stored, confirmed to its sender and sent to the
// owner through the outbox in the same transaction (so both mails go once,
// and only for a stored inquiry), and the owner follows it up with a status
// and a note.
package inquiries

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"tribe/internal/auth"
	"tribe/internal/clock"
	"tribe/internal/errs"
	"tribe/internal/mail"
	"tribe/internal/mailaddr"
	"tribe/internal/ratelimit"
	"tribe/internal/store"
)

// Statuses lists the statuses in the order the owner works through them.
var Statuses = []string{StatusNew, StatusReplied, StatusWon, StatusLost}

// Owner is who receives inquiries: the booking settings' owner name and
// address, read when an inquiry arrives.
type Owner func(ctx context.Context) (name, email string, err error)

// Service stores and mails inquiries.
type Service struct {
	db      *store.DB
	now     clock.Clock
	owner   Owner
	baseURL string
}

// Option changes a Service.
type Option func(*Service)

// WithClock replaces time.Now (tests).
func WithClock(c clock.Clock) Option { return func(s *Service) { s.now = c } }

// New makes the inquiry service; baseURL is TRIBE_BASE_URL, for the
// owner's link to the Admin tab.
func New(db *store.DB, owner Owner, baseURL string, opts ...Option) *Service {
	s := &Service{db: db, now: time.Now, owner: owner, baseURL: baseURL}
	for _, o := range opts {
		o(s)
	}
	return s
}

// text checks one line of text for a field.
func text(field, label, v string, limit int) (string, error) {
	v = strings.TrimSpace(v)
	switch {
	case v == "":
		return "", errs.Field(field, "Please enter "+label+".")
	case !oneLine(v):
		return "", errs.Field(field, strings.ToUpper(label[:1])+label[1:]+" contains characters that cannot be stored.")
	case utf8.RuneCountInString(v) > limit:
		return "", errs.Field(field, fmt.Sprintf("%s must be at most %d characters.", strings.ToUpper(label[:1])+label[1:], limit))
	}
	return v, nil
}

func oneLine(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}

// paragraphs is free text that may span lines but holds no other control
// characters.
func paragraphs(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if (r < 0x20 && r != '\n' && r != '\r' && r != '\t') || r == 0x7f {
			return false
		}
	}
	return true
}

func (s *Service) check(in Input, now time.Time) (Input, string, error) {
	var err error
	out := in
	if out.Name, err = text("name", "your name", in.Name, MaxName); err != nil {
		return out, "", err
	}
	// The site's one rule for names people see (direction overrides,
	// invisible-only names).
	if _, err := auth.CheckName("name", "Your name", MaxName, out.Name); err != nil {
		return out, "", err
	}
	addr, err := mailaddr.Parse(in.Email)
	if err != nil {
		return out, "", errs.Field("email", err.Error())
	}
	out.Email = addr.Mailbox
	if out.Company, err = text("company", "your company", in.Company, MaxCompany); err != nil {
		return out, "", err
	}
	if _, err := auth.CheckName("company", "Company", MaxCompany, out.Company); err != nil {
		return out, "", err
	}
	if in.TeamSize < 1 || in.TeamSize > MaxTeamSize {
		return out, "", errs.Field("team_size", "Team size must be the number of people, from 1 to "+strconv.Itoa(MaxTeamSize)+".")
	}
	out.Message = strings.TrimSpace(in.Message)
	switch {
	case out.Message == "":
		return out, "", errs.Field("message", "Please tell us what your team would like.")
	case !paragraphs(out.Message):
		return out, "", errs.Field("message", "The message contains characters that cannot be stored.")
	case utf8.RuneCountInString(out.Message) > MaxMessage:
		return out, "", errs.Field("message", fmt.Sprintf("The message must be at most %d characters.", MaxMessage))
	}
	out.PreferredStart = strings.TrimSpace(in.PreferredStart)
	if out.PreferredStart != "" {
		d, err := time.Parse(time.DateOnly, out.PreferredStart)
		switch {
		case err != nil || len(out.PreferredStart) != 10:
			return out, "", errs.Field("preferred_start", "Preferred start must be a date written YYYY-MM-DD, or left empty.")
		case d.Before(now.UTC().Truncate(24*time.Hour).AddDate(0, 0, -1)):
			return out, "", errs.Field("preferred_start", "Preferred start must not be in the past.")
		case d.After(now.AddDate(3, 0, 0)):
			return out, "", errs.Field("preferred_start", "Preferred start must be within three years.")
		}
	}
	return out, addr.Key, nil
}

// Submit stores an inquiry and queues its two mails: the confirmation to
// the sender and the inquiry to the owner. clientAddr is kept for the
// owner's judgement of abuse.
func (s *Service) Submit(ctx context.Context, in Input, clientAddr string) (*Inquiry, error) {
	now := s.now()
	in, _, err := s.check(in, now)
	if err != nil {
		return nil, err
	}
	ownerName, ownerEmail, err := s.owner(ctx)
	if err != nil {
		return nil, fmt.Errorf("inquiry: owner: %w", err)
	}
	// One client is an IPv4 address or an IPv6 /64, as every limit keys it.
	clientAddr = ratelimit.AddrKey(clientAddr)
	if len(clientAddr) > 64 {
		clientAddr = clientAddr[:64]
	}
	id := store.NewID()
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO inquiries (id, name, email, company, team_size, message, preferred_start,
			client_addr, status, note, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'new', '', $9, $9)`,
			id, in.Name, in.Email, in.Company, in.TeamSize, in.Message, in.PreferredStart, clientAddr, store.At(now))
		if err != nil {
			return fmt.Errorf("store inquiry: %w", err)
		}
		details := []string{
			"Name: " + in.Name + " <" + in.Email + ">",
			"Company: " + in.Company,
			"Team size: " + people(in.TeamSize),
			"Preferred start: " + startText(in.PreferredStart),
			"What they would like:",
		}
		details = append(details, strings.Split(in.Message, "\n\n")...)
		// The confirmation quotes nothing the sender typed (name, company,
		// message): the form takes any address, and quoting would relay a
		// stranger's words to it from the owner's domain.
		if _, err := mail.Enqueue(ctx, tx, mail.Compose(mail.Content{
			To: in.Email, Subject: "We received your enterprise inquiry",
			Heading: "Thank you for your inquiry",
			Paragraphs: []string{
				ownerName + " has received an inquiry about the enterprise package from this address and will reply to it, usually within two business days.",
				"If you did not send it, you can ignore this message.",
			},
			Footer: "You received this because this address was entered in the enterprise inquiry form on " + s.baseURL + ".",
		})); err != nil {
			return fmt.Errorf("queue inquiry confirmation: %w", err)
		}
		if _, err := mail.Enqueue(ctx, tx, mail.Compose(mail.Content{
			To: ownerEmail, Subject: "Enterprise inquiry: " + in.Company + " (" + people(in.TeamSize) + ")",
			Heading:    "A new enterprise inquiry",
			Paragraphs: append(details, "Reply to "+in.Email+" and set the inquiry's status in the Admin tab."),
			Button:     &mail.Link{Label: "Open inquiries", URL: s.baseURL + "/members"},
		})); err != nil {
			return fmt.Errorf("queue inquiry notice: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.Get(ctx, id)
}

func people(n int) string {
	if n == 1 {
		return "1 person"
	}
	return strconv.Itoa(n) + " people"
}

func startText(d string) string {
	if d == "" {
		return "not given"
	}
	t, err := time.Parse(time.DateOnly, d)
	if err != nil {
		return d
	}
	return t.Format("Monday, January 2, 2006")
}

const columns = `id, name, email, company, team_size, message, preferred_start, status, note, created_at, updated_at`

func scan(row interface{ Scan(...any) error }) (*Inquiry, error) {
	var (
		q        Inquiry
		cre, upd store.Time
	)
	if err := row.Scan(&q.ID, &q.Name, &q.Email, &q.Company, &q.TeamSize, &q.Message, &q.PreferredStart,
		&q.Status, &q.Note, &cre, &upd); err != nil {
		return nil, err
	}
	q.CreatedAt, q.UpdatedAt = cre.Time, upd.Time
	return &q, nil
}

// Get returns one inquiry.
func (s *Service) Get(ctx context.Context, id string) (*Inquiry, error) {
	q, err := scan(s.db.Read.QueryRowContext(ctx, `SELECT `+columns+` FROM inquiries WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errs.New(errs.NotFound, "There is no such inquiry.")
	}
	if err != nil {
		return nil, fmt.Errorf("read inquiry %s: %w", id, err)
	}
	return q, nil
}

// List returns inquiries newest first, all of them or those with status.
func (s *Service) List(ctx context.Context, status string) ([]*Inquiry, error) {
	q, args := `SELECT `+columns+` FROM inquiries`, []any{}
	if status != "" {
		if !validStatus(status) {
			return nil, errs.Field("status", "Status must be new, replied, won or lost.")
		}
		q += ` WHERE status = $1`
		args = append(args, status)
	}
	rows, err := s.db.Read.QueryContext(ctx, q+` ORDER BY created_at DESC, id LIMIT 500`, args...)
	if err != nil {
		return nil, fmt.Errorf("list inquiries: %w", err)
	}
	defer func() { _ = rows.Close() }()
	out := []*Inquiry{}
	for rows.Next() {
		q, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("list inquiries: %w", err)
		}
		out = append(out, q)
	}
	return out, rows.Err()
}

func validStatus(s string) bool {
	for _, v := range Statuses {
		if s == v {
			return true
		}
	}
	return false
}

// Update applies the owner's change of status or note.
func (s *Service) Update(ctx context.Context, p Patch) (*Inquiry, error) {
	if strings.TrimSpace(p.ID) == "" {
		return nil, errs.Field("id", "Name the inquiry to change.")
	}
	if p.Status == nil && p.Note == nil {
		return nil, errs.Field("status", "Send a status, a note, or both.")
	}
	if p.Status != nil && !validStatus(*p.Status) {
		return nil, errs.Field("status", "Status must be new, replied, won or lost.")
	}
	if p.Note != nil {
		n := strings.TrimSpace(*p.Note)
		switch {
		case !paragraphs(n):
			return nil, errs.Field("note", "The note contains characters that cannot be stored.")
		case utf8.RuneCountInString(n) > MaxNote:
			return nil, errs.Field("note", fmt.Sprintf("The note must be at most %d characters.", MaxNote))
		}
		p.Note = &n
	}
	cur, err := s.Get(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	status, note := cur.Status, cur.Note
	if p.Status != nil {
		status = *p.Status
	}
	if p.Note != nil {
		note = *p.Note
	}
	if _, err := s.db.Write.ExecContext(ctx, `UPDATE inquiries SET status = $1, note = $2, updated_at = $3 WHERE id = $4`,
		status, note, store.At(s.now()), p.ID); err != nil {
		return nil, fmt.Errorf("update inquiry: %w", err)
	}
	return s.Get(ctx, p.ID)
}
