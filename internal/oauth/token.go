package oauth

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"tribe/internal/errs"
	"tribe/internal/store"
)

// TokenRequest is a token endpoint request's form (RFC 6749 §4.1.3, §6).
type TokenRequest struct {
	GrantType    string
	ClientID     string
	Code         string
	RedirectURI  string
	CodeVerifier string
	RefreshToken string
	Resource     string
	Scope        string
}

// TokenResponse is the token endpoint's answer (RFC 6749 §5.1).
type TokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int    `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
	Scope        string `json:"scope"`
}

// Refusals of the token endpoint. They say little on purpose: which part of
// a stolen code or token was wrong is no one's business.
var (
	errBadCode    = errs.New(errs.InvalidGrant, "The authorization code is invalid, expired or already used.")
	errBadRefresh = errs.New(errs.InvalidGrant, "The refresh token is invalid, expired or revoked.")
	errVerifier   = errs.New(errs.InvalidGrant, "The code_verifier does not match the code_challenge.")
	errRedirect   = errs.New(errs.InvalidGrant, "redirect_uri does not match the authorization request.")
	errClientCode = errs.New(errs.InvalidGrant, "The code was issued to another client.")
)

// verifierForm is an RFC 7636 code verifier.
var verifierForm = regexp.MustCompile(`^[A-Za-z0-9._~-]{43,128}$`)

// Token answers a token request: an authorization code with its PKCE
// verifier, or a refresh token, for a new access and refresh token.
func (s *Service) Token(ctx context.Context, in TokenRequest) (*TokenResponse, error) {
	switch in.GrantType {
	case "authorization_code", "refresh_token":
	case "":
		return nil, errs.New(errs.InvalidRequest, "grant_type is required.")
	default:
		return nil, errs.New(errs.UnsupportedGrantType, "grant_type must be authorization_code or refresh_token.")
	}
	if in.ClientID == "" {
		return nil, errs.New(errs.InvalidClient, "client_id is required (public clients identify themselves by it).")
	}
	if in.Resource != "" && in.Resource != s.resource {
		return nil, errs.New(errs.InvalidTarget, "resource must be "+s.resource+".")
	}
	if in.GrantType == "refresh_token" {
		return s.refresh(ctx, in)
	}
	return s.exchangeCode(ctx, in)
}

// grantRow is a grant as the token paths read it.
type grantRow struct {
	id, userID, clientID, scopes, resource string
	revoked                                bool
}

// exchangeCode redeems a code once. The code is marked used before
// anything else is checked, so a code gets one try; a code presented again
// revokes its grant and every token it issued (RFC 6749 §4.1.2: it was
// probably stolen).
func (s *Service) exchangeCode(ctx context.Context, in TokenRequest) (*TokenResponse, error) {
	if in.Code == "" || in.CodeVerifier == "" {
		return nil, errs.New(errs.InvalidRequest, "code and code_verifier are required.")
	}
	now := s.now()
	var out *TokenResponse
	var refusal error
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		var grantID, redirect, challenge string
		var expires store.Time
		var used store.NullTime
		err := tx.QueryRowContext(ctx, `SELECT grant_id, redirect_uri, code_challenge, expires_at, used_at FROM oauth_codes WHERE hash = $1`,
			hash(in.Code)).Scan(&grantID, &redirect, &challenge, &expires, &used)
		if errors.Is(err, sql.ErrNoRows) {
			refusal = errBadCode
			return nil
		}
		if err != nil {
			return fmt.Errorf("read oauth code: %w", err)
		}
		if used.Valid {
			s.logger.Warn("an authorization code was presented twice; its grant is revoked", "grant", grantID)
			refusal = errBadCode
			return revokeGrant(ctx, tx, grantID, now)
		}
		// Spent only if still unspent: of two requests racing with one
		// code, one wins and the other is a reuse.
		if won, err := spend(tx.ExecContext(ctx, `UPDATE oauth_codes SET used_at = $1 WHERE hash = $2 AND used_at IS NULL`, store.At(now), hash(in.Code))); err != nil || !won {
			if err != nil {
				return fmt.Errorf("use oauth code: %w", err)
			}
			refusal = errBadCode
			return revokeGrant(ctx, tx, grantID, now)
		}
		g, err := readGrant(ctx, tx, grantID)
		if err != nil {
			return err
		}
		switch {
		case !now.Before(expires.Time) || g.revoked:
			refusal = errBadCode
		case g.clientID != in.ClientID:
			refusal = errClientCode
		case in.RedirectURI != redirect:
			refusal = errRedirect
		case !verifierForm.MatchString(in.CodeVerifier) || !pkceMatches(in.CodeVerifier, challenge):
			refusal = errVerifier
		}
		if refusal != nil {
			// The code is spent; its grant will never have tokens.
			return revokeGrant(ctx, tx, grantID, now)
		}
		out, err = s.issue(ctx, tx, g, now)
		return err
	})
	if err != nil {
		return nil, err
	}
	if refusal != nil {
		return nil, refusal
	}
	return out, nil
}

// spend reports whether an UPDATE changed a row.
func spend(res sql.Result, err error) (bool, error) {
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// pkceMatches reports whether verifier hashes to challenge (RFC 7636 S256).
func pkceMatches(verifier, challenge string) bool {
	sum := sha256.Sum256([]byte(verifier))
	return subtle.ConstantTimeCompare([]byte(base64.RawURLEncoding.EncodeToString(sum[:])), []byte(challenge)) == 1
}

// refresh rotates a refresh token: the old one is spent and a new pair
// issued. A spent refresh token presented again means two parties hold it,
// so the whole grant is revoked (OAuth 2.1 §4.3.1, reuse detection).
func (s *Service) refresh(ctx context.Context, in TokenRequest) (*TokenResponse, error) {
	if in.RefreshToken == "" {
		return nil, errs.New(errs.InvalidRequest, "refresh_token is required.")
	}
	now := s.now()
	var out *TokenResponse
	var refusal error
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		var grantID string
		var expires store.Time
		var used store.NullTime
		err := tx.QueryRowContext(ctx, `SELECT grant_id, expires_at, used_at FROM oauth_tokens WHERE hash = $1 AND kind = 'refresh'`,
			hash(in.RefreshToken)).Scan(&grantID, &expires, &used)
		if errors.Is(err, sql.ErrNoRows) {
			refusal = errBadRefresh
			return nil
		}
		if err != nil {
			return fmt.Errorf("read refresh token: %w", err)
		}
		g, err := readGrant(ctx, tx, grantID)
		if err != nil {
			return err
		}
		if g.clientID != in.ClientID {
			refusal = errBadRefresh
			return nil
		}
		if used.Valid {
			s.logger.Warn("a rotated refresh token was presented again; its grant is revoked", "grant", grantID)
			refusal = errBadRefresh
			return revokeGrant(ctx, tx, grantID, now)
		}
		if g.revoked || !now.Before(expires.Time) {
			refusal = errBadRefresh
			return nil
		}
		if won, err := spend(tx.ExecContext(ctx, `UPDATE oauth_tokens SET used_at = $1 WHERE hash = $2 AND used_at IS NULL`, store.At(now), hash(in.RefreshToken))); err != nil || !won {
			if err != nil {
				return fmt.Errorf("rotate refresh token: %w", err)
			}
			refusal = errBadRefresh
			return revokeGrant(ctx, tx, grantID, now)
		}
		// A client may ask for fewer scopes than granted (RFC 6749 §6),
		// never more; the grant itself keeps what the member allowed.
		if strings.TrimSpace(in.Scope) != "" {
			asked, ok := parseScopes(in.Scope)
			if !ok {
				refusal = errs.New(errs.InvalidScope, "scope may hold "+strings.Join(Scopes, " and ")+".")
				return nil
			}
			granted := strings.Fields(g.scopes)
			for _, a := range asked {
				if !HasScope(granted, a) {
					refusal = errs.New(errs.InvalidScope, "The scope "+a+" was not granted.")
					return nil
				}
			}
		}
		out, err = s.issue(ctx, tx, g, now)
		return err
	})
	if err != nil {
		return nil, err
	}
	if refusal != nil {
		return nil, refusal
	}
	return out, nil
}

// issue adds a new access and refresh token to grant g.
func (s *Service) issue(ctx context.Context, tx *sql.Tx, g *grantRow, now time.Time) (*TokenResponse, error) {
	access, refresh := newSecret(), newSecret()
	for _, t := range []struct {
		secret, kind string
		ttl          time.Duration
	}{{access, "access", AccessTTL}, {refresh, "refresh", RefreshTTL}} {
		if _, err := tx.ExecContext(ctx, `INSERT INTO oauth_tokens (hash, grant_id, kind, expires_at) VALUES ($1, $2, $3, $4)`,
			hash(t.secret), g.id, t.kind, store.At(now.Add(t.ttl))); err != nil {
			return nil, fmt.Errorf("insert %s token: %w", t.kind, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE oauth_grants SET last_used_at = $1 WHERE id = $2`, store.At(now), g.id); err != nil {
		return nil, fmt.Errorf("touch oauth grant: %w", err)
	}
	return &TokenResponse{AccessToken: access, TokenType: "Bearer", ExpiresIn: int(AccessTTL / time.Second),
		RefreshToken: refresh, Scope: g.scopes}, nil
}

func readGrant(ctx context.Context, tx *sql.Tx, id string) (*grantRow, error) {
	g := &grantRow{id: id}
	var revoked store.NullTime
	err := tx.QueryRowContext(ctx, `SELECT user_id, client_id, scopes, resource, revoked_at FROM oauth_grants WHERE id = $1`, id).
		Scan(&g.userID, &g.clientID, &g.scopes, &g.resource, &revoked)
	if err != nil {
		return nil, fmt.Errorf("read oauth grant %s: %w", id, err)
	}
	g.revoked = revoked.Valid
	return g, nil
}

// revokeGrant ends a grant and deletes its tokens and codes' worth: the
// tokens go at once, the grant row stays (revoked) so a replay is still
// recognised and the member's list can say what happened.
func revokeGrant(ctx context.Context, tx *sql.Tx, id string, now time.Time) error {
	if _, err := tx.ExecContext(ctx, `UPDATE oauth_grants SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL`, store.At(now), id); err != nil {
		return fmt.Errorf("revoke oauth grant %s: %w", id, err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM oauth_tokens WHERE grant_id = $1 AND kind = 'access'`, id); err != nil {
		return fmt.Errorf("delete access tokens of grant %s: %w", id, err)
	}
	return nil
}

// TokenInfo is what a valid access token says.
type TokenInfo struct {
	UserID   string
	ClientID string
	GrantID  string
	Scopes   []string
	Expires  time.Time
}

// ErrInvalidToken is an access token that is unknown, expired, revoked or
// for another resource.
var ErrInvalidToken = errs.New(errs.Unauthorized, "The access token is invalid, expired or revoked.")

// touchEvery bounds how often a grant's last use is written: once a minute
// is plenty for "last used", and a write per tool call is not.
const touchEvery = time.Minute

// Verify checks an access token for this resource: known (by its hash), not
// expired, its grant not revoked, and its audience this server's resource.
func (s *Service) Verify(ctx context.Context, token string) (*TokenInfo, error) {
	if token == "" || len(token) > 200 {
		return nil, ErrInvalidToken
	}
	var info TokenInfo
	var scopes, resource string
	var expires store.Time
	var revoked, lastUsed store.NullTime
	err := s.db.ReadRow(ctx, `SELECT g.id, g.user_id, g.client_id, g.scopes, g.resource, g.revoked_at, g.last_used_at, t.expires_at
		FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id
		WHERE t.hash = $1 AND t.kind = 'access'`, hash(token)).
		Scan(&info.GrantID, &info.UserID, &info.ClientID, &scopes, &resource, &revoked, &lastUsed, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrInvalidToken
	}
	if err != nil {
		return nil, fmt.Errorf("read access token: %w", err)
	}
	now := s.now()
	if revoked.Valid || !now.Before(expires.Time) || resource != s.resource {
		return nil, ErrInvalidToken
	}
	info.Scopes, info.Expires = strings.Fields(scopes), expires.Time
	if !lastUsed.Valid || now.Sub(lastUsed.Time.Time) >= touchEvery {
		if _, err := s.db.Write.ExecContext(ctx, `UPDATE oauth_grants SET last_used_at = $1 WHERE id = $2`, store.At(now), info.GrantID); err != nil {
			s.logger.Warn("oauth grant's last use not recorded", "err", err)
		}
	}
	return &info, nil
}

// Revoke ends the grant behind token, an access or refresh token of client
// clientID (RFC 7009). An unknown token, or one of another client, is not
// an error: the answer must not tell a guesser anything.
func (s *Service) Revoke(ctx context.Context, token, clientID string) error {
	if token == "" {
		return errs.New(errs.InvalidRequest, "token is required.")
	}
	now := s.now()
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		var grantID, owner string
		err := tx.QueryRowContext(ctx, `SELECT g.id, g.client_id FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id WHERE t.hash = $1`,
			hash(token)).Scan(&grantID, &owner)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read token to revoke: %w", err)
		}
		if clientID != "" && owner != clientID {
			return nil
		}
		return revokeGrant(ctx, tx, grantID, now)
	})
}
