package web

import (
	"strings"
	"testing"
)

// TestRedactPath: what a request log line may show. Calendar-feed tokens are
// the credential in their path; reset and confirmation tokens ride in query
// strings (/auth/confirm?token=…, /auth?reset=true&token=…).
func TestRedactPath(t *testing.T) {
	t.Parallel()
	const feed = "Q2FsZW5kYXIgZmVlZCB0b2tlbiBvZiA0MyBjaGFycy4x" // 43 base64url characters, like CreateFeed's
	cases := []struct{ path, query, want string }{
		{"/calendar/" + feed + ".ics", "", "/calendar/[redacted].ics"},
		{"/calendar/short.ics", "", "/calendar/[redacted].ics"},
		{"/calendar/" + feed, "", "/calendar/[redacted]"},
		{"/calendar/", "", "/calendar/"},
		{"/auth/confirm", "token=abc123", "/auth/confirm?token=[redacted]"},
		{"/auth", "reset=true&token=s3cr3t-_x", "/auth?reset=true&token=[redacted]"},
		{"/auth", "TOKEN=s3cr3t&Token=again", "/auth?TOKEN=[redacted]&Token=[redacted]"},
		{"/auth", "to%6Ben=s3cr3t", "/auth?to%6Ben=[redacted]"},
		{"/auth", "token=", "/auth?token="},
		{"/x", "access_token=a&refresh_token=b&id_token=c&code=d&state=e", "/x?access_token=[redacted]&refresh_token=[redacted]&id_token=[redacted]&code=[redacted]&state=e"},
		{"/x", "password=p&api_key=k&apikey=k&secret=s&client_secret=s&signature=g&sig=g&session_id=cs_1", "/x?password=[redacted]&api_key=[redacted]&apikey=[redacted]&secret=[redacted]&client_secret=[redacted]&signature=[redacted]&sig=[redacted]&session_id=[redacted]"},
		{"/members", "confirmed=true&tab=profile", "/members?confirmed=true&tab=profile"},
		{"/members", "success=true&&x", "/members?success=true&&x"},
		{"/about", "", "/about"},
		{"/auth", "token=%zz", "/auth?token=[redacted]"},
		// A long token-like run anywhere in a path is hidden; ids and avatar names stay.
		{"/api/tokens/" + feed, "", "/api/tokens/[redacted]"},
		{"/api/sessions/3f9c2a1e-8b7d-4c6e-9f0a-1b2c3d4e5f60", "", "/api/sessions/3f9c2a1e-8b7d-4c6e-9f0a-1b2c3d4e5f60"},
		{"/avatars/0123456789abcdef0123456789abcdef.jpg", "", "/avatars/0123456789abcdef0123456789abcdef.jpg"},
	}
	for _, c := range cases {
		if got := redactPath(c.path, c.query); got != c.want {
			t.Errorf("redactPath(%q, %q) = %q, want %q", c.path, c.query, got, c.want)
		}
	}
	if got := redactPath("/calendar/"+feed+".ics", "token="+feed); strings.Contains(got, feed) {
		t.Errorf("a token survived: %q", got)
	}
}
