package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"tribe/internal/errs"
)

// fuzzBody has the kinds of fields request types have.
type fuzzBody struct {
	Name   string              `json:"name"`
	Count  *int                `json:"count"`
	Ratio  float64             `json:"ratio"`
	OK     bool                `json:"ok"`
	Tags   []string            `json:"tags"`
	Nested struct{ ID string } `json:"nested"`
	Any    map[string]any      `json:"any"`
}

// FuzzReadJSON: whatever a client sends, ReadJSON does not panic, and it
// either accepts exactly one JSON object (nothing after it) or answers an
// *errs.Error with a code the API documents for bodies.
func FuzzReadJSON(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"name": "Ada", "count": 3, "ratio": 0.5, "ok": true, "tags": ["a"], "nested": {"ID": "x"}}`,
		``, `   `, `null`, `[]`, `"text"`, `42`, `{`, `{"name": 1}`, `{"count": "3"}`, `{"count": 1e99}`,
		`{"tags": "a"}`, `{"nested": []}`, `{} {}`, `{}x`, "{}\n", `{"name": "\ud800"}`, "\xef\xbb\xbf{}",
		`{"any": {"a": [[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]}}`, `{"name": "a", "name": "b"}`, `{"Name": "case"}`,
	} {
		f.Add([]byte(s))
	}
	f.Add(bytes.Repeat([]byte(" "), MaxJSONBody+1))
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest(http.MethodPost, "/api/x", bytes.NewReader(body))
		var dst fuzzBody
		err := ReadJSON(httptest.NewRecorder(), req, &dst)
		if err == nil {
			trimmed := bytes.TrimSpace(body)
			if len(body) > MaxJSONBody || !json.Valid(trimmed) || trimmed[0] != '{' {
				t.Fatalf("accepted %q", body)
			}
			return
		}
		var e *errs.Error
		if !errors.As(err, &e) || e.Message == "" {
			t.Fatalf("ReadJSON(%q) = %#v, want an *errs.Error", body, err)
		}
		switch e.Code {
		case errs.BadJSON, errs.Invalid:
		case errs.TooLarge:
			if len(body) <= MaxJSONBody {
				t.Fatalf("a body of %d bytes called too large", len(body))
			}
		default:
			t.Fatalf("ReadJSON(%q): code %q", body, e.Code)
		}
		if Status(e.Code) >= 500 {
			t.Fatalf("a bad body answered %d", Status(e.Code))
		}
	})
}
