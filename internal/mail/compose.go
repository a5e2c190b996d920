package mail

import (
	"bytes"
	"html/template"
	"strings"
)

// Content is the text of one e-mail for Compose. Every field is plain text;
// Compose escapes it for HTML.
type Content struct {
	To      string
	Subject string
	// Heading is the first line, in large type in the HTML body.
	Heading string
	// Paragraphs follow the heading, one per element.
	Paragraphs []string
	// Button, when set, is the call to action: a button in HTML, and in the
	// plain text the label followed by the URL on its own line, so it can be
	// copied.
	Button *Link
	// Footer is small print under the message, e.g. why it was sent.
	Footer string
}

// Link is a labelled absolute URL.
type Link struct {
	Label string
	URL   string
}

// Compose turns c into a Message with a plain-text body and a matching HTML
// body (inline styles only, as mail clients ignore style sheets), both signed
// with SiteName. Queue the result with Enqueue, for example:
//
//	m := mail.Compose(mail.Content{
//		To:         user.Email,
//		Subject:    "Confirm your e-mail address",
//		Heading:    "Welcome, " + user.FullName,
//		Paragraphs: []string{"Please confirm your address to finish signing up."},
//		Button:     &mail.Link{Label: "Confirm my address", URL: link},
//		Footer:     "You received this because someone signed up with this address.",
//	})
//	_, err := mail.Enqueue(ctx, tx, m)
func Compose(c Content) Message {
	return Message{To: c.To, Subject: c.Subject, Text: composeText(c), HTML: composeHTML(c)}
}

func composeText(c Content) string {
	var b strings.Builder
	if c.Heading != "" {
		b.WriteString(c.Heading + "\n\n")
	}
	for _, p := range c.Paragraphs {
		b.WriteString(p + "\n\n")
	}
	if c.Button != nil {
		b.WriteString(c.Button.Label + ":\n" + c.Button.URL + "\n\n")
	}
	b.WriteString("— " + SiteName + "\n")
	if c.Footer != "" {
		b.WriteString("\n" + c.Footer + "\n")
	}
	return b.String()
}

var htmlTemplate = template.Must(template.New("mail").Parse(`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>{{.Subject}}</title></head>
<body style="margin:0;padding:0;background:#f4f4f5;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#18181b;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f4f5;padding:24px 12px;">
<tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;padding:32px 28px;">
<tr><td>
<p style="margin:0 0 24px;font-size:14px;font-weight:700;letter-spacing:0.04em;color:#52525b;">{{.Site}}</p>
{{- if .Heading}}
<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:#18181b;">{{.Heading}}</h1>
{{- end}}
{{- range .Paragraphs}}
<p style="margin:0 0 16px;font-size:16px;line-height:1.6;">{{.}}</p>
{{- end}}
{{- with .Button}}
<p style="margin:24px 0;"><a href="{{.URL}}" style="display:inline-block;background:#18181b;color:#ffffff;text-decoration:none;font-weight:600;font-size:16px;padding:12px 20px;border-radius:6px;">{{.Label}}</a></p>
<p style="margin:0 0 16px;font-size:13px;line-height:1.5;color:#52525b;">If the button does not work, open this address:<br><a href="{{.URL}}" style="color:#18181b;word-break:break-all;">{{.URL}}</a></p>
{{- end}}
<p style="margin:24px 0 0;font-size:16px;">— {{.Site}}</p>
</td></tr>
</table>
{{- if .Footer}}
<p style="max-width:560px;margin:16px auto 0;font-size:12px;line-height:1.5;color:#71717a;">{{.Footer}}</p>
{{- end}}
</td></tr>
</table>
</body>
</html>
`))

func composeHTML(c Content) string {
	var b bytes.Buffer
	data := struct {
		Content
		Site string
	}{c, SiteName}
	if err := htmlTemplate.Execute(&b, data); err != nil {
		// The template is fixed and its data is plain strings, so this cannot
		// happen short of a programming error; the text body still goes out.
		return ""
	}
	return b.String()
}
