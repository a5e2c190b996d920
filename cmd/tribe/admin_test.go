package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"tribe/internal/auth"
	"tribe/internal/store/storetest"
)

func TestAdminCommand(t *testing.T) {
	for _, e := range storetest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			dbURL, dir, admin := adminCLI(t, e, map[string]string{"TRIBE_ADMIN_EMAILS": "owner@example.com"})
			if code, out, _ := admin("list"); code != 0 || !strings.HasPrefix(out, "No admins yet") {
				t.Fatalf("list on an empty database: %d %q", code, out)
			}

			db := storetest.Open(t, dbURL, dir)
			ctx := context.Background()
			svc := auth.New(db, auth.Config{BaseURL: "http://localhost:8080"}, auth.WithParams(auth.Params{Memory: 1024, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}))
			ada, adaTok, err := svc.SignUp(ctx, auth.SignUpInput{FullName: "Ada", Email: "Ada@Example.com", Password: "analytical"}, auth.Client{})
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := svc.SignUp(ctx, auth.SignUpInput{FullName: "Owner", Email: "owner@example.com", Password: "password1"}, auth.Client{}); err != nil {
				t.Fatal(err)
			}

			code, out, _ := admin("grant", " ADA@example.com")
			if code != 0 || out != "Ada@example.com is now an admin (operator grant). It takes effect once the address is confirmed." {
				t.Fatalf("grant: %d %q", code, out)
			}
			if code, out, _ := admin("grant", "ada@example.com"); code != 0 || !strings.Contains(out, "already has an operator grant") {
				t.Fatalf("second grant: %d %q", code, out)
			}
			if p, _, _ := svc.Authenticate(ctx, adaTok); p == nil || p.Admin {
				t.Fatal("the grant must wait for a confirmed address")
			}
			if _, err := db.Write.ExecContext(ctx, `UPDATE users SET email_confirmed_at = $1 WHERE id = $2`, "2026-01-01T00:00:00.000Z", ada.ID); err != nil {
				t.Fatal(err)
			}
			if p, _, _ := svc.Authenticate(ctx, adaTok); p == nil || !p.Admin {
				t.Fatal("a confirmed address with a grant is an admin")
			}

			code, out, _ = admin("list")
			want := "Ada@example.com\tadmin\t(operator grant)\nowner@example.com\tnot yet: address unconfirmed\t(TRIBE_ADMIN_EMAILS)"
			if code != 0 || out != want {
				t.Fatalf("list: %d\n%q\nwant\n%q", code, out, want)
			}

			if code, out, _ := admin("revoke", "ada@example.com"); code != 0 || out != "Removed the operator grant of ada@example.com." {
				t.Fatalf("revoke: %d %q", code, out)
			}
			if p, _, _ := svc.Authenticate(ctx, adaTok); p.Admin {
				t.Fatal("revoked, yet still an admin")
			}
			if code, out, _ := admin("revoke", "owner@example.com"); code != 0 || !strings.Contains(out, "had no operator grant") || !strings.Contains(out, "still makes it an admin") {
				t.Fatalf("revoke of a configured admin: %d %q", code, out)
			}

			if code, _, errOut := admin("grant", "nobody@example.com"); code != 1 || errOut != "tribe admin grant: no account has the e-mail address nobody@example.com; the person must sign up first" {
				t.Fatalf("unknown address: %d %q", code, errOut)
			}
			if code, _, errOut := admin("revoke", "nobody@example.com"); code != 1 || !strings.Contains(errOut, "no account has the e-mail address") {
				t.Fatalf("revoke unknown: %d %q", code, errOut)
			}
			// A look-alike spelling of Ada's address names no account and
			// never reaches hers (U+0130 İ, the Kelvin sign, full width).
			for _, typed := range []string{"\u0130da@example.com", "\u212Ada@example.com", "\uff41da@example.com"} {
				for _, sub := range []string{"grant", "revoke", "comp", "uncomp"} {
					if code, _, errOut := admin(sub, typed); code != 1 || !strings.Contains(errOut, "part before the @") {
						t.Errorf("%s %q: %d %q", sub, typed, code, errOut)
					}
				}
			}
			for _, bad := range [][]string{{"grant"}, {"grant", "a@b.c", "d@e.f"}, {"list", "x"}, {"promote", "a@b.c"}} {
				if code, _, errOut := admin(bad...); code != 2 || errOut == "" {
					t.Errorf("%v: %d %q", bad, code, errOut)
				}
			}
			if code, out, _ := admin("help"); code != 0 || !strings.Contains(out, "tribe admin grant EMAIL") {
				t.Fatalf("help: %d %q", code, out)
			}
		})
	}
}

func TestUsageListsAdmin(t *testing.T) {
	var out, errb bytes.Buffer
	run([]string{"help"}, &out, &errb)
	if !strings.Contains(out.String(), "tribe admin") {
		t.Fatalf("usage lacks the admin command:\n%s", out.String())
	}
}

// adminCLI points this test's process at a new database of engine e, with
// env on top of a configuration that has no admins and reads no .env, and
// returns the database and a runner of `tribe admin ARGS` answering its exit
// code, standard output and standard error.
func adminCLI(t *testing.T, e storetest.Engine, env map[string]string) (dbURL, dataDir string, admin func(args ...string) (int, string, string)) {
	t.Helper()
	dbURL, dataDir = e.New(t)
	t.Setenv("DATABASE_URL", dbURL)
	t.Setenv("TRIBE_DATA_DIR", dataDir)
	t.Setenv("TRIBE_ADMIN_EMAILS", "")
	t.Setenv("TRIBE_ADMIN_DOMAIN", "")
	for k, v := range env {
		t.Setenv(k, v)
	}
	t.Chdir(t.TempDir()) // no stray .env
	return dbURL, dataDir, func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := run(append([]string{"admin"}, args...), &out, &errb)
		return code, strings.TrimSpace(out.String()), strings.TrimSpace(errb.String())
	}
}
