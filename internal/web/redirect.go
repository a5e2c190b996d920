package web

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// sameSitePath reports whether p, a decoded path, is safe as a redirect
// target on this site: it starts with one "/" that no "/" or "\" follows.
// "//host" is another site to every browser, and browsers read "\" as "/"
// and drop tabs and line breaks from URLs ("/\t/host" becomes "//host"), so
// any backslash or control character makes the path unsafe too.
func sameSitePath(p string) bool {
	if p == "" || p[0] != '/' || strings.HasPrefix(p, "//") || strings.ContainsRune(p, '\\') || !utf8.ValidString(p) {
		return false
	}
	return !strings.ContainsFunc(p, unicode.IsControl)
}
