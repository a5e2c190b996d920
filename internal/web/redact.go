package web

import (
	"net/url"
	"strings"
)

// redacted stands for a secret in a log line.
const redacted = "[redacted]"

// feedPrefix is where a calendar feed's token is the path itself
// (/calendar/{token}.ics; see routes_members.go).
const feedPrefix = "/calendar/"

// minTokenRun is the shortest run of URL-safe base64 characters taken for a
// token anywhere in a path: the site's tokens are 43 (32 random bytes),
// while ids (36, with dashes) and avatar names (32 hex) are shorter.
const minTokenRun = 40

// secretParams are query parameter names whose values are credentials or
// one-time links: mailed link tokens, OAuth-style codes and tokens, keys,
// passwords, signatures and payment session ids. Names are compared
// lower-cased; a name containing one of secretParamParts also counts.
var secretParams = map[string]bool{"code": true, "sig": true, "key": true, "auth": true}

var secretParamParts = []string{"token", "password", "passwd", "secret", "api_key", "apikey", "signature", "session", "credential"}

// redactPath is a request's path and query as a log line may show them:
// the calendar-feed token in the path, any token-like run of 40 or more
// URL-safe characters in the path, and the values of secret-looking query
// parameters are replaced by "[redacted]". Everything else is kept as sent,
// so the line still tells which page was asked for.
func redactPath(path, rawQuery string) string {
	if rest, ok := strings.CutPrefix(path, feedPrefix); ok && rest != "" {
		ext := ""
		if strings.HasSuffix(rest, ".ics") {
			ext = ".ics"
		}
		path = feedPrefix + redacted + ext
	} else {
		path = redactTokenRuns(path)
	}
	if rawQuery == "" {
		return path
	}
	pairs := strings.Split(rawQuery, "&")
	for i, pair := range pairs {
		name, value, ok := strings.Cut(pair, "=")
		if !ok || value == "" {
			continue
		}
		if secretParam(name) {
			pairs[i] = name + "=" + redacted
		}
	}
	return path + "?" + strings.Join(pairs, "&")
}

// secretParam reports whether a query parameter name, as sent (maybe
// percent-encoded), names a secret.
func secretParam(raw string) bool {
	name, err := url.QueryUnescape(raw)
	if err != nil {
		name = raw
	}
	name = strings.ToLower(strings.TrimSpace(name))
	if secretParams[name] {
		return true
	}
	for _, part := range secretParamParts {
		if strings.Contains(name, part) {
			return true
		}
	}
	return false
}

// redactTokenRuns replaces every run of at least minTokenRun URL-safe
// base64 characters in p.
func redactTokenRuns(p string) string {
	var b strings.Builder
	run := 0
	flush := func(end int) {
		if run >= minTokenRun {
			b.WriteString(redacted)
		} else {
			b.WriteString(p[end-run : end])
		}
		run = 0
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' {
			run++
			continue
		}
		flush(i)
		b.WriteByte(c)
	}
	flush(len(p))
	return b.String()
}
