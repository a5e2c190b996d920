package web

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"regexp"
	"strings"

	"tribe/internal/config"
	"tribe/internal/httpx"
	"tribe/internal/mail"
	"tribe/internal/store"
)

// devMailLimit is how many messages the development mailbox shows.
const devMailLimit = 200

// devMailTimeLayout matches the timestamps of the rest of the API.
const devMailTimeLayout = "2006-01-02T15:04:05.000Z"

// devMailAPI serves the development mailbox, served only without SMTP_URL
// and only by a server listening on a loopback address (TRIBE_ADDR such as
// 127.0.0.1:8080). It shows sign-in and reset links: a server listening on
// every interface is reachable from elsewhere, and a reverse proxy on the
// same machine makes every visitor a loopback peer (headers it forgets to
// add prove nothing), so checking the peer alone is not enough. It also
// answers only requests from a loopback address without forwarding headers.
type devMailAPI struct {
	db     *store.DB
	cfg    *config.Config
	logger *slog.Logger
}

func (a *devMailAPI) register(g *registrar) error {
	if a.cfg.SMTPURL != "" {
		return nil
	}
	if !loopbackListenAddr(a.cfg.Addr) {
		a.logger.Warn("SMTP_URL is not set: e-mail is NOT delivered, only written to the log. The development mailbox (/dev/mail) is off because TRIBE_ADDR listens beyond this machine; set TRIBE_ADDR=127.0.0.1:8080 to use it",
			"addr", a.cfg.Addr)
		return nil
	}
	a.logger.Warn("SMTP_URL is not set: e-mail is NOT delivered; messages are logged and kept in the development mailbox at /dev/mail (local requests only)")
	g.handle("GET /api/dev/mail", anyone, localOnly(true, handlerFunc(a.devMailJSON)))
	g.handle("GET /dev/mail", anyone, localOnly(false, http.HandlerFunc(a.devMailPage)))
	g.handle("GET /dev/mail/{id}", anyone, localOnly(false, http.HandlerFunc(a.devMailHTML)))
	return nil
}

// localOnly answers 404, as if the route did not exist, unless the request
// comes straight from a loopback address. A request that passed through a
// reverse proxy on this machine carries a forwarding header and is refused.
func localOnly(api bool, next http.Handler) http.Handler {
	return handlerFunc(func(w http.ResponseWriter, r *http.Request) error {
		if !directFromLoopback(r) {
			if api {
				return errNoEndpoint(r)
			}
			http.NotFound(w, r)
			return nil
		}
		next.ServeHTTP(w, r)
		return nil
	})
}

// loopbackListenAddr reports whether a listen address (host:port) binds
// loopback interfaces only: an address in 127.0.0.0/8, ::1, or "localhost".
// An empty host (":8080"), 0.0.0.0, :: and any other name or address may be
// reachable from other machines.
func loopbackListenAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

func isLoopback(remoteAddr string) bool {
	host, _, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		host = remoteAddr
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

type devMailItem struct {
	ID        string `json:"id"`
	To        string `json:"to"`
	Subject   string `json:"subject"`
	Text      string `json:"text"`
	HTML      string `json:"html"`
	Status    string `json:"status"`
	CreatedAt string `json:"created_at"`
}

func (a *devMailAPI) devMailJSON(w http.ResponseWriter, r *http.Request) error {
	list, err := mail.List(r.Context(), a.db, devMailLimit)
	if err != nil {
		return fmt.Errorf("development mailbox: %w", err)
	}
	items := make([]devMailItem, 0, len(list))
	for _, m := range list {
		items = append(items, devMailItem{ID: m.ID, To: m.To, Subject: m.Subject, Text: m.Text, HTML: m.HTML,
			Status: m.Status, CreatedAt: m.CreatedAt.UTC().Format(devMailTimeLayout)})
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"messages": items})
	return nil
}

// urlPattern finds the links in a text body so the page can make them clickable.
var urlPattern = regexp.MustCompile(`https?://[^\s<>"']+[^\s<>"'.,;:!?)\]]`)

// textPart is a run of plain text or a link in a text body.
type textPart struct{ Text, URL string }

func splitLinks(text string) []textPart {
	var parts []textPart
	last := 0
	for _, loc := range urlPattern.FindAllStringIndex(text, -1) {
		if loc[0] > last {
			parts = append(parts, textPart{Text: text[last:loc[0]]})
		}
		parts = append(parts, textPart{URL: text[loc[0]:loc[1]]})
		last = loc[1]
	}
	if last < len(text) {
		parts = append(parts, textPart{Text: text[last:]})
	}
	return parts
}

var devMailTemplate = template.Must(template.New("devmail").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Development mailbox</title>
</head>
<body style="margin:0;background:#f4f4f5;color:#18181b;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;line-height:1.5;">
<main style="max-width:52rem;margin:0 auto;padding:1.5rem 1rem;">
<h1 style="font-size:1.5rem;margin:0 0 0.5rem;">Development mailbox</h1>
<p role="note" style="margin:0 0 1.5rem;padding:0.75rem 1rem;background:#fef3c7;border:1px solid #f59e0b;border-radius:0.375rem;">
E-mail is <strong>not being delivered</strong>: SMTP_URL is not set. Every message the site sends is kept here,
newest first ({{len .}} shown). Reload the page to see new ones.</p>
{{- if not .}}
<p>No messages yet.</p>
{{- end}}
{{- range .}}
<article aria-labelledby="m-{{.ID}}" style="background:#fff;border:1px solid #e4e4e7;border-radius:0.5rem;padding:1rem;margin:0 0 1rem;">
<h2 id="m-{{.ID}}" style="font-size:1.125rem;margin:0 0 0.5rem;overflow-wrap:anywhere;">{{.Subject}}</h2>
<dl style="display:grid;grid-template-columns:max-content 1fr;gap:0.125rem 0.75rem;margin:0 0 0.75rem;font-size:0.875rem;">
<dt style="color:#52525b;">To</dt><dd style="margin:0;overflow-wrap:anywhere;">{{.To}}</dd>
<dt style="color:#52525b;">Time</dt><dd style="margin:0;"><time datetime="{{.Time}}">{{.Time}}</time></dd>
<dt style="color:#52525b;">Status</dt><dd style="margin:0;">{{.Status}}{{if .LastError}} ({{.LastError}}){{end}}</dd>
</dl>
<pre style="white-space:pre-wrap;overflow-wrap:anywhere;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:0.875rem;background:#fafafa;border:1px solid #e4e4e7;border-radius:0.375rem;padding:0.75rem;margin:0;">
{{- range .Parts}}{{if .URL}}<a href="{{.URL}}" style="color:#1d4ed8;">{{.URL}}</a>{{else}}{{.Text}}{{end}}{{end -}}
</pre>
{{- if .HasHTML}}
<p style="margin:0.75rem 0 0;"><a href="/dev/mail/{{.ID}}" style="color:#1d4ed8;">View the HTML version<span style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);"> of “{{.Subject}}”</span></a></p>
{{- end}}
</article>
{{- end}}
</main>
</body>
</html>
`))

type devMailView struct {
	ID, To, Subject, Status, LastError, Time string
	Parts                                    []textPart
	HasHTML                                  bool
}

func (a *devMailAPI) devMailPage(w http.ResponseWriter, r *http.Request) {
	list, err := mail.List(r.Context(), a.db, devMailLimit)
	if err != nil {
		a.logger.Error("development mailbox", "err", err)
		http.Error(w, "Could not read the mailbox.", http.StatusInternalServerError)
		return
	}
	views := make([]devMailView, 0, len(list))
	for _, m := range list {
		views = append(views, devMailView{ID: m.ID, To: m.To, Subject: m.Subject, Status: m.Status, LastError: m.LastError,
			Time: m.CreatedAt.UTC().Format(devMailTimeLayout), Parts: splitLinks(m.Text), HasHTML: m.HTML != ""})
	}
	var b bytes.Buffer
	if err := devMailTemplate.Execute(&b, views); err != nil {
		a.logger.Error("development mailbox page", "err", err)
		http.Error(w, "Could not show the mailbox.", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(b.Bytes())
}

// devMailHTML shows a message's HTML body as the mail client would. The body
// is the site's own, yet it is served sandboxed (no scripts, no same-origin
// access) so nothing in a message can act on the site.
func (a *devMailAPI) devMailHTML(w http.ResponseWriter, r *http.Request) {
	m, err := mail.Get(r.Context(), a.db, r.PathValue("id"))
	if errors.Is(err, mail.ErrNotFound) {
		http.NotFound(w, r)
		return
	}
	if err != nil {
		a.logger.Error("development mailbox message", "err", err)
		http.Error(w, "Could not read the message.", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Security-Policy", "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data: https:")
	h.Set("Cache-Control", "no-store")
	if m.HTML == "" {
		h.Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte(m.Text))
		return
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write([]byte(m.HTML))
}
