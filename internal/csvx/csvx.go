// Package csvx is the server's one CSV writer: RFC 4180 records (UTF-8,
// CRLF line ends, quotes where a cell needs them) whose cells are safe to
// open in a spreadsheet, and the HTTP answer every CSV download goes out as.
//
// Formula injection: a spreadsheet runs a cell that starts with = + - or @
// as a formula, and some programs skip a leading tab, carriage return or
// invisible character before looking, or read full-width ＝ ＋ － ＠ as
// the ASCII ones. Every cell written here that starts with one of those
// characters gets a leading apostrophe, which spreadsheets take as "this is
// text" and hide. Restore undoes exactly that on import, so a file this
// package wrote reads back as the values that went in.
package csvx

import (
	"encoding/csv"
	"fmt"
	"io"
	"net/http"
	"strings"
	"unicode/utf8"
)

// Writer writes records. Its cells are neutralised (Safe) and its lines end
// in CRLF; it buffers a few kilobytes at a time, so an HTTP answer streams.
type Writer struct{ cw *csv.Writer }

// NewWriter returns a Writer over w.
func NewWriter(w io.Writer) *Writer {
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	return &Writer{cw: cw}
}

// Write writes one record; every cell goes through Safe.
func (w *Writer) Write(cells ...string) error {
	rec := make([]string, len(cells))
	for i, c := range cells {
		rec[i] = Safe(c)
	}
	if err := w.cw.Write(rec); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	return nil
}

// Flush writes what is buffered and reports the first error of any write.
func (w *Writer) Flush() error {
	w.cw.Flush()
	if err := w.cw.Error(); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	return nil
}

// triggers are the first characters that make a spreadsheet read a cell as
// a formula: = + - @, tab and carriage return (some programs skip them
// first), the invisible characters some programs also skip (byte order
// mark, zero-width space, non-joiner, joiner, word joiner), and the
// full-width = + - @ that some programs fold to the ASCII ones.
const triggers = "=+-@\t\r\uFEFF\u200B\u200C\u200D\u2060\uFF1D\uFF0B\uFF0D\uFF20"

// startsWithTrigger reports whether s begins with one of triggers.
func startsWithTrigger(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return s != "" && strings.ContainsRune(triggers, r)
}

// Safe neutralises a cell that a spreadsheet would run as a formula by
// putting an apostrophe before it; any other cell is returned as it is.
func Safe(s string) string {
	if startsWithTrigger(s) {
		return "'" + s
	}
	return s
}

// Restore is the inverse of Safe for a cell read back from a file: an
// apostrophe followed by a formula character is dropped. A value that really
// began with such an apostrophe cannot be told apart and loses it.
func Restore(s string) string {
	if len(s) >= 2 && s[0] == '\'' && startsWithTrigger(s[1:]) {
		return s[1:]
	}
	return s
}

// ContentType is the media type of every CSV answer: UTF-8, with a header row.
const ContentType = "text/csv; charset=utf-8; header=present"

// Respond starts a CSV download named filename (with its .csv) and returns
// the Writer of its body. The caller writes the header row and the records,
// then calls Flush; once the first bytes are out an error can only be
// logged, so callers read what can fail before they call Respond.
func Respond(w http.ResponseWriter, filename string) *Writer {
	h := w.Header()
	h.Set("Content-Type", ContentType)
	h.Set("Content-Disposition", `attachment; filename="`+fileName(filename)+`"`)
	// Exports hold members' personal data: no cache keeps a copy.
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	return NewWriter(w)
}

// fileName keeps a download name to printable ASCII other than quote and
// backslash, so it can sit in a quoted header parameter as it is.
func fileName(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' {
			return '_'
		}
		return r
	}, s)
}
