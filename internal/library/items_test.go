package library

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"tribe/internal/access"
	"tribe/internal/errs"
	"tribe/internal/levels"
	"tribe/internal/storage"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// TestLibraryEveryRoleAndLevel: every role and Tribe Level against items
// of every min_level: admins open all, unpublished ones included; members
// open what their level reaches and see the rest locked with the
// requirement; free members see titles only, locked, without media, link,
// body or transcript; nobody signed in gets nothing.
func TestLibraryEveryRoleAndLevel(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db, storage.NewLocal(t.TempDir()))
		ctx := context.Background()
		admin := f.admin("Owner")
		ids := map[int]string{}
		for lvl := 0; lvl <= len(levels.Table); lvl++ {
			ids[lvl] = f.add(admin, f.published(KindLink, fmt.Sprintf("Level %d", lvl), lvl)).ID
		}
		draft := f.add(admin, ItemInput{Kind: ptr(KindLesson), Title: ptr("Draft"), Body: ptr("Soon")}).ID
		later := f.clock.Now().Add(time.Hour)
		scheduled := f.add(admin, ItemInput{Kind: ptr(KindLesson), Title: ptr("Scheduled"), Body: ptr("Soon"), PublishedAt: &later}).ID

		if _, err := f.svc.List(ctx, access.Viewer{}, ListQuery{}); !errs.Is(err, errs.Unauthorized) {
			t.Errorf("anonymous list: %v", err)
		}
		viewers := map[string]access.Viewer{"admin": admin, "free": f.free("Free")}
		for i, l := range levels.Table {
			viewers[l.Name] = f.member("Member"+fmt.Sprint(i), l.Name)
		}
		for name, v := range viewers {
			rank := levels.RankOf(name)
			list, err := f.svc.List(ctx, v, ListQuery{})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]Item{}
			for _, it := range list.Items {
				got[it.ID] = it
			}
			if _, ok := got[draft]; ok != v.Admin {
				t.Errorf("%s sees the draft: %v", name, ok)
			}
			if _, ok := got[scheduled]; ok != v.Admin {
				t.Errorf("%s sees the scheduled item: %v", name, ok)
			}
			if _, err := f.svc.Get(ctx, v, draft); v.Admin != (err == nil) {
				t.Errorf("%s reads the draft: %v", name, err)
			}
			for lvl, id := range ids {
				it, ok := got[id]
				if !ok {
					t.Fatalf("%s does not see level %d", name, lvl)
				}
				wantLocked, wantWhy := false, ""
				switch {
				case v.Admin:
				case !v.Member:
					wantLocked, wantWhy = true, LockMembership
				case lvl > rank:
					wantLocked, wantWhy = true, LockLevel
				}
				if it.Locked != wantLocked || it.LockReason != wantWhy {
					t.Errorf("%s, level %d: locked %v (%q), want %v (%q)", name, lvl, it.Locked, it.LockReason, wantLocked, wantWhy)
				}
				if lvl > 0 && it.RequiredLevel != levels.Table[lvl-1].Name {
					t.Errorf("level %d: required %q", lvl, it.RequiredLevel)
				}
				d, err := f.svc.Get(ctx, v, id)
				if err != nil {
					t.Fatal(err)
				}
				if opened := d.URL != "" && d.EmbedURL != ""; opened == wantLocked {
					t.Errorf("%s, level %d: link shown %v while locked %v", name, lvl, opened, wantLocked)
				}
				_, err = f.svc.SaveProgress(ctx, v, id, ProgressInput{PositionS: 10})
				if (err == nil) == wantLocked || (wantLocked && !errs.Is(err, errs.Forbidden)) {
					t.Errorf("%s, level %d: progress %v", name, lvl, err)
				}
			}
		}
	})
}

// TestLibraryInputNamesTheField: each bad field is refused with a 400
// naming it, and nothing is stored.
func TestLibraryInputNamesTheField(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db, storage.NewLocal(t.TempDir()))
		ctx := context.Background()
		admin := f.admin("Owner")
		long := string(make([]rune, MaxTitle+1))
		for field, in := range map[string]ItemInput{
			"kind":        {Title: ptr("T")},
			"title":       {Kind: ptr(KindLesson), Title: ptr("  ")},
			"description": {Kind: ptr(KindLesson), Title: ptr("T"), Description: ptr(string(make([]byte, MaxDescription+1)))},
			"session_id":  {Kind: ptr(KindLesson), Title: ptr("T"), SessionID: ptr("nope")},
			"tags":        {Kind: ptr(KindLesson), Title: ptr("T"), Tags: ptr([]string{long})},
			"duration_s":  {Kind: ptr(KindRecording), Title: ptr("T"), DurationS: ptr(-1)},
			"min_level":   {Kind: ptr(KindRecording), Title: ptr("T"), MinLevel: ptr(6)},
			"url":         {Kind: ptr(KindLink), Title: ptr("T"), URL: ptr("javascript:alert(1)")},
			"chapters":    {Kind: ptr(KindRecording), Title: ptr("T"), DurationS: ptr(60), Chapters: ptr([]Chapter{{StartS: 90, Title: "Late"}})},
		} {
			_, err := f.svc.Create(ctx, admin, in)
			wantField(t, err, field)
		}
		if _, err := f.svc.Create(ctx, f.member("M", levels.Master), f.published(KindLesson, "T", 0)); !errs.Is(err, errs.Forbidden) {
			t.Errorf("a member creates: %v", err)
		}
		var n int
		if err := db.Read.QueryRow(`SELECT COUNT(*) FROM library_items`).Scan(&n); err != nil || n != 0 {
			t.Errorf("%d items stored, %v", n, err)
		}
		// A PATCH that sends null clears; one that leaves a field out keeps it.
		d := f.add(admin, f.published(KindLesson, "Lesson", 2))
		var patch ItemInput
		if err := json.Unmarshal([]byte(`{"published_at": null, "title": "Renamed"}`), &patch); err != nil {
			t.Fatal(err)
		}
		got, err := f.svc.Update(ctx, admin, d.ID, patch)
		if err != nil || got.PublishedAt != nil || got.Title != "Renamed" || got.MinLevel != 2 || got.Body == "" {
			t.Errorf("patch: %+v %v", got, err)
		}
		if _, err := f.svc.Update(ctx, admin, d.ID, ItemInput{}); !errs.Is(err, errs.Invalid) {
			t.Errorf("empty patch: %v", err)
		}
	})
}

// TestLibraryFiltersAndProgress: kind, tag, session and words filter the
// list; progress reaches completed at 90 %, stays completed when the
// member watches again, is unmarked on request, and the stats count it.
func TestLibraryFiltersAndProgress(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db, storage.NewLocal(t.TempDir()))
		ctx := context.Background()
		admin := f.admin("Owner")
		in := f.published(KindRecording, "Agent memory replay", 0)
		in.Tags = ptr([]string{"Agents", "memory"})
		rec := f.add(admin, in)
		f.add(admin, f.published(KindLesson, "Prompting basics", 0))
		m := f.member("Ann", levels.Apprentice)
		for q, want := range map[ListQuery]int{
			{}: 2, {Kind: KindRecording}: 1, {Tag: "agents"}: 1, {Tag: "none"}: 0, {Q: "MEMORY replay"}: 1, {Q: "basics"}: 1, {SessionID: "x"}: 0,
		} {
			list, err := f.svc.List(ctx, m, q)
			if err != nil || len(list.Items) != want {
				t.Errorf("%+v: %d items, %v; want %d", q, len(list.Items), err, want)
			}
		}
		if _, err := f.svc.List(ctx, m, ListQuery{Kind: "video"}); err == nil {
			t.Error("unknown kind listed")
		}
		steps := []struct {
			in   ProgressInput
			want Progress
		}{
			{ProgressInput{PositionS: 100}, Progress{100, false}},
			{ProgressInput{PositionS: 899}, Progress{899, false}},
			{ProgressInput{PositionS: 900}, Progress{900, true}},
			{ProgressInput{PositionS: 5}, Progress{5, true}},
			{ProgressInput{PositionS: 5, Completed: ptr(false)}, Progress{5, false}},
			{ProgressInput{PositionS: 5000}, Progress{1000, true}},
		}
		for _, s := range steps {
			p, err := f.svc.SaveProgress(ctx, m, rec.ID, s.in)
			if err != nil || *p != s.want {
				t.Errorf("%+v: %+v %v; want %+v", s.in, p, err, s.want)
			}
		}
		if _, err := f.svc.SaveProgress(ctx, m, rec.ID, ProgressInput{PositionS: -1}); err == nil {
			t.Error("negative position saved")
		}
		other := f.member("Bob", levels.Apprentice)
		if _, err := f.svc.SaveProgress(ctx, other, rec.ID, ProgressInput{PositionS: 10}); err != nil {
			t.Fatal(err)
		}
		st, err := f.svc.Stats(ctx, admin, rec.ID)
		if err != nil || *st != (Stats{Started: 2, Finished: 1}) {
			t.Errorf("stats %+v %v", st, err)
		}
		list, _ := f.svc.List(ctx, m, ListQuery{Kind: KindRecording})
		if list.Items[0].Progress != (Progress{1000, true}) {
			t.Errorf("list progress %+v", list.Items[0].Progress)
		}
	})
}

// TestEmbedURL: YouTube and Vimeo links become their privacy-enhanced
// players carrying only the video's id; other links none.
func TestEmbedURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42":   "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ",
		"https://youtu.be/dQw4w9WgXcQ?si=track":              "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ",
		"https://www.youtube.com/embed/dQw4w9WgXcQ":          "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ",
		"https://vimeo.com/123456789":                        "https://player.vimeo.com/video/123456789?dnt=1",
		"https://vimeo.com/123456789/abcdef1234":             "https://player.vimeo.com/video/123456789?dnt=1&h=abcdef1234",
		"https://player.vimeo.com/video/123456789?h=abc123f": "https://player.vimeo.com/video/123456789?dnt=1&h=abc123f",
		"https://www.youtube.com/watch?v=bad":                "",
		"https://example.com/watch?v=dQw4w9WgXcQ":            "",
		"https://vimeo.com/channels/staff":                   "",
	} {
		if got := EmbedURL(in); got != want {
			t.Errorf("%s: %q, want %q", in, got, want)
		}
	}
}
