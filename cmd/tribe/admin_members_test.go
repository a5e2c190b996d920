package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"tribe/internal/auth"
	"tribe/internal/billing"
	"tribe/internal/config"
	"tribe/internal/mail"
	"tribe/internal/store/storetest"
)

func TestAdminCompCommands(t *testing.T) {
	for _, e := range storetest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			dbURL, dir, admin := adminCLI(t, e, map[string]string{"TRIBE_CAPACITY": "2"})
			if code, out, _ := admin("members"); code != 0 || out != "No members yet (0 of 2 seats)." {
				t.Fatalf("members on an empty database: %d %q", code, out)
			}
			db := storetest.Open(t, dbURL, dir)
			ctx := context.Background()
			svc := auth.New(db, auth.Config{BaseURL: "http://localhost:8080"}, auth.WithParams(auth.Params{Memory: 1024, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}))
			ids := map[string]string{}
			for _, who := range []string{"Ada", "Bob", "Cy"} {
				u, _, err := svc.SignUp(ctx, auth.SignUpInput{FullName: who, Email: strings.ToLower(who) + "@example.com", Password: "password1"}, auth.Client{})
				if err != nil {
					t.Fatal(err)
				}
				ids[who] = u.ID
			}
			bill := billing.New(db, &config.Config{Capacity: 2})

			until := time.Now().UTC().AddDate(0, 1, 0).Format("2006-01-02")
			code, out, errOut := admin("comp", "ADA@example.com", "--until", until)
			day, _ := time.Parse("2006-01-02", until)
			if code != 0 || out != "ada@example.com is now a complimentary member through "+day.Format("January 2, 2006")+" (UTC)." {
				t.Fatalf("comp: %d %q %q", code, out, errOut)
			}
			s, err := bill.Subscription(ctx, ids["Ada"])
			if err != nil || !s.Active() || !s.Complimentary || !s.CurrentPeriodEnd.Equal(day.AddDate(0, 0, 1)) {
				t.Fatalf("Ada after comp: %+v %v", s, err)
			}
			if code, out, _ := admin("comp", "--until="+until, "bob@example.com"); code != 0 || !strings.HasPrefix(out, "bob@example.com is now") {
				t.Fatalf("comp bob: %d %q", code, out)
			}
			// Two seats, two complimentary members: the tribe is full.
			if code, _, errOut := admin("comp", "cy@example.com"); code != 1 || !strings.Contains(errOut, "The tribe is full") {
				t.Fatalf("comp at capacity: %d %q", code, errOut)
			}
			code, out, _ = admin("members")
			if code != 0 || !strings.Contains(out, "ada@example.com") || !strings.Contains(out, "until "+until) || !strings.HasSuffix(out, "2 of 2 seats taken.") {
				t.Fatalf("members: %d\n%s", code, out)
			}
			if code, out, _ := admin("uncomp", "bob@example.com"); code != 0 || out != "bob@example.com is no longer a complimentary member." {
				t.Fatalf("uncomp: %d %q", code, out)
			}
			if code, _, errOut := admin("uncomp", "bob@example.com"); code != 1 || !strings.Contains(errOut, "no complimentary membership") {
				t.Fatalf("uncomp twice: %d %q", code, errOut)
			}
			if code, out, _ := admin("comp", "cy@example.com"); code != 0 || out != "cy@example.com is now a complimentary member without an end date." {
				t.Fatalf("comp cy once a seat is free: %d %q", code, out)
			}
			msgs, _ := mail.List(ctx, db, 100)
			welcomes := 0
			for _, m := range msgs {
				if m.Subject == "Welcome to the tribe" {
					welcomes++
				}
			}
			if welcomes != 3 {
				t.Errorf("%d welcome mails, want one per complimentary member (3)", welcomes)
			}
			for _, bad := range [][]string{
				{"comp"}, {"comp", "a@b.c", "d@e.f"}, {"comp", "a@b.c", "--until"}, {"comp", "a@b.c", "--until", "31/01/2027"},
				{"comp", "a@b.c", "--forever"}, {"uncomp"}, {"members", "x"},
			} {
				if code, _, errOut := admin(bad...); code != 2 || errOut == "" {
					t.Errorf("%v: %d %q", bad, code, errOut)
				}
			}
			if code, _, errOut := admin("comp", "nobody@example.com"); code != 1 || !strings.Contains(errOut, "no account has the e-mail address") {
				t.Fatalf("comp unknown: %d %q", code, errOut)
			}
			if code, _, errOut := admin("comp", "ada@example.com", "--until", "2000-01-01"); code != 1 || !strings.Contains(errOut, "in the future") {
				t.Fatalf("comp until the past: %d %q", code, errOut)
			}
		})
	}
}
