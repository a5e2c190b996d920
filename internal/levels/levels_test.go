package levels

import (
	"math"
	"testing"
)

// at are counts that meet every requirement of every level up to and
// including rank (1 to 5) exactly.
func at(rank int) Counts {
	var c Counts
	for _, l := range Table[:rank] {
		for _, r := range l.Requirements {
			switch r.Key {
			case "attended":
				c.Attended = max(c.Attended, r.Need)
			case "projects":
				c.Projects = max(c.Projects, r.Need)
			case "contributions":
				c.Contributions = max(c.Contributions, r.Need)
			case "mentored":
				c.Mentored = max(c.Mentored, r.Need)
			case "workshops":
				c.Workshops = max(c.Workshops, r.Need)
			}
		}
	}
	return c
}

// TestTableIsTheSpecs: the thresholds are members-area.md's "Tribal level
// requirements", word for word.
func TestTableIsTheSpecs(t *testing.T) {
	want := map[string]Counts{
		Apprentice:  {},
		Contributor: {Attended: 3, Contributions: 1},
		Builder:     {Attended: 8, Projects: 3},
		Expert:      {Attended: 15, Projects: 5, Mentored: 2},
		Master:      {Attended: 25, Projects: 10, Workshops: 1},
	}
	names := []string{Apprentice, Contributor, Builder, Expert, Master}
	if len(Table) != len(names) {
		t.Fatalf("%d levels, want 5", len(Table))
	}
	for i, l := range Table {
		if l.Name != names[i] {
			t.Fatalf("level %d is %s, want %s", i+1, l.Name, names[i])
		}
		var got Counts
		for _, r := range l.Requirements {
			switch r.Key {
			case "attended":
				got.Attended = r.Need
			case "projects":
				got.Projects = r.Need
			case "contributions":
				got.Contributions = r.Need
			case "mentored":
				got.Mentored = r.Need
			case "workshops":
				got.Workshops = r.Need
			default:
				t.Fatalf("%s requires an unknown count %q", l.Name, r.Key)
			}
		}
		if got != want[l.Name] {
			t.Errorf("%s requires %+v, want %+v", l.Name, got, want[l.Name])
		}
	}
}

// TestEachThresholdOfEachLevel: meeting every requirement of a level
// reaches it, and one short of any single requirement does not.
func TestEachThresholdOfEachLevel(t *testing.T) {
	if got := Compute(Counts{}); got.Level != Apprentice || got.Rank != 1 {
		t.Fatalf("nothing done: %s (%d), want Apprentice", got.Level, got.Rank)
	}
	for rank := 2; rank <= len(Table); rank++ {
		level := Table[rank-1]
		exact := at(rank)
		if got := Compute(exact); got.Rank != rank {
			t.Errorf("%+v: %s, want %s", exact, got.Level, level.Name)
		}
		for _, r := range level.Requirements {
			short := exact
			switch r.Key {
			case "attended":
				short.Attended--
			case "projects":
				short.Projects--
			case "contributions":
				short.Contributions--
			case "mentored":
				short.Mentored--
			case "workshops":
				short.Workshops--
			}
			got := Compute(short)
			if got.Rank != rank-1 {
				t.Errorf("%s one %s short (%+v): %s, want %s", level.Name, r.Key, short, got.Level, Table[rank-2].Name)
			}
			if got.Next == nil || got.Next.Level != level.Name {
				t.Errorf("%s one %s short: next %+v, want %s", level.Name, r.Key, got.Next, level.Name)
			}
		}
	}
}

// TestLevelsAreClimbedInOrder: a later level's numbers without an earlier
// level's requirement do not skip it (Builder asks no contribution, but
// Contributor, which comes first, does).
func TestLevelsAreClimbedInOrder(t *testing.T) {
	cases := []struct {
		c    Counts
		want string
	}{
		{Counts{Attended: 30, Projects: 12, Mentored: 3, Workshops: 2}, Apprentice},   // no contribution
		{Counts{Attended: 30, Contributions: 1, Projects: 12, Workshops: 2}, Builder}, // no mentoring
		{Counts{Attended: 30, Contributions: 1, Projects: 12, Mentored: 2}, Expert},   // no workshop
		{Counts{Attended: 7, Contributions: 5, Projects: 12, Mentored: 9, Workshops: 9}, Contributor},
		{Counts{Attended: 100, Contributions: 100, Projects: 100, Mentored: 100, Workshops: 100}, Master},
	}
	for _, c := range cases {
		if got := Compute(c.c); got.Level != c.want {
			t.Errorf("%+v: %s, want %s", c.c, got.Level, c.want)
		}
	}
}

// TestNextMilestoneShowsEachRequirement: the dialog reads "Sessions 2 / 3",
// "Contributions 0 / 1" and a bar of the real fraction; at Master there is
// no next level.
func TestNextMilestoneShowsEachRequirement(t *testing.T) {
	got := Compute(Counts{Attended: 2})
	if got.Next == nil || got.Next.Level != Contributor || len(got.Next.Requirements) != 2 {
		t.Fatalf("next: %+v", got.Next)
	}
	s, c := got.Next.Requirements[0], got.Next.Requirements[1]
	if s.Label != "Sessions" || s.Have != 2 || s.Need != 3 || s.Done || c.Label != "Contributions" || c.Have != 0 || c.Need != 1 || c.Done {
		t.Fatalf("requirements: %+v", got.Next.Requirements)
	}
	if want := (2.0 / 3) / 2; math.Abs(got.Next.Fraction-want) > 1e-9 {
		t.Fatalf("fraction %v, want %v", got.Next.Fraction, want)
	}
	// More than needed counts as one whole requirement, not more.
	got = Compute(Counts{Attended: 9})
	if want := 0.5; got.Next.Fraction != want || !got.Next.Requirements[0].Done {
		t.Fatalf("9 sessions and no contribution: %+v, want fraction %v", got.Next, want)
	}
	if m := Compute(at(5)); m.Level != Master || m.Next != nil {
		t.Fatalf("at Master: %+v", m)
	}
}

func TestRankOf(t *testing.T) {
	for i, l := range Table {
		if RankOf(l.Name) != i+1 {
			t.Errorf("RankOf(%s) = %d", l.Name, RankOf(l.Name))
		}
	}
	if RankOf("apprentice") != 0 || RankOf("") != 0 {
		t.Error("names are exact")
	}
}
