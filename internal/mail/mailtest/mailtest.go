// Package mailtest runs a real SMTP server inside a test, so code that sends
// mail is tested end to end through the outbox, the worker and go-mail.
//
// Typical use:
//
//	srv := mailtest.Start(t, mailtest.WithSTARTTLS(), mailtest.WithAuth("user", "secret"))
//	sender, _ := mail.NewSMTPSender(srv.URL(), "hello@example.com", mail.WithTLSConfig(srv.ClientTLSConfig()))
//	w := mail.NewWorker(db, sender, logger, mail.WorkerOptions{})
//	... enqueue, then w.Drain(ctx) or run w.Run in a goroutine ...
//	got := srv.WaitFor(t, 1, 5*time.Second)
//	// got[0].Subject, got[0].Text, got[0].HTML, got[0].MessageID ...
//
// The server listens on 127.0.0.1 on a free port and closes when the test ends.
// With WithSTARTTLS or WithImplicitTLS it uses a self-signed certificate made
// for the test; ClientTLSConfig trusts exactly that certificate.
package mailtest

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math/big"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/textproto"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Received is one message the server accepted, parsed.
type Received struct {
	EnvelopeFrom string   // MAIL FROM
	Recipients   []string // RCPT TO
	From         string   // From header, decoded, e.g. `"rUv" <hello@example.com>` becomes "rUv <hello@example.com>"
	FromAddress  string   // the address in the From header
	FromName     string   // the display name in the From header
	To           string   // To header, decoded
	Subject      string   // Subject header, decoded
	MessageID    string   // Message-ID header, with angle brackets
	Date         string   // Date header
	ContentType  string   // top-level media type, e.g. multipart/alternative
	Text         string   // the text/plain part, decoded, line breaks as \n
	HTML         string   // the text/html part, decoded; empty without one
	Attachments  []Part   // every other part (attachments, calendar parts), decoded
	TLS          bool     // the session was encrypted (STARTTLS or implicit TLS)
	AuthUser     string   // the user that authenticated, if any
	Raw          []byte   // the message as sent
}

// Part is one part of a message that is neither its text nor its HTML.
type Part struct {
	ContentType string // the full Content-Type header, parameters included
	Filename    string // from Content-Disposition, else the Content-Type name
	Data        []byte // decoded
}

// Option configures Start.
type Option func(*Server)

// WithAuth requires SMTP AUTH PLAIN with this user and password before mail
// is accepted; URL then carries them.
func WithAuth(user, password string) Option {
	return func(s *Server) { s.user, s.pass = user, password }
}

// WithSTARTTLS offers STARTTLS with a self-signed certificate; URL is smtp://.
func WithSTARTTLS() Option { return func(s *Server) { s.mode = "starttls" } }

// WithImplicitTLS speaks TLS from the first byte; URL is smtps://.
func WithImplicitTLS() Option { return func(s *Server) { s.mode = "implicit" } }

// Server is a running in-process SMTP server.
type Server struct {
	mode       string // "", "starttls" or "implicit"
	user, pass string
	addr       string
	roots      *x509.CertPool
	srv        *smtp.Server

	mu       sync.Mutex
	msgs     []Received
	failNext int
	failed   int
	changed  chan struct{} // closed and replaced whenever msgs changes
}

// Start runs a server for the rest of the test.
func Start(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s := &Server{changed: make(chan struct{})}
	for _, o := range opts {
		o(s)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("mailtest: listen: %v", err)
	}
	s.addr = ln.Addr().String()
	s.srv = smtp.NewServer(s)
	s.srv.Domain = "mailtest.localhost"
	s.srv.ReadTimeout = 10 * time.Second
	s.srv.WriteTimeout = 10 * time.Second
	s.srv.MaxMessageBytes = 10 << 20
	if s.mode != "" {
		cert, roots, err := selfSigned()
		if err != nil {
			_ = ln.Close()
			t.Fatalf("mailtest: certificate: %v", err)
		}
		s.roots = roots
		cfg := &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
		if s.mode == "starttls" {
			s.srv.TLSConfig = cfg
		} else {
			ln = tls.NewListener(ln, cfg)
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = s.srv.Serve(ln)
	}()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.srv.Shutdown(ctx); err != nil {
			_ = s.srv.Close()
		}
		<-done
	})
	return s
}

// Addr is the host:port the server listens on.
func (s *Server) Addr() string { return s.addr }

// URL is an SMTP_URL for this server, with the user and password of WithAuth.
func (s *Server) URL() string {
	u := url.URL{Scheme: "smtp", Host: s.addr}
	if s.mode == "implicit" {
		u.Scheme = "smtps"
	}
	if s.user != "" {
		u.User = url.UserPassword(s.user, s.pass)
	}
	return u.String()
}

// ClientTLSConfig trusts the server's self-signed certificate (nil without
// TLS). Pass it to mail.WithTLSConfig.
func (s *Server) ClientTLSConfig() *tls.Config {
	if s.roots == nil {
		return nil
	}
	return &tls.Config{RootCAs: s.roots, MinVersion: tls.VersionTLS12}
}

// FailNext makes the next n messages fail at the end of DATA with a temporary
// 451 error, as a busy or broken relay would.
func (s *Server) FailNext(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failNext = n
}

// Failed is how many messages were refused because of FailNext.
func (s *Server) Failed() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failed
}

// Messages returns the messages accepted so far, in arrival order.
func (s *Server) Messages() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.msgs...)
}

// WaitFor waits until at least n messages have arrived and returns them; the
// test fails if they do not arrive within timeout.
func (s *Server) WaitFor(t testing.TB, n int, timeout time.Duration) []Received {
	t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		got, changed := len(s.msgs), s.changed
		s.mu.Unlock()
		if got >= n {
			return s.Messages()
		}
		select {
		case <-changed:
		case <-deadline.C:
			t.Fatalf("mailtest: %d of %d messages arrived within %s", got, n, timeout)
			return nil
		}
	}
}

// NewSession implements smtp.Backend.
func (s *Server) NewSession(c *smtp.Conn) (smtp.Session, error) {
	return &session{srv: s, conn: c}, nil
}

// session is one SMTP connection; it implements smtp.AuthSession.
type session struct {
	srv      *Server
	conn     *smtp.Conn
	authUser string
	from     string
	rcpts    []string
}

func (ss *session) AuthMechanisms() []string {
	if ss.srv.user == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (ss *session) Auth(mech string) (sasl.Server, error) {
	if mech != sasl.Plain {
		return nil, smtp.ErrAuthUnknownMechanism
	}
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != ss.srv.user || pass != ss.srv.pass {
			return smtp.ErrAuthFailed
		}
		ss.authUser = user
		return nil
	}), nil
}

func (ss *session) Mail(from string, _ *smtp.MailOptions) error {
	if ss.srv.user != "" && ss.authUser == "" {
		return smtp.ErrAuthRequired
	}
	ss.from = from
	return nil
}

func (ss *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.rcpts = append(ss.rcpts, to)
	return nil
}

func (ss *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	_, isTLS := ss.conn.TLSConnectionState()
	s := ss.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failNext > 0 {
		s.failNext--
		s.failed++
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "mailtest: temporary failure, try again later"}
	}
	m, err := parse(raw)
	if err != nil {
		return &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 6, 0}, Message: "mailtest: " + err.Error()}
	}
	m.EnvelopeFrom, m.Recipients, m.TLS, m.AuthUser = ss.from, append([]string(nil), ss.rcpts...), isTLS, ss.authUser
	s.msgs = append(s.msgs, m)
	close(s.changed)
	s.changed = make(chan struct{})
	return nil
}

func (ss *session) Reset() { ss.from, ss.rcpts = "", nil }

func (ss *session) Logout() error { return nil }

var wordDecoder = new(mime.WordDecoder)

func parse(raw []byte) (Received, error) {
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return Received{}, fmt.Errorf("read message: %w", err)
	}
	h := msg.Header
	m := Received{Raw: raw, MessageID: h.Get("Message-Id"), Date: h.Get("Date")}
	if m.Subject, err = wordDecoder.DecodeHeader(h.Get("Subject")); err != nil {
		return Received{}, fmt.Errorf("subject: %w", err)
	}
	if m.To, err = wordDecoder.DecodeHeader(h.Get("To")); err != nil {
		return Received{}, fmt.Errorf("to: %w", err)
	}
	from, err := mail.ParseAddress(h.Get("From"))
	if err != nil {
		return Received{}, fmt.Errorf("from: %w", err)
	}
	m.FromName, m.FromAddress = from.Name, from.Address
	m.From = from.Address
	if from.Name != "" {
		m.From = from.Name + " <" + from.Address + ">"
	}
	ct := h.Get("Content-Type")
	if ct == "" {
		ct = "text/plain"
	}
	err = walk(ct, h.Get("Content-Transfer-Encoding"), msg.Body, &m, true)
	return m, err
}

// walk stores the text/plain and text/html parts of body into m.
func walk(contentType, encoding string, body io.Reader, m *Received, top bool) error {
	media, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return fmt.Errorf("content type %q: %w", contentType, err)
	}
	if top {
		m.ContentType = media
	}
	if strings.HasPrefix(media, "multipart/") {
		mr := multipart.NewReader(body, params["boundary"])
		for {
			p, err := mr.NextRawPart()
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return fmt.Errorf("multipart: %w", err)
			}
			if err := walkPart(p.Header, p, m); err != nil {
				return err
			}
		}
	}
	switch strings.ToLower(encoding) {
	case "quoted-printable":
		body = quotedprintable.NewReader(body)
	case "base64":
		body = base64.NewDecoder(base64.StdEncoding, &lineJoiner{r: body})
	}
	b, err := io.ReadAll(body)
	if err != nil {
		return fmt.Errorf("%s body: %w", media, err)
	}
	text := strings.ReplaceAll(string(b), "\r\n", "\n")
	if top {
		// The line break that ends a single-part message belongs to the
		// SMTP framing, not to the text.
		text = strings.TrimSuffix(text, "\n")
	}
	switch media {
	case "text/plain":
		m.Text = text
	case "text/html":
		m.HTML = text
	}
	return nil
}

// walkPart reads one part of a multipart body: an attachment, or any part
// other than text and HTML, is kept whole; the rest is walked.
func walkPart(h textproto.MIMEHeader, body io.Reader, m *Received) error {
	ct := h.Get("Content-Type")
	media, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return fmt.Errorf("content type %q: %w", ct, err)
	}
	disp, dparams, _ := mime.ParseMediaType(h.Get("Content-Disposition"))
	if disp != "attachment" && (strings.HasPrefix(media, "multipart/") || media == "text/plain" || media == "text/html") {
		return walk(ct, h.Get("Content-Transfer-Encoding"), body, m, false)
	}
	switch strings.ToLower(h.Get("Content-Transfer-Encoding")) {
	case "quoted-printable":
		body = quotedprintable.NewReader(body)
	case "base64":
		body = base64.NewDecoder(base64.StdEncoding, &lineJoiner{r: body})
	}
	b, err := io.ReadAll(body)
	if err != nil {
		return fmt.Errorf("%s part: %w", media, err)
	}
	name := dparams["filename"]
	if name == "" {
		name = params["name"]
	}
	m.Attachments = append(m.Attachments, Part{ContentType: ct, Filename: name, Data: b})
	return nil
}

// lineJoiner drops line breaks so base64 bodies split into lines decode.
type lineJoiner struct{ r io.Reader }

func (l *lineJoiner) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	out := 0
	for _, c := range p[:n] {
		if c != '\r' && c != '\n' {
			p[out] = c
			out++
		}
	}
	return out, err
}

// selfSigned makes a short-lived certificate for 127.0.0.1, ::1 and localhost,
// and a pool that trusts it.
func selfSigned() (tls.Certificate, *x509.CertPool, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	serial, err := rand.Int(rand.Reader, big.NewInt(1<<62))
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "mailtest"},
		NotBefore:             time.Now().Add(-time.Minute),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
		DNSNames:              []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool, nil
}
