package notify

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"

	"tribe/internal/errs"
)

// An unsubscribe link names the member and the kind of mail, sealed with
// AES-256-GCM under a key derived from a random 256-bit key kept in the
// database: no one can make a link for someone else, no one who sees a
// link can read whose it is, and nothing per mail is stored. The nonce is
// synthetic (an HMAC of the contents), so one member's link for one kind
// is always the same and no nonce can repeat for other contents. A link
// stays valid: it only ever turns one kind of mail off, which the member
// can turn on again in their profile. Links of the first form (the
// contents in readable base64, a dot, their HMAC) still work: they were
// signed, so honouring them is as safe as it was, and they are no longer
// made.

var errBadToken = errs.New(errs.InvalidToken, "This unsubscribe link is not valid. Open your profile to change which mail you get.")

// signingKey reads the key, making it on first use (by whichever instance
// comes first: the others read the one it wrote).
func (s *Service) signingKey(ctx context.Context) ([]byte, error) {
	s.keyMu.Lock()
	defer s.keyMu.Unlock()
	if s.key != nil {
		return s.key, nil
	}
	fresh := make([]byte, 32)
	if _, err := rand.Read(fresh); err != nil {
		return nil, fmt.Errorf("make unsubscribe key: %w", err)
	}
	if _, err := s.db.Write.ExecContext(ctx, `INSERT INTO notify_secret (id, key) VALUES (1, $1) ON CONFLICT (id) DO NOTHING`,
		hex.EncodeToString(fresh)); err != nil {
		return nil, fmt.Errorf("store unsubscribe key: %w", err)
	}
	var stored string
	if err := s.db.Write.QueryRowContext(ctx, `SELECT key FROM notify_secret WHERE id = 1`).Scan(&stored); err != nil {
		return nil, fmt.Errorf("read unsubscribe key: %w", err)
	}
	key, err := hex.DecodeString(stored)
	if err != nil {
		return nil, fmt.Errorf("read unsubscribe key: %w", err)
	}
	s.key = key
	return key, nil
}

func sign(key []byte, payload string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("unsubscribe\x00" + payload))
	return m.Sum(nil)
}

var b64 = base64.RawURLEncoding

// sealer is the AEAD of the sealed links, under its own key derived from
// the signing key.
func sealer(key []byte) (cipher.AEAD, error) {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("unsubscribe-seal"))
	block, err := aes.NewCipher(m.Sum(nil))
	if err != nil {
		return nil, fmt.Errorf("unsubscribe cipher: %w", err)
	}
	return cipher.NewGCM(block)
}

// UnsubscribeToken is the token of the link that turns kind off for userID:
// opaque, with no dot (the first form's mark).
func (s *Service) UnsubscribeToken(ctx context.Context, userID, kind string) (string, error) {
	key, err := s.signingKey(ctx)
	if err != nil {
		return "", err
	}
	aead, err := sealer(key)
	if err != nil {
		return "", err
	}
	payload := kind + ":" + userID
	nonce := sign(key, payload)[:aead.NonceSize()]
	return b64.EncodeToString(aead.Seal(nonce, nonce, []byte(payload), nil)), nil
}

// openSealed reads a sealed token's contents.
func openSealed(key []byte, token string) (string, bool) {
	raw, err := b64.DecodeString(token)
	if err != nil {
		return "", false
	}
	aead, err := sealer(key)
	if err != nil || len(raw) < aead.NonceSize()+aead.Overhead() {
		return "", false
	}
	nonce, box := raw[:aead.NonceSize()], raw[aead.NonceSize():]
	plain, err := aead.Open(nil, nonce, box, nil)
	if err != nil || !hmac.Equal(nonce, sign(key, string(plain))[:aead.NonceSize()]) {
		return "", false
	}
	return string(plain), true
}

// openSigned reads a token of the first form: base64 contents, a dot,
// their HMAC.
func openSigned(key []byte, token string) (string, bool) {
	enc, mac, _ := strings.Cut(token, ".")
	raw, err1 := b64.DecodeString(enc)
	got, err2 := b64.DecodeString(mac)
	if err1 != nil || err2 != nil || !hmac.Equal(got, sign(key, string(raw))) {
		return "", false
	}
	return string(raw), true
}

// UnsubscribeURL is the one-click link (RFC 8058) that turns kind off for
// userID: a POST to it unsubscribes, a GET shows a page asking to confirm.
func (s *Service) UnsubscribeURL(ctx context.Context, userID, kind string) (string, error) {
	tok, err := s.UnsubscribeToken(ctx, userID, kind)
	if err != nil {
		return "", err
	}
	return s.baseURL + "/api/unsubscribe?token=" + url.QueryEscape(tok), nil
}

// CheckToken reads a token without acting on it: the kind it turns off.
func (s *Service) CheckToken(ctx context.Context, token string) (userID, kind string, err error) {
	if token == "" || len(token) > 512 {
		return "", "", errBadToken
	}
	key, err := s.signingKey(ctx)
	if err != nil {
		return "", "", err
	}
	var payload string
	var ok bool
	if strings.Contains(token, ".") {
		payload, ok = openSigned(key, token)
	} else {
		payload, ok = openSealed(key, token)
	}
	if !ok {
		return "", "", errBadToken
	}
	kind, userID, ok = strings.Cut(payload, ":")
	if !ok || userID == "" || s.Label(kind) == "" {
		return "", "", errBadToken
	}
	return userID, kind, nil
}

// Unsubscribe turns off the kind of mail the token names, for the member
// it names. Doing it twice is harmless; an account since deleted has
// nothing to turn off and is told the same.
func (s *Service) Unsubscribe(ctx context.Context, token string) (Unsubscribed, error) {
	userID, kind, err := s.CheckToken(ctx, token)
	if err != nil {
		return Unsubscribed{}, err
	}
	if err := s.turnOff(ctx, userID, kind); err != nil {
		return Unsubscribed{}, err
	}
	return Unsubscribed{Kind: kind, Label: s.Label(kind)}, nil
}
