package agent

// Finish reasons of the site's stream: "stop" after a whole answer, "error"
// on the chunk that reports a failure.
const (
	FinishStop  = "stop"
	FinishError = "error"
)

// ErrorPrefix starts the content of the chunk that reports a failure, as the
// console has always shown AI errors.
const ErrorPrefix = "AI Error: "

// Chunk turns an event into a line of the site's stream: content, a tool
// status or tool calls in choices[0].delta; an error as content reading
// "AI Error: {message}" with finish_reason "error".
func (e Event) Chunk(id, model string, created int64) Chunk {
	c := Chunk{ID: id, Object: "chat.completion.chunk", Created: created, Model: model, Choices: []ChunkChoice{{}}}
	d := &c.Choices[0].Delta
	switch {
	case e.Error != "":
		d.Content = ErrorPrefix + e.Error
		reason := FinishError
		c.Choices[0].FinishReason = &reason
	case e.ToolStatus != nil:
		d.ToolStatus = e.ToolStatus
	case len(e.ToolCalls) > 0:
		d.ToolCalls = make([]ToolCall, len(e.ToolCalls))
		for i, call := range e.ToolCalls {
			call.Index = &i
			d.ToolCalls[i] = call
		}
	default:
		d.Content = e.Content
	}
	return c
}

// FinalChunk ends a whole answer: an empty delta with finish_reason "stop".
func FinalChunk(id, model string, created int64) Chunk {
	reason := FinishStop
	return Chunk{ID: id, Object: "chat.completion.chunk", Created: created, Model: model,
		Choices: []ChunkChoice{{FinishReason: &reason}}}
}
