// Package agent is the site's AI assistant: the tool registry, an
// OpenAI-compatible streaming client and the chat loop.
//
//   - Registry holds the tools (name, JSON Schemas, who may call them, Run).
//     It is defined once and shared: the chat loop offers the tools to the
//     language model, and an MCP server lists and calls the same Registry,
//     so both front doors apply one access rule (access.Viewer) and one
//     argument check.
//   - Client speaks the OpenAI chat-completions streaming wire format over
//     net/http. It assembles tool calls by index and starts a new call on a
//     new id, which Ollama needs (it sends every call at index 0).
//   - Agent runs one answer: it writes its own system prompt (site facts and
//     the knowledge-base passages found for the last user message), lets the
//     model call tools for a few rounds, and emits typed events to a sink.
//     Without a configured model it answers offline, from the passages the
//     same search tool found, and says so.
//
// The package never imports the HTTP layer: the web handler turns events
// into the chat.completion.chunk lines of the API (see Chunk).
package agent
