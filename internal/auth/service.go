package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"tribe/internal/errs"
	"tribe/internal/mailaddr"
	"tribe/internal/store"
)

// Lifetimes of sessions and mailed links.
const (
	// SessionTTL is how long a session lives after its last use.
	SessionTTL = 30 * 24 * time.Hour
	// RenewEvery is how often a session in use is extended; renewing on every
	// request would turn every read into a write.
	RenewEvery = 5 * time.Minute
	// ConfirmTTL is how long an address-confirmation link works.
	ConfirmTTL = 24 * time.Hour
	// ResetTTL is how long a password-reset link works.
	ResetTTL = time.Hour
	// ResetFloor is the least time a reset request takes, whether or not the
	// address has an account; the real work stays well below it.
	ResetFloor = 250 * time.Millisecond
)

// Input limits, checked on the server.
const (
	MinPasswordLen = 8
	MaxPasswordLen = 1024
	MaxFullNameLen = 120
	MaxEmailLen    = 254
)

// Errors callers tell apart; each carries the message a person reads.
var (
	// ErrEmailTaken: sign-up with an address that already has an account.
	ErrEmailTaken = errs.New(errs.EmailTaken, "An account with this e-mail already exists. Sign in or reset your password.")
	// ErrInvalidCredentials: unknown address or wrong password (never said which).
	ErrInvalidCredentials = errs.New(errs.InvalidCredentials, "Invalid login credentials")
	// ErrInvalidToken: a mailed link that does not exist, was used or expired.
	ErrInvalidToken = errs.New(errs.InvalidToken, "This password reset link is invalid or has expired. Request a new one.")
	// ErrTokenUsed: a confirmation link that was already used.
	ErrTokenUsed = errs.New(errs.InvalidToken, "This confirmation link has already been used.")
	// ErrTokenExpired: a confirmation link past its lifetime.
	ErrTokenExpired = errs.New(errs.InvalidToken, "This confirmation link has expired.")
	// ErrNoSuchUser: an operator named an address that has no account.
	ErrNoSuchUser = errs.New(errs.NotFound, "no account with this e-mail address")
)

// Config is what the account rules need from the site configuration.
type Config struct {
	// BaseURL starts every mailed link, without a trailing slash.
	BaseURL string
	// AdminEmails are addresses that are admins once confirmed; each
	// matches only its own normalised form (mailaddr).
	AdminEmails []string
	// AdminDomain makes every confirmed address of exactly this domain (in
	// its IDNA ASCII form; no subdomain) an admin.
	AdminDomain string
}

// Service holds the account rules. It keeps no per-request state and is safe
// for concurrent use.
type Service struct {
	db     *store.DB
	cfg    Config
	now    func() time.Time
	params Params
	// dummyHash is verified when an address has no account, so a sign-in
	// costs the same hashing work either way.
	dummyHash string
	dummyOnce sync.Once
	// hashSlots bounds concurrent argon2 work (each takes Params.Memory).
	hashSlots chan struct{}
	// resetFloor is the least time RequestPasswordReset takes.
	resetFloor time.Duration
	// takeover clears a squatter's data when the owner takes an account
	// over (WithTakeover).
	takeover []TakeoverStep
}

// Option adjusts a Service.
type Option func(*Service)

// WithClock replaces time.Now, for tests of expiry and renewal.
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// WithResetFloor replaces ResetFloor.
func WithResetFloor(d time.Duration) Option { return func(s *Service) { s.resetFloor = d } }

// WithParams replaces DefaultParams.
func WithParams(p Params) Option { return func(s *Service) { s.params = p } }

// New returns the account service over db.
func New(db *store.DB, cfg Config, opts ...Option) *Service {
	s := &Service{db: db, cfg: cfg, now: time.Now, params: DefaultParams, resetFloor: ResetFloor}
	for _, o := range opts {
		o(s)
	}
	// Configuration names admins by their exact normalised form; an entry
	// that is not an address or a domain (config refuses those at start)
	// matches nobody.
	s.cfg.AdminDomain = ""
	if d := strings.TrimPrefix(strings.TrimSpace(cfg.AdminDomain), "@"); d != "" {
		if ascii, err := mailaddr.Domain(d); err == nil {
			s.cfg.AdminDomain = ascii
		}
	}
	emails := make([]string, 0, len(cfg.AdminEmails))
	for _, e := range cfg.AdminEmails {
		if key, ok := mailaddr.Key(e); ok {
			emails = append(emails, key)
		}
	}
	s.cfg.AdminEmails = emails
	s.hashSlots = make(chan struct{}, max(2, runtime.GOMAXPROCS(0)))
	return s
}

// dummy returns the hash verified for addresses without an account, made
// once with the service's parameters so it costs what a real one costs.
func (s *Service) dummy() string {
	s.dummyOnce.Do(func() {
		// HashPassword fails only if crypto/rand does, which it never does.
		h, _ := HashPassword("not a password: it equalises sign-in timing", s.params)
		s.dummyHash = h
	})
	return s.dummyHash
}

// clock is the current instant as stored.
func (s *Service) clock() store.Time { return store.At(s.now()) }

func (s *Service) hash(ctx context.Context, password string) (string, error) {
	if err := s.acquire(ctx); err != nil {
		return "", err
	}
	defer s.release()
	return HashPassword(password, s.params)
}

func (s *Service) verify(ctx context.Context, password, encoded string) (bool, error) {
	if err := s.acquire(ctx); err != nil {
		return false, err
	}
	defer s.release()
	return VerifyPassword(password, encoded)
}

func (s *Service) acquire(ctx context.Context) error {
	select {
	case s.hashSlots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("wait for password hashing: %w", ctx.Err())
	}
}

func (s *Service) release() { <-s.hashSlots }

// NormalizeEmail is the form an address is compared in (mailaddr's key),
// for keys such as rate limits'. Input that is not an address mailaddr
// accepts comes back trimmed but otherwise as typed (never case-folded);
// account lookups refuse such input with CheckEmail first.
func NormalizeEmail(email string) string {
	if key, ok := mailaddr.Key(email); ok {
		return key
	}
	return strings.TrimSpace(email)
}

// CheckEmail validates an address typed by a person and returns it in the
// one form the site keeps (mailaddr: an ASCII local part, the domain in its
// IDNA ASCII form); a refusal is an invalid error about the field "email".
func CheckEmail(email string) (mailaddr.Address, error) {
	a, err := mailaddr.Parse(email)
	if err != nil {
		return mailaddr.Address{}, errs.Field("email", err.Error())
	}
	return a, nil
}

// CheckFullName validates a full name and returns it trimmed.
func CheckFullName(name string) (string, error) {
	return CheckName("full_name", "Full name", MaxFullNameLen, name)
}

// CheckPassword validates a new password.
func CheckPassword(password string) error {
	n := utf8.RuneCountInString(password)
	if n < MinPasswordLen {
		return errs.Field("password", fmt.Sprintf("Password must be at least %d characters.", MinPasswordLen))
	}
	if n > MaxPasswordLen || len(password) > 4*MaxPasswordLen {
		return errs.Field("password", fmt.Sprintf("Password must be at most %d characters.", MaxPasswordLen))
	}
	return nil
}

// newToken returns a random opaque token and the hash that is stored.
func newToken() (token, hash string) {
	var b [32]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	token = base64.RawURLEncoding.EncodeToString(b[:])
	return token, HashToken(token)
}

// HashToken is how session and link tokens are stored: lowercase hex of
// their SHA-256. The tokens are 256 random bits, so no slow hash is needed.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// isAdmin decides admin rights: a confirmed address that configuration lists,
// whose domain is the admin domain, or that an operator granted.
func (s *Service) isAdmin(emailNormalized string, confirmed, granted bool) bool {
	if !confirmed {
		return false
	}
	if granted {
		return true
	}
	for _, e := range s.cfg.AdminEmails {
		if e == emailNormalized {
			return true
		}
	}
	if s.cfg.AdminDomain != "" {
		if at := strings.LastIndexByte(emailNormalized, '@'); at >= 0 && emailNormalized[at+1:] == s.cfg.AdminDomain {
			return true
		}
	}
	return false
}
