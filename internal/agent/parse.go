package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// maxLine bounds one line of the provider's stream. A chunk is a few hundred
// bytes; a megabyte without a newline is a broken provider, and holding it
// would let one answer use unbounded memory.
const maxLine = 1 << 20

// errLineTooLong is a broken provider stream.
var errLineTooLong = errors.New("a line of the provider's stream is longer than 1 MB")

// maxCompletionBytes bounds the text and tool-call arguments of one
// completion the decoder holds. Text is also cut by the answer's own cap
// (MaxAnswerBytes) as it is relayed, but tool-call arguments are held until
// the call is whole, and a model streaming them without end would fill
// memory.
const maxCompletionBytes = 1 << 20

// errCompletionTooLong is a model sending more than maxCompletionBytes.
func errCompletionTooLong() error {
	return &ProviderError{Detail: "the completion is longer than 1 MB (max_tokens ignored)"}
}

// decoder reads the provider's server-sent events as they arrive, in reads
// of any size: it keeps a partial line until its newline comes, treats each
// "data:" line as one JSON chunk (providers never split a chunk across data
// lines), ignores comments, event names and blank lines, and assembles the
// answer: content, tool calls, usage and the finish reason.
type decoder struct {
	partial   []byte
	done      bool // [DONE] seen
	content   strings.Builder
	calls     callAssembler
	usage     *Usage
	finish    string
	size      int                // bytes of content and tool calls so far
	onContent func(string) error // each content delta as it arrives; may be nil
}

// feed parses the next bytes of the stream.
func (d *decoder) feed(b []byte) error {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			if len(d.partial)+len(b) > maxLine {
				return errLineTooLong
			}
			d.partial = append(d.partial, b...)
			return nil
		}
		if len(d.partial)+i > maxLine {
			return errLineTooLong
		}
		line := b[:i]
		if len(d.partial) > 0 {
			line = append(d.partial, line...)
		}
		b = b[i+1:]
		err := d.line(line)
		d.partial = d.partial[:0]
		if err != nil {
			return err
		}
	}
	return nil
}

// end is called when the stream closes: a last line without a newline
// still counts.
func (d *decoder) end() error {
	if len(d.partial) == 0 {
		return nil
	}
	line := d.partial
	d.partial = nil
	return d.line(line)
}

func (d *decoder) line(line []byte) error {
	line = bytes.TrimSuffix(line, []byte("\r"))
	data, ok := bytes.CutPrefix(line, []byte("data:"))
	if !ok {
		return nil // a comment, an event name, an id, a retry hint or a blank line
	}
	data = bytes.TrimSpace(data)
	if len(data) == 0 || d.done {
		return nil // nothing after [DONE] belongs to the answer
	}
	if bytes.Equal(data, []byte("[DONE]")) {
		d.done = true
		return nil
	}
	var c upstreamChunk
	if err := json.Unmarshal(data, &c); err != nil {
		return fmt.Errorf("a chunk of the provider's stream is not JSON (%.80q): %w", data, err)
	}
	if len(c.Error) > 0 && !bytes.Equal(c.Error, []byte("null")) {
		return &ProviderError{Detail: "error inside the stream: " + errorDetail(c.Error)}
	}
	if c.Usage != nil {
		d.usage = c.Usage
	}
	for _, ch := range c.Choices {
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			d.finish = *ch.FinishReason
		}
		for _, tc := range ch.Delta.ToolCalls {
			d.size += len(tc.Function.Arguments) + len(tc.Function.Name) + len(tc.ID)
			d.calls.add(tc)
		}
		if d.size += len(ch.Delta.Content); d.size > maxCompletionBytes {
			return errCompletionTooLong()
		}
		if ch.Delta.Content != "" {
			d.content.WriteString(ch.Delta.Content)
			if d.onContent != nil {
				if err := d.onContent(ch.Delta.Content); err != nil {
					return &sinkError{err}
				}
			}
		}
	}
	return nil
}

// sinkError carries an error of the decoder's onContent, which is the
// caller's and not the provider's.
type sinkError struct{ err error }

func (e *sinkError) Error() string { return e.err.Error() }
func (e *sinkError) Unwrap() error { return e.err }

// errorDetail is the message of an OpenAI-style error object, or the
// object itself.
func errorDetail(raw json.RawMessage) string {
	var e struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &e) == nil && e.Message != "" {
		return e.Message
	}
	var s string
	if json.Unmarshal(raw, &s) == nil && s != "" {
		return s
	}
	return fmt.Sprintf("%.200s", raw)
}

// callAssembler builds whole tool calls from their pieces. Pieces are
// grouped by index; a piece carrying an id different from the call open at
// its index starts a new call. OpenAI gives each call its own index and the
// id only in the first piece; Ollama sends every call whole at index 0 with
// a new id, and an assembler keyed by index alone would glue those calls
// into one.
type callAssembler struct {
	calls []ToolCall
	open  map[int]int // index -> position in calls of the call open there
}

func (a *callAssembler) add(p toolCallDelta) {
	if a.open == nil {
		a.open = map[int]int{}
	}
	idx := len(a.calls) // a piece without an index is a call of its own
	if p.Index != nil {
		idx = *p.Index
	}
	pos, ok := a.open[idx]
	if !ok || (p.ID != "" && a.calls[pos].ID != "" && p.ID != a.calls[pos].ID) {
		a.calls = append(a.calls, ToolCall{ID: p.ID, Type: "function"})
		pos = len(a.calls) - 1
		a.open[idx] = pos
	}
	c := &a.calls[pos]
	if c.ID == "" {
		c.ID = p.ID
	}
	if c.Function.Name == "" {
		// The name comes whole in one piece; some providers repeat it in
		// later pieces, which must not double it.
		c.Function.Name = p.Function.Name
	}
	c.Function.Arguments += p.Function.Arguments
}

// result returns the calls in the order they started, each with an id
// (made up for providers that send none) and arguments ("{}" when empty).
func (a *callAssembler) result() []ToolCall {
	out := make([]ToolCall, len(a.calls))
	for i, c := range a.calls {
		if c.ID == "" {
			c.ID = fmt.Sprintf("call_%d", i)
		}
		if strings.TrimSpace(c.Function.Arguments) == "" {
			c.Function.Arguments = "{}"
		}
		out[i] = c
	}
	return out
}
