// Package push sends Web Push notifications to members' browsers: the
// site's VAPID key pair (RFC 8292), made once and kept in the database, the
// browsers' subscriptions (at most MaxPerMember per member), and the
// sending itself, encrypted as RFC 8291 aes128gcm by webpush-go. Push
// endpoints come from browsers, so from anyone: they are untrusted URLs,
// https only and never on a private, loopback or link-local address
// (internal/netguard), with a time and size cap on each request.
package push

import (
	"context"
	"crypto/ecdh"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	webpush "github.com/SherClockHolmes/webpush-go"

	"tribe/internal/clock"
	"tribe/internal/errs"
	"tribe/internal/netguard"
	"tribe/internal/store"
)

// Limits of push.
const (
	// MaxPerMember is how many browsers one member may turn push on in.
	MaxPerMember = 10
	// maxEndpoint bounds an endpoint URL (the push services' are ~200-500).
	maxEndpoint = 1000
	// sendTimeout bounds one request to a push service.
	sendTimeout = 10 * time.Second
	// maxPayload bounds the JSON a browser receives, well inside the 4,096
	// bytes of one aes128gcm record.
	maxPayload = 3000
	// ttl is how long a push service keeps a message for a browser that is
	// offline: a day, after which the notification centre has it anyway.
	ttl = 24 * 60 * 60
)

// Urgency of a message (RFC 8030 section 5.3).
const (
	UrgencyLow    = "low"
	UrgencyNormal = "normal"
	UrgencyHigh   = "high"
)

// Message is what a member's browsers show.
type Message struct {
	Title, Body string
	// Link is a path on the site opened when the notification is clicked.
	Link string
	// Tag groups notifications in the browser (a newer one replaces an
	// older one with the same tag) and collapses pending ones at the push
	// service (its Topic).
	Tag     string
	Urgency string
}

// Service keeps the key pair and the subscriptions and sends pushes. Build
// one per process with New.
type Service struct {
	db           *store.DB
	now          clock.Clock
	logger       *slog.Logger
	allowPrivate bool
	subscriber   string
	client       *http.Client

	keyMu sync.Mutex
	keys  *keyPair
}

type keyPair struct{ private, public string }

// Options shape New.
type Options struct {
	// AllowPrivate lets endpoints be plain http on private and loopback
	// hosts (TRIBE_PUSH_ALLOW_PRIVATE): tests and local development only.
	AllowPrivate bool
	// Contact is the site's contact in the VAPID claim (an https URL or a
	// mail address), so a push service can reach the operator.
	Contact string
	Clock   clock.Clock
	Logger  *slog.Logger
}

// New builds the service over db.
func New(db *store.DB, o Options) *Service {
	s := &Service{db: db, now: o.Clock, logger: o.Logger, allowPrivate: o.AllowPrivate, subscriber: o.Contact}
	if s.now == nil {
		s.now = time.Now
	}
	if s.logger == nil {
		s.logger = slog.Default()
	}
	if s.subscriber == "" {
		s.subscriber = "push@localhost"
	}
	s.client = netguard.Client(netguard.ClientOptions{AllowPrivate: o.AllowPrivate, Timeout: sendTimeout})
	return s
}

// keyPairOf reads the VAPID key pair, making it on first use (whichever
// instance comes first; the others read the one it wrote).
func (s *Service) keyPairOf(ctx context.Context) (keyPair, error) {
	s.keyMu.Lock()
	defer s.keyMu.Unlock()
	if s.keys != nil {
		return *s.keys, nil
	}
	var k keyPair
	err := s.db.Write.QueryRowContext(ctx, `SELECT private_key, public_key FROM push_keys WHERE id = 1`).Scan(&k.private, &k.public)
	if errors.Is(err, sql.ErrNoRows) {
		priv, pub, gerr := webpush.GenerateVAPIDKeys()
		if gerr != nil {
			return keyPair{}, fmt.Errorf("make push keys: %w", gerr)
		}
		if _, err := s.db.Write.ExecContext(ctx, `INSERT INTO push_keys (id, private_key, public_key) VALUES (1, $1, $2)
			ON CONFLICT (id) DO NOTHING`, priv, pub); err != nil {
			return keyPair{}, fmt.Errorf("store push keys: %w", err)
		}
		err = s.db.Write.QueryRowContext(ctx, `SELECT private_key, public_key FROM push_keys WHERE id = 1`).Scan(&k.private, &k.public)
	}
	if err != nil {
		return keyPair{}, fmt.Errorf("read push keys: %w", err)
	}
	s.keys = &k
	return k, nil
}

// PublicKey is the site's VAPID public key: the uncompressed P-256 point,
// base64url without padding, as PushManager.subscribe takes it.
func (s *Service) PublicKey(ctx context.Context) (string, error) {
	k, err := s.keyPairOf(ctx)
	return k.public, err
}

var b64 = base64.RawURLEncoding

// decodeKey reads a subscription key in base64url, with or without
// padding (browsers give it without; some libraries add it).
func decodeKey(s string) ([]byte, error) {
	return b64.DecodeString(strings.TrimRight(s, "="))
}

// CheckEndpoint reports whether raw is an endpoint the server will send
// to, and returns it cleaned: one https URL without credentials, on a
// public host (http and private hosts only when allowed).
func (s *Service) CheckEndpoint(raw string) (string, error) {
	bad := func(msg string) (string, error) { return "", errs.Field("endpoint", msg) }
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return bad("Give the push subscription's endpoint.")
	}
	if len(raw) > maxEndpoint || !utf8.ValidString(raw) || strings.ContainsAny(raw, " \t\r\n\\") {
		return bad(fmt.Sprintf("A push endpoint is one https link of at most %d characters.", maxEndpoint))
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Hostname() == "" || u.User != nil || u.Opaque != "" {
		return bad("A push endpoint is one https link from the browser's push service.")
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "https" && (!s.allowPrivate || u.Scheme != "http") {
		return bad("A push endpoint must start with https://.")
	}
	if !s.allowPrivate && netguard.LocalHost(u) {
		return bad("That push endpoint leads to a private or local network; the server sends only to public push services.")
	}
	u.Fragment = ""
	return u.String(), nil
}

// SubscriptionInput is POST /api/push/subscriptions: the browser's
// PushSubscription as its toJSON() gives it.
type SubscriptionInput struct {
	Endpoint string `json:"endpoint"`
	Keys     struct {
		P256dh string `json:"p256dh"`
		Auth   string `json:"auth"`
	} `json:"keys"`
}

// Subscribe records a browser's subscription for userID. An endpoint
// already known moves to userID (the browser now belongs to whoever signed
// in on it) with its new keys.
func (s *Service) Subscribe(ctx context.Context, userID string, in SubscriptionInput) error {
	endpoint, err := s.CheckEndpoint(in.Endpoint)
	if err != nil {
		return err
	}
	p256, err := decodeKey(in.Keys.P256dh)
	if err != nil || len(p256) != 65 {
		return errs.Field("keys.p256dh", "keys.p256dh must be the browser's P-256 public key (65 bytes, base64url).")
	}
	if _, err := ecdh.P256().NewPublicKey(p256); err != nil {
		return errs.Field("keys.p256dh", "keys.p256dh is not a point on the P-256 curve.")
	}
	auth, err := decodeKey(in.Keys.Auth)
	if err != nil || len(auth) != 16 {
		return errs.Field("keys.auth", "keys.auth must be the browser's 16-byte authentication secret, base64url.")
	}
	now := store.At(s.now())
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		// Counting under the member's lock: on PostgreSQL a row lock on
		// the account; SQLite's write transaction is already exclusive.
		if s.db.Dialect == store.Postgres {
			if _, err := tx.ExecContext(ctx, `SELECT 1 FROM users WHERE id = $1 FOR UPDATE`, userID); err != nil {
				return fmt.Errorf("lock member: %w", err)
			}
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM push_subscriptions WHERE user_id = $1 AND endpoint <> $2`,
			userID, endpoint).Scan(&n); err != nil {
			return fmt.Errorf("count push subscriptions: %w", err)
		}
		if n >= MaxPerMember {
			return errs.New(errs.Conflict, fmt.Sprintf("Push is on in %d browsers already, the most there can be. Turn it off in one you no longer use first.", MaxPerMember))
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, created_at)
			VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth`,
			store.NewID(), userID, endpoint, b64.EncodeToString(p256), b64.EncodeToString(auth), now)
		if err != nil {
			return fmt.Errorf("save push subscription: %w", err)
		}
		return nil
	})
}

// Unsubscribe forgets userID's subscription at endpoint; another member's
// is left alone. Reports whether one was removed.
func (s *Service) Unsubscribe(ctx context.Context, userID, endpoint string) (bool, error) {
	if strings.TrimSpace(endpoint) == "" || len(endpoint) > maxEndpoint {
		return false, errs.Field("endpoint", "Give the push subscription's endpoint.")
	}
	res, err := s.db.Write.ExecContext(ctx, `DELETE FROM push_subscriptions WHERE user_id = $1 AND endpoint = $2`, userID, strings.TrimSpace(endpoint))
	if err != nil {
		return false, fmt.Errorf("remove push subscription: %w", err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// Count is how many browsers userID turned push on in.
func (s *Service) Count(ctx context.Context, userID string) (int, error) {
	var n int
	err := s.db.ReadRow(ctx, `SELECT COUNT(*) FROM push_subscriptions WHERE user_id = $1`, userID).Scan(&n)
	return n, err
}

// Result is what one Send did.
type Result struct {
	// Sent is how many browsers' push services accepted the message.
	Sent int
	// Removed is how many subscriptions were gone (404 or 410) and deleted.
	Removed int
	// Failed is how many could not take it now (network, 429, 5xx): worth
	// another try later.
	Failed int
}

type subscription struct{ id, endpoint, p256dh, auth string }

// Send pushes m to every browser of userID. A push service that answers
// 404 or 410 says the subscription is gone: it is deleted. Other failures
// are counted, not returned; only the database failing is an error.
func (s *Service) Send(ctx context.Context, userID string, m Message) (Result, error) {
	var res Result
	keys, err := s.keyPairOf(ctx)
	if err != nil {
		return res, err
	}
	rows, err := s.db.ReadRows(ctx, `SELECT id, endpoint, p256dh, auth FROM push_subscriptions WHERE user_id = $1 ORDER BY created_at`, userID)
	if err != nil {
		return res, fmt.Errorf("read push subscriptions: %w", err)
	}
	var subs []subscription
	for rows.Next() {
		var sub subscription
		if err := rows.Scan(&sub.id, &sub.endpoint, &sub.p256dh, &sub.auth); err != nil {
			_ = rows.Close()
			return res, fmt.Errorf("read push subscriptions: %w", err)
		}
		subs = append(subs, sub)
	}
	if err := rows.Close(); err != nil {
		return res, fmt.Errorf("read push subscriptions: %w", err)
	}
	payload := encodePayload(m)
	urgency := webpush.Urgency(m.Urgency)
	if m.Urgency == "" {
		urgency = webpush.UrgencyNormal
	}
	for _, sub := range subs {
		status, err := s.sendOne(ctx, sub, payload, keys, urgency, topic(m.Tag))
		switch {
		case err != nil:
			s.logger.Warn("push not delivered", "subscription", sub.id, "err", err)
			res.Failed++
		case status == http.StatusNotFound || status == http.StatusGone:
			if _, err := s.db.Write.ExecContext(ctx, `DELETE FROM push_subscriptions WHERE id = $1`, sub.id); err != nil {
				return res, fmt.Errorf("remove gone push subscription: %w", err)
			}
			res.Removed++
		case status >= 200 && status < 300:
			res.Sent++
		case status == http.StatusTooManyRequests || status >= 500:
			res.Failed++
		default:
			// 400, 403, 413: this message or our key will not do for this
			// service; retrying the same would fail the same way.
			s.logger.Warn("push refused", "subscription", sub.id, "status", status)
		}
	}
	return res, nil
}

func (s *Service) sendOne(ctx context.Context, sub subscription, payload []byte, keys keyPair, urgency webpush.Urgency, topic string) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, sendTimeout)
	defer cancel()
	resp, err := webpush.SendNotificationWithContext(ctx, payload, &webpush.Subscription{
		Endpoint: sub.endpoint, Keys: webpush.Keys{P256dh: sub.p256dh, Auth: sub.auth},
	}, &webpush.Options{
		HTTPClient: s.client, Subscriber: s.subscriber, TTL: ttl, Urgency: urgency, Topic: topic,
		VAPIDPublicKey: keys.public, VAPIDPrivateKey: keys.private, VapidExpiration: s.now().Add(12 * time.Hour),
	})
	if err != nil {
		return 0, err
	}
	defer func() { _ = resp.Body.Close() }()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
	return resp.StatusCode, nil
}

// payload is the JSON the service worker reads (web/public/sw.js).
type payload struct {
	Title string `json:"title"`
	Body  string `json:"body"`
	Link  string `json:"link"`
	Tag   string `json:"tag,omitempty"`
}

// encodePayload writes m as JSON within maxPayload, shortening the body
// (then the title) when it would not fit.
func encodePayload(m Message) []byte {
	p := payload{Title: m.Title, Body: m.Body, Link: m.Link, Tag: m.Tag}
	for {
		b, _ := json.Marshal(p)
		if len(b) <= maxPayload {
			return b
		}
		switch {
		case p.Body != "":
			p.Body = cut(p.Body, len(p.Body)/2)
		case p.Title != "":
			p.Title = cut(p.Title, len(p.Title)/2)
		default:
			p.Link = "/members"
		}
	}
}

// cut shortens s to at most n bytes on a rune boundary.
func cut(s string, n int) string {
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// topic turns a tag into a Topic header value (RFC 8030 section 5.4: at
// most 32 characters of the URL-safe base64 alphabet): its hash.
func topic(tag string) string {
	if tag == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(tag))
	return b64.EncodeToString(sum[:24])
}
