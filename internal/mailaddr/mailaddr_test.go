package mailaddr

import (
	"errors"
	"strings"
	"testing"
)

// TestLookalikeSpellingsNeverShareAKey: spellings that strings.ToLower folds
// onto someone else's address (U+0130, the Kelvin sign, full-width letters in
// the local part) are refused, so they cannot stand for that mailbox.
func TestLookalikeSpellingsNeverShareAKey(t *testing.T) {
	for _, typed := range []string{
		"\u0130ris@example.org",                // İris: ToLower gives iris
		"\u212Aate@example.org",                // Kelvin sign: ToLower gives kate
		"\uff49\uff52\uff49\uff53@example.org", // full-width iris
		"ir\u0131s@example.org",                // dotless ı
		"jos\u00e9@example.org",                // any non-ASCII local part
		"iri\u0073\u0307@example.org",          // combining mark
	} {
		if a, err := Parse(typed); !errors.Is(err, ErrLocalNotASCII) {
			t.Errorf("Parse(%q) = %+v, %v; want ErrLocalNotASCII", typed, a, err)
		}
	}
}

// TestDomainsGoThroughIDNA: the domain is compared in its ASCII form, so
// spellings of one domain share a key and look-alike domains do not.
func TestDomainsGoThroughIDNA(t *testing.T) {
	cases := []struct{ typed, mailbox, key string }{
		{" Iris@Example.ORG ", "Iris@example.org", "iris@example.org"},
		{"iris@\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45.org", "iris@example.org", "iris@example.org"}, // full-width domain
		{"iris@\u212Aelvin.example", "iris@kelvin.example", "iris@kelvin.example"},                      // Kelvin sign: the same name to DNS
		{"iris@b\u00fccher.example", "iris@xn--bcher-kva.example", "iris@xn--bcher-kva.example"},
		{"iris@xn--bcher-kva.example", "iris@xn--bcher-kva.example", "iris@xn--bcher-kva.example"},
		{"a.b+tag@sub.example.co.uk", "a.b+tag@sub.example.co.uk", "a.b+tag@sub.example.co.uk"},
		{"ops@\u0130bm.example", "ops@xn--ibm-", ""},                // İ in the domain: another domain than ibm.example
		{"\u4f60\u597d@\u4f8b\u5b50.\u4e2d\u56fd", "", ""},          // non-ASCII local part: refused below
		{"x@\u3072\u3089\u304c\u306a\u6f22\u5b57.jp", "x@xn--", ""}, // Japanese: Han with Hiragana
	}
	for _, c := range cases {
		a, err := Parse(c.typed)
		switch {
		case c.mailbox == "":
			if err == nil {
				t.Errorf("Parse(%q) = %+v, want a refusal", c.typed, a)
			}
		case err != nil:
			t.Errorf("Parse(%q): %v", c.typed, err)
		case c.key == "":
			if !strings.HasPrefix(a.Mailbox, c.mailbox) || a.Key != strings.ToLower(a.Mailbox) || a.Key == "ops@ibm.example" {
				t.Errorf("Parse(%q) = %+v, want a mailbox starting %q", c.typed, a, c.mailbox)
			}
		case a.Mailbox != c.mailbox || a.Key != c.key:
			t.Errorf("Parse(%q) = %+v, want %q / %q", c.typed, a, c.mailbox, c.key)
		}
	}
}

// TestMixedScriptDomainRefused: a Cyrillic а (U+0430) inside a Latin label,
// or Greek letters among Latin ones, is refused rather than kept as a
// different-looking "xn--" name.
func TestMixedScriptDomainRefused(t *testing.T) {
	for _, typed := range []string{
		"iris@ex\u0430mple.org",      // Cyrillic а
		"iris@\u0430pple.com",        // Cyrillic а at the start
		"iris@paypa\u0399.com",       // Greek capital iota
		"iris@example.\u043e\u0440g", // Cyrillic in the TLD
	} {
		if a, err := Parse(typed); !errors.Is(err, ErrMixedScripts) {
			t.Errorf("Parse(%q) = %+v, %v; want ErrMixedScripts", typed, a, err)
		}
	}
	// One script throughout is a real, different domain and is kept in its
	// ASCII form, which cannot be mistaken for a Latin name.
	a, err := Parse("iris@\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444")
	if err != nil || !strings.HasPrefix(a.Key, "iris@xn--") {
		t.Fatalf("all-Cyrillic domain: %+v %v", a, err)
	}
}

func TestMalformedAddressesRefused(t *testing.T) {
	for _, typed := range []string{
		"", "   ", "iris", "@example.org", "iris@", "iris@example", "iris@example.org.",
		".iris@example.org", "iris.@example.org", "ir..is@example.org", `"iris"@example.org`,
		"ir is@example.org", "iris@exa mple.org", "iris@-example.org", "iris@example..org",
		"iris\x00@example.org", "iris@example.org\x00", "iris@[192.0.2.1]", "iris@ex_ample.org",
		"iris@\uff20example.org", // full-width @
		strings.Repeat("a", 65) + "@example.org",
		"a@" + strings.Repeat("b", 250) + ".org",
		"iris@\xff.org",
	} {
		if a, err := Parse(typed); err == nil {
			t.Errorf("Parse(%q) = %+v, want a refusal", typed, a)
		}
	}
}

func TestDomainForConfiguration(t *testing.T) {
	for in, want := range map[string]string{
		"Example.COM": "example.com", "b\u00fccher.example": "xn--bcher-kva.example",
		"\uff49\uff42\uff4d.example": "ibm.example",
	} {
		if got, err := Domain(in); err != nil || got != want {
			t.Errorf("Domain(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "localhost", "ex\u0430mple.org", "a b.org", "@example.org", "example.org."} {
		if got, err := Domain(bad); err == nil {
			t.Errorf("Domain(%q) = %q, want a refusal", bad, got)
		}
	}
	if got, err := Domain("\u0130bm.example"); err != nil || got == "ibm.example" {
		t.Errorf("Domain(İbm.example) = %q, %v; want a domain other than ibm.example", got, err)
	}
}
