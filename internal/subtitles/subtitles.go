// Package subtitles reads the timed text that meeting tools and speech
// recognisers write: WebVTT (W3C WebVTT, as Zoom, Meet and Whisper export
// it) and SubRip (SRT). It keeps what a transcript needs, each cue's start,
// end and plain text, and refuses a malformed file with the number of the
// line that is wrong.
package subtitles

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Cue is one timed line, in seconds from the start of the recording.
type Cue struct {
	Start, End float64
	Text       string
}

// Error is a malformed file: the 1-based line and what is wrong there.
type Error struct {
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Limits of what Parse reads.
const (
	MaxCues = 100_000
	// MaxSeconds is the latest time a cue may have: a day.
	MaxSeconds = 24 * 60 * 60
)

// Parse reads WebVTT (a file starting "WEBVTT") or else SRT. A leading
// byte order mark and CRLF or CR line ends are accepted. Cues without text
// are dropped; the others keep their order.
func Parse(text string) ([]Cue, error) {
	if !utf8.ValidString(text) {
		return nil, &Error{Line: 1, Msg: "the file is not UTF-8 text"}
	}
	text = strings.TrimPrefix(text, "\uFEFF")
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	if strings.ContainsRune(text, 0) {
		return nil, &Error{Line: 1 + strings.Count(text[:strings.IndexRune(text, 0)], "\n"), Msg: "the file holds a NUL character"}
	}
	lines := strings.Split(text, "\n")
	if strings.HasPrefix(lines[0], "WEBVTT") {
		return parseVTT(lines)
	}
	return parseSRT(lines)
}

// block is a run of non-empty lines; first is the 1-based number of its
// first line.
type block struct {
	first int
	lines []string
}

// blocks splits lines at blank lines, starting at index from.
func blocks(lines []string, from int) []block {
	var out []block
	var cur *block
	for i := from; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) == "" {
			cur = nil
			continue
		}
		if cur == nil {
			out = append(out, block{first: i + 1})
			cur = &out[len(out)-1]
		}
		cur.lines = append(cur.lines, lines[i])
	}
	return out
}

// parseVTT reads a WebVTT file: the signature line (WEBVTT, then nothing or
// a space or tab and any text), header lines up to the first blank line,
// then blocks. NOTE, STYLE and REGION blocks are skipped; a cue block is an
// optional identifier line, the timing line (start --> end, then cue
// settings, which are ignored) and the payload.
func parseVTT(lines []string) ([]Cue, error) {
	sig := lines[0]
	if len(sig) > 6 && sig[6] != ' ' && sig[6] != '\t' {
		return nil, &Error{Line: 1, Msg: `a WebVTT file starts with the line "WEBVTT"`}
	}
	// The header runs to the first blank line, or (as the spec's parser
	// reads it) to a line that is already a cue's timing.
	i := 1
	for i < len(lines) && strings.TrimSpace(lines[i]) != "" && !strings.Contains(lines[i], "-->") {
		i++
	}
	var cues []Cue
	for _, b := range blocks(lines, i) {
		head := b.lines[0]
		if isKeyword(head, "NOTE") || isKeyword(head, "STYLE") || isKeyword(head, "REGION") {
			continue
		}
		timing, payload, line := head, b.lines[1:], b.first
		if looksLikeTiming(head) {
			return nil, &Error{Line: b.first, Msg: `expected "-->" between the start and end times, as in 00:01.000 --> 00:04.000`}
		}
		if !strings.Contains(head, "-->") {
			// An identifier; the timing line follows it.
			if len(b.lines) < 2 || !strings.Contains(b.lines[1], "-->") {
				return nil, &Error{Line: b.first + 1, Msg: "expected a timing line such as 00:01.000 --> 00:04.000 after the cue identifier"}
			}
			timing, payload, line = b.lines[1], b.lines[2:], b.first+1
		}
		c, err := timingLine(timing, line, '.')
		if err != nil {
			return nil, err
		}
		for j, p := range payload {
			if strings.Contains(p, "-->") {
				return nil, &Error{Line: line + 1 + j, Msg: `a cue's text may not contain "-->"; put a blank line before the next cue`}
			}
		}
		c.Text = plainText(payload)
		if c.Text != "" {
			if len(cues) == MaxCues {
				return nil, &Error{Line: line, Msg: fmt.Sprintf("more than %d cues", MaxCues)}
			}
			cues = append(cues, c)
		}
	}
	return cues, nil
}

// looksLikeTiming reports whether a line without "-->" starts with a time
// and holds a second one: a timing line with a broken arrow, which is
// better named as such than taken for an identifier.
func looksLikeTiming(line string) bool {
	if strings.Contains(line, "-->") {
		return false
	}
	f := strings.Fields(line)
	if len(f) < 2 {
		return false
	}
	_, ok := timestamp(f[0])
	_, ok2 := timestamp(f[len(f)-1])
	return ok && (ok2 || len(f) >= 3)
}

// isKeyword reports whether line is the keyword alone or followed by a
// space or tab (the start of a NOTE, STYLE or REGION block).
func isKeyword(line, kw string) bool {
	rest, ok := strings.CutPrefix(line, kw)
	return ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t')
}

// parseSRT reads SubRip: blocks of a counter line, a timing line with comma
// (or dot) decimals, and the text.
func parseSRT(lines []string) ([]Cue, error) {
	var cues []Cue
	for _, b := range blocks(lines, 0) {
		timing, payload, line := b.lines[0], b.lines[1:], b.first
		if looksLikeTiming(timing) {
			return nil, &Error{Line: b.first, Msg: `expected "-->" between the start and end times, as in 00:00:01,000 --> 00:00:04,000`}
		}
		if !strings.Contains(timing, "-->") {
			if _, err := strconv.Atoi(strings.TrimSpace(timing)); err != nil {
				return nil, &Error{Line: b.first, Msg: "expected a cue number or a timing line such as 00:00:01,000 --> 00:00:04,000 (is this a WebVTT file without its WEBVTT line?)"}
			}
			if len(b.lines) < 2 {
				return nil, &Error{Line: b.first + 1, Msg: "expected a timing line such as 00:00:01,000 --> 00:00:04,000 after the cue number"}
			}
			timing, payload, line = b.lines[1], b.lines[2:], b.first+1
		}
		c, err := timingLine(timing, line, ',')
		if err != nil {
			return nil, err
		}
		c.Text = plainText(payload)
		if c.Text != "" {
			if len(cues) == MaxCues {
				return nil, &Error{Line: line, Msg: fmt.Sprintf("more than %d cues", MaxCues)}
			}
			cues = append(cues, c)
		}
	}
	return cues, nil
}

// timingLine reads "START --> END" and ignores what follows END (WebVTT cue
// settings, SRT coordinates). dec is the format's decimal mark; the other
// one is accepted too, as tools mix them up.
func timingLine(s string, line int, dec byte) (Cue, error) {
	example := "00:01.000 --> 00:04.000"
	if dec == ',' {
		example = "00:00:01,000 --> 00:00:04,000"
	}
	bad := func(what string) error {
		return &Error{Line: line, Msg: what + "; a timing line reads like " + example}
	}
	left, right, _ := strings.Cut(s, "-->")
	fields := strings.Fields(right)
	if len(fields) == 0 {
		return Cue{}, bad("the end time is missing")
	}
	start, ok := timestamp(strings.TrimSpace(left))
	if !ok {
		return Cue{}, bad(fmt.Sprintf("%q is not a time", strings.TrimSpace(left)))
	}
	end, ok := timestamp(fields[0])
	if !ok {
		return Cue{}, bad(fmt.Sprintf("%q is not a time", fields[0]))
	}
	if end < start {
		return Cue{}, &Error{Line: line, Msg: "the cue ends before it starts"}
	}
	if end > MaxSeconds {
		return Cue{}, &Error{Line: line, Msg: "the cue ends more than a day in"}
	}
	return Cue{Start: start, End: end}, nil
}

// timestamp reads [hh:]mm:ss.ttt (hours of two or more digits, minutes and
// seconds of two, below 60, milliseconds of three) with '.' or ','.
func timestamp(s string) (float64, bool) {
	main, frac, ok := strings.Cut(strings.Replace(s, ",", ".", 1), ".")
	if !ok || len(frac) != 3 || !digits(frac) {
		return 0, false
	}
	parts := strings.Split(main, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, false
	}
	var h, m, sec int
	if len(parts) == 3 {
		if len(parts[0]) < 2 || !digits(parts[0]) || len(parts[0]) > 5 {
			return 0, false
		}
		h, _ = strconv.Atoi(parts[0])
		parts = parts[1:]
	}
	if len(parts[0]) != 2 || len(parts[1]) != 2 || !digits(parts[0]) || !digits(parts[1]) {
		return 0, false
	}
	m, _ = strconv.Atoi(parts[0])
	sec, _ = strconv.Atoi(parts[1])
	if m > 59 || sec > 59 {
		return 0, false
	}
	ms, _ := strconv.Atoi(frac)
	return float64(h*3600+m*60+sec) + float64(ms)/1000, true
}

func digits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// plainText joins a cue's lines with spaces, without markup: WebVTT tags
// (<v Name>, <c.class>, <i>, <b>, <u>, <ruby>, <rt>, <lang>, timestamps),
// the HTML-like tags SRT files carry (<i>, <font …>) and SSA overrides
// ({\an8}) are removed, and character references are decoded.
func plainText(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strings.TrimSpace(l))
	}
	s := b.String()
	var out strings.Builder
	for i := 0; i < len(s); {
		switch s[i] {
		case '<':
			if j := strings.IndexByte(s[i:], '>'); j >= 0 {
				i += j + 1
				continue
			}
		case '{':
			if strings.HasPrefix(s[i:], "{\\") {
				if j := strings.IndexByte(s[i:], '}'); j >= 0 {
					i += j + 1
					continue
				}
			}
		case '&':
			if r, n := reference(s[i:]); n > 0 {
				out.WriteString(r)
				i += n
				continue
			}
		}
		out.WriteByte(s[i])
		i++
	}
	return strings.Join(strings.Fields(out.String()), " ")
}

// reference decodes the character reference at the start of s (the named
// ones WebVTT defines, and numeric ones), returning its text and length.
func reference(s string) (string, int) {
	end := strings.IndexByte(s, ';')
	if end < 2 || end > 10 {
		return "", 0
	}
	name := s[1:end]
	switch name {
	case "amp":
		return "&", end + 1
	case "lt":
		return "<", end + 1
	case "gt":
		return ">", end + 1
	case "nbsp":
		return " ", end + 1
	case "lrm", "rlm":
		return "", end + 1
	case "quot":
		return `"`, end + 1
	case "apos":
		return "'", end + 1
	}
	if num, ok := strings.CutPrefix(name, "#"); ok {
		base := 10
		if h, ok := strings.CutPrefix(num, "x"); ok {
			num, base = h, 16
		}
		if n, err := strconv.ParseInt(num, base, 32); err == nil && n > 0 && utf8.ValidRune(rune(n)) {
			return string(rune(n)), end + 1
		}
	}
	return "", 0
}
