package kb

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSplitShortTextIsOneChunk(t *testing.T) {
	if got := Split("  Hello world.  "); len(got) != 1 || got[0] != "Hello world." {
		t.Fatalf("got %q", got)
	}
	if got := Split(" \n\n "); len(got) != 0 {
		t.Fatalf("blank text: %q", got)
	}
}

func TestSplitFollowsHeadingsAndParagraphs(t *testing.T) {
	para := func(word string) string { return strings.TrimSpace(strings.Repeat(word+" ", 60)) } // ~300 chars
	text := "# Pricing\n\n" + para("price") + "\n\n" + para("cost") + "\n\n## Booking\n\n" + para("book") + "\n\n" + para("calendar") + "\n\n" + para("slot")
	chunks := Split(text)
	if len(chunks) < 3 {
		t.Fatalf("want at least 3 chunks, got %d: %q", len(chunks), chunks)
	}
	if !strings.HasPrefix(chunks[0], "# Pricing") || strings.Contains(chunks[0], "book") {
		t.Fatalf("first chunk is not the Pricing section: %q", chunks[0])
	}
	var booking []string
	for _, c := range chunks {
		if strings.Contains(c, "book book") {
			booking = append(booking, c)
		}
	}
	if len(booking) == 0 || !strings.HasPrefix(booking[0], "## Booking") {
		t.Fatalf("the Booking section does not start a chunk: %q", chunks)
	}
	// A section's later chunks repeat its heading and overlap the chunk before.
	last := chunks[len(chunks)-1]
	if !strings.HasPrefix(last, "## Booking") || !strings.Contains(last, "slot") {
		t.Fatalf("last chunk: %q", last)
	}
	prev := chunks[len(chunks)-2]
	tail := prev[len(prev)-40:]
	if !strings.Contains(last, strings.TrimSpace(tail[strings.Index(tail, " "):])) {
		t.Fatalf("no overlap between %q and %q", prev, last)
	}
}

func TestSplitLongParagraphKeepsEveryWordAndBoundsSizes(t *testing.T) {
	var b strings.Builder
	for i := range 400 {
		b.WriteString("Sentence número ")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(" about agents and memory. ")
	}
	text := b.String()
	chunks := Split(text)
	if len(chunks) < 10 {
		t.Fatalf("a %d-character paragraph gave %d chunks", len(text), len(chunks))
	}
	joined := strings.Join(chunks, " ")
	for w := range strings.FieldsSeq(text) {
		if !strings.Contains(joined, w) {
			t.Fatalf("word %q lost", w)
		}
	}
	for i, c := range chunks {
		if n := utf8.RuneCountInString(c); n > chunkSize+chunkOverlap+10 {
			t.Fatalf("chunk %d has %d characters", i, n)
		}
		if !utf8.ValidString(c) {
			t.Fatalf("chunk %d is not valid UTF-8", i)
		}
	}
	// Consecutive pieces of one paragraph overlap by about chunkOverlap.
	end := chunks[0][len(chunks[0])-30:]
	if !strings.Contains(chunks[1], strings.TrimSpace(end[strings.Index(end, " "):])) {
		t.Fatalf("no overlap: %q / %q", chunks[0], chunks[1][:80])
	}
}

func TestSplitCutsAWordLongerThanAChunk(t *testing.T) {
	word := strings.Repeat("é", 3*chunkSize)
	chunks := Split(word)
	if len(chunks) < 3 {
		t.Fatalf("got %d chunks", len(chunks))
	}
	for _, c := range chunks {
		if !utf8.ValidString(c) || utf8.RuneCountInString(c) > chunkSize {
			t.Fatalf("bad chunk of %d runes", utf8.RuneCountInString(c))
		}
	}
}
