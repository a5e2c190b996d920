package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"

	"tribe/internal/errs"
)

// MaxJSONBody bounds every JSON request body.
const MaxJSONBody = 64 << 10

// Errors of the body readers, answered as they are.
var (
	ErrEmptyBody   = errs.New(errs.BadJSON, "The request body is empty; it must be a JSON object.")
	ErrNotJSON     = errs.New(errs.BadJSON, "The request body is not valid JSON.")
	ErrNotObject   = errs.New(errs.BadJSON, "The request body must be a JSON object.")
	ErrTrailing    = errs.New(errs.BadJSON, "The request body must hold one JSON object and nothing after it.")
	ErrBodyTooBig  = errs.New(errs.TooLarge, "The request body is too large.")
	ErrBodyCut     = errs.New(errs.BadJSON, "The request body ended early. Please try again.")
	errBodyTimeout = errs.New(errs.BadJSON, "The request body took too long to arrive. Please try again.")
	// ErrNUL: no text the site keeps may hold a NUL character (PostgreSQL
	// text cannot), so a body with one is refused before anything reads it.
	ErrNUL = errs.New(errs.Invalid, "Text must not contain the NUL character (\\u0000).")
)

// FieldMessenger is implemented by request types that explain a value of the
// wrong type in their own words ("Max attendees must be a whole number…");
// message returns "" to use the general wording.
type FieldMessenger interface {
	FieldTypeMessage(field string) string
}

// ReadJSON decodes a request body holding one JSON object of at most
// MaxJSONBody bytes into dst. Unknown fields are ignored. The error it
// returns is an *errs.Error written for a person: an empty body is
// ErrEmptyBody, which callers that accept no body may allow.
func ReadJSON(w http.ResponseWriter, r *http.Request, dst any) error {
	return ReadJSONLimit(w, r, dst, MaxJSONBody)
}

// ReadJSONLimit is ReadJSON with another size limit, for the few endpoints
// whose bodies carry long text (knowledge-base documents); a bigger body is
// ErrBodyTooBig.
func ReadJSONLimit(w http.ResponseWriter, r *http.Request, dst any, limit int64) error {
	body, err := ReadRaw(w, r, limit)
	if err != nil {
		return err
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return ErrEmptyBody
	}
	if trimmed[0] != '{' {
		if json.Valid(trimmed) {
			return ErrNotObject
		}
		return ErrNotJSON
	}
	if HasNUL(trimmed) {
		return ErrNUL
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if err := dec.Decode(dst); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
			return errs.Field(typeErr.Field, typeMessage(dst, typeErr))
		}
		return ErrNotJSON
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return ErrTrailing
	}
	return nil
}

// HasNUL reports whether a JSON text has a string holding a NUL character:
// the escape \u0000 (JSON allows no raw control character in a string). A
// backslash before it that is itself escaped ("\\u0000", the text
// "\u0000") is no NUL: the escape counts when an odd number of backslashes
// precede the u.
func HasNUL(body []byte) bool {
	for i := 0; ; {
		j := bytes.Index(body[i:], []byte("u0000"))
		if j < 0 {
			return false
		}
		u := i + j
		n := 0
		for b := u - 1; b >= 0 && body[b] == '\\'; b-- {
			n++
		}
		if n%2 == 1 {
			return true
		}
		i = u + 1
	}
}

// ReadRaw reads a whole request body of at most limit bytes, exactly as
// sent (webhook signatures are computed over these bytes).
func ReadRaw(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err == nil {
		return body, nil
	}
	var tooBig *http.MaxBytesError
	var timeout interface{ Timeout() bool }
	switch {
	case errors.As(err, &tooBig):
		return nil, ErrBodyTooBig
	case errors.As(err, &timeout) && timeout.Timeout():
		return nil, errBodyTimeout
	default:
		return nil, ErrBodyCut
	}
}

// typeMessage explains a JSON value of the wrong type, naming the field.
func typeMessage(dst any, e *json.UnmarshalTypeError) string {
	if m, ok := dst.(FieldMessenger); ok {
		if msg := m.FieldTypeMessage(e.Field); msg != "" {
			return msg
		}
	}
	return FieldLabel(e.Field) + " must be " + kindName(e.Type) + "."
}

// FieldLabel turns a JSON field path into words for a message: "job_title"
// becomes "Job title", "meeting.id" becomes "Meeting id".
func FieldLabel(field string) string {
	label := strings.NewReplacer("_", " ", ".", " ").Replace(field)
	if label == "" {
		return "A value"
	}
	return strings.ToUpper(label[:1]) + label[1:]
}

func kindName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "text"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list"
	default:
		return "an object"
	}
}
