package library

import (
	"context"
	"strings"
	"testing"
	"time"

	"tribe/internal/storage"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// TestTranscriptIndexedWhilePublished: a transcript is parsed into cues,
// a malformed one is refused naming its line, and its passages, cited by
// their time with a link that plays from there, are in the knowledge base
// only while the item is published and asks for no level; deleting the
// item removes them.
func TestTranscriptIndexedWhilePublished(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db, storage.NewLocal(t.TempDir()))
		ctx := context.Background()
		admin := f.admin("Owner")
		item := f.add(admin, f.published(KindRecording, "Agent memory", 0))
		_, err := f.svc.SetTranscript(ctx, admin, item.ID, []byte("WEBVTT\n\n00:01.000 --> 00:02.000\nHi\n\n00:0x.000 --> 00:03.000\nBad\n"))
		wantField(t, err, "transcript")
		if !strings.Contains(err.Error(), "line 6") {
			t.Errorf("refusal does not name the line: %v", err)
		}
		file := "WEBVTT\n\n12:34.000 --> 12:40.500\n<v Ann>Vector stores forget what matters.\n\n" +
			"01:02:03.000 --> 01:02:05.000\nSummaries keep it.\n"
		cues, err := f.svc.SetTranscript(ctx, admin, item.ID, []byte(file))
		if err != nil || len(cues) != 2 || cues[0].Start != 754 || cues[0].Text != "Vector stores forget what matters." {
			t.Fatalf("cues %+v %v", cues, err)
		}
		p := f.index.chunks[item.ID]
		if len(p) != 1 || p[0].Title != "Replay: Agent memory at 12:34" || p[0].Link != "/members/library/"+item.ID+"?t=754" {
			t.Errorf("passages %+v", p)
		}
		if _, err := f.svc.Update(ctx, admin, item.ID, mustPatch(t, `{"published_at": null}`)); err != nil {
			t.Fatal(err)
		}
		if _, ok := f.index.chunks[item.ID]; ok {
			t.Error("an unpublished item's transcript is still indexed")
		}
		if _, err := f.svc.Update(ctx, admin, item.ID, mustPatch(t, `{"published_at": "2020-01-01T00:00:00Z", "min_level": 3}`)); err != nil {
			t.Fatal(err)
		}
		if _, ok := f.index.chunks[item.ID]; ok {
			t.Error("a level-locked item's transcript is indexed")
		}
		if _, err := f.svc.Update(ctx, admin, item.ID, mustPatch(t, `{"min_level": 0}`)); err != nil {
			t.Fatal(err)
		}
		if _, ok := f.index.chunks[item.ID]; !ok {
			t.Error("republished item not indexed")
		}
		if err := f.svc.Delete(ctx, admin, item.ID); err != nil {
			t.Fatal(err)
		}
		if _, ok := f.index.chunks[item.ID]; ok {
			t.Error("deleted item's passages kept")
		}
		// Published for later: indexed by the sweep once the time has come.
		later := f.clock.Now().Add(time.Hour)
		soon := f.add(admin, ItemInput{Kind: ptr(KindRecording), Title: ptr("Soon"), PublishedAt: &later})
		if _, err := f.svc.SetTranscript(ctx, admin, soon.ID, []byte(file)); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Sweep(ctx); err != nil {
			t.Fatal(err)
		}
		if _, ok := f.index.chunks[soon.ID]; ok {
			t.Error("indexed before its publication")
		}
		f.clock.Advance(2 * time.Hour)
		if _, err := f.svc.Sweep(ctx); err != nil {
			t.Fatal(err)
		}
		if p := f.index.chunks[soon.ID]; len(p) != 1 || p[0].Title != "Replay: Soon at 12:34" {
			t.Errorf("due transcript not indexed by the sweep: %+v", p)
		}
	})
}

func mustPatch(t *testing.T, body string) ItemInput {
	t.Helper()
	var in ItemInput
	if err := in.UnmarshalJSON([]byte(body)); err != nil {
		t.Fatal(err)
	}
	return in
}

// TestPassagesAndClock: long transcripts are cut into passages of about
// passageSize characters, each cited by its first cue's second.
func TestPassagesAndClock(t *testing.T) {
	var cues []Cue
	for i := range 100 {
		cues = append(cues, Cue{Start: float64(i*30) + 0.9, End: float64(i*30 + 29), Text: strings.Repeat("word ", 10) + "end."})
	}
	ps := Passages("x", "T", cues)
	if len(ps) < 5 || ps[0].StartS != 0 || ps[0].Link != "/members/library/x?t=0" {
		t.Fatalf("%d passages, first %+v", len(ps), ps[0])
	}
	for _, p := range ps {
		if len([]rune(p.Text)) > passageSize {
			t.Errorf("passage of %d characters", len([]rune(p.Text)))
		}
	}
	for s, want := range map[int]string{0: "0:00", 754: "12:34", 3723: "1:02:03"} {
		if Clock(s) != want {
			t.Errorf("Clock(%d) = %s", s, Clock(s))
		}
	}
}
