// Package mailaddr turns an e-mail address as a person typed it into the one
// form the site keeps, so that one address means one mailbox: two spellings
// that reach the same mailbox get the same key, and two mailboxes never do.
//
// The rule:
//
//   - The local part (before the last @) must be ASCII: letters, digits and
//     the signs RFC 5322 allows in an unquoted local part, with dots only
//     between characters. Quoted local parts and any other character are
//     refused. Mail servers compare ASCII local parts without regard to
//     case in practice, so the key lower-cases them; no other character is
//     ever case-folded (strings.ToLower maps U+0130 "İ" to "i" and the
//     Kelvin sign U+212A to "k", which would let a look-alike spelling
//     stand for someone else's mailbox).
//   - The domain goes through IDNA (UTS 46 mapping for lookup, then the
//     registration rules of RFC 5891) to its ASCII form, as a mail server
//     looking it up would: full-width letters and upper case become the
//     plain letters they stand for, and an internationalised name becomes
//     its "xn--" form. A label that mixes scripts (Latin with Cyrillic or
//     Greek, say) is refused, since it is almost always made to look like
//     another name; the combinations used to write Chinese, Japanese and
//     Korean are allowed.
//
// The address kept and mailed is the local part as typed with the ASCII
// domain; the key is that in lower case.
package mailaddr

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// MaxLen is the longest address accepted, in bytes (RFC 5321's path limit
// less the angle brackets).
const MaxLen = 254

// maxLocalLen is RFC 5321's limit on the local part.
const maxLocalLen = 64

// Error is a refusal, with a message written for the person who typed the
// address.
type Error string

func (e Error) Error() string { return string(e) }

// Refusals.
const (
	ErrRequired Error = "E-mail is required."
	ErrTooLong  Error = "E-mail must be at most 254 characters."
	ErrInvalid  Error = "Enter a valid e-mail address."
	// ErrLocalTooLong: more than RFC 5321's 64 characters before the @.
	ErrLocalTooLong Error = "The part before the @ must be at most 64 characters."
	// ErrLocalNotASCII: a character outside ASCII before the @.
	ErrLocalNotASCII Error = "The part before the @ may only use unaccented letters (a-z), digits and signs such as . _ + -; addresses with other characters there are not accepted."
	// ErrDomain: a domain that IDNA refuses.
	ErrDomain Error = "The part after the @ is not a valid domain name."
	// ErrMixedScripts: a domain label that mixes alphabets.
	ErrMixedScripts Error = "The domain mixes letters of different alphabets (such as Latin and Cyrillic letters that look alike); check how it is spelled."
)

// Address is an e-mail address in the form the site keeps.
type Address struct {
	// Mailbox is what mail is sent to and what is shown: the local part as
	// typed, "@", and the domain in its ASCII form, in lower case.
	Mailbox string
	// Key is what addresses are compared by: Mailbox in lower case. It is
	// all ASCII.
	Key string
}

// Parse checks an address typed by a person (surrounding spaces are
// ignored) and returns it in the kept form, or one of the errors above.
func Parse(s string) (Address, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Address{}, ErrRequired
	}
	if len(s) > 4*MaxLen {
		return Address{}, ErrTooLong
	}
	at := strings.LastIndexByte(s, '@')
	if at < 0 {
		return Address{}, ErrInvalid
	}
	local, domain := s[:at], s[at+1:]
	if err := checkLocal(local); err != nil {
		return Address{}, err
	}
	ascii, err := Domain(domain)
	if err != nil {
		return Address{}, err
	}
	mailbox := local + "@" + ascii
	if len(mailbox) > MaxLen {
		return Address{}, ErrTooLong
	}
	return Address{Mailbox: mailbox, Key: strings.ToLower(mailbox)}, nil
}

// Key is the comparison form of s, and whether s is an address Parse
// accepts.
func Key(s string) (string, bool) {
	a, err := Parse(s)
	return a.Key, err == nil
}

func checkLocal(local string) error {
	if local == "" {
		return ErrInvalid
	}
	if !isASCII(local) {
		if !utf8.ValidString(local) || strings.ContainsFunc(local, unicode.IsControl) {
			return ErrInvalid
		}
		return ErrLocalNotASCII
	}
	if len(local) > maxLocalLen {
		return ErrLocalTooLong
	}
	if local[0] == '.' || local[len(local)-1] == '.' || strings.Contains(local, "..") {
		return ErrInvalid
	}
	for i := 0; i < len(local); i++ {
		if c := local[i]; c != '.' && !atext(c) {
			return ErrInvalid
		}
	}
	return nil
}

// atext reports whether c may appear in an unquoted local part (RFC 5322
// section 3.2.3).
func atext(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-/=?^_`{|}~", c) >= 0
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// lookup maps a domain as typed to its ASCII form (UTS 46, nontransitional,
// as current browsers and mail libraries do).
var lookup = idna.New(idna.MapForLookup(), idna.BidiRule(), idna.Transitional(false),
	idna.CheckHyphens(true), idna.CheckJoiners(true), idna.VerifyDNSLength(true))

// Domain returns a domain name (an address's, or TRIBE_ADMIN_DOMAIN) in its
// ASCII form, lower case, or ErrDomain / ErrMixedScripts. It needs at least
// two labels: a bare host name is no mail domain.
func Domain(s string) (string, error) {
	if s == "" || !utf8.ValidString(s) || strings.ContainsFunc(s, unicode.IsControl) {
		return "", ErrDomain
	}
	ascii, err := lookup.ToASCII(s)
	if err != nil || ascii == "" || strings.HasSuffix(ascii, ".") || !strings.Contains(ascii, ".") {
		return "", ErrDomain
	}
	// The mapped name must also be one that may be registered (RFC 5891
	// section 4), read back from its ASCII form.
	uni, err := idna.Display.ToUnicode(ascii)
	if err != nil {
		return "", ErrDomain
	}
	if again, err := idna.Registration.ToASCII(uni); err != nil || again != ascii {
		return "", ErrDomain
	}
	for label := range strings.SplitSeq(uni, ".") {
		if !oneScript(label) {
			return "", ErrMixedScripts
		}
	}
	return ascii, nil
}

// cjk are the sets of scripts that are written together (UTS 39's "highly
// restrictive" level): each may also hold Latin letters.
var cjk = [][]string{
	{"Han", "Hiragana", "Katakana"},
	{"Han", "Hangul"},
	{"Han", "Bopomofo"},
}

// oneScript reports whether the letters of label come from one script, or
// from one of the sets in cjk with or without Latin. Digits, hyphens and
// combining marks (scripts Common and Inherited) go with any script.
func oneScript(label string) bool {
	seen := map[string]bool{}
	for _, r := range label {
		if r < utf8.RuneSelf {
			if unicode.IsLetter(r) {
				seen["Latin"] = true
			}
			continue
		}
		if name := scriptOf(r); name != "" {
			seen[name] = true
		}
	}
	if len(seen) <= 1 {
		return true
	}
	for _, set := range cjk {
		ok := true
		for name := range seen {
			if name != "Latin" && !slices.Contains(set, name) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// scriptOf is the Unicode script of r, "" for Common and Inherited.
func scriptOf(r rune) string {
	if unicode.In(r, unicode.Common, unicode.Inherited) {
		return ""
	}
	for name, table := range unicode.Scripts {
		if unicode.Is(table, r) {
			return name
		}
	}
	return ""
}
