package waitlist

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"tribe/internal/csvx"
	"tribe/internal/errs"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

func TestJoinDeduplicatesAndMailsOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		added, err := Join(ctx, db, " Ada Lovelace ", "Ada@Example.com", "https://ruv.example")
		if err != nil || !added {
			t.Fatalf("first join: %v %v", added, err)
		}
		// Concurrent joins with the same address in other spellings add nothing.
		var wg sync.WaitGroup
		for i := range 10 {
			wg.Go(func() {
				added, err := Join(ctx, db, "Ada", strings.Repeat(" ", i)+"ada@EXAMPLE.com", "https://ruv.example")
				if err != nil || added {
					t.Errorf("repeat join: %v %v", added, err)
				}
			})
		}
		wg.Wait()
		var mails int
		var subject, text string
		_ = db.Read.QueryRow(`SELECT COUNT(*) FROM mail_outbox`).Scan(&mails)
		_ = db.Read.QueryRow(`SELECT subject, text_body FROM mail_outbox`).Scan(&subject, &text)
		if mails != 1 || subject != "You're on the tribe wait list" || !strings.Contains(text, "https://ruv.example/tribe") {
			t.Fatalf("%d mails, %q:\n%s", mails, subject, text)
		}
		if _, err := Join(ctx, db, "Grace", "grace@example.com", "https://ruv.example"); err != nil {
			t.Fatal(err)
		}
		list, err := List(ctx, db)
		if err != nil || len(list) != 2 {
			t.Fatalf("list: %v %v", list, err)
		}
		if list[0].Email != "grace@example.com" || list[1].FullName != "Ada Lovelace" || list[1].Email != "Ada@example.com" {
			t.Fatalf("newest first: %+v", list)
		}
		if time.Since(list[1].CreatedAt) > time.Minute {
			t.Fatalf("created_at %v", list[1].CreatedAt)
		}
	})
}

func TestJoinValidates(t *testing.T) {
	db := storetest.Open(t, "", t.TempDir())
	for _, c := range [][2]string{{"", "a@b.co"}, {"Ada", "not an address"}, {strings.Repeat("x", 121), "a@b.co"}} {
		_, err := Join(context.Background(), db, c[0], c[1], "")
		var v *errs.Error
		if !errors.As(err, &v) {
			t.Errorf("%q: %v, want a validation error", c, err)
		}
	}
	if list, _ := List(context.Background(), db); len(list) != 0 {
		t.Fatal("invalid joins were stored")
	}
}

// TestCSVQuotesAndNeutralisesFormulas: the wait list once wrote bare LF
// line ends; it now writes RFC 4180's CRLF like every other export.
func TestCSVQuotesAndNeutralisesFormulas(t *testing.T) {
	at := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	var b bytes.Buffer
	err := WriteCSV(csvx.NewWriter(&b), []Entry{
		{FullName: "=1+1", Email: "a@b.co", CreatedAt: at},
		{FullName: `Lovelace, "Ada"`, Email: "+x@b.co", CreatedAt: at},
		{FullName: "-cmd", Email: "@SUM(A1)", CreatedAt: at},
		{FullName: "Plain", Email: "p@b.co", CreatedAt: at},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "full_name,email,joined_at\r\n" +
		"'=1+1,a@b.co,2026-11-23T10:00:00.000Z\r\n" +
		`"Lovelace, ""Ada""",'+x@b.co,2026-11-23T10:00:00.000Z` + "\r\n" +
		"'-cmd,'@SUM(A1),2026-11-23T10:00:00.000Z\r\n" +
		"Plain,p@b.co,2026-11-23T10:00:00.000Z\r\n"
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// TestLookalikeAddressCannotTakeAWaitListPlace: İris@example.org used to
// take the key iris@example.org, so the owner's own join was a silent no-op
// and never mailed; the spelling is now refused, and the full-width domain
// is the same mailbox as the plain one.
func TestLookalikeAddressCannotTakeAWaitListPlace(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		for _, typed := range []string{"\u0130ris@example.org", "\u212Aate@example.org", "\uff49ris@example.org", "iris@ex\u0430mple.org"} {
			if _, err := Join(ctx, db, "Mallory", typed, "https://ruv.example"); !errs.Is(err, errs.Invalid) {
				t.Fatalf("join as %q: %v, want invalid", typed, err)
			}
		}
		if added, err := Join(ctx, db, "Iris", "iris@example.org", "https://ruv.example"); err != nil || !added {
			t.Fatalf("the owner's join: %v %v", added, err)
		}
		if added, err := Join(ctx, db, "Iris", "iris@\uff45xample.org", "https://ruv.example"); err != nil || added {
			t.Fatalf("the same mailbox with a full-width domain: %v %v", added, err)
		}
		var to string
		var n int
		_ = db.Read.QueryRow(`SELECT COUNT(*), MIN(to_addr) FROM mail_outbox`).Scan(&n, &to)
		if n != 1 || to != "iris@example.org" {
			t.Fatalf("%d mails, to %q", n, to)
		}
	})
}
