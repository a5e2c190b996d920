package agent

import "encoding/json"

// This file holds the OpenAI chat-completions wire types: what the client
// sends upstream, the chunks it reads back, and the messages and chunks of
// the site's own /api/ai/chat (the same shape, plus tool_status). The
// exported ones are generated into web/src/lib/api-types/agent.ts
// (tygo.yaml, `make types`).

// ChatMessage is one message of the conversation a person sends.
// CheckMessages drops system messages and refuses any other role.
type ChatMessage struct {
	Role    string `json:"role" tstype:"'user' | 'assistant' | 'system'"`
	Content string `json:"content"`
}

// Message is one message of a conversation sent to the model.
type Message struct {
	Role       string     `json:"role"` // system, user, assistant or tool
	Content    string     `json:"content,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

// ToolCall is a call the model asked for: a function name and its arguments
// as a JSON text. Index is set only in the site's own stream, where OpenAI
// clients expect it; requests to the provider leave it out.
type ToolCall struct {
	Index    *int         `json:"index,omitempty"`
	ID       string       `json:"id"`
	Type     string       `json:"type"` // always "function"
	Function FunctionCall `json:"function"`
}

// FunctionCall is the function part of a ToolCall.
type FunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// toolSpec offers one tool to the model.
type toolSpec struct {
	Type     string       `json:"type"` // "function"
	Function functionSpec `json:"function"`
}

type functionSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// completionRequest is the body of POST {base}/chat/completions.
type completionRequest struct {
	Model         string         `json:"model"`
	Messages      []Message      `json:"messages"`
	Tools         []toolSpec     `json:"tools,omitempty"`
	MaxTokens     int            `json:"max_tokens,omitempty"`
	Stream        bool           `json:"stream"`
	StreamOptions *streamOptions `json:"stream_options,omitempty"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// Usage counts the tokens of one completion.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

// upstreamChunk is one data line of the provider's stream. Error is set by
// providers that report a failure inside a stream that already started.
type upstreamChunk struct {
	Choices []struct {
		Delta struct {
			Content   string          `json:"content"`
			ToolCalls []toolCallDelta `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *Usage          `json:"usage"`
	Error json.RawMessage `json:"error"`
}

// toolCallDelta is a piece of a tool call: the first piece of a call has
// its id and name, later ones more of the arguments. Index is a pointer
// because a missing index and index 0 mean different things.
type toolCallDelta struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// Chunk is one line of the site's chat stream, in OpenAI's
// chat.completion.chunk shape: choices[0].delta carries content, a
// tool_status or tool_calls.
type Chunk struct {
	ID      string        `json:"id"`
	Object  string        `json:"object"` // "chat.completion.chunk"
	Created int64         `json:"created"`
	Model   string        `json:"model"`
	Choices []ChunkChoice `json:"choices"`
}

// ChunkChoice is the one choice of a Chunk.
type ChunkChoice struct {
	Index        int     `json:"index"`
	Delta        Delta   `json:"delta"`
	FinishReason *string `json:"finish_reason" tstype:"string | null,required"`
}

// Delta is what a Chunk adds to the answer.
type Delta struct {
	Role       string      `json:"role,omitempty"`
	Content    string      `json:"content,omitempty"`
	ToolStatus *ToolStatus `json:"tool_status,omitempty"`
	ToolCalls  []ToolCall  `json:"tool_calls,omitempty"`
}

// ToolStatus tells the page that a tool started or finished; Query is what
// it looks for (a search query, a resource URI).
type ToolStatus struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Query  string `json:"query"`
	Status string `json:"status" tstype:"'running' | 'completed'"` // running or completed
}

// Tool statuses.
const (
	StatusRunning   = "running"
	StatusCompleted = "completed"
)
