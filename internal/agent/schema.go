package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"tribe/internal/errs"
)

// schema is the part of JSON Schema that tool inputs use: types, object
// properties, required and additionalProperties, string lengths, number
// bounds, enums and array items. parseSchema refuses any other keyword, so
// a schema never promises a rule that Call does not enforce.
type schema struct {
	Type                 string             `json:"type"`
	Properties           map[string]*schema `json:"properties"`
	Required             []string           `json:"required"`
	AdditionalProperties *bool              `json:"additionalProperties"`
	MinLength            *int               `json:"minLength"`
	MaxLength            *int               `json:"maxLength"`
	Minimum              *float64           `json:"minimum"`
	Maximum              *float64           `json:"maximum"`
	Enum                 []any              `json:"enum"`
	Items                *schema            `json:"items"`
	MaxItems             *int               `json:"maxItems"`

	// Words for people and models; they change nothing in the check.
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Default     json.RawMessage `json:"default"`
	Examples    json.RawMessage `json:"examples"`
	Schema      string          `json:"$schema"`
}

var schemaTypes = []string{"object", "string", "integer", "number", "boolean", "array"}

func parseSchema(raw json.RawMessage) (*schema, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, errors.New("missing")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var s schema
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("only type, properties, required, additionalProperties, minLength, maxLength, minimum, maximum, enum, items and maxItems are enforced: %w", err)
	}
	if err := s.valid(""); err != nil {
		return nil, err
	}
	return &s, nil
}

func (s *schema) valid(at string) error {
	if !slices.Contains(schemaTypes, s.Type) {
		return fmt.Errorf("%stype %q is not one of %s", prefix(at), s.Type, strings.Join(schemaTypes, ", "))
	}
	for _, name := range s.Required {
		if _, ok := s.Properties[name]; !ok {
			return fmt.Errorf("%srequired property %q is not described", prefix(at), name)
		}
	}
	for name, p := range s.Properties {
		if err := p.valid(join(at, name)); err != nil {
			return err
		}
	}
	if s.Items != nil {
		return s.Items.valid(at + "[]")
	}
	return nil
}

func prefix(at string) string {
	if at == "" {
		return ""
	}
	return at + ": "
}

func join(at, name string) string {
	if at == "" {
		return name
	}
	return at + "." + name
}

// check decodes args and checks them against the schema. The error is an
// *errs.Error naming the argument, written for the person or model that
// sent it.
func (s *schema) check(args json.RawMessage) error {
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return errs.New(errs.Invalid, "The tool's arguments are not valid JSON.")
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errs.New(errs.Invalid, "The tool's arguments must be one JSON object.")
	}
	if _, ok := v.(map[string]any); !ok {
		return errs.New(errs.Invalid, "The tool's arguments must be a JSON object.")
	}
	return s.checkValue(v, "")
}

func (s *schema) checkValue(v any, at string) error {
	bad := func(format string, args ...any) error {
		return errs.Field(at, "Argument "+at+" "+fmt.Sprintf(format, args...))
	}
	switch s.Type {
	case "object":
		obj, ok := v.(map[string]any)
		if !ok {
			return bad("must be an object.")
		}
		for _, name := range s.Required {
			if _, ok := obj[name]; !ok {
				return errs.Field(join(at, name), "Argument "+join(at, name)+" is required.")
			}
		}
		names := make([]string, 0, len(obj))
		for name := range obj {
			names = append(names, name)
		}
		sort.Strings(names) // the same arguments always give the same message
		for _, name := range names {
			p, ok := s.Properties[name]
			if !ok {
				if s.AdditionalProperties != nil && !*s.AdditionalProperties {
					return errs.Field(join(at, name), "Argument "+join(at, name)+" is not known.")
				}
				continue
			}
			if err := p.checkValue(obj[name], join(at, name)); err != nil {
				return err
			}
		}
	case "string":
		str, ok := v.(string)
		if !ok {
			return bad("must be text.")
		}
		n := utf8.RuneCountInString(str)
		if s.MinLength != nil && n < *s.MinLength {
			if *s.MinLength == 1 {
				return bad("must not be empty.")
			}
			return bad("must be at least %d characters.", *s.MinLength)
		}
		if s.MaxLength != nil && n > *s.MaxLength {
			return bad("must be at most %d characters.", *s.MaxLength)
		}
	case "integer", "number":
		num, ok := v.(json.Number)
		if !ok {
			return bad("must be %s.", numberWords(s.Type))
		}
		f, err := num.Float64()
		if err != nil || math.IsInf(f, 0) {
			return bad("must be %s.", numberWords(s.Type))
		}
		if s.Type == "integer" && f != math.Trunc(f) {
			return bad("must be a whole number.")
		}
		if (s.Minimum != nil && f < *s.Minimum) || (s.Maximum != nil && f > *s.Maximum) {
			return bad("must be %s%s.", numberWords(s.Type), s.bounds())
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return bad("must be true or false.")
		}
	case "array":
		list, ok := v.([]any)
		if !ok {
			return bad("must be a list.")
		}
		if s.MaxItems != nil && len(list) > *s.MaxItems {
			return bad("must have at most %d items.", *s.MaxItems)
		}
		if s.Items != nil {
			for i, item := range list {
				if err := s.Items.checkValue(item, fmt.Sprintf("%s[%d]", at, i)); err != nil {
					return err
				}
			}
		}
	}
	if len(s.Enum) > 0 && !s.inEnum(v) {
		words := make([]string, len(s.Enum))
		for i, e := range s.Enum {
			words[i] = fmt.Sprint(e)
		}
		return bad("must be one of %s.", strings.Join(words, ", "))
	}
	return nil
}

func numberWords(typ string) string {
	if typ == "integer" {
		return "a whole number"
	}
	return "a number"
}

func (s *schema) bounds() string {
	switch {
	case s.Minimum != nil && s.Maximum != nil:
		return fmt.Sprintf(" from %g to %g", *s.Minimum, *s.Maximum)
	case s.Minimum != nil:
		return fmt.Sprintf(" of at least %g", *s.Minimum)
	case s.Maximum != nil:
		return fmt.Sprintf(" of at most %g", *s.Maximum)
	}
	return ""
}

func (s *schema) inEnum(v any) bool {
	for _, e := range s.Enum {
		if n, ok := v.(json.Number); ok {
			if f, err := n.Float64(); err == nil {
				if ef, ok := e.(float64); ok && ef == f {
					return true
				}
			}
			continue
		}
		if e == v {
			return true
		}
	}
	return false
}
