// Package plural writes counts in words for the text people read: "1 member",
// "0 members", "50 members". English picks the noun's form from the count
// alone (exactly 1 takes the singular, every other number the plural), so a
// caller names both forms and this package chooses.
package plural

import "strconv"

// Noun is one when n is 1 and many otherwise.
func Noun(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Count is n followed by its noun: Count(1, "spot", "spots") is "1 spot".
func Count(n int, one, many string) string {
	return strconv.Itoa(n) + " " + Noun(n, one, many)
}
