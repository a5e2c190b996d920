package ical

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
)

// Reading. Calendar files from the wild carry lines no strict parser
// accepts (a stray X- parameter, an unquoted colon, a missing END); a reader
// that fails the whole file on one of them loses every other event. Read
// therefore judges each component on its own: a line it cannot read marks
// only the component holding it as bad, and the caller skips that one. It
// also bounds what a hostile file can cost: the nesting depth and the count
// of components are capped, and a component nested too deep is passed over
// by counting its BEGIN and END lines without building anything.

// Property is one content line: its name (upper case), its parameters
// (names upper case, values unquoted and RFC 6868-decoded) and its raw
// value.
type Property struct {
	Name   string
	Params map[string][]string
	Value  string
}

// Param returns the first value of a parameter, or "".
func (p *Property) Param(name string) string {
	if v := p.Params[name]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// Component is a BEGIN/END block: its name (upper case), its properties
// and the components inside it. Bad is why it could not be read in full,
// empty when it could; BadNames names the properties of its unreadable
// lines ("" when even the name was unreadable), so a caller can tell a
// broken DTSTART from a broken X-APPLE-... line it does not need.
type Component struct {
	Name       string
	Props      []Property
	Components []*Component
	Bad        string
	BadNames   []string
}

// Prop returns the component's first property of that name, or nil.
func (c *Component) Prop(name string) *Property {
	for i := range c.Props {
		if c.Props[i].Name == name {
			return &c.Props[i]
		}
	}
	return nil
}

// All returns every property of that name.
func (c *Component) All(name string) []*Property {
	var out []*Property
	for i := range c.Props {
		if c.Props[i].Name == name {
			out = append(out, &c.Props[i])
		}
	}
	return out
}

// Limits bounds what reading one file may build.
type Limits struct {
	MaxDepth      int // components nested deeper are skipped
	MaxComponents int // components after this many are not read
}

// Skips counts what Read passed over, for the caller to tell.
type Skips struct {
	TooDeep      int // components nested beyond MaxDepth
	OverCount    int // components beyond MaxComponents
	BadLines     int // lines that could not be read (their component is marked Bad)
	Unterminated int // components the file never ended
}

// ErrNotCalendar is a file that holds no VCALENDAR.
var ErrNotCalendar = errors.New("not an iCalendar file (no BEGIN:VCALENDAR)")

// Read reads an iCalendar file and returns its VCALENDAR: several
// VCALENDARs in one file are merged into the first.
func Read(data []byte, lim Limits) (*Component, Skips, error) {
	var (
		sk    Skips
		root  *Component
		stack []*Component
		// depth counts the open components being skipped (too deep, over
		// the count, or outside any VCALENDAR) without building them.
		skipDepth int
		count     int
	)
	handle := func(line []byte) {
		if len(bytes.TrimSpace(line)) == 0 {
			return
		}
		p, err := parseLine(line)
		if err != nil {
			sk.BadLines++
			if len(stack) > 0 && skipDepth == 0 {
				top := stack[len(stack)-1]
				if top.Bad == "" {
					top.Bad = err.Error()
				}
				top.BadNames = append(top.BadNames, lineName(line))
			}
			return
		}
		switch p.Name {
		case "BEGIN":
			name := strings.ToUpper(strings.TrimSpace(p.Value))
			if skipDepth > 0 {
				skipDepth++
				return
			}
			if len(stack) == 0 && name != "VCALENDAR" {
				skipDepth = 1
				return
			}
			if len(stack) >= lim.MaxDepth && lim.MaxDepth > 0 {
				sk.TooDeep++
				skipDepth = 1
				return
			}
			if lim.MaxComponents > 0 && count >= lim.MaxComponents {
				sk.OverCount++
				skipDepth = 1
				return
			}
			count++
			c := &Component{Name: name}
			if len(stack) == 0 {
				if root == nil {
					root = c
				}
				stack = append(stack, root)
				return
			}
			parent := stack[len(stack)-1]
			parent.Components = append(parent.Components, c)
			stack = append(stack, c)
		case "END":
			if skipDepth > 0 {
				skipDepth--
				return
			}
			name := strings.ToUpper(strings.TrimSpace(p.Value))
			// Close up to the component named. An END naming none of the
			// open ones (END:VTOOD for END:VTODO, seen in the wild) closes
			// the innermost, as calendar clients read it, so the events
			// after it are not swallowed; never the VCALENDAR itself.
			for i := len(stack) - 1; i >= 0; i-- {
				if stack[i].Name == name {
					for _, open := range stack[i+1:] {
						if open.Bad == "" {
							open.Bad = "not ended"
						}
						sk.Unterminated++
					}
					stack = stack[:i]
					return
				}
			}
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
		default:
			if skipDepth > 0 || len(stack) == 0 {
				return
			}
			top := stack[len(stack)-1]
			top.Props = append(top.Props, p)
		}
	}
	// A byte-order mark some exporters write is not part of the first line.
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	// Unfold as we go: a line starting with a space or tab continues the
	// one before (RFC 5545 3.1).
	var cur []byte
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		var line []byte
		if i < 0 {
			line, data = data, nil
		} else {
			line, data = data[:i], data[i+1:]
		}
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if len(line) > 0 && (line[0] == ' ' || line[0] == '\t') {
			cur = append(cur, line[1:]...)
			continue
		}
		if cur != nil {
			handle(cur)
		}
		cur = append(cur[:0:0], line...)
	}
	if cur != nil {
		handle(cur)
	}
	if root == nil {
		return nil, sk, ErrNotCalendar
	}
	for _, open := range stack[min(1, len(stack)):] {
		if open.Bad == "" {
			open.Bad = "not ended"
		}
		sk.Unterminated++
	}
	return root, sk, nil
}

// parseLine reads "NAME;PARAM=VALUE,"QUOTED":VALUE" (RFC 5545 3.1).
func parseLine(l []byte) (Property, error) {
	s := string(l)
	i := 0
	for i < len(s) && (isNameChar(s[i])) {
		i++
	}
	if i == 0 || i >= len(s) || (s[i] != ':' && s[i] != ';') {
		return Property{}, fmt.Errorf("unreadable line %q", clip(s))
	}
	p := Property{Name: strings.ToUpper(s[:i])}
	for s[i] == ';' {
		i++
		j := i
		for j < len(s) && isNameChar(s[j]) {
			j++
		}
		if j == i || j >= len(s) || s[j] != '=' {
			return Property{}, fmt.Errorf("unreadable parameter in %q", clip(s))
		}
		name := strings.ToUpper(s[i:j])
		i = j + 1
		for {
			var v string
			if i < len(s) && s[i] == '"' {
				end := strings.IndexByte(s[i+1:], '"')
				if end < 0 {
					return Property{}, fmt.Errorf("unclosed quote in %q", clip(s))
				}
				v = s[i+1 : i+1+end]
				i += end + 2
			} else {
				j := i
				for j < len(s) && s[j] != ';' && s[j] != ':' && s[j] != ',' {
					j++
				}
				v = s[i:j]
				i = j
			}
			if p.Params == nil {
				p.Params = map[string][]string{}
			}
			p.Params[name] = append(p.Params[name], decodeParam(v))
			if i < len(s) && s[i] == ',' {
				i++
				continue
			}
			break
		}
		if i >= len(s) || (s[i] != ':' && s[i] != ';') {
			return Property{}, fmt.Errorf("unreadable parameter in %q", clip(s))
		}
	}
	p.Value = s[i+1:]
	return p, nil
}

// lineName is the property name an unreadable line starts with, upper
// case, or "" when it has none.
func lineName(l []byte) string {
	i := 0
	for i < len(l) && isNameChar(l[i]) {
		i++
	}
	if i == len(l) || (l[i] != ';' && l[i] != ':') {
		return ""
	}
	return strings.ToUpper(string(l[:i]))
}

func isNameChar(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

// decodeParam undoes RFC 6868's caret encoding: ^' a double quote, ^n a
// newline, ^^ a caret; any other caret stays as written.
func decodeParam(v string) string {
	if !strings.Contains(v, "^") {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '^' && i+1 < len(v) {
			switch v[i+1] {
			case '\'':
				b.WriteByte('"')
				i++
				continue
			case 'n', 'N':
				b.WriteByte('\n')
				i++
				continue
			case '^':
				b.WriteByte('^')
				i++
				continue
			}
		}
		b.WriteByte(v[i])
	}
	return b.String()
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
