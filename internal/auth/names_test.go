package auth

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"tribe/internal/errs"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// Names made only of invisible characters look blank to everyone else.
var invisibleNames = []string{
	"\u200B",              // zero-width space
	"\u2060\u2060",        // word joiner
	"\u3164",              // Hangul filler
	"\uFEFF",              // byte-order mark
	"\u200B \u200C\u200D", // zero-width non-joiner and joiner
	"\u115F\u1160",        // Hangul choseong and jungseong fillers
	"\uFFA0",              // halfwidth Hangul filler
	"\u2800",              // Braille pattern blank
	"\u034F\uFE0F",        // combining grapheme joiner, variation selector
	"\u202E\u2066",        // bidirectional controls
	"\u3000",              // ideographic space
	"\U000E0041",          // tag character
	"\u0301",              // a combining accent on nothing
}

func TestCheckNameRefusesInvisibleAndControlNames(t *testing.T) {
	for _, name := range append([]string{"", "   "}, invisibleNames...) {
		_, err := CheckName("full_name", "Full name", MaxFullNameLen, name)
		var e *errs.Error
		if !errors.As(err, &e) || e.Code != errs.Invalid || e.Field != "full_name" || e.Message != "Full name is required." {
			t.Errorf("CheckName(%q) = %#v, want full_name required", name, err)
		}
	}
	for _, name := range []string{"Ada\x00", "Ada\nLovelace", "Ada\x7f", "Ada\u0085Lovelace", "\tAda\x1b[31m"} {
		_, err := CheckName("name", "Cohort name", 80, name)
		var e *errs.Error
		if !errors.As(err, &e) || e.Field != "name" || e.Message != "Cohort name cannot contain control characters." {
			t.Errorf("CheckName(%q) = %#v, want control characters refused", name, err)
		}
	}
	_, err := CheckName("full_name", "Full name", 5, "Ada Lovelace")
	if !errs.Is(err, errs.Invalid) || errs.MessageOf(err) != "Full name must be at most 5 characters." {
		t.Errorf("too long: %v", err)
	}
	for name, want := range map[string]string{
		"  Ada Lovelace ":                   "Ada Lovelace",
		"李小龍":                               "李小龍",
		"Zoë \u200BDoe":                     "Zoë \u200BDoe", // an invisible character among visible ones is left alone
		"\u0627\u0644\u0639":                "\u0627\u0644\u0639",
		"e\u0301":                           "e\u0301",
		strings.Repeat("é", MaxFullNameLen): strings.Repeat("é", MaxFullNameLen),
	} {
		got, err := CheckName("full_name", "Full name", MaxFullNameLen, name)
		if err != nil || got != want {
			t.Errorf("CheckName(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
}

// TestSignUpRefusesInvisibleNames: sign-up used to take a name of zero-width
// spaces, which shows as blank in cohorts and the admin lists.
func TestSignUpRefusesInvisibleNames(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(db, Config{}, newClock())
		for i, name := range invisibleNames {
			_, _, err := s.SignUp(context.Background(), SignUpInput{FullName: name, Email: fmt.Sprintf("u%d@example.com", i), Password: "password1"}, Client{})
			// Blank after trimming is CheckFullName's refusal; invisible is CheckName's.
			if err == nil || err.Error() != "Full name is required." {
				t.Errorf("sign-up as %q: %v", name, err)
			}
		}
		_, _, err := s.SignUp(context.Background(), SignUpInput{FullName: "Ada\u0085Lovelace", Email: "c1@example.com", Password: "password1"}, Client{})
		if !errs.Is(err, errs.Invalid) || err.Error() != "Full name cannot contain control characters." {
			t.Errorf("sign-up with a C1 control: %v", err)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM users`); n != 0 {
			t.Fatalf("%d accounts made with invisible names", n)
		}
	})
}
