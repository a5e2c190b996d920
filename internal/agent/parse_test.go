package agent

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"tribe/internal/agent/aitest"
)

// decodeAll feeds the stream to a decoder in pieces cut at the given
// offsets and returns the decoder and its first error.
func decodeAll(stream string, cuts ...int) (*decoder, []string, error) {
	d := &decoder{}
	var deltas []string
	d.onContent = func(s string) error { deltas = append(deltas, s); return nil }
	at := 0
	for _, c := range append(cuts, len(stream)) {
		if c < at || c > len(stream) {
			continue
		}
		if err := d.feed([]byte(stream[at:c])); err != nil {
			return d, deltas, err
		}
		at = c
	}
	return d, deltas, d.end()
}

func TestDecoderContent(t *testing.T) {
	stream := ": comment\r\n" +
		"event: ignored\n" +
		"data:" + strings.TrimPrefix(aitest.ContentChunk("Hel"), "data: ") + // no space after the colon
		strings.ReplaceAll(aitest.ContentChunk("lo"), "\n", "\r\n") + // CRLF line ends
		aitest.FinishChunk("stop") + aitest.UsageChunk(12, 3) + aitest.Done +
		aitest.ContentChunk("after done")
	for _, cuts := range [][]int{nil, {1}, {5, 6, 7, 40, 41}, {len(stream) - 3}} {
		d, deltas, err := decodeAll(stream, cuts...)
		if err != nil {
			t.Fatalf("cuts %v: %v", cuts, err)
		}
		if got := d.content.String(); got != "Hello" || !reflect.DeepEqual(deltas, []string{"Hel", "lo"}) {
			t.Errorf("cuts %v: content %q in %q", cuts, got, deltas)
		}
		if !d.done || d.finish != "stop" || d.usage == nil || d.usage.PromptTokens != 12 || d.usage.CompletionTokens != 3 {
			t.Errorf("cuts %v: done %v, finish %q, usage %+v", cuts, d.done, d.finish, d.usage)
		}
	}
}

func TestDecoderErrors(t *testing.T) {
	if _, _, err := decodeAll("data: {not json\n\n"); err == nil || !strings.Contains(err.Error(), "not JSON") {
		t.Errorf("bad JSON: %v", err)
	}
	_, _, err := decodeAll(aitest.ContentChunk("a") + aitest.ErrorChunk("model overloaded"))
	var pe *ProviderError
	if !errors.As(err, &pe) || !strings.Contains(pe.Detail, "model overloaded") {
		t.Errorf("error chunk: %v", err)
	}
	long := "data: " + strings.Repeat("x", maxLine) + "\n"
	for _, cuts := range [][]int{nil, {len(long) / 2}} {
		if _, _, err := decodeAll(long, cuts...); !errors.Is(err, errLineTooLong) {
			t.Errorf("line over 1 MB, cut at %v: %v", cuts, err)
		}
	}
	// A long line cut in many reads is refused too, not kept growing.
	d := &decoder{}
	var ferr error
	for range 3 {
		if ferr = d.feed([]byte(strings.Repeat("y", maxLine/2))); ferr != nil {
			break
		}
	}
	if !errors.Is(ferr, errLineTooLong) {
		t.Errorf("line grown over reads: %v", ferr)
	}
	// The last line without a newline still counts.
	d, _, err = decodeAll(strings.TrimSuffix(aitest.ContentChunk("end"), "\n\n"))
	if err != nil || d.content.String() != "end" {
		t.Errorf("last line without newline: %q, %v", d.content.String(), err)
	}
}

func TestAssemblerOpenAI(t *testing.T) {
	stream := aitest.Calls(
		aitest.Call{ID: "call_a", Name: "search_knowledge_base", Args: `{"query":"tribe price"}`},
		aitest.Call{ID: "call_b", Name: "list_services", Args: ``},
	)
	var all strings.Builder
	for _, s := range stream.Steps {
		all.WriteString(s.Write)
	}
	d, _, err := decodeAll(all.String())
	if err != nil {
		t.Fatal(err)
	}
	want := []ToolCall{
		{ID: "call_a", Type: "function", Function: FunctionCall{Name: "search_knowledge_base", Arguments: `{"query":"tribe price"}`}},
		{ID: "call_b", Type: "function", Function: FunctionCall{Name: "list_services", Arguments: `{}`}},
	}
	if got := d.calls.result(); !reflect.DeepEqual(got, want) {
		t.Fatalf("calls\n%+v\nwant\n%+v", got, want)
	}
	if d.finish != "tool_calls" {
		t.Errorf("finish %q", d.finish)
	}
}

func TestAssemblerOllamaIndexReuse(t *testing.T) {
	stream := aitest.OllamaCalls(
		aitest.Call{ID: "call_1", Name: "search_knowledge_base", Args: `{"query":"a"}`},
		aitest.Call{ID: "call_2", Name: "search_knowledge_base", Args: `{"query":"b"}`},
		aitest.Call{ID: "call_3", Name: "read_resource", Args: `{"uri":"/content/about.json"}`},
	)
	var all strings.Builder
	for _, s := range stream.Steps {
		all.WriteString(s.Write)
	}
	d, _, err := decodeAll(all.String())
	if err != nil {
		t.Fatal(err)
	}
	got := d.calls.result()
	if len(got) != 3 {
		t.Fatalf("%d calls, want 3: %+v", len(got), got)
	}
	for i, want := range []string{`{"query":"a"}`, `{"query":"b"}`, `{"uri":"/content/about.json"}`} {
		if got[i].Function.Arguments != want || got[i].ID != "call_"+string(rune('1'+i)) {
			t.Errorf("call %d: %+v", i, got[i])
		}
	}
}

func TestAssemblerPieces(t *testing.T) {
	idx := func(i int) *int { return &i }
	piece := func(i *int, id, name, args string) toolCallDelta {
		var p toolCallDelta
		p.Index, p.ID, p.Function.Name, p.Function.Arguments = i, id, name, args
		return p
	}
	var a callAssembler
	a.add(piece(idx(0), "x", "search", `{"qu`))
	a.add(piece(idx(0), "", "search", `ery":1}`)) // a provider repeating the name
	a.add(piece(idx(0), "x", "", ``))             // and the id
	a.add(piece(nil, "", "list_services", ``))    // no index, no id: a call of its own
	got := a.result()
	if len(got) != 2 || got[0].Function.Name != "search" || got[0].Function.Arguments != `{"query":1}` ||
		got[1].ID != "call_1" || got[1].Function.Name != "list_services" {
		t.Fatalf("%+v", got)
	}
}

// FuzzChunkParser feeds arbitrary bytes to the upstream chunk parser, whole
// and cut at one point: it must never panic, and where the stream is cut
// must never change what it decodes.
func FuzzChunkParser(f *testing.F) {
	f.Add([]byte(aitest.ContentChunk("Hi")+aitest.Done), 3)
	f.Add([]byte(aitest.CallChunk(0, "call_1", "search_knowledge_base", `{"query":"x"}`)+aitest.CallChunk(0, "call_2", "list_services", "")), 17)
	f.Add([]byte("data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":3,\"function\":{\"arguments\":\"{\"}}]}}]}\r\n"), 0)
	f.Add([]byte(": keep-alive\n\nevent: x\ndata:\ndata: [DONE]\ndata: {}"), 8)
	f.Add([]byte(aitest.ErrorChunk("boom")), 5)
	f.Add([]byte("data: {\"usage\":{\"prompt_tokens\":1},\"choices\":[{\"finish_reason\":\"stop\",\"delta\":{}}]}\n"), 30)
	f.Fuzz(func(t *testing.T, stream []byte, cut int) {
		whole, wholeDeltas, wholeErr := decodeAll(string(stream))
		if cut < 0 {
			cut = -cut
		}
		if len(stream) > 0 {
			cut %= len(stream) + 1
		}
		split, splitDeltas, splitErr := decodeAll(string(stream), cut)
		if (wholeErr == nil) != (splitErr == nil) {
			t.Fatalf("cut at %d changed the outcome: %v / %v", cut, wholeErr, splitErr)
		}
		if wholeErr != nil {
			return
		}
		if whole.content.String() != split.content.String() || strings.Join(wholeDeltas, "") != strings.Join(splitDeltas, "") ||
			whole.done != split.done || whole.finish != split.finish ||
			!reflect.DeepEqual(whole.calls.result(), split.calls.result()) || !reflect.DeepEqual(whole.usage, split.usage) {
			t.Fatalf("cut at %d changed the result", cut)
		}
	})
}
