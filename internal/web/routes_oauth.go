package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"time"

	"tribe/internal/auth"
	"tribe/internal/config"
	"tribe/internal/errs"
	"tribe/internal/httpx"
	"tribe/internal/oauth"
	"tribe/internal/ratelimit"
)

// OAuth endpoint limits; docs/api.md ("Assistants") documents them.
const (
	// Registering is what a client does once per install: ten at once from
	// one address, then one every six minutes, stops a script filling the
	// clients table.
	oauthRegisterBurst    = 10
	oauthRegisterInterval = 6 * time.Minute
	// The token endpoint is called once an hour per connected assistant;
	// the limit only stops guessing.
	oauthTokenBurst    = 30
	oauthTokenInterval = 2 * time.Second
	// An authorization request whose client_id is a URL makes the site
	// fetch that URL (a Client ID Metadata Document): per client address,
	// 20 at once and one every 10 seconds, so the site cannot be turned
	// into a fetcher of other sites.
	oauthMetadataBurst    = 20
	oauthMetadataInterval = 10 * time.Second
	// oauthMaxForm bounds a form body of the token, revocation and consent
	// endpoints.
	oauthMaxForm = 16 << 10
)

// oauthAPI is the authorization server's HTTP side: the metadata documents,
// registration, the authorization and consent pages, the token and
// revocation endpoints. The rules are internal/oauth's.
type oauthAPI struct {
	oauth   *oauth.Service
	cfg     *config.Config
	regs    *ratelimit.Limiter
	token   *ratelimit.Limiter
	fetches *ratelimit.Limiter
}

func newOAuthAPI(cfg *config.Config, svc *oauth.Service, share shareLimit) *oauthAPI {
	return &oauthAPI{oauth: svc, cfg: cfg,
		regs:    ratelimit.New(oauthRegisterBurst, oauthRegisterInterval, share("oauth-register")),
		token:   ratelimit.New(oauthTokenBurst, oauthTokenInterval, share("oauth-token")),
		fetches: ratelimit.New(oauthMetadataBurst, oauthMetadataInterval, share("oauth-metadata"))}
}

// oauthBypass are the endpoints clients (not the member's browser on this
// site) POST to, from anywhere, with no cookie: the cross-origin check
// would refuse the browser-based ones and protects nothing there.
var oauthBypass = []string{"POST " + oauth.TokenPath, "POST " + oauth.RegisterPath, "POST " + oauth.RevokePath}

func (o *oauthAPI) register(g *registrar) error {
	prm := o.resourceMetadata()
	g.route("GET "+oauth.ResourceMetadataPath, anyone, prm)
	g.route("GET "+oauth.ResourceMetadataPath+"/mcp", anyone, prm)
	g.route("GET "+oauth.MetadataPath, anyone, o.serverMetadata)
	for _, p := range []string{oauth.ResourceMetadataPath, oauth.ResourceMetadataPath + "/mcp", oauth.MetadataPath,
		oauth.RegisterPath, oauth.TokenPath, oauth.RevokePath} {
		g.route("OPTIONS "+p, anyone, oauthPreflight)
	}
	g.route("POST "+oauth.RegisterPath, anyone, o.registerClient)
	g.route("GET "+oauth.AuthorizePath, anyone, o.authorize)
	g.route("GET "+oauth.ConsentPath, anyone, o.consentPage)
	g.route("POST "+oauth.ConsentPath, member, o.consent)
	g.route("POST "+oauth.TokenPath, anyone, o.issueToken)
	g.route("POST "+oauth.RevokePath, anyone, o.revoke)
	g.route("GET /api/members/me/assistants", member, o.assistants)
	g.route("DELETE /api/members/me/assistants/{client_id}", member, o.revokeAssistant)
	g.route("GET /api/admin/assistants", admin, o.adminAssistants)
	return nil
}

// assistants lists the caller's connected assistants.
func (o *oauthAPI) assistants(w http.ResponseWriter, r *http.Request) error {
	list, err := o.oauth.Assistants(r.Context(), caller(r).UserID)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, oauth.AssistantList{Assistants: list})
	return nil
}

// revokeAssistant ends every grant the caller gave one client, at once.
func (o *oauthAPI) revokeAssistant(w http.ResponseWriter, r *http.Request) error {
	if err := o.oauth.RevokeClient(r.Context(), caller(r).UserID, r.PathValue("client_id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// adminAssistants counts the members connected through each client.
func (o *oauthAPI) adminAssistants(w http.ResponseWriter, r *http.Request) error {
	counts, err := o.oauth.ClientCounts(r.Context())
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, oauth.AssistantCounts{Clients: counts})
	return nil
}

// oauthCORS lets MCP clients running in a browser (the MCP Inspector, web
// assistants) read the metadata and call the token endpoints. Never with
// credentials: none of these read a cookie.
func oauthCORS(h http.Header) {
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Expose-Headers", "WWW-Authenticate, Retry-After")
}

func oauthPreflight(w http.ResponseWriter, _ *http.Request) error {
	h := w.Header()
	oauthCORS(h)
	h.Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
	h.Set("Access-Control-Allow-Headers", "Content-Type, Authorization, Mcp-Protocol-Version")
	h.Set("Access-Control-Max-Age", "86400")
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// ResourceMetadata is the protected resource's metadata (RFC 9728).
type ResourceMetadata struct {
	Resource               string   `json:"resource"`
	AuthorizationServers   []string `json:"authorization_servers"`
	ScopesSupported        []string `json:"scopes_supported"`
	BearerMethodsSupported []string `json:"bearer_methods_supported"`
	ResourceName           string   `json:"resource_name"`
	ResourceDocumentation  string   `json:"resource_documentation"`
}

func (o *oauthAPI) resourceMetadata() handlerFunc {
	doc := ResourceMetadata{
		Resource: o.oauth.Resource(), AuthorizationServers: []string{o.oauth.Issuer()}, ScopesSupported: oauth.Scopes,
		BearerMethodsSupported: []string{"header"}, ResourceName: "The tribe's MCP server",
		ResourceDocumentation: o.oauth.Resource(),
	}
	return func(w http.ResponseWriter, _ *http.Request) error {
		oauthCORS(w.Header())
		httpx.WriteJSON(w, http.StatusOK, doc)
		return nil
	}
}

// ServerMetadata is the authorization server's metadata (RFC 8414).
type ServerMetadata struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	RegistrationEndpoint              string   `json:"registration_endpoint"`
	RevocationEndpoint                string   `json:"revocation_endpoint"`
	ScopesSupported                   []string `json:"scopes_supported"`
	ResponseTypesSupported            []string `json:"response_types_supported"`
	ResponseModesSupported            []string `json:"response_modes_supported"`
	GrantTypesSupported               []string `json:"grant_types_supported"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported"`
	RevocationAuthMethodsSupported    []string `json:"revocation_endpoint_auth_methods_supported"`
	CodeChallengeMethodsSupported     []string `json:"code_challenge_methods_supported"`
	ClientIDMetadataDocumentSupported bool     `json:"client_id_metadata_document_supported"`
	AuthorizationResponseIssParameter bool     `json:"authorization_response_iss_parameter_supported"`
}

func (o *oauthAPI) serverMetadata(w http.ResponseWriter, _ *http.Request) error {
	iss := o.oauth.Issuer()
	oauthCORS(w.Header())
	httpx.WriteJSON(w, http.StatusOK, ServerMetadata{
		Issuer: iss, AuthorizationEndpoint: iss + oauth.AuthorizePath, TokenEndpoint: iss + oauth.TokenPath,
		RegistrationEndpoint: iss + oauth.RegisterPath, RevocationEndpoint: iss + oauth.RevokePath,
		ScopesSupported: oauth.Scopes, ResponseTypesSupported: []string{"code"}, ResponseModesSupported: []string{"query"},
		GrantTypesSupported: []string{"authorization_code", "refresh_token"}, TokenEndpointAuthMethodsSupported: []string{"none"},
		RevocationAuthMethodsSupported: []string{"none"}, CodeChallengeMethodsSupported: []string{"S256"},
		ClientIDMetadataDocumentSupported: true, AuthorizationResponseIssParameter: true,
	})
	return nil
}

// oauthError is the OAuth protocols' error body (RFC 6749 §5.2, RFC 7591
// §3.2.2), which clients parse instead of the site's own.
type oauthError struct {
	Error       string `json:"error"`
	Description string `json:"error_description"`
}

// writeOAuthError answers err in the protocol's shape: an OAuth code as
// itself, a rate limit or an oversized body with its status, anything else
// as the site's usual error (a logged 500).
func writeOAuthError(w http.ResponseWriter, r *http.Request, err error) error {
	var e *errs.Error
	if !errors.As(err, &e) {
		return err
	}
	code := e.Code
	switch code {
	case errs.Invalid, errs.BadJSON, errs.TooLarge:
		code = errs.InvalidRequest
	case errs.RateLimited:
		return err
	}
	if httpx.Status(code) == http.StatusInternalServerError {
		return err
	}
	if code == errs.InvalidClient {
		w.Header().Set("WWW-Authenticate", `Bearer error="invalid_client"`)
	}
	w.Header().Set("Pragma", "no-cache")
	httpx.WriteJSON(w, httpx.Status(code), oauthError{Error: code, Description: e.Message})
	return nil
}

// registerClient is dynamic client registration (RFC 7591), limited per
// client address.
func (o *oauthAPI) registerClient(w http.ResponseWriter, r *http.Request) error {
	oauthCORS(w.Header())
	if ok, wait := o.regs.Allow(clientKey(r, o.cfg.TrustedProxies)); !ok {
		return tooMany(wait, "Too many client registrations from this address. Please wait and try again.")
	}
	var in oauth.RegisterInput
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return writeOAuthError(w, r, errs.New(errs.InvalidClientMetadata, errs.MessageOf(err)))
	}
	reg, err := o.oauth.Register(r.Context(), in)
	if err != nil {
		return writeOAuthError(w, r, err)
	}
	httpx.WriteJSON(w, http.StatusCreated, reg)
	return nil
}

// readForm parses an application/x-www-form-urlencoded body of at most
// oauthMaxForm bytes.
func readForm(w http.ResponseWriter, r *http.Request) error {
	r.Body = http.MaxBytesReader(w, r.Body, oauthMaxForm)
	if err := r.ParseForm(); err != nil {
		return errs.New(errs.InvalidRequest, "The body must be a form (application/x-www-form-urlencoded) of at most 16 KB.")
	}
	return nil
}

// issueToken is the token endpoint.
func (o *oauthAPI) issueToken(w http.ResponseWriter, r *http.Request) error {
	oauthCORS(w.Header())
	if ok, wait := o.token.Allow(clientKey(r, o.cfg.TrustedProxies)); !ok {
		return tooMany(wait, "Too many token requests from this address. Please wait and try again.")
	}
	if err := readForm(w, r); err != nil {
		return writeOAuthError(w, r, err)
	}
	f := r.PostForm
	tok, err := o.oauth.Token(r.Context(), oauth.TokenRequest{
		GrantType: f.Get("grant_type"), ClientID: f.Get("client_id"), Code: f.Get("code"), RedirectURI: f.Get("redirect_uri"),
		CodeVerifier: f.Get("code_verifier"), RefreshToken: f.Get("refresh_token"), Resource: f.Get("resource"), Scope: f.Get("scope"),
	})
	if err != nil {
		return writeOAuthError(w, r, err)
	}
	w.Header().Set("Pragma", "no-cache")
	httpx.WriteJSON(w, http.StatusOK, tok)
	return nil
}

// revoke is token revocation (RFC 7009): 200 whether or not the token was
// known.
func (o *oauthAPI) revoke(w http.ResponseWriter, r *http.Request) error {
	oauthCORS(w.Header())
	if ok, wait := o.token.Allow(clientKey(r, o.cfg.TrustedProxies)); !ok {
		return tooMany(wait, "Too many requests from this address. Please wait and try again.")
	}
	if err := readForm(w, r); err != nil {
		return writeOAuthError(w, r, err)
	}
	if err := o.oauth.Revoke(r.Context(), r.PostForm.Get("token"), r.PostForm.Get("client_id")); err != nil {
		return writeOAuthError(w, r, err)
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	return nil
}

// authorize is the authorization endpoint: a request that names a known
// client and one of its redirect URIs goes on to the consent page (through
// sign-in when needed); a refusal about anything else goes back to the
// client; an unknown client or redirect URI is shown here and never
// redirected.
func (o *oauthAPI) authorize(w http.ResponseWriter, r *http.Request) error {
	req := oauth.ReadAuthorizeRequest(r.URL.Query())
	if err := o.limitFetch(r, req); err != nil {
		return err
	}
	p, err := o.oauth.CheckAuthorize(r.Context(), req)
	if p == nil {
		return o.errorPage(w, err)
	}
	if err != nil {
		http.Redirect(w, r, o.oauth.ErrorRedirect(p, err), http.StatusFound)
		return nil
	}
	http.Redirect(w, r, oauth.ConsentPath+"?"+req.Values().Encode(), http.StatusFound)
	return nil
}

// limitFetch spends one of the client address's metadata fetches when the
// request names its client by URL.
func (o *oauthAPI) limitFetch(r *http.Request, req oauth.AuthorizeRequest) error {
	if !oauth.IsMetadataClientID(req.ClientID) {
		return nil
	}
	if ok, wait := o.fetches.Allow(clientKey(r, o.cfg.TrustedProxies)); !ok {
		return tooMany(wait, "Too many sign-in requests for assistants named by URL from this address. Please wait and try again.")
	}
	return nil
}

// signInFirst sends a signed-out browser to the site's sign-in page, which
// returns to the consent page afterwards.
func signInFirst(w http.ResponseWriter, r *http.Request, req oauth.AuthorizeRequest) {
	back := oauth.ConsentPath + "?" + req.Values().Encode()
	http.Redirect(w, r, "/auth?return="+url.QueryEscape(back), http.StatusFound)
}

// consentPage asks the signed-in member to allow or deny the client.
func (o *oauthAPI) consentPage(w http.ResponseWriter, r *http.Request) error {
	req := oauth.ReadAuthorizeRequest(r.URL.Query())
	if err := o.limitFetch(r, req); err != nil {
		return err
	}
	p, err := o.oauth.CheckAuthorize(r.Context(), req)
	if p == nil {
		return o.errorPage(w, err)
	}
	if err != nil {
		http.Redirect(w, r, o.oauth.ErrorRedirect(p, err), http.StatusFound)
		return nil
	}
	who, ok := auth.PrincipalFrom(r.Context())
	session, err := r.Cookie(auth.CookieName)
	if !ok || err != nil {
		signInFirst(w, r, req)
		return nil
	}
	data := consentData{
		Client: p.Client.Name, ClientID: p.Client.ID, SelfNamed: !p.Client.Metadata, RedirectURI: req.RedirectURI,
		Email: who.Email, Action: oauth.ConsentPath, CSRF: consentToken(session.Value, req), Fields: req.Values(),
	}
	for _, s := range p.Scopes {
		data.Scopes = append(data.Scopes, scopeText[s])
	}
	nonce := newNonce()
	data.Nonce = nonce
	pageHeaders(w.Header(), nonce, formTarget(req.RedirectURI))
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	return consentTemplate.Execute(w, data)
}

// consent takes the member's answer. The form carries the request again and
// a token bound to the session and to that request, so a page on another
// site cannot submit consent in the member's name (the cross-origin check
// stops it too).
func (o *oauthAPI) consent(w http.ResponseWriter, r *http.Request) error {
	if err := readForm(w, r); err != nil {
		return err
	}
	req := oauth.ReadAuthorizeRequest(r.PostForm)
	who, ok := auth.PrincipalFrom(r.Context())
	session, _ := r.Cookie(auth.CookieName)
	if !ok || session == nil {
		return errNotSignedIn
	}
	want := consentToken(session.Value, req)
	if got := r.PostForm.Get("csrf_token"); got == "" || !hmac.Equal([]byte(got), []byte(want)) {
		return errs.New(errs.Forbidden, "This consent form has expired or did not come from this site. Go back to the assistant and connect again.")
	}
	p, err := o.oauth.CheckAuthorize(r.Context(), req)
	if p == nil {
		return o.errorPage(w, err)
	}
	if err != nil {
		http.Redirect(w, r, o.oauth.ErrorRedirect(p, err), http.StatusSeeOther)
		return nil
	}
	if r.PostForm.Get("decision") != "allow" {
		http.Redirect(w, r, o.oauth.ErrorRedirect(p, oauth.ErrDenied), http.StatusSeeOther)
		return nil
	}
	to, err := o.oauth.Approve(r.Context(), who.UserID, p)
	if err != nil {
		return err
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
	return nil
}

// consentToken binds the consent form to the browser session (whose cookie
// a page on another site cannot read) and to the exact request shown. The
// session token is a 256-bit secret, so an HMAC keyed by it needs no key of
// the site's own, and a leaked form token says nothing about the session.
func consentToken(session string, req oauth.AuthorizeRequest) string {
	key := sha256.Sum256([]byte("tribe oauth consent\x00" + session))
	mac := hmac.New(sha256.New, key[:])
	mac.Write([]byte(req.Values().Encode()))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// formTarget is the form-action source that lets the consent form's answer
// redirect to the client: Chrome applies form-action to the redirect after
// a form post too.
func formTarget(redirect string) string {
	u, err := url.Parse(redirect)
	if err != nil {
		return ""
	}
	switch u.Scheme {
	case "https":
		return "https://" + u.Host
	case "http":
		return "http://" + u.Hostname() + ":*"
	default:
		return u.Scheme + ":"
	}
}

// pageHeaders are the headers of the consent and error pages: no framing
// (clickjacking the Allow button), no caching, and only their own inline
// style.
func pageHeaders(h http.Header, nonce, formTarget string) {
	csp := "default-src 'none'; style-src 'nonce-" + nonce + "'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
	if formTarget != "" {
		csp += " " + formTarget
	}
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
}

func newNonce() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return base64.RawStdEncoding.EncodeToString(b)
}

// errorPage shows a refusal that must not go back to the client.
func (o *oauthAPI) errorPage(w http.ResponseWriter, err error) error {
	var e *errs.Error
	if !errors.As(err, &e) {
		return err
	}
	nonce := newNonce()
	pageHeaders(w.Header(), nonce, "")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusBadRequest)
	return errorTemplate.Execute(w, struct{ Message, Nonce string }{e.Message, nonce})
}

// scopeText is what each scope lets the assistant do, in the member's words.
var scopeText = map[string]string{
	oauth.ScopeRead:  "See your sessions and RSVPs, your bookings, your progress, and search the tribe's knowledge and threads.",
	oauth.ScopeWrite: "RSVP to sessions, hold a booking for you to pay, and post questions in the community in your name.",
}

type consentData struct {
	Client, ClientID, RedirectURI, Email, Action, CSRF, Nonce string
	SelfNamed                                                 bool
	Scopes                                                    []string
	Fields                                                    url.Values
}

const pageStyle = `body{font-family:system-ui,sans-serif;background:#0b0f17;color:#e6e8ee;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{max-width:32rem;padding:2rem;background:#131a26;border-radius:1rem;border:1px solid #263042}
h1{font-size:1.4rem;margin:0 0 1rem}code{word-break:break-all;color:#9ecbff}li{margin:.4rem 0}
.note{color:#aab2c0;font-size:.9rem}.buttons{display:flex;gap:1rem;margin-top:1.5rem}
button{font:inherit;padding:.6rem 1.4rem;border-radius:.5rem;border:1px solid #3a4a66;background:#1c2535;color:inherit;cursor:pointer}
button.allow{background:#2f6fed;border-color:#2f6fed;color:#fff}`

var consentTemplate = template.Must(template.New("consent").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Allow {{.Client}}?</title><style nonce="{{.Nonce}}">` + pageStyle + `</style></head>
<body><main>
<h1>Allow <strong>{{.Client}}</strong> to use the tribe as you?</h1>
<p class="note">Signed in as {{.Email}}.{{if .SelfNamed}} The assistant chose this name itself when it registered.{{end}}</p>
<p>Client: <code>{{.ClientID}}</code><br>It will be sent back to: <code>{{.RedirectURI}}</code></p>
<p>It asks to:</p>
<ul>{{range .Scopes}}<li>{{.}}</li>{{end}}</ul>
<p class="note">An assistant never pays for you. You can revoke it at any time in your profile under “Connected assistants”.</p>
<form method="post" action="{{.Action}}">
{{range $k, $v := .Fields}}{{range $v}}<input type="hidden" name="{{$k}}" value="{{.}}">{{end}}{{end}}
<input type="hidden" name="csrf_token" value="{{.CSRF}}">
<div class="buttons"><button class="allow" type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button></div>
</form>
</main></body></html>
`))

var errorTemplate = template.Must(template.New("error").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>This assistant cannot connect</title><style nonce="{{.Nonce}}">` + pageStyle + `</style></head>
<body><main><h1>This assistant cannot connect</h1><p>{{.Message}}</p>
<p class="note">Nothing was shared. Go back to the assistant and try connecting again.</p></main></body></html>
`))
