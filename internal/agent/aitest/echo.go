package aitest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

// EchoSearchTool is the tool Echo calls when it is offered.
const EchoSearchTool = "search_knowledge_base"

// Echo answers like a tiny, predictable model, for browser tests and
// development:
//
//   - when search_knowledge_base is offered and no tool has answered since
//     the last user message, it calls that tool with the message as query;
//   - after a tool result, it answers "Fake model answer. The search found:
//     {titles}." naming the results' titles (or saying it found nothing);
//   - otherwise it answers "Fake model answer to: {message}".
//
// A message containing "[fail]" is answered 503, one containing "[cut]"
// ends mid-stream without [DONE]. Text streams a word per chunk, pause apart.
func Echo(pause time.Duration) Script {
	return ScriptFunc(func(r Request) Turn {
		question := r.LastUser()
		switch {
		case strings.Contains(question, "[fail]"):
			return Status(503, "the fake provider was asked to fail")
		case strings.Contains(question, "[cut]"):
			return Turn{Steps: []Step{{Write: ContentChunk("This answer stops here")}}}
		}
		last := r.Messages[len(r.Messages)-1]
		if last.Role == "tool" {
			return words(pause, "Fake model answer. "+foundTitles(r))
		}
		if slices.Contains(r.ToolNames(), EchoSearchTool) {
			args, _ := json.Marshal(map[string]any{"query": question, "limit": 3})
			id := fmt.Sprintf("call_echo_%d", len(r.Messages))
			return Calls(Call{ID: id, Name: EchoSearchTool, Args: string(args)})
		}
		return words(pause, "Fake model answer to: "+question)
	})
}

// foundTitles names the results of the tool answers since the last user
// message.
func foundTitles(r Request) string {
	var titles []string
	for i := len(r.Messages) - 1; i >= 0 && r.Messages[i].Role == "tool"; i-- {
		var out struct {
			Results []struct {
				Title string `json:"title"`
			} `json:"results"`
		}
		if json.Unmarshal([]byte(r.Messages[i].Content), &out) != nil {
			continue
		}
		for _, res := range out.Results {
			titles = append(titles, res.Title)
		}
	}
	if len(titles) == 0 {
		return "The search found nothing."
	}
	return "The search found: " + strings.Join(titles, "; ") + "."
}

// words streams text a word per chunk.
func words(pause time.Duration, text string) Turn {
	var parts []string
	for i, w := range strings.Fields(text) {
		if i > 0 {
			w = " " + w
		}
		parts = append(parts, w)
	}
	t := Text(parts...)
	for i := range t.Steps {
		t.Steps[i].Pause = pause
	}
	return t
}
