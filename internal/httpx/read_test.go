package httpx

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"tribe/internal/errs"
)

func contextWithCancel(r *http.Request) (context.Context, context.CancelFunc) {
	return context.WithCancel(r.Context())
}

type sessionIn struct {
	Title        string   `json:"title"`
	MaxAttendees *int     `json:"max_attendees"`
	Tags         []string `json:"tags"`
	Public       bool     `json:"is_public"`
	Meeting      struct {
		ID string `json:"id"`
	} `json:"meeting"`
}

func (s *sessionIn) FieldTypeMessage(field string) string {
	if field == "max_attendees" {
		return "Max attendees must be a whole number from 1 to 10000."
	}
	return ""
}

func read(body string, dst any) error {
	r := httptest.NewRequest("POST", "/", strings.NewReader(body))
	return ReadJSON(httptest.NewRecorder(), r, dst)
}

func TestReadJSON(t *testing.T) {
	cases := []struct {
		body, code, msg, field string
	}{
		{`{"title": "Agents"}`, "", "", ""},
		{`  {"title": "Agents", "unknown": [1, 2]}  `, "", "", ""},
		{``, errs.BadJSON, ErrEmptyBody.Message, ""},
		{`   `, errs.BadJSON, ErrEmptyBody.Message, ""},
		{`not json`, errs.BadJSON, "The request body is not valid JSON.", ""},
		{`{"title": "Agents"`, errs.BadJSON, "The request body is not valid JSON.", ""},
		{`["a list"]`, errs.BadJSON, "The request body must be a JSON object.", ""},
		{`"text"`, errs.BadJSON, "The request body must be a JSON object.", ""},
		{`null`, errs.BadJSON, "The request body must be a JSON object.", ""},
		{`{"title": "a"} {"title": "b"}`, errs.BadJSON, ErrTrailing.Message, ""},
		{`{"title": "a"} x`, errs.BadJSON, ErrTrailing.Message, ""},
		{`{"title": 7}`, errs.Invalid, "Title must be text.", "title"},
		{`{"max_attendees": "ten"}`, errs.Invalid, "Max attendees must be a whole number from 1 to 10000.", "max_attendees"},
		{`{"tags": "one"}`, errs.Invalid, "Tags must be a list.", "tags"},
		{`{"is_public": "yes"}`, errs.Invalid, "Is public must be true or false.", "is_public"},
		{`{"meeting": {"id": 5}}`, errs.Invalid, "Meeting id must be text.", "meeting.id"},
		{`{"meeting": 5}`, errs.Invalid, "Meeting must be an object.", "meeting"},
		{`{"title": "` + strings.Repeat("x", MaxJSONBody) + `"}`, errs.TooLarge, "The request body is too large.", ""},
	}
	for _, c := range cases {
		var dst sessionIn
		err := read(c.body, &dst)
		if c.code == "" {
			if err != nil {
				t.Errorf("%.60q: %v", c.body, err)
			}
			continue
		}
		var e *errs.Error
		if !errors.As(err, &e) || e.Code != c.code || e.Message != c.msg || e.Field != c.field {
			t.Errorf("%.60q: %#v, want %s %q field %q", c.body, err, c.code, c.msg, c.field)
		}
	}
}

// cutBody fails after its bytes, as a connection that drops mid-body does.
type cutBody struct{ r *strings.Reader }

func (c cutBody) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if err != nil {
		return n, errors.New("connection reset by peer")
	}
	return n, nil
}

func (cutBody) Close() error { return nil }

func TestReadRawKeepsExactBytesAndExplainsFailures(t *testing.T) {
	raw := "{\"a\":1}\r\n  "
	r := httptest.NewRequest("POST", "/", strings.NewReader(raw))
	got, err := ReadRaw(httptest.NewRecorder(), r, 1024)
	if err != nil || string(got) != raw {
		t.Fatalf("%q %v", got, err)
	}
	r = httptest.NewRequest("POST", "/", strings.NewReader(strings.Repeat("x", 2048)))
	if _, err := ReadRaw(httptest.NewRecorder(), r, 1024); !errors.Is(err, ErrBodyTooBig) {
		t.Fatalf("too big: %v", err)
	}
	r = httptest.NewRequest("POST", "/", nil)
	r.Body = cutBody{strings.NewReader(`{"a":`)}
	if _, err := ReadRaw(httptest.NewRecorder(), r, 1024); !errors.Is(err, ErrBodyCut) {
		t.Fatalf("cut: %v", err)
	}
}

func TestReadJSONLimit(t *testing.T) {
	read := func(body string, limit int64) (map[string]any, error) {
		var dst map[string]any
		r := httptest.NewRequest("POST", "/", strings.NewReader(body))
		return dst, ReadJSONLimit(httptest.NewRecorder(), r, &dst, limit)
	}
	big := `{"content":"` + strings.Repeat("a", 100<<10) + `"}`
	if _, err := read(big, MaxJSONBody); err != ErrBodyTooBig {
		t.Fatalf("100 KB under the default limit: %v", err)
	}
	got, err := read(big, 256<<10)
	if err != nil || len(got["content"].(string)) != 100<<10 {
		t.Fatalf("100 KB under a 256 KB limit: %v", err)
	}
	if _, err := read(`{"a":1} x`, 256<<10); err != ErrTrailing {
		t.Fatalf("trailing data: %v", err)
	}
	var typed struct {
		Title string `json:"title"`
	}
	r := httptest.NewRequest("POST", "/", strings.NewReader(`{"title": 3}`))
	err = ReadJSONLimit(httptest.NewRecorder(), r, &typed, 256<<10)
	if !errs.Is(err, errs.Invalid) || err.Error() != "Title must be text." {
		t.Fatalf("wrong type: %v", err)
	}
}

// TestReadJSONRefusesNUL: a NUL character in any string of a body (sign-in's
// e-mail, a name, a nested list) reached PostgreSQL and failed with 500. It
// is refused as a 400 before decoding; text that only shows the escape is
// kept.
func TestReadJSONRefusesNUL(t *testing.T) {
	for _, body := range []string{
		`{"title": "\u0000"}`,
		`{"title": "a\u0000b"}`,
		`{"tags": ["ok", "x\u0000"]}`,
		`{"meeting": {"id": "\u0000"}}`,
		`{"unknown": "\u0000"}`,
		`{"title": "\\\u0000"}`,
		`{"t\u0000": 1}`,
	} {
		var in sessionIn
		if err := read(body, &in); err != ErrNUL || errs.CodeOf(err) != errs.Invalid || Status(errs.CodeOf(err)) != http.StatusBadRequest {
			t.Errorf("%s: %v, want ErrNUL (400)", body, err)
		}
	}
	for _, body := range []string{`{"title": "\\u0000"}`, `{"title": "\\\\u0000"}`, `{"title": "u0000"}`, `{"title": "\u0001"}`} {
		var in sessionIn
		if err := read(body, &in); err != nil {
			t.Errorf("%s: %v, want it read", body, err)
		}
	}
}
