package plural

import "testing"

func TestCountPicksTheSingularOnlyForOne(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{
		{0, "0 members"},
		{1, "1 member"},
		{2, "2 members"},
		{50, "50 members"},
		{-1, "-1 members"},
	} {
		if got := Count(tc.n, "member", "members"); got != tc.want {
			t.Errorf("Count(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
	if got := Count(1, "person", "people"); got != "1 person" {
		t.Errorf("irregular singular: %q", got)
	}
	if got := Count(3, "person", "people"); got != "3 people" {
		t.Errorf("irregular plural: %q", got)
	}
}

func TestNounAgreesWithTheCount(t *testing.T) {
	if Noun(1, "is", "are") != "is" || Noun(0, "is", "are") != "are" || Noun(7, "is", "are") != "are" {
		t.Error("Noun does not follow the count")
	}
}
