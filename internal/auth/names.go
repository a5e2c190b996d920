package auth

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"tribe/internal/errs"
)

// CheckName validates a name other people see (a member's full name, a
// cohort's name) and returns it trimmed. It holds CheckFullName's rules and
// more: a name must show something (not blank, and not made only of
// invisible characters such as U+200B, U+2060, U+3164 or U+FEFF, which
// would show as blank in cohorts and admin lists), must fit maxLen
// characters, and may hold no control character (C0, DEL or C1) and no
// bidirectional override, embedding or isolate. Every
// refusal is an *errs.Error about field whose message starts with label.
func CheckName(field, label string, maxLen int, name string) (string, error) {
	name = strings.TrimSpace(name)
	if !VisibleName(name) {
		return "", errs.Field(field, label+" is required.")
	}
	if utf8.RuneCountInString(name) > maxLen || len(name) > 4*maxLen {
		return "", errs.Field(field, fmt.Sprintf("%s must be at most %d characters.", label, maxLen))
	}
	if strings.ContainsFunc(name, unicode.IsControl) {
		return "", errs.Field(field, label+" cannot contain control characters.")
	}
	if strings.ContainsFunc(name, bidiControl) {
		return "", errs.Field(field, label+" cannot contain characters that change the direction of the text around it.")
	}
	return name, nil
}

// bidiControl reports the bidirectional embeddings, overrides and isolates
// (U+202A–U+202E, U+2066–U+2069): in a name they reorder what is shown
// after it, so "Ada\u202Egpj.exe" reads as "Adaexe.jpg" in lists and mails.
func bidiControl(r rune) bool {
	return (r >= '\u202A' && r <= '\u202E') || (r >= '\u2066' && r <= '\u2069')
}

// VisibleName reports whether name holds at least one character people can
// see: a letter, digit, punctuation or symbol that is not a space, a format
// character (zero-width spaces and joiners, bidirectional marks, the
// byte-order mark, tags), a combining mark on its own, a default-ignorable
// filler (the Hangul fillers) or the blank Braille pattern.
func VisibleName(name string) bool {
	return strings.ContainsFunc(name, visibleRune)
}

func visibleRune(r rune) bool {
	return unicode.In(r, unicode.L, unicode.N, unicode.P, unicode.S) &&
		!unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) &&
		r != '\u2800' // BRAILLE PATTERN BLANK, a symbol that draws nothing
}
