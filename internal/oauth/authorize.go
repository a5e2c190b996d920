package oauth

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"tribe/internal/errs"
	"tribe/internal/store"
)

// AuthorizeRequest is an authorization request's parameters, as the
// authorization endpoint and the consent form carry them.
type AuthorizeRequest struct {
	ClientID            string
	RedirectURI         string
	ResponseType        string
	CodeChallenge       string
	CodeChallengeMethod string
	Resource            string
	Scope               string
	State               string
}

// authorizeParams are the request's parameter names, in the order Values
// writes them.
var authorizeParams = []string{"client_id", "redirect_uri", "response_type", "code_challenge",
	"code_challenge_method", "resource", "scope", "state"}

// ReadAuthorizeRequest reads the parameters from a query or a form. A
// parameter given twice is kept empty so the check refuses it (RFC 6749
// §3.1: parameters must not repeat).
func ReadAuthorizeRequest(q url.Values) AuthorizeRequest {
	get := func(name string) string {
		if len(q[name]) != 1 {
			return ""
		}
		return q[name][0]
	}
	return AuthorizeRequest{
		ClientID: get("client_id"), RedirectURI: get("redirect_uri"), ResponseType: get("response_type"),
		CodeChallenge: get("code_challenge"), CodeChallengeMethod: get("code_challenge_method"),
		Resource: get("resource"), Scope: get("scope"), State: get("state"),
	}
}

// Values is the request as parameters again, for the consent form and the
// sign-in return path.
func (r AuthorizeRequest) Values() url.Values {
	v := url.Values{}
	for i, val := range []string{r.ClientID, r.RedirectURI, r.ResponseType, r.CodeChallenge,
		r.CodeChallengeMethod, r.Resource, r.Scope, r.State} {
		if val != "" {
			v.Set(authorizeParams[i], val)
		}
	}
	return v
}

// Pending is an authorization request that names a known client and one of
// its redirect URIs: from here on, refusals go back to the client.
type Pending struct {
	Client  *Client
	Request AuthorizeRequest
	// Scopes are what the member is asked to grant.
	Scopes []string
	// Resource is the audience the tokens will have.
	Resource string
}

// challengeForm is an S256 code challenge: a SHA-256 in base64url without
// padding.
var challengeForm = regexp.MustCompile(`^[A-Za-z0-9_-]{43}$`)

// maxState bounds the state a client round-trips through us.
const maxState = 1000

// CheckAuthorize checks an authorization request. It returns (nil, err)
// when the client or its redirect URI is not known, which must be shown to
// the member and never redirected (RFC 6749 §4.1.2.1: a bad redirect_uri
// would make the site an open redirector); it returns (pending, err) for a
// refusal to send back to the client (Pending.ErrorRedirect), and
// (pending, nil) when the member can be asked.
func (s *Service) CheckAuthorize(ctx context.Context, in AuthorizeRequest) (*Pending, error) {
	c, err := s.client(ctx, in.ClientID)
	if err != nil {
		return nil, err
	}
	if in.RedirectURI == "" {
		return nil, errs.New(errs.InvalidRequest, "The request has no redirect_uri.")
	}
	if !matchRedirect(c.RedirectURIs, in.RedirectURI) {
		return nil, errs.New(errs.InvalidRequest, "The redirect_uri "+quote(in.RedirectURI)+" is not one this assistant registered.")
	}
	p := &Pending{Client: c, Request: in}
	switch {
	case in.ResponseType != "code":
		return p, errs.New(errs.UnsupportedResponseType, "response_type must be code.")
	case in.CodeChallengeMethod != "S256":
		return p, errs.New(errs.InvalidRequest, "PKCE is required: code_challenge_method must be S256.")
	case !challengeForm.MatchString(in.CodeChallenge):
		return p, errs.New(errs.InvalidRequest, "code_challenge must be a base64url SHA-256 (43 characters).")
	case len(in.State) > maxState:
		return p, errs.New(errs.InvalidRequest, "state is too long.")
	}
	p.Resource = s.resource
	// RFC 8707: the token is bound to the one resource this server
	// protects; a client that names another gets nothing for it. A client
	// that names none gets the one there is.
	if in.Resource != "" && in.Resource != s.resource {
		return p, errs.New(errs.InvalidTarget, "resource must be "+s.resource+".")
	}
	p.Scopes = Scopes
	if strings.TrimSpace(in.Scope) != "" {
		scopes, ok := parseScopes(in.Scope)
		if !ok {
			return p, errs.New(errs.InvalidScope, "scope may hold "+strings.Join(Scopes, " and ")+".")
		}
		p.Scopes = scopes
	}
	return p, nil
}

// redirect is the client's redirect URI with params added to its query,
// and iss (RFC 9207), so the client can tell which server answered.
func (p *Pending) redirect(issuer string, params url.Values) string {
	u, err := url.Parse(p.Request.RedirectURI)
	if err != nil {
		return p.Request.RedirectURI // checked by CheckAuthorize; cannot happen
	}
	q := u.Query()
	for k, v := range params {
		q[k] = v
	}
	if p.Request.State != "" {
		q.Set("state", p.Request.State)
	}
	q.Set("iss", issuer)
	u.RawQuery = q.Encode()
	return u.String()
}

// ErrorRedirect is where to send the browser for refusal err: the client's
// redirect URI with error, error_description and state.
func (s *Service) ErrorRedirect(p *Pending, err error) string {
	code := errs.CodeOf(err)
	switch code {
	case errs.InvalidRequest, errs.UnsupportedResponseType, errs.InvalidScope, errs.InvalidTarget, errs.AccessDenied:
	default:
		code = "server_error"
	}
	return p.redirect(s.issuer, url.Values{"error": {code}, "error_description": {errs.MessageOf(err)}})
}

// ErrDenied is the member's "Deny".
var ErrDenied = errs.New(errs.AccessDenied, "The member did not allow this assistant.")

// Approve records the member's consent to p (a grant) and returns where to
// send the browser: the client's redirect URI with a one-time code.
func (s *Service) Approve(ctx context.Context, userID string, p *Pending) (string, error) {
	if userID == "" {
		return "", errs.New(errs.Unauthorized, "Sign in to allow an assistant.")
	}
	code := newSecret()
	now := s.now()
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		if err := keepClient(ctx, tx, p.Client, now); err != nil {
			return err
		}
		grant := store.NewID()
		if _, err := tx.ExecContext(ctx, `INSERT INTO oauth_grants (id, user_id, client_id, scopes, resource, created_at)
			VALUES ($1, $2, $3, $4, $5, $6)`,
			grant, userID, p.Client.ID, strings.Join(p.Scopes, " "), p.Resource, store.At(now)); err != nil {
			return fmt.Errorf("insert oauth grant: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO oauth_codes (hash, grant_id, redirect_uri, code_challenge, expires_at)
			VALUES ($1, $2, $3, $4, $5)`,
			hash(code), grant, p.Request.RedirectURI, p.Request.CodeChallenge, store.At(now.Add(CodeTTL))); err != nil {
			return fmt.Errorf("insert oauth code: %w", err)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return p.redirect(s.issuer, url.Values{"code": {code}}), nil
}
