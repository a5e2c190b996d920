package mail

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// SiteName is the display name outgoing mail carries in From when SMTP_FROM
// gives only an address, and the name Compose puts in every message.
const SiteName = "rUv"

// Outgoing is a queued message on its way out: the Message plus its outbox id
// and the time it was queued.
type Outgoing struct {
	ID        string
	CreatedAt time.Time
	Message
}

// Sender delivers one message. An error wrapped in *PermanentError means a
// retry cannot help; any other error is retried with backoff.
type Sender interface {
	Send(ctx context.Context, m Outgoing) error
}

// PermanentError marks a delivery failure that retrying cannot fix, such as a
// recipient the server refuses outright.
type PermanentError struct{ Err error }

func (e *PermanentError) Error() string { return "permanent: " + e.Err.Error() }

func (e *PermanentError) Unwrap() error { return e.Err }

// SMTPSender delivers through an SMTP server named by an SMTP_URL.
type SMTPSender struct {
	host        string
	port        int
	implicitTLS bool
	user, pass  string
	from        *mail.Address
	tlsConfig   *tls.Config
	timeout     time.Duration
}

// SMTPOption adjusts an SMTPSender.
type SMTPOption func(*SMTPSender)

// WithTLSConfig sets the TLS configuration used for STARTTLS and implicit TLS.
// Tests use it to trust a self-signed certificate; production keeps the
// system roots. An empty ServerName is filled with the SMTP host.
func WithTLSConfig(c *tls.Config) SMTPOption {
	return func(s *SMTPSender) { s.tlsConfig = c.Clone() }
}

// WithTimeout sets how long any single network step (dial, command, data) may
// take; the default is 20 seconds.
func WithTimeout(d time.Duration) SMTPOption {
	return func(s *SMTPSender) { s.timeout = d }
}

// NewSMTPSender parses smtpURL and from. smtp://host[:port] (default port 587)
// upgrades with STARTTLS whenever the server offers it; smtps://host[:port]
// (default 465) uses TLS from the first byte. user:password in the URL turns on
// SMTP AUTH with the strongest mechanism the server offers; PLAIN and LOGIN
// are only used over TLS, so a password never crosses the network in clear.
// from is SMTP_FROM; when it has no display name, SiteName is used.
func NewSMTPSender(smtpURL, from string, opts ...SMTPOption) (*SMTPSender, error) {
	u, err := url.Parse(smtpURL)
	if err != nil {
		return nil, fmt.Errorf("SMTP_URL is not a URL: %w", err)
	}
	s := &SMTPSender{host: u.Hostname(), timeout: 20 * time.Second}
	switch u.Scheme {
	case "smtp":
		s.port = gomail.DefaultPortTLS
	case "smtps":
		s.port, s.implicitTLS = gomail.DefaultPortSSL, true
	default:
		return nil, fmt.Errorf("SMTP_URL scheme %q: use smtp:// or smtps://", u.Scheme)
	}
	if s.host == "" {
		return nil, errors.New("SMTP_URL has no host")
	}
	if p := u.Port(); p != "" {
		if s.port, err = strconv.Atoi(p); err != nil || s.port < 1 || s.port > 65535 {
			return nil, fmt.Errorf("SMTP_URL port %q is not a port number", p)
		}
	}
	if u.User != nil {
		s.user = u.User.Username()
		s.pass, _ = u.User.Password()
	}
	if s.from, err = FromAddress(from); err != nil {
		return nil, err
	}
	for _, o := range opts {
		o(s)
	}
	if s.tlsConfig == nil {
		s.tlsConfig = &tls.Config{}
	}
	if s.tlsConfig.ServerName == "" {
		s.tlsConfig.ServerName = s.host
	}
	if s.tlsConfig.MinVersion == 0 {
		s.tlsConfig.MinVersion = tls.VersionTLS12
	}
	return s, nil
}

// FromAddress parses SMTP_FROM and gives it SiteName as display name when it
// has none.
func FromAddress(from string) (*mail.Address, error) {
	a, err := mail.ParseAddress(from)
	if err != nil {
		return nil, fmt.Errorf("SMTP_FROM %q is not an e-mail address: %w", from, err)
	}
	if a.Name == "" {
		a.Name = SiteName
	}
	return a, nil
}

// String describes the server without the password, for logs.
func (s *SMTPSender) String() string {
	mode := "smtp://%s:%d (STARTTLS when offered)%s"
	if s.implicitTLS {
		mode = "smtps://%s:%d (implicit TLS)%s"
	}
	auth := ""
	if s.user != "" {
		auth = " as " + s.user
	}
	return fmt.Sprintf(mode, s.host, s.port, auth)
}

// Send delivers m as one multipart/alternative message. Its Message-ID and
// Date derive from the outbox row, so a copy sent again after a crash is
// recognisably the same message.
func (s *SMTPSender) Send(ctx context.Context, m Outgoing) error {
	msg, err := s.build(m)
	if err != nil {
		return err
	}
	// The connection is dialled here rather than inside go-mail so that it is
	// always closed, also when the greeting, STARTTLS or AUTH fails, and so
	// that ctx ending aborts a send stuck anywhere in the dialogue. With
	// implicit TLS the handshake happens here too; go-mail then finds a TLS
	// connection, skips STARTTLS and treats the session as encrypted.
	var (
		conn    net.Conn
		unwatch func() bool
	)
	defer func() {
		if unwatch != nil {
			unwatch()
		}
		if conn != nil {
			_ = conn.Close()
		}
	}()
	dial := func(dctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(dctx, network, addr)
		if err != nil {
			return nil, err
		}
		conn = c
		unwatch = context.AfterFunc(ctx, func() { _ = c.Close() })
		if !s.implicitTLS {
			return c, nil
		}
		tc := tls.Client(c, s.tlsConfig)
		if err := tc.HandshakeContext(dctx); err != nil {
			return nil, fmt.Errorf("TLS handshake: %w", err)
		}
		return tc, nil
	}
	opts := []gomail.Option{
		gomail.WithPort(s.port),
		gomail.WithTimeout(s.timeout),
		gomail.WithTLSConfig(s.tlsConfig),
		gomail.WithTLSPolicy(gomail.TLSOpportunistic),
		gomail.WithDialContextFunc(dial),
	}
	if s.user != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(s.user), gomail.WithPassword(s.pass))
	}
	client, err := gomail.NewClient(s.host, opts...)
	if err != nil {
		return fmt.Errorf("smtp client for %s: %w", s, err)
	}
	err = client.DialAndSendWithContext(ctx, msg)
	if err == nil || msg.IsDelivered() {
		// A failure after the server accepted the data (RSET, QUIT) does not
		// undo the delivery; sending again would duplicate the message.
		return nil
	}
	err = fmt.Errorf("deliver through %s: %w", s, err)
	var se *gomail.SendError
	if errors.As(err, &se) && se.ErrorCode() >= 500 && se.ErrorCode() < 600 {
		switch se.Reason {
		case gomail.ErrSMTPRcptTo, gomail.ErrSMTPData, gomail.ErrSMTPDataClose:
			return &PermanentError{Err: err}
		}
	}
	return err
}

func (s *SMTPSender) build(m Outgoing) (*gomail.Msg, error) {
	msg := gomail.NewMsg(gomail.WithNoDefaultUserAgent())
	msg.FromMailAddress(s.from)
	if err := msg.To(m.To); err != nil {
		return nil, &PermanentError{Err: fmt.Errorf("recipient %q: %w", m.To, err)}
	}
	msg.Subject(m.Subject)
	msg.SetMessageIDWithValue(MessageID(m.ID, s.from.Address))
	date := m.CreatedAt
	if date.IsZero() {
		date = time.Now()
	}
	msg.SetDateWithValue(date)
	if m.ListUnsubscribe != "" {
		// RFC 8058: the client POSTs "List-Unsubscribe=One-Click" to the URL.
		msg.SetGenHeader(gomail.HeaderListUnsubscribe, "<"+m.ListUnsubscribe+">")
		msg.SetGenHeader(gomail.HeaderListUnsubscribePost, "List-Unsubscribe=One-Click")
	}
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	if m.HTML != "" {
		msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	}
	for _, a := range m.Attachments {
		err := msg.AttachReader(a.Filename, bytes.NewReader(a.Data),
			gomail.WithFileContentType(gomail.ContentType(a.ContentType)), gomail.WithFileEncoding(gomail.EncodingB64))
		if err != nil {
			return nil, &PermanentError{Err: fmt.Errorf("attach %s: %w", a.Filename, err)}
		}
	}
	return msg, nil
}

// MessageID is the Message-ID (without angle brackets) of the outbox message
// id sent from the address from: stable across re-sends.
func MessageID(id, from string) string {
	domain := "localhost"
	if at := strings.LastIndexByte(from, '@'); at >= 0 && at < len(from)-1 {
		domain = from[at+1:]
	}
	return id + "@" + domain
}

// LogSender is the development sender used without SMTP_URL: it writes each
// message to the log instead of delivering it, and the outbox rows it leaves
// are the development mailbox.
type LogSender struct{ Logger *slog.Logger }

// Send logs the recipient, subject and text body.
func (l LogSender) Send(ctx context.Context, m Outgoing) error {
	l.Logger.LogAttrs(ctx, slog.LevelInfo, "mail not delivered (development mailbox)",
		slog.String("id", m.ID), slog.String("to", m.To), slog.String("subject", m.Subject),
		slog.String("text", m.Text))
	return nil
}

// String names the mode for the start-up log.
func (LogSender) String() string {
	return "none: development mailbox (messages are logged, not delivered)"
}

// NewSender returns the SMTP sender for smtpURL, or the development LogSender
// when smtpURL is empty.
func NewSender(smtpURL, from string, logger *slog.Logger) (Sender, error) {
	if smtpURL == "" {
		return LogSender{Logger: logger}, nil
	}
	return NewSMTPSender(smtpURL, from)
}
