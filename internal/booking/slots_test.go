package booking

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"tribe/internal/community"
	"tribe/internal/content"
	"tribe/internal/errs"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// sundayHours makes the owner available on Sundays only, from start to end
// in zone, with 30-minute steps and no buffers or notice, so a test sees
// exactly the starts the clock change allows.
func sundayHours(t *testing.T, s *Service, zone, start, end string) {
	t.Helper()
	st := s.defaults
	st.TimeZone = zone
	st.WeeklyHours = map[string][]content.HourRange{"sunday": {{Start: start, End: end}}}
	st.SlotStep, st.BufferBefore, st.BufferAfter, st.MinNotice = 30, 0, 0, 0
	if _, err := s.SaveSettings(context.Background(), st); err != nil {
		t.Fatal(err)
	}
}

// Slots around the daylight-saving changes of three zones (Cal.com #4702),
// seen by a visitor in another zone: no slot in a skipped hour, no slot
// twice in a repeated hour, every call its real length, the same instants
// on both engines. The expected instants are written out by hand.
func TestSlotsAcrossDaylightSavingChanges(t *testing.T) {
	cases := []struct {
		name, owner, from, to, visitor, date string
		clock                                time.Time
		want                                 []string
	}{
		{
			// 02:00 CET becomes 03:00 CEST: 02:00 and 02:30 do not exist.
			name: "Paris spring forward", owner: "Europe/Paris", from: "01:00", to: "04:00",
			visitor: "America/New_York", date: "2026-03-28", clock: time.Date(2026, 3, 20, 0, 0, 0, 0, time.UTC),
			want: []string{"2026-03-28T20:00:00-04:00", "2026-03-28T20:30:00-04:00", "2026-03-28T21:00:00-04:00", "2026-03-28T21:30:00-04:00"},
		},
		{
			// 03:00 CEST becomes 02:00 CET: 02:00 and 02:30 happen twice and
			// are offered once, at their first occurrence.
			name: "Paris fall back", owner: "Europe/Paris", from: "01:00", to: "04:00",
			visitor: "Asia/Tokyo", date: "2026-10-25", clock: time.Date(2026, 10, 15, 0, 0, 0, 0, time.UTC),
			want: []string{"2026-10-25T08:00:00+09:00", "2026-10-25T08:30:00+09:00", "2026-10-25T09:00:00+09:00",
				"2026-10-25T09:30:00+09:00", "2026-10-25T11:00:00+09:00", "2026-10-25T11:30:00+09:00"},
		},
		{
			name: "New York spring forward", owner: "America/New_York", from: "01:00", to: "04:00",
			visitor: "Asia/Kolkata", date: "2026-03-08", clock: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC),
			want: []string{"2026-03-08T11:30:00+05:30", "2026-03-08T12:00:00+05:30", "2026-03-08T12:30:00+05:30", "2026-03-08T13:00:00+05:30"},
		},
		{
			// 02:00 EDT becomes 01:00 EST: 01:00 and 01:30 happen twice.
			name: "New York fall back", owner: "America/New_York", from: "00:00", to: "03:00",
			visitor: "Europe/Paris", date: "2026-11-01", clock: time.Date(2026, 10, 20, 0, 0, 0, 0, time.UTC),
			want: []string{"2026-11-01T05:00:00+01:00", "2026-11-01T05:30:00+01:00", "2026-11-01T06:00:00+01:00",
				"2026-11-01T06:30:00+01:00", "2026-11-01T08:00:00+01:00", "2026-11-01T08:30:00+01:00"},
		},
		{
			// 03:00 AEDT becomes 02:00 AEST on the first Sunday of April.
			name: "Sydney fall back", owner: "Australia/Sydney", from: "01:00", to: "04:00",
			visitor: "America/Los_Angeles", date: "2026-04-04", clock: time.Date(2026, 3, 25, 0, 0, 0, 0, time.UTC),
			want: []string{"2026-04-04T07:00:00-07:00", "2026-04-04T07:30:00-07:00", "2026-04-04T08:00:00-07:00",
				"2026-04-04T08:30:00-07:00", "2026-04-04T10:00:00-07:00", "2026-04-04T10:30:00-07:00"},
		},
		{
			// 02:00 AEST becomes 03:00 AEDT on the first Sunday of October.
			name: "Sydney spring forward", owner: "Australia/Sydney", from: "01:00", to: "04:00",
			visitor: "Europe/Paris", date: "2026-10-03", clock: time.Date(2026, 9, 25, 0, 0, 0, 0, time.UTC),
			want: []string{"2026-10-03T17:00:00+02:00", "2026-10-03T17:30:00+02:00", "2026-10-03T18:00:00+02:00", "2026-10-03T18:30:00+02:00"},
		},
	}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, clock := newService(t, db, true)
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				clock.Set(tc.clock)
				sundayHours(t, s, tc.owner, tc.from, tc.to)
				day, _ := time.Parse(time.DateOnly, tc.date)
				a, err := s.Slots(context.Background(), "session-30", day.AddDate(0, 0, -1).Format(time.DateOnly),
					day.AddDate(0, 0, 1).Format(time.DateOnly), tc.visitor)
				if err != nil {
					t.Fatal(err)
				}
				if a.TimeZone != tc.visitor || len(a.Days) != 3 || a.Days[1].Date != tc.date {
					t.Fatalf("days %+v", a)
				}
				if len(a.Days[0].Slots)+len(a.Days[2].Slots) != 0 || !slices.Equal(a.Days[1].Slots, tc.want) {
					t.Fatalf("slots\n got %v %v %v\nwant [] %v []", a.Days[0].Slots, a.Days[1].Slots, a.Days[2].Slots, tc.want)
				}
				// Each offered time can be booked, and is then gone.
				for i, slot := range tc.want {
					start, _ := time.Parse(time.RFC3339, slot)
					r := req("session-30", start, fmt.Sprintf("dst%d@example.com", i))
					r.ClientAddr = ""
					c := book(t, s, r)
					if !c.Booking.Start.Equal(start) || c.Booking.End.Sub(c.Booking.Start) != 30*time.Minute {
						t.Fatalf("booked %s to %s for %s", c.Booking.Start, c.Booking.End, slot)
					}
					if _, _, err := s.CancelByOwner(context.Background(), c.Booking.ID); err != nil {
						t.Fatal(err)
					}
				}
			})
		}
	})
}

// A time inside a skipped hour is never bookable, even when asked for by
// hand.
func TestSkippedHourIsRefused(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, clock := newService(t, db, true)
		clock.Set(time.Date(2026, 3, 20, 0, 0, 0, 0, time.UTC))
		sundayHours(t, s, "Europe/Paris", "01:00", "04:00")
		// 01:30 UTC is 03:30 CEST, offered; what a naive reading of "02:30"
		// in CET would give is 01:30 UTC too, so ask for 00:45 UTC instead,
		// which is 01:45 CET: off the 30-minute grid.
		_, err := s.Book(context.Background(), req("session-30", time.Date(2026, 3, 29, 0, 45, 0, 0, time.UTC), "x@example.com"))
		wantField(t, err, "start")
	})
}

func TestWallInstant(t *testing.T) {
	paris := mustZone("Europe/Paris")
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	for _, tc := range []struct {
		day    time.Time
		minute int
		want   string // "" when the reading does not exist
	}{
		{day(2026, 3, 29), 90, "2026-03-29T00:30:00Z"},
		{day(2026, 3, 29), 120, ""},
		{day(2026, 3, 29), 150, ""},
		{day(2026, 3, 29), 180, "2026-03-29T01:00:00Z"},
		{day(2026, 10, 25), 150, "2026-10-25T00:30:00Z"}, // first of two 02:30s
		{day(2026, 10, 25), 180, "2026-10-25T02:00:00Z"},
		{day(2026, 7, 1), 24 * 60, "2026-07-01T22:00:00Z"}, // 24:00 is next midnight
	} {
		got, ok := wallInstant(tc.day, tc.minute, paris)
		if (tc.want == "") != !ok || (ok && got.UTC().Format(time.RFC3339) != tc.want) {
			t.Errorf("%s +%d min: %v %v, want %q", tc.day.Format(time.DateOnly), tc.minute, got.UTC(), ok, tc.want)
		}
	}
	// An end inside the gap is the end of the gap.
	if got := wallEnd(day(2026, 3, 29), 150, paris); !got.Equal(time.Date(2026, 3, 29, 1, 0, 0, 0, time.UTC)) {
		t.Errorf("end at 02:30 on the spring-forward day: %v", got)
	}
}

// The default week: weekdays 09:00 to 17:00 in Toronto, 15-minute steps,
// 12 hours' notice, 10-minute buffers around each booking, and the tribe's
// live sessions take the owner's time too.
func TestSlotsFollowHoursNoticeBuffersAndLiveSessions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, _ := newService(t, db, true)
		// Monday 04:00 in Toronto: notice closes Monday until 16:00.
		mon := slotsOn(t, s, "session-60", "2026-01-05", "America/Toronto")
		if !slices.Equal(mon, []string{"2026-01-05T16:00:00-05:00"}) {
			t.Fatalf("Monday: %v", mon)
		}
		tue := slotsOn(t, s, "session-60", "2026-01-06", "America/Toronto")
		if len(tue) != 29 || tue[0] != "2026-01-06T09:00:00-05:00" || tue[28] != "2026-01-06T16:00:00-05:00" {
			t.Fatalf("Tuesday: %d slots %v", len(tue), tue)
		}
		if sat := slotsOn(t, s, "session-15", "2026-01-10", "America/Toronto"); len(sat) != 0 {
			t.Fatalf("Saturday: %v", sat)
		}
		// A 30-minute booking at 11:00 blocks 10:50 to 11:40: a 30-minute
		// call may end by 10:40 (its own buffer) and start from 11:50.
		book(t, s, req("session-30", at(2026, time.January, 6, 11, 0), "a@example.com"))
		tue = slotsOn(t, s, "session-30", "2026-01-06", "America/Toronto")
		for _, gone := range []string{"10:15", "10:30", "10:45", "11:00", "11:15", "11:30", "11:45"} {
			if contains(tue, "2026-01-06T"+gone+":00-05:00") {
				t.Errorf("%s is offered beside the 11:00 booking", gone)
			}
		}
		for _, kept := range []string{"10:00", "12:00"} {
			if !contains(tue, "2026-01-06T"+kept+":00-05:00") {
				t.Errorf("%s is not offered", kept)
			}
		}
		// A live session on Wednesday 14:00-16:00 Toronto.
		_, err := community.CreateSession(ctx, db, "", community.SessionInput{Title: "Tribe call", Date: "2026-01-07", Time: "14:00",
			Duration: "2 hours", Timezone: "America/Toronto", Status: "scheduled"})
		if err != nil {
			t.Fatal(err)
		}
		wed := slotsOn(t, s, "session-30", "2026-01-07", "America/Toronto")
		for _, gone := range []string{"13:30", "14:00", "15:30", "16:00"} {
			if contains(wed, "2026-01-07T"+gone+":00-05:00") {
				t.Errorf("%s is offered during the live session", gone)
			}
		}
		if !contains(wed, "2026-01-07T13:15:00-05:00") || !contains(wed, "2026-01-07T16:15:00-05:00") {
			t.Errorf("Wednesday around the live session: %v", wed)
		}
		_, err = s.Book(ctx, req("session-30", at(2026, time.January, 7, 15, 0), "b@example.com"))
		wantCode(t, err, errs.SlotTaken)
	})
}

// Overrides close a day or change its hours; the daily maximum closes a
// day once reached.
func TestOverridesAndDailyMaximum(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, _ := newService(t, db, true)
		st, _ := s.LoadSettings(ctx)
		st.Overrides = []Override{{Date: "2026-01-07", Hours: nil}, {Date: "2026-01-10", Hours: []content.HourRange{{Start: "10:00", End: "11:00"}}}}
		st.MaxPerDay = 2
		if _, err := s.SaveSettings(ctx, st); err != nil {
			t.Fatal(err)
		}
		if wed := slotsOn(t, s, "session-15", "2026-01-07", "America/Toronto"); len(wed) != 0 {
			t.Fatalf("a day off offers %v", wed)
		}
		sat := slotsOn(t, s, "session-30", "2026-01-10", "America/Toronto")
		if !slices.Equal(sat, []string{"2026-01-10T10:00:00-05:00", "2026-01-10T10:15:00-05:00", "2026-01-10T10:30:00-05:00"}) {
			t.Fatalf("a Saturday with hours: %v", sat)
		}
		book(t, s, req("session-15", at(2026, time.January, 8, 9, 0), "a@example.com"))
		book(t, s, req("session-15", at(2026, time.January, 8, 13, 0), "b@example.com"))
		if thu := slotsOn(t, s, "session-15", "2026-01-08", "America/Toronto"); len(thu) != 0 {
			t.Fatalf("a full day offers %v", thu)
		}
		_, err := s.Book(ctx, req("session-15", at(2026, time.January, 8, 15, 0), "c@example.com"))
		wantCode(t, err, errs.SlotTaken)
	})
}

func TestSlotsRefuseBadQueries(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, _ := newService(t, db, true)
		ctx := context.Background()
		for _, tc := range []struct{ typ, from, to, tz, field string }{
			{"session-99", "2026-01-06", "2026-01-06", "UTC", "type"},
			{"group", "2026-01-06", "2026-01-06", "UTC", "type"},
			{"session-30", "2026-01-06", "2026-01-06", "Mars/Olympus", "tz"},
			{"session-30", "2026-01-06", "2026-01-06", "Local", "tz"},
			{"session-30", "06/01/2026", "2026-01-06", "UTC", "from"},
			{"session-30", "2026-01-06", "2026-02-31", "UTC", "to"},
			{"session-30", "2026-01-06", "2026-01-05", "UTC", "to"},
			{"session-30", "2026-01-01", "2026-03-04", "UTC", "to"}, // 63 days
		} {
			_, err := s.Slots(ctx, tc.typ, tc.from, tc.to, tc.tz)
			wantField(t, err, tc.field)
		}
		a, err := s.Slots(ctx, "session-30", "2026-01-01", "2026-03-03", "UTC") // 62 days
		if err != nil || len(a.Days) != 62 {
			t.Fatalf("62 days: %v", err)
		}
		// Beyond the 60-day window nothing is offered.
		if last := slotsOn(t, s, "session-30", "2026-03-05", "America/Toronto"); len(last) == 0 {
			t.Fatal("the last day of the window offers nothing")
		}
		// The clock stands at 5 January 09:00 UTC, so 6 March 04:00 in Toronto.
		a, _ = s.Slots(ctx, "session-30", "2026-03-06", "2026-03-10", "America/Toronto")
		for _, d := range a.Days {
			if len(d.Slots) != 0 {
				t.Fatalf("%s beyond the window offers %v", d.Date, d.Slots)
			}
		}
	})
}
