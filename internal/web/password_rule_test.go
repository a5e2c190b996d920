package web

import (
	"os"
	"regexp"
	"strconv"
	"testing"

	"tribe/internal/auth"
)

// TestFormsStateTheServersPasswordMinimum: sign-up and reset say "At least
// N characters." before the visitor submits (DESIGN.md, differences 12),
// with N the web app's SERVER_PASSWORD_MIN; it must be the server's rule, or
// the forms promise a length the server refuses.
func TestFormsStateTheServersPasswordMinimum(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("../../web/src/features/auth/validate.ts")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`export const SERVER_PASSWORD_MIN = (\d+);`).FindSubmatch(src)
	if m == nil {
		t.Fatal("validate.ts no longer declares SERVER_PASSWORD_MIN")
	}
	if got, want := string(m[1]), strconv.Itoa(auth.MinPasswordLen); got != want {
		t.Errorf("the web app says passwords need %s characters, the server %s", got, want)
	}
}
