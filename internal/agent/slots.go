package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"tribe/internal/access"
	"tribe/internal/booking"
	"tribe/internal/content"
	"tribe/internal/errs"
)

// ToolFindSlots lists free booking times.
const ToolFindSlots = "find_available_slots"

// maxSlotDays bounds one question to the assistant: two weeks of times.
const maxSlotDays = 14

// Slots is what find_available_slots reads; *booking.Service is one.
type Slots interface {
	Types() []booking.Type
	Slots(ctx context.Context, typeID, from, to, tz string) (*booking.Availability, error)
	BookURL(typeID string, start time.Time) string
}

// slotsTool is find_available_slots over s: read-only, anyone's, at most 14
// days, each free time with the link that books it.
func slotsTool(s Slots) Tool {
	var ids []string
	for _, t := range s.Types() {
		// A type sold by the seat has dates, not free times.
		if t.Mode == booking.ModeNative && !t.Seated() {
			ids = append(ids, `"`+t.ID+`"`)
		}
	}
	return Tool{
		Name:  ToolFindSlots,
		Title: "Find free booking times",
		Description: "List the free start times of a one-to-one call type booked on the site (" + strings.Join(ids, ", ") +
			") between two dates, at most 14 days, in a time zone, each with the link that books it.",
		InputSchema: json.RawMessage(`{
			"type": "object",
			"properties": {
				"type": {"type": "string", "enum": [` + strings.Join(ids, ", ") + `], "description": "The call type"},
				"from": {"type": "string", "minLength": 10, "maxLength": 10, "description": "First date, YYYY-MM-DD (default today)"},
				"to": {"type": "string", "minLength": 10, "maxLength": 10, "description": "Last date, YYYY-MM-DD, at most 14 days from the first (default a week)"},
				"time_zone": {"type": "string", "minLength": 1, "maxLength": 64, "description": "IANA zone the times are written in, such as Europe/Paris (default UTC)"}
			},
			"required": ["type"],
			"additionalProperties": false
		}`),
		OutputSchema: json.RawMessage(`{
			"type": "object",
			"properties": {
				"type": {"type": "string"}, "name": {"type": "string"}, "duration_minutes": {"type": "integer"},
				"price": {"type": "string"}, "time_zone": {"type": "string"},
				"days": {"type": "array", "items": {"type": "object", "properties": {
					"date": {"type": "string"},
					"slots": {"type": "array", "items": {"type": "object", "properties": {
						"start": {"type": "string"}, "book": {"type": "string"}
					}}}
				}}}
			}
		}`),
		ReadOnly: true,
		Who:      Anyone,
		Run: func(ctx context.Context, _ access.Viewer, raw json.RawMessage) (any, error) {
			return findSlots(ctx, s, raw)
		},
	}
}

type slotsArgs struct {
	Type     string `json:"type"`
	From     string `json:"from"`
	To       string `json:"to"`
	TimeZone string `json:"time_zone"`
}

// SlotsOutput answers find_available_slots.
type SlotsOutput struct {
	Type     string     `json:"type"`
	Name     string     `json:"name"`
	Minutes  int        `json:"duration_minutes"`
	Price    string     `json:"price"`
	TimeZone string     `json:"time_zone"`
	Days     []SlotsDay `json:"days"`
}

// SlotsDay is one date's free times.
type SlotsDay struct {
	Date  string     `json:"date"`
	Slots []FreeSlot `json:"slots"`
}

// FreeSlot is a free start and the page that books it.
type FreeSlot struct {
	Start string `json:"start"`
	Book  string `json:"book"`
}

func findSlots(ctx context.Context, s Slots, raw json.RawMessage) (any, error) {
	var a slotsArgs
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, fmt.Errorf("decode checked arguments: %w", err)
	}
	zone := a.TimeZone
	if zone == "" {
		zone = "UTC"
	}
	loc, err := content.LoadZone(zone)
	if err != nil {
		return nil, errs.Field("time_zone", "Argument time_zone must be an IANA zone such as Europe/Paris.")
	}
	from := a.From
	if from == "" {
		from = time.Now().In(loc).Format(time.DateOnly)
	}
	first, err := time.Parse(time.DateOnly, from)
	if err != nil {
		return nil, errs.Field("from", "Argument from must be a date written YYYY-MM-DD.")
	}
	to := a.To
	if to == "" {
		to = first.AddDate(0, 0, 6).Format(time.DateOnly)
	}
	last, err := time.Parse(time.DateOnly, to)
	if err != nil {
		return nil, errs.Field("to", "Argument to must be a date written YYYY-MM-DD.")
	}
	if last.Sub(first) >= maxSlotDays*24*time.Hour {
		return nil, errs.Field("to", fmt.Sprintf("Argument to must be at most %d days after from.", maxSlotDays-1))
	}
	av, err := s.Slots(ctx, a.Type, from, to, zone)
	if err != nil {
		return nil, err
	}
	out := SlotsOutput{Type: a.Type, TimeZone: av.TimeZone, Days: []SlotsDay{}}
	for _, t := range s.Types() {
		if t.ID == a.Type {
			out.Name, out.Minutes, out.Price = t.Name, t.Minutes, content.FormatMinor(t.Price, t.Currency)
			if t.Price == 0 {
				out.Price = "free"
			}
		}
	}
	for _, d := range av.Days {
		day := SlotsDay{Date: d.Date, Slots: []FreeSlot{}}
		for _, v := range d.Slots {
			start, err := time.Parse(time.RFC3339, v)
			if err != nil {
				continue
			}
			day.Slots = append(day.Slots, FreeSlot{Start: v, Book: s.BookURL(a.Type, start.In(loc))})
		}
		if len(day.Slots) > 0 {
			out.Days = append(out.Days, day)
		}
	}
	return out, nil
}
