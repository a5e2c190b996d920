package booking

import (
	"context"
	"reflect"
	"testing"

	"tribe/internal/content"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// The owner starts with the content's week and the documented defaults,
// and with the first admin address as the owner's.
func TestDefaultSettingsComeFromTheContent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, _ := newService(t, db, true)
		st, err := s.LoadSettings(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		day := []content.HourRange{{Start: "09:00", End: "17:00"}}
		want := Settings{
			TimeZone: "America/Toronto", Overrides: []Override{},
			WeeklyHours: map[string][]content.HourRange{"monday": day, "tuesday": day, "wednesday": day, "thursday": day, "friday": day},
			SlotStep:    15, BufferBefore: 10, BufferAfter: 10, MinNotice: 12 * 60, WindowDays: 60, MaxPerDay: 0, Cutoff: 24 * 60,
			OwnerName: "Reuven Cohen", OwnerEmail: "owner@example.com",
		}
		if !reflect.DeepEqual(st, want) {
			t.Fatalf("defaults\n got %+v\nwant %+v", st, want)
		}
	})
}

// Without TRIBE_ADMIN_EMAILS (make run) the calendar still opens: the owner
// address defaults to the content's contact address.
func TestDefaultOwnerWithoutAdminsIsTheContactAddress(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := New(db, Config{Site: site})
		st, err := s.LoadSettings(context.Background())
		if err != nil || st.OwnerEmail != site.Contact.Email || st.OwnerEmail == "" {
			t.Fatalf("owner %q, %v", st.OwnerEmail, err)
		}
		if _, err := s.Slots(context.Background(), "session-30", "2026-01-06", "2026-01-06", "UTC"); err != nil {
			t.Fatal(err)
		}
	})
}

func TestSettingsAreSavedAndBadOnesNameTheField(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, _ := newService(t, db, true)
		good, _ := s.LoadSettings(ctx)
		good.WeeklyHours["saturday"] = []content.HourRange{{Start: "08:00", End: "12:00"}, {Start: "13:00", End: "24:00"}}
		good.Overrides = []Override{{Date: "2026-12-25"}}
		good.MeetingLink = "https://meet.example/ruv"
		good.MaxPerDay = 4
		if _, err := s.SaveSettings(ctx, good); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.LoadSettings(ctx); !reflect.DeepEqual(got, good) {
			t.Fatalf("read back\n got %+v\nwant %+v", got, good)
		}
		for _, tc := range []struct {
			field  string
			change func(st *Settings)
		}{
			{"time_zone", func(st *Settings) { st.TimeZone = "Europe/Atlantis" }},
			{"time_zone", func(st *Settings) { st.TimeZone = "" }},
			{"weekly_hours.funday", func(st *Settings) { st.WeeklyHours["funday"] = nil }},
			{"weekly_hours.monday[1]", func(st *Settings) {
				st.WeeklyHours["monday"] = []content.HourRange{{Start: "09:00", End: "12:00"}, {Start: "11:00", End: "13:00"}}
			}},
			{"weekly_hours.tuesday[0]", func(st *Settings) { st.WeeklyHours["tuesday"] = []content.HourRange{{Start: "9", End: "12:00"}} }},
			{"overrides[0].date", func(st *Settings) { st.Overrides = []Override{{Date: "2026-02-30"}} }},
			{"overrides[1].date", func(st *Settings) { st.Overrides = []Override{{Date: "2026-05-01"}, {Date: "2026-05-01"}} }},
			{"overrides[0].hours[0]", func(st *Settings) {
				st.Overrides = []Override{{Date: "2026-05-01", Hours: []content.HourRange{{Start: "12:00", End: "11:00"}}}}
			}},
			{"slot_step_minutes", func(st *Settings) { st.SlotStep = 0 }},
			{"slot_step_minutes", func(st *Settings) { st.SlotStep = 7 }},
			{"buffer_before_minutes", func(st *Settings) { st.BufferBefore = -1 }},
			{"buffer_after_minutes", func(st *Settings) { st.BufferAfter = 241 }},
			{"minimum_notice_minutes", func(st *Settings) { st.MinNotice = -5 }},
			{"window_days", func(st *Settings) { st.WindowDays = 0 }},
			{"max_per_day", func(st *Settings) { st.MaxPerDay = 101 }},
			{"cutoff_minutes", func(st *Settings) { st.Cutoff = -1 }},
			{"owner_name", func(st *Settings) { st.OwnerName = " " }},
			{"owner_email", func(st *Settings) { st.OwnerEmail = "owner" }},
			{"meeting_link", func(st *Settings) { st.MeetingLink = "javascript:alert(1)" }},
		} {
			st := good
			st.WeeklyHours = map[string][]content.HourRange{}
			for k, v := range good.WeeklyHours {
				st.WeeklyHours[k] = v
			}
			tc.change(&st)
			_, err := s.SaveSettings(ctx, st)
			wantField(t, err, tc.field)
		}
		if got, _ := s.LoadSettings(ctx); !reflect.DeepEqual(got, good) {
			t.Fatal("a refused save changed the stored settings")
		}
	})
}
