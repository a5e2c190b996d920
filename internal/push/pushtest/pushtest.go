// Package pushtest plays a browser's push service in tests: a local HTTP
// server that checks each request's VAPID signature (RFC 8292) and decrypts
// its aes128gcm payload (RFC 8291) with the browser's own private key,
// written here with the standard library alone, so a test proves what the
// member's browser would read.
package pushtest

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

var b64 = base64.RawURLEncoding

// Browser is one browser's push subscription keys.
type Browser struct {
	Key  *ecdh.PrivateKey
	Auth []byte
	// Endpoint is its URL at the Server.
	Endpoint string
}

// P256dh and AuthKey are the keys as PushSubscription.toJSON gives them.
func (b *Browser) P256dh() string  { return b64.EncodeToString(b.Key.PublicKey().Bytes()) }
func (b *Browser) AuthKey() string { return b64.EncodeToString(b.Auth) }

// Received is one push as the browser reads it.
type Received struct {
	Endpoint string
	// Payload is the decrypted message.
	Payload []byte
	TTL     string
	Urgency string
	Topic   string
	// VAPIDKey is the key the request was signed with (base64url).
	VAPIDKey string
}

// Message decodes the payload as the service worker does.
func (r Received) Message() (m struct{ Title, Body, Link, Tag string }) {
	_ = json.Unmarshal(r.Payload, &m)
	return m
}

// Server is the push service.
type Server struct {
	t   testing.TB
	srv *httptest.Server

	mu       sync.Mutex
	browsers map[string]*Browser // path -> browser
	status   map[string]int      // path -> status to answer
	received []Received
	errors   []error
}

// New starts a push service that stops when the test ends.
func New(t testing.TB) *Server {
	s := &Server{t: t, browsers: map[string]*Browser{}, status: map[string]int{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

// NewBrowser makes a browser's keys and its endpoint at this service.
func (s *Server) NewBrowser() *Browser {
	key, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		s.t.Fatal(err)
	}
	auth := make([]byte, 16)
	_, _ = rand.Read(auth)
	path := "/push/" + b64.EncodeToString(auth[:9])
	b := &Browser{Key: key, Auth: auth, Endpoint: s.srv.URL + path}
	s.mu.Lock()
	s.browsers[path] = b
	s.mu.Unlock()
	return b
}

// Answer makes the service answer status to pushes for b (404 or 410: the
// subscription is gone).
func (s *Server) Answer(b *Browser, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.status[strings.TrimPrefix(b.Endpoint, s.srv.URL)] = status
}

// Received is every push read so far, in order.
func (s *Server) Received() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.errors) > 0 {
		s.t.Errorf("push service refused requests: %v", errors.Join(s.errors...))
	}
	return append([]Received(nil), s.received...)
}

func (s *Server) fail(w http.ResponseWriter, err error) {
	s.mu.Lock()
	s.errors = append(s.errors, err)
	s.mu.Unlock()
	http.Error(w, err.Error(), http.StatusBadRequest)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	b := s.browsers[r.URL.Path]
	status := s.status[r.URL.Path]
	s.mu.Unlock()
	if b == nil {
		http.NotFound(w, r)
		return
	}
	if status != 0 {
		w.WriteHeader(status)
		return
	}
	if r.Method != http.MethodPost || r.Header.Get("Content-Encoding") != "aes128gcm" {
		s.fail(w, fmt.Errorf("%s with Content-Encoding %q", r.Method, r.Header.Get("Content-Encoding")))
		return
	}
	if r.Header.Get("TTL") == "" {
		s.fail(w, errors.New("no TTL header"))
		return
	}
	vapidKey, err := checkVAPID(r.Header.Get("Authorization"), "http://"+r.Host)
	if err != nil {
		s.fail(w, err)
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 8192))
	plain, err := Decrypt(b, body)
	if err != nil {
		s.fail(w, err)
		return
	}
	s.mu.Lock()
	s.received = append(s.received, Received{Endpoint: b.Endpoint, Payload: plain, TTL: r.Header.Get("TTL"),
		Urgency: r.Header.Get("Urgency"), Topic: r.Header.Get("Topic"), VAPIDKey: vapidKey})
	s.mu.Unlock()
	w.WriteHeader(http.StatusCreated)
}

// Decrypt reads an aes128gcm message (RFC 8188) for browser b with the
// keys of RFC 8291: what the browser does with what its push service hands it.
func Decrypt(b *Browser, body []byte) ([]byte, error) {
	if len(body) < 21 {
		return nil, errors.New("message shorter than its header")
	}
	salt, rs, idLen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if len(body) < 21+idLen || idLen != 65 || rs < 18 {
		return nil, fmt.Errorf("header: key id of %d bytes, record size %d", idLen, rs)
	}
	serverPub, err := ecdh.P256().NewPublicKey(body[21 : 21+idLen])
	if err != nil {
		return nil, fmt.Errorf("sender key: %w", err)
	}
	records := body[21+idLen:]
	if len(records) > int(rs) {
		return nil, errors.New("more than one record")
	}
	shared, err := b.Key.ECDH(serverPub)
	if err != nil {
		return nil, err
	}
	info := append([]byte("WebPush: info\x00"), b.Key.PublicKey().Bytes()...)
	info = append(info, serverPub.Bytes()...)
	ikm, err := hkdf.Key(sha256.New, shared, b.Auth, string(info), 32)
	if err != nil {
		return nil, err
	}
	cek, err := hkdf.Key(sha256.New, ikm, salt, "Content-Encoding: aes128gcm\x00", 16)
	if err != nil {
		return nil, err
	}
	nonce, err := hkdf.Key(sha256.New, ikm, salt, "Content-Encoding: nonce\x00", 12)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	plain, err := gcm.Open(nil, nonce, records, nil)
	if err != nil {
		return nil, fmt.Errorf("decrypt: %w", err)
	}
	// The last record ends with 0x02 and then zero padding.
	end := bytes.LastIndexFunc(plain, func(r rune) bool { return r != 0 })
	if end < 0 || plain[end] != 2 {
		return nil, errors.New("no last-record delimiter")
	}
	return plain[:end], nil
}

// checkVAPID verifies "vapid t=JWT, k=KEY" (RFC 8292): an ES256 JWT signed
// by KEY whose audience is the push service's origin and which expires
// within 24 hours. It returns KEY.
func checkVAPID(header, origin string) (string, error) {
	rest, ok := strings.CutPrefix(header, "vapid ")
	if !ok {
		return "", fmt.Errorf("authorization %q is not vapid", header)
	}
	var token, key string
	for part := range strings.SplitSeq(rest, ",") {
		part = strings.TrimSpace(part)
		if v, ok := strings.CutPrefix(part, "t="); ok {
			token = v
		} else if v, ok := strings.CutPrefix(part, "k="); ok {
			key = v
		}
	}
	raw, err := b64.DecodeString(key)
	if err != nil || len(raw) != 65 {
		return "", errors.New("vapid key is not an uncompressed P-256 point")
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), raw)
	if err != nil {
		return "", errors.New("vapid key is not on the curve")
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return "", errors.New("vapid token is not a JWT")
	}
	sig, err := b64.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return "", errors.New("vapid signature is not ES256")
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if !ecdsa.Verify(pub, digest[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return "", errors.New("vapid signature does not verify")
	}
	claimsRaw, err := b64.DecodeString(parts[1])
	if err != nil {
		return "", err
	}
	var claims struct {
		Aud string `json:"aud"`
		Exp int64  `json:"exp"`
		Sub string `json:"sub"`
	}
	if err := json.Unmarshal(claimsRaw, &claims); err != nil {
		return "", err
	}
	if claims.Aud != origin {
		return "", fmt.Errorf("vapid audience %q, want %q", claims.Aud, origin)
	}
	if exp := time.Unix(claims.Exp, 0); time.Until(exp) > 24*time.Hour || time.Until(exp) < 0 {
		return "", fmt.Errorf("vapid expiry %v out of range", exp)
	}
	if !strings.HasPrefix(claims.Sub, "mailto:") && !strings.HasPrefix(claims.Sub, "https:") {
		return "", fmt.Errorf("vapid subject %q", claims.Sub)
	}
	return key, nil
}
