package agent

import (
	"strings"
	"testing"

	"tribe/internal/agent/aitest"
)

// flood is a turn that streams n chunks of size bytes each and never ends
// on its own (no finish, no [DONE] until the last).
func flood(n int, chunk string) aitest.Turn {
	steps := make([]aitest.Step, 0, n+1)
	for range n {
		steps = append(steps, aitest.Step{Write: chunk})
	}
	return aitest.Turn{Steps: append(steps, aitest.Step{Write: aitest.Done})}
}

// TestFloodingModelIsCutAtTheAnswerCap: a model that ignores max_tokens
// pushed 38.6 MB of text through the server to the browser. The server
// relays at most MaxAnswerBytes of an answer, ends it with an error event
// that says so, and stops reading the model.
func TestFloodingModelIsCutAtTheAnswerCap(t *testing.T) {
	const chunks = 2400 // 38 MB of 16 KB pieces
	a, fake := online(t, &fakeKB{}, aitest.Turns(flood(chunks, aitest.ContentChunk(strings.Repeat("é", 8<<10)))))
	rec, sum := ask(t, a, anonymous, user("Tell me everything"))
	relayed := len(rec.content())
	if relayed > MaxAnswerBytes || relayed < MaxAnswerBytes-4 {
		t.Fatalf("relayed %d bytes of content, want the cap %d", relayed, MaxAnswerBytes)
	}
	if !strings.HasSuffix(rec.content(), "é") {
		t.Errorf("the cut split a character: %q", rec.content()[relayed-4:])
	}
	if last := rec.last(); last.Error != msgAnswerTooLong {
		t.Fatalf("last event %+v, want the error %q", last, msgAnswerTooLong)
	}
	if sum.Outcome != OutcomeError || sum.Err == nil {
		t.Fatalf("summary %+v", sum)
	}
	<-fake.ClientGone() // the upstream request was closed, not read to its end
	if n := len(fake.Writes(0)); n >= chunks {
		t.Fatalf("the model wrote all %d chunks; reading must stop at the cap", n)
	}
}

// TestFloodingToolCallsAreCut: tool-call arguments are not relayed as text
// but are held until the call is whole; a model streaming endless
// arguments is stopped at maxCompletionBytes instead of filling memory.
func TestFloodingToolCallsAreCut(t *testing.T) {
	const chunks = 1200 // 19 MB of arguments
	piece := aitest.CallChunk(0, "c", ToolSearch, strings.Repeat("a", 16<<10))
	a, fake := online(t, &fakeKB{}, aitest.Turns(flood(chunks, piece)))
	rec, sum := ask(t, a, anonymous, user("Search forever"))
	if sum.Outcome != OutcomeError || rec.last().Error == "" {
		t.Fatalf("summary %+v, last event %+v", sum, rec.last())
	}
	<-fake.ClientGone()
	if n := len(fake.Writes(0)); n >= chunks {
		t.Fatalf("the model wrote all %d chunks", n)
	}
}
