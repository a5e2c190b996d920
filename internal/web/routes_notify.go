package web

import (
	"errors"
	"html/template"
	"log/slog"
	"net/http"
	"strings"

	"tribe/internal/auth"
	"tribe/internal/errs"
	"tribe/internal/httpx"
	"tribe/internal/inbox"
	"tribe/internal/notify"
)

// notifyAPI serves members' notification settings, the one-click
// unsubscribe of the mail they get, and the admins' list of members at
// risk. internal/notify decides; docs/api.md ("Notifications") is the
// contract.
type notifyAPI struct {
	notify *notify.Service
	inbox  *inbox.Service // the per-kind channels beside the mail settings
}

// unsubscribePattern is the one-click unsubscribe (RFC 8058): a POST with
// the signed token and no cookie. The cross-origin check lets it through.
const unsubscribePattern = "POST /api/unsubscribe"

func (a *notifyAPI) register(g *registrar) error {
	g.route("GET /api/members/me/notifications", member, a.settings)
	g.route("PUT /api/members/me/notifications", member, a.updateSettings)
	g.route("GET /api/unsubscribe", anyone, a.confirmPage)
	g.route(unsubscribePattern, anyone, a.unsubscribe)
	g.route("GET /api/admin/at-risk", admin, a.atRisk)
	return nil
}

func (a *notifyAPI) settings(w http.ResponseWriter, r *http.Request) error {
	user := caller(r).UserID
	st, err := a.notify.SettingsOf(r.Context(), user)
	if err != nil {
		return err
	}
	ch, err := a.inbox.Channels(r.Context(), user)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, inbox.Preferences{Settings: st, Channels: ch})
	return nil
}

func (a *notifyAPI) updateSettings(w http.ResponseWriter, r *http.Request) error {
	var in inbox.PreferencesInput
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	// The channels are checked first, so a bad one changes nothing.
	if err := inbox.CheckChannels(in.Channels); err != nil {
		return err
	}
	user := caller(r).UserID
	st, err := a.notify.UpdateSettings(r.Context(), user, in.SettingsInput)
	if err != nil {
		return err
	}
	ch, err := a.inbox.SetChannels(r.Context(), user, in.Channels)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, inbox.Preferences{Settings: st, Channels: ch})
	return nil
}

func (a *notifyAPI) atRisk(w http.ResponseWriter, r *http.Request) error {
	list, err := a.notify.AtRisk(r.Context())
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, list)
	return nil
}

// confirmPage is what a person sees who opens the unsubscribe link: a
// question and a button. A GET never unsubscribes, since mail scanners and
// link previews open links nobody clicked.
func (a *notifyAPI) confirmPage(w http.ResponseWriter, r *http.Request) error {
	token := r.URL.Query().Get("token")
	_, kind, err := a.notify.CheckToken(r.Context(), token)
	page := unsubscribePage{Token: token}
	status := http.StatusOK
	if err != nil {
		// People get a page; a program asking without text/html, the error.
		if !isRefusal(err) || !acceptsHTML(r) {
			return err
		}
		page.Invalid, status = true, http.StatusBadRequest
	} else {
		page.Label = a.notify.Label(kind)
	}
	writeUnsubscribePage(w, status, page)
	return nil
}

// unsubscribe turns the mail off. Mail providers POST
// "List-Unsubscribe=One-Click" and read only the status; the confirm
// page's form posts the same and is answered with a page.
func (a *notifyAPI) unsubscribe(w http.ResponseWriter, r *http.Request) error {
	r.Body = http.MaxBytesReader(w, r.Body, 1024)
	done, err := a.notify.Unsubscribe(r.Context(), r.URL.Query().Get("token"))
	if !acceptsHTML(r) {
		if err != nil {
			return err
		}
		httpx.WriteJSON(w, http.StatusOK, done)
		return nil
	}
	if err != nil {
		if !isRefusal(err) {
			return err
		}
		writeUnsubscribePage(w, http.StatusBadRequest, unsubscribePage{Invalid: true})
		return nil
	}
	writeUnsubscribePage(w, http.StatusOK, unsubscribePage{Done: true, Label: done.Label})
	return nil
}

func isRefusal(err error) bool {
	var e *errs.Error
	return errors.As(err, &e)
}

func acceptsHTML(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/html")
}

type unsubscribePage struct {
	Token   string
	Label   string
	Invalid bool
	Done    bool
}

// The page stands alone (no script): it must work from any mail client's
// browser, and it is the only page a signed-out person reaches with a token.
var unsubscribeTemplate = template.Must(template.New("unsubscribe").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{{if .Done}}Unsubscribed{{else if .Invalid}}Link not valid{{else}}Unsubscribe{{end}} · rUv</title>
<style>
body{margin:0;background:#0a0a0a;color:#e4e4e7;font:16px/1.6 system-ui,-apple-system,"Segoe UI",sans-serif}
main{max-width:32rem;margin:0 auto;padding:4rem 1.25rem}
h1{font-size:1.5rem;line-height:1.3;margin:0 0 1rem;color:#fafafa}
p{margin:0 0 1rem}
a{color:#4ade80}
button{font:inherit;font-weight:600;background:#22c55e;color:#052e16;border:0;border-radius:.5rem;padding:.75rem 1.25rem;min-height:44px;cursor:pointer}
button:focus-visible,a:focus-visible{outline:3px solid #86efac;outline-offset:3px}
</style>
</head>
<body>
<main>
{{- if .Done}}
<h1>You are unsubscribed</h1>
<p role="status">You will no longer get {{.Label}} by e-mail.</p>
<p>Changed your mind? Turn it on again in your <a href="/members">profile</a>.</p>
{{- else if .Invalid}}
<h1>This link is not valid</h1>
<p>It may have been copied incompletely. You can choose which mail you get in your <a href="/members">profile</a>.</p>
{{- else}}
<h1>Stop {{.Label}}?</h1>
<p>You will no longer get {{.Label}} by e-mail. Other mail about your account is not affected.</p>
<form method="post" action="/api/unsubscribe?token={{.Token}}">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">Unsubscribe from {{.Label}}</button>
</form>
<p style="margin-top:1.5rem">Or choose which mail you get in your <a href="/members">profile</a>.</p>
{{- end}}
</main>
</body>
</html>
`))

func writeUnsubscribePage(w http.ResponseWriter, status int, p unsubscribePage) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	// The token is in the address: no other site learns it from a click.
	h.Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(status)
	_ = unsubscribeTemplate.Execute(w, p)
}

// noteVisits records that a signed-in member was seen, for the weekly
// digest and the at-risk list: on API requests (every page of the members
// area makes some), at most once an hour per member (notify.Touch).
func noteVisits(svc *notify.Service, logger *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p, ok := auth.PrincipalFrom(r.Context()); ok && strings.HasPrefix(r.URL.Path, "/api/") {
			if err := svc.Touch(r.Context(), p.UserID); err != nil && r.Context().Err() == nil {
				logger.Warn("record visit", "err", err)
			}
		}
		next.ServeHTTP(w, r)
	})
}
