package kb

import (
	"strings"
	"unicode"
)

// Chunk sizes in characters (runes). A chunk is what search ranks and what a
// result shows: big enough to hold an answer with its context, small enough
// that one embedding stays about one topic.
const (
	chunkSize    = 800 // aim
	chunkOverlap = 100 // text repeated from the end of the previous chunk of a section
	chunkMin     = 200 // a section shorter than this joins the next one
)

// Split cuts a document's text into chunks along its structure: a Markdown
// heading starts a new chunk (unless the chunk so far is short), paragraphs
// are kept whole where they fit, and a paragraph longer than a chunk is cut
// at sentence ends, else between words. Consecutive chunks of one section
// share about chunkOverlap characters, so a sentence cut at a boundary is
// still found whole in one of them, and a section's later chunks repeat its
// heading.
func Split(text string) []string {
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	var (
		out     []string
		cur     []rune // the chunk being built
		heading string // the current section's heading line
	)
	emit := func() {
		if s := strings.TrimSpace(string(cur)); s != "" {
			out = append(out, s)
		}
		cur = nil
	}
	// add appends a block that fits in a chunk, starting a new chunk (with
	// the section's heading and, unless the block already overlaps the one
	// before it, the end of the previous chunk) when the current one is full.
	add := func(block string, overlapped bool) {
		b := []rune(block)
		if len(cur) == 0 {
			cur = b
			return
		}
		if len(cur)+2+len(b) <= chunkSize {
			cur = append(append(cur, '\n', '\n'), b...)
			return
		}
		var tail []rune
		if !overlapped {
			tail = overlapTail(cur)
		}
		emit()
		if heading != "" && !strings.HasPrefix(block, heading) {
			cur = append([]rune(heading), '\n', '\n')
		}
		if len(tail) > 0 {
			cur = append(append(cur, tail...), ' ')
		}
		cur = append(cur, b...)
	}
	for _, para := range paragraphs(text) {
		if isHeading(para) {
			if len(cur) >= chunkMin {
				emit()
			}
			heading = para
			if len(cur) > 0 {
				cur = append(append(cur, '\n', '\n'), []rune(para)...)
			} else {
				cur = []rune(para)
			}
			continue
		}
		for i, piece := range windows([]rune(para), chunkSize, chunkOverlap) {
			add(piece, i > 0)
		}
	}
	emit()
	return out
}

// paragraphs splits text at blank lines and returns the trimmed, non-empty
// blocks; a heading line is a block of its own even without blank lines.
func paragraphs(text string) []string {
	var out []string
	var cur []string
	flush := func() {
		if p := strings.TrimSpace(strings.Join(cur, "\n")); p != "" {
			out = append(out, p)
		}
		cur = nil
	}
	for line := range strings.SplitSeq(text, "\n") {
		switch {
		case strings.TrimSpace(line) == "":
			flush()
		case isHeading(strings.TrimSpace(line)):
			flush()
			out = append(out, strings.TrimSpace(line))
		default:
			cur = append(cur, strings.TrimRightFunc(line, unicode.IsSpace))
		}
	}
	flush()
	return out
}

// isHeading reports whether a line is a Markdown ATX heading ("## Pricing").
func isHeading(line string) bool {
	n := 0
	for n < len(line) && line[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && len(line) > n+1 && line[n] == ' ' && !strings.Contains(line, "\n")
}

// windows cuts a block into pieces of at most size runes that overlap by
// about overlap runes, preferring to cut after a sentence, then between
// words, and only inside a word when a word is longer than size.
func windows(r []rune, size, overlap int) []string {
	var out []string
	start := 0
	for start < len(r) {
		if len(r)-start <= size {
			out = append(out, strings.TrimSpace(string(r[start:])))
			break
		}
		end := cutPoint(r, start, start+size)
		out = append(out, strings.TrimSpace(string(r[start:end])))
		next := wordStart(r, end-overlap, end)
		if next <= start {
			next = end
		}
		start = next
	}
	return out
}

// cutPoint finds where to end a piece that starts at start and may reach
// limit: after the last sentence end in the second half, else at the last
// space, else at limit.
func cutPoint(r []rune, start, limit int) int {
	half := start + (limit-start)/2
	for i := limit - 1; i > half; i-- {
		if unicode.IsSpace(r[i]) && strings.ContainsRune(".!?", r[i-1]) {
			return i
		}
	}
	for i := limit - 1; i > start; i-- {
		if unicode.IsSpace(r[i]) {
			return i
		}
	}
	return limit
}

// wordStart moves i forward to the start of a word, staying before limit.
func wordStart(r []rune, i, limit int) int {
	if i <= 0 {
		return 0
	}
	if !unicode.IsSpace(r[i-1]) {
		for i < limit && !unicode.IsSpace(r[i]) {
			i++
		}
	}
	for i < limit && unicode.IsSpace(r[i]) {
		i++
	}
	return i
}

// overlapTail is the end of a chunk, about chunkOverlap runes from a word
// start, that the next chunk of the section repeats.
func overlapTail(chunk []rune) []rune {
	if len(chunk) <= chunkOverlap {
		return nil
	}
	i := wordStart(chunk, len(chunk)-chunkOverlap, len(chunk))
	return []rune(strings.TrimSpace(string(chunk[i:])))
}
