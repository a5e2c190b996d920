package community

// CheckText is the members area's one check of a member's text (trimmed,
// required, at most max characters, valid UTF-8, no control characters but
// line breaks and tabs when multiline), for the other packages members
// write through (the discussion space).
func CheckText(field, label, v string, max int, multiline bool) (string, error) {
	return checkText(field, label, v, max, multiline)
}
