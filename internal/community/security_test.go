package community

import (
	"context"
	"errors"
	"testing"
	"time"

	"tribe/internal/access"
	"tribe/internal/errs"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// TestNameSetBeforeTheAddressWasProvenIsFlagged: a name typed while the
// address was unproven shows as unverified once the address is confirmed
// (by its real owner's password reset), until the owner saves a name.
func TestNameSetBeforeTheAddressWasProvenIsFlagged(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		u := addUser(t, db, "owner@example.com")
		// Saved before the address is confirmed: not unverified yet (the
		// person who typed it is the only one signed in), but not proven.
		p, err := UpdateProfile(ctx, db, u, ProfileUpdate{FullName: ptr("Mallory Impostor")})
		if err != nil || p.NameUnverified {
			t.Fatalf("unconfirmed account: %+v %v", p, err)
		}
		// The owner proves the address (what a reset does to these rows).
		if _, err := db.Write.ExecContext(ctx, `UPDATE users SET email_confirmed_at = $1 WHERE id = $2`, store.Now(), u); err != nil {
			t.Fatal(err)
		}
		if p, _ := GetProfile(ctx, db, u); !p.NameUnverified {
			t.Fatal("a name set before the address was proven must be reported as unverified")
		}
		// Saving other fields leaves the question open; saving the name answers it.
		if p, _ := UpdateProfile(ctx, db, u, ProfileUpdate{Bio: ptr("hello")}); !p.NameUnverified {
			t.Fatal("saving the bio must not verify the name")
		}
		if p, _ := UpdateProfile(ctx, db, u, ProfileUpdate{FullName: ptr("Ada Owner")}); p.NameUnverified || p.FullName != "Ada Owner" {
			t.Fatalf("after the owner saves a name: %+v", p)
		}
	})
}

// wantField checks that err is an *errs.Error about field with message.
func wantField(t *testing.T, err error, field, message string) {
	t.Helper()
	var e *errs.Error
	if !errors.As(err, &e) || e.Code != errs.Invalid || e.Field != field || e.Message != message {
		t.Fatalf("error %#v, want invalid %s: %q", err, field, message)
	}
}

// TestProfileAndCohortNamesFollowSignUpRules: a profile could be saved with
// a blank name, a name of zero-width spaces or control characters, and a
// cohort too; both now follow the sign-up rules (auth.CheckName).
func TestProfileAndCohortNamesFollowSignUpRules(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		u := addUser(t, db, "ada@example.com")
		for _, name := range []string{"", "  ", "\u200B", "\u2060", "\u3164", "\uFEFF\u200B"} {
			_, err := UpdateProfile(ctx, db, u, ProfileUpdate{FullName: ptr(name)})
			wantField(t, err, "full_name", "Full name is required.")
		}
		_, err := UpdateProfile(ctx, db, u, ProfileUpdate{FullName: ptr("Ada\x1b[2J"), Bio: ptr("kept?")})
		wantField(t, err, "full_name", "Full name cannot contain control characters.")
		if p, _ := GetProfile(ctx, db, u); p.FullName != "ada" || p.Bio != "" {
			t.Fatalf("a refused name changed the profile: %+v", p)
		}
		// Other fields may still be cleared, and a real name is taken.
		if p, err := UpdateProfile(ctx, db, u, ProfileUpdate{FullName: ptr(" Ada Lovelace "), Bio: ptr("")}); err != nil || p.FullName != "Ada Lovelace" {
			t.Fatalf("valid name: %+v %v", p, err)
		}

		for _, name := range []string{"\u200B", "\u3164\u3164"} {
			_, err := CreateCohort(ctx, db, u, CohortInput{Name: name})
			wantField(t, err, "name", "Cohort name is required.")
		}
		_, err = CreateCohort(ctx, db, u, CohortInput{Name: "Agents\u0007"})
		wantField(t, err, "name", "Cohort name cannot contain control characters.")
		if n := count(t, db, `SELECT COUNT(*) FROM cohorts`); n != 0 {
			t.Fatalf("%d cohorts made with bad names", n)
		}
	})
}

// TestCohortURLsWithCredentialsAreRefused: a cohort link such as
// https://user:pass@host would show a password to every member.
func TestCohortURLsWithCredentialsAreRefused(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		u := addUser(t, db, "ada@example.com")
		const msg = "Links must not contain a user name or password (user:password@)."
		for _, in := range []struct {
			input CohortInput
			field string
		}{
			{CohortInput{Name: "A", GitHubURL: "https://user:pass@github.com/org/repo"}, "github_url"},
			{CohortInput{Name: "A", GitHubURL: "https://token@github.com/org/repo"}, "github_url"},
			{CohortInput{Name: "A", HomepageURL: "http://admin:@example.com/"}, "homepage_url"},
			{CohortInput{Name: "A", HomepageURL: "https://:secret@example.com/"}, "homepage_url"},
		} {
			_, err := CreateCohort(ctx, db, u, in.input)
			wantField(t, err, in.field, msg)
		}
		c, err := CreateCohort(ctx, db, u, CohortInput{Name: "A", GitHubURL: "https://github.com/org/repo", HomepageURL: "https://example.com/@team"})
		if err != nil || *c.GitHubURL != "https://github.com/org/repo" {
			t.Fatalf("plain links: %+v %v", c, err)
		}
		_, err = UpdateCohort(ctx, db, u, c.ID, CohortInput{Name: "A", GitHubURL: "https://u:p@github.com/x"})
		wantField(t, err, "github_url", msg)
	})
}

// TestStatusOfAPastSession: an admin could "cancel" (or reschedule, or mark
// live) a session that is already over. Once over, a session can only be
// marked completed (or keep the status it has).
func TestStatusOfAPastSession(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		past := validSession()
		past.Date = "2020-01-07"
		p, err := CreateSession(ctx, db, "", past)
		if err != nil {
			t.Fatal(err)
		}
		for _, status := range []string{"cancelled", "live"} {
			_, err := SetSessionStatus(ctx, db, p.ID, status, time.Now())
			wantField(t, err, "status", "This session is over: it can only be marked completed.")
		}
		if s, _ := GetSession(ctx, db, access.Viewer{Admin: true}, p.ID, time.Now()); s.Status != "scheduled" {
			t.Fatalf("a refused change was stored: %s", s.Status)
		}
		if s, err := SetSessionStatus(ctx, db, p.ID, "scheduled", time.Now()); err != nil || s.Status != "scheduled" {
			t.Fatalf("keeping the status it has: %v", err)
		}
		if s, err := SetSessionStatus(ctx, db, p.ID, " completed ", time.Now()); err != nil || s.Status != "completed" {
			t.Fatalf("completing a past session: %+v %v", s, err)
		}
		// A session still to come may be cancelled.
		next := validSession()
		next.Date = time.Now().AddDate(0, 1, 0).Format(time.DateOnly)
		n, err := CreateSession(ctx, db, "", next)
		if err != nil {
			t.Fatal(err)
		}
		// "Ended" is the caller's clock's: a month on, the same session is over.
		if _, err := SetSessionStatus(ctx, db, n.ID, "cancelled", time.Now().AddDate(0, 1, 2)); !errs.Is(err, errs.Invalid) {
			t.Fatalf("cancelling a session the clock says is over: %v", err)
		}
		if s, err := SetSessionStatus(ctx, db, n.ID, "cancelled", time.Now()); err != nil || s.Status != "cancelled" {
			t.Fatalf("cancelling an upcoming session: %v", err)
		}
		if _, err := SetSessionStatus(ctx, db, store.NewID(), "completed", time.Now()); !errs.Is(err, errs.NotFound) {
			t.Fatalf("unknown session: %v", err)
		}
	})
}
