package gaps

import (
	"regexp"
	"strings"
)

// The stand-ins for what Redact takes out of a question.
const (
	redactedEmail = "[email]"
	redactedPhone = "[phone]"
	redactedCard  = "[card]"
)

var (
	// emailPattern is an address as people type one: something@domain.tld.
	emailPattern = regexp.MustCompile(`[\p{L}\p{N}._%+\-]+@[\p{L}\p{N}\-]+(\.[\p{L}\p{N}\-]+)*\.\p{L}{2,}`)
	// numberRun is a run of digits with the separators people put in phone
	// and card numbers (space, dash, dot, slash, parentheses), maybe after a +.
	numberRun = regexp.MustCompile(`\+?\(?\d[\d \-./()]*\d\)?`)
	// datePattern is a run that is a date, not a phone number: 2026-12-18,
	// 18.12.2026, 12/18/26.
	datePattern = regexp.MustCompile(`^(\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{2,4})$`)
	digitGroup  = regexp.MustCompile(`\d+`)
)

// Redact takes e-mail addresses, phone numbers and payment card numbers
// out of a question before it is stored: people paste their own details
// into a search box, and the gaps list is read by every admin for 90 days.
// A card number is 13 to 19 digits that pass the Luhn check, alone or
// inside a longer run of digit groups; a phone number is any other run of
// 7 to 15 digits (with or without a leading +) that is not a date.
func Redact(q string) string {
	q = emailPattern.ReplaceAllString(q, redactedEmail)
	return numberRun.ReplaceAllStringFunc(q, redactNumber)
}

// redactNumber is what is kept of one run of digits and separators.
func redactNumber(run string) string {
	trimmed := strings.TrimRight(strings.TrimSpace(run), " -./")
	digits := countDigits(trimmed)
	if digits < 7 {
		return run
	}
	if card, ok := redactCards(run); ok {
		return card
	}
	if digits <= 15 && !datePattern.MatchString(trimmed) {
		return redactedPhone
	}
	return run
}

// redactCards replaces every stretch of whole digit groups in run that is
// a card number (13 to 19 digits, Luhn-valid) and reports whether it found
// one. Groups are tried as written ("4111 1111 1111 1111 12/27" holds a
// card followed by a date), longest stretch first.
func redactCards(run string) (string, bool) {
	groups := digitGroup.FindAllStringIndex(run, -1)
	var b strings.Builder
	found, last := false, 0
	for i := 0; i < len(groups); {
		end := -1
		digits := ""
		for j := i; j < len(groups); j++ {
			digits += run[groups[j][0]:groups[j][1]]
			if len(digits) > 19 {
				break
			}
			if len(digits) >= 13 && luhn(digits) {
				end = j
			}
		}
		if end < 0 {
			i++
			continue
		}
		b.WriteString(run[last:groups[i][0]])
		b.WriteString(redactedCard)
		last = groups[end][1]
		found = true
		i = end + 1
	}
	if !found {
		return run, false
	}
	b.WriteString(run[last:])
	return b.String(), true
}

// luhn reports whether a string of digits passes the Luhn check that every
// payment card number carries.
func luhn(digits string) bool {
	sum := 0
	double := false
	for i := len(digits) - 1; i >= 0; i-- {
		d := int(digits[i] - '0')
		if double {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return sum%10 == 0
}

func countDigits(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			n++
		}
	}
	return n
}
