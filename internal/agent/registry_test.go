package agent

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"tribe/internal/access"
	"tribe/internal/errs"
)

var (
	anonymous  = access.Viewer{}
	signedIn   = access.Viewer{UserID: "u1"}
	subscriber = access.Viewer{UserID: "u2", Member: true}
	admin      = access.Viewer{UserID: "u3", Admin: true}
)

func TestWhoAllows(t *testing.T) {
	cases := []struct {
		who  Who
		want [4]bool // anonymous, signed in, subscriber, admin
	}{
		{Anyone, [4]bool{true, true, true, true}},
		{Member, [4]bool{false, true, true, true}},
		{Admin, [4]bool{false, false, false, true}},
		{Who(9), [4]bool{}},
	}
	for _, c := range cases {
		for i, v := range []access.Viewer{anonymous, signedIn, subscriber, admin} {
			if got := c.who.Allows(v); got != c.want[i] {
				t.Errorf("%s allows viewer %d: %v", c.who, i, got)
			}
		}
	}
}

// echoTool returns its arguments.
func echoTool(name string, who Who, schema string) Tool {
	return Tool{Name: name, Who: who, InputSchema: json.RawMessage(schema),
		Run: func(_ context.Context, v access.Viewer, args json.RawMessage) (any, error) {
			return map[string]any{"args": args, "user": v.UserID}, nil
		}}
}

func TestRegistryListAndCall(t *testing.T) {
	open := `{"type":"object","properties":{}}`
	r, err := NewRegistry(echoTool("open", Anyone, open), echoTool("members", Member, open), echoTool("admins", Admin, open))
	if err != nil {
		t.Fatal(err)
	}
	names := func(v access.Viewer) []string {
		var out []string
		for _, tool := range r.List(v) {
			out = append(out, tool.Name)
		}
		return out
	}
	if got := names(anonymous); !slices.Equal(got, []string{"open"}) {
		t.Errorf("anonymous sees %v", got)
	}
	if got := names(subscriber); !slices.Equal(got, []string{"open", "members"}) {
		t.Errorf("subscriber sees %v", got)
	}
	if got := names(admin); !slices.Equal(got, []string{"open", "members", "admins"}) {
		t.Errorf("admin sees %v", got)
	}
	if _, ok := r.Get("members"); !ok {
		t.Error("Get members")
	}

	ctx := context.Background()
	_, err = r.Call(ctx, anonymous, "nope", nil)
	wantErr(t, err, errs.NotFound, "Unknown tool: nope")
	_, err = r.Call(ctx, anonymous, "members", nil)
	wantErr(t, err, errs.Unauthorized, "Sign in")
	_, err = r.Call(ctx, signedIn, "admins", nil)
	wantErr(t, err, errs.Forbidden, "only available to admins")
	out, err := r.Call(ctx, admin, "admins", json.RawMessage("  "))
	if err != nil {
		t.Fatal(err)
	}
	if got := out.(map[string]any); string(got["args"].(json.RawMessage)) != "{}" || got["user"] != "u3" {
		t.Errorf("empty arguments reach Run as {}: %v", got)
	}
}

func TestRegistryChecksArguments(t *testing.T) {
	schema := `{
		"type": "object",
		"properties": {
			"query": {"type": "string", "minLength": 1, "maxLength": 5, "description": "words"},
			"limit": {"type": "integer", "minimum": 1, "maximum": 20},
			"ratio": {"type": "number", "maximum": 1},
			"exact": {"type": "boolean"},
			"mode": {"type": "string", "enum": ["a", "b"]},
			"tags": {"type": "array", "maxItems": 2, "items": {"type": "string"}},
			"opts": {"type": "object", "properties": {"deep": {"type": "integer"}}, "required": ["deep"]}
		},
		"required": ["query"],
		"additionalProperties": false
	}`
	r, err := NewRegistry(echoTool("t", Anyone, schema))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ args, field, msg string }{
		{`[]`, "", "must be a JSON object"},
		{`{"query":`, "", "not valid JSON"},
		{`{"query":"a"} {}`, "", "one JSON object"},
		{`{}`, "query", "Argument query is required."},
		{`{"query": 3}`, "query", "Argument query must be text."},
		{`{"query": ""}`, "query", "Argument query must not be empty."},
		{`{"query": "toolong"}`, "query", "Argument query must be at most 5 characters."},
		{`{"query": "a", "limit": 1.5}`, "limit", "Argument limit must be a whole number."},
		{`{"query": "a", "limit": "2"}`, "limit", "Argument limit must be a whole number."},
		{`{"query": "a", "limit": 21}`, "limit", "Argument limit must be a whole number from 1 to 20."},
		{`{"query": "a", "ratio": 2}`, "ratio", "Argument ratio must be a number of at most 1."},
		{`{"query": "a", "exact": "yes"}`, "exact", "Argument exact must be true or false."},
		{`{"query": "a", "mode": "c"}`, "mode", "Argument mode must be one of a, b."},
		{`{"query": "a", "tags": ["x", 1]}`, "tags[1]", "Argument tags[1] must be text."},
		{`{"query": "a", "tags": ["x", "y", "z"]}`, "tags", "Argument tags must have at most 2 items."},
		{`{"query": "a", "opts": {}}`, "opts.deep", "Argument opts.deep is required."},
		{`{"query": "a", "other": 1}`, "other", "Argument other is not known."},
	}
	for _, c := range cases {
		_, err := r.Call(context.Background(), anonymous, "t", json.RawMessage(c.args))
		var e *errs.Error
		if !errorsAs(err, &e) || e.Code != errs.Invalid || !strings.Contains(e.Message, c.msg) || e.Field != c.field {
			t.Errorf("%s: %v (field %q), want %q on %q", c.args, err, fieldOf(e), c.msg, c.field)
		}
	}
	good := `{"query": "héllo", "limit": 20, "ratio": 0.5, "exact": true, "mode": "b", "tags": ["x"], "opts": {"deep": 2}}`
	if _, err := r.Call(context.Background(), anonymous, "t", json.RawMessage(good)); err != nil {
		t.Fatalf("good arguments refused: %v", err)
	}
}

func fieldOf(e *errs.Error) string {
	if e == nil {
		return ""
	}
	return e.Field
}

func TestNewRegistryRefusesBadTools(t *testing.T) {
	run := func(context.Context, access.Viewer, json.RawMessage) (any, error) { return nil, nil }
	obj := json.RawMessage(`{"type":"object"}`)
	cases := map[string][]Tool{
		"no name":            {{InputSchema: obj, Run: run}},
		"no run":             {{Name: "x", InputSchema: obj}},
		"twice":              {{Name: "x", InputSchema: obj, Run: run}, {Name: "x", InputSchema: obj, Run: run}},
		"no schema":          {{Name: "x", Run: run}},
		"not an object":      {{Name: "x", InputSchema: json.RawMessage(`{"type":"string"}`), Run: run}},
		"unenforced keyword": {{Name: "x", InputSchema: json.RawMessage(`{"type":"object","patternProperties":{}}`), Run: run}},
		"unknown type":       {{Name: "x", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"date"}}}`), Run: run}},
		"required unnamed":   {{Name: "x", InputSchema: json.RawMessage(`{"type":"object","required":["a"]}`), Run: run}},
		"bad output schema":  {{Name: "x", InputSchema: obj, OutputSchema: json.RawMessage(`{`), Run: run}},
	}
	for name, tools := range cases {
		if _, err := NewRegistry(tools...); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestCallSurvivesAPanickingTool(t *testing.T) {
	boom := Tool{Name: "boom", InputSchema: json.RawMessage(`{"type":"object"}`),
		Run: func(context.Context, access.Viewer, json.RawMessage) (any, error) { panic("index out of range") }}
	r, err := NewRegistry(boom)
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Call(context.Background(), anonymous, "boom", nil)
	if err == nil || !strings.Contains(err.Error(), "tool boom panicked: index out of range") || errs.CodeOf(err) != errs.Internal {
		t.Fatalf("%v", err)
	}
}

func TestScopedToolsAreForAssistantsOnly(t *testing.T) {
	run := func(context.Context, access.Viewer, json.RawMessage) (any, error) { return "ran", nil }
	obj := json.RawMessage(`{"type": "object", "properties": {}, "additionalProperties": false}`)
	r, err := NewRegistry(
		Tool{Name: "open", InputSchema: obj, Who: Anyone, Run: run},
		Tool{Name: "read_mine", InputSchema: obj, Who: Member, Scope: "tribe:read", Run: run},
		Tool{Name: "write_mine", InputSchema: obj, Who: Member, Scope: "tribe:write", Run: run},
	)
	if err != nil {
		t.Fatal(err)
	}
	names := func(tools []Tool) (out []string) {
		for _, t := range tools {
			out = append(out, t.Name)
		}
		return out
	}
	if got := names(r.List(subscriber)); !slices.Equal(got, []string{"open"}) {
		t.Errorf("the chat lists %v", got)
	}
	if got := names(r.ListForAssistant(subscriber)); !slices.Equal(got, []string{"open", "read_mine", "write_mine"}) {
		t.Errorf("an assistant lists %v", got)
	}
	if got := names(r.ListForAssistant(anonymous)); !slices.Equal(got, []string{"open"}) {
		t.Errorf("an anonymous assistant lists %v", got)
	}
	// The chat cannot call a scoped tool even by name.
	if _, err := r.Call(context.Background(), subscriber, "write_mine", nil); errs.CodeOf(err) != errs.NotFound {
		t.Errorf("the chat called a scoped tool: %v", err)
	}
	_, err = r.CallScoped(context.Background(), subscriber, []string{"tribe:read"}, "write_mine", nil)
	if errs.CodeOf(err) != errs.InsufficientScope || !strings.Contains(errs.MessageOf(err), "tribe:write") {
		t.Errorf("a tool outside the scopes: %v", err)
	}
	if out, err := r.CallScoped(context.Background(), subscriber, []string{"tribe:read"}, "read_mine", nil); err != nil || out != "ran" {
		t.Errorf("a tool inside the scopes: %v %v", out, err)
	}
	if _, err := r.CallScoped(context.Background(), anonymous, []string{"tribe:read"}, "read_mine", nil); errs.CodeOf(err) != errs.Unauthorized {
		t.Errorf("a member tool without a member: %v", err)
	}
}
