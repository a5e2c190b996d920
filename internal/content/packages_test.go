package content

import "testing"

// A session package pays for calls the site books and charges itself; a
// member price is below the price of an offer the site charges.
func TestPackagesAndMemberPricesAreChecked(t *testing.T) {
	cases := []struct {
		path    string
		value   any
		field   string
		message string
	}{
		{"packages[0].type", "group", "packages[0].type", "not by the seat"},
		{"packages[0].type", "enterprise", "packages[0].type", "booked on this site"},
		{"packages[0].type", "nope", "packages[0].type", "booked on this site"},
		{"packages[0].count", 0, "packages[0].count", "from 1 to 100"},
		{"packages[0].valid_days", 0, "packages[0].valid_days", "from 1 to 1095"},
		{"packages[0].price", -5, "packages[0].price", "positive"},
		{"packages[0].member_price", 999, "packages[0].member_price", "lower than price"},
		{"packages[0].currency", "EUR", "packages[0].currency", "currency of session-30"},
		{"packages[1].id", "deep-dive-4", "packages[1].id", "already used"},
		{"sessions[2].member_price", 499, "sessions[2].member_price", "lower than price"},
		{"sessions[2].member_price", 0.001, "sessions[2].member_price", "whole cents"},
		{"training[2].member_price", 100, "training[2].member_price", "only a price the site charges"},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			dir := copyDefaults(t)
			edit(t, dir, ServicesFile, func(doc map[string]any) { set(t, doc, c.path, c.value) })
			assertProblem(t, dir, ServicesFile, c.field, c.message)
		})
	}
}

func TestShippedPackagesLoad(t *testing.T) {
	site, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	p := site.Services.Packages
	if len(p) != 2 || p[0].ID != "deep-dive-4" || p[0].Type != "session-30" || p[0].Count != 4 || p[0].Price != 999 ||
		p[0].MemberPrice != 899 || p[0].ValidDays != 365 {
		t.Fatalf("packages %+v", p)
	}
	if site.Services.Sessions[2].MemberPrice != 449 {
		t.Fatalf("the strategy session's member price: %v", site.Services.Sessions[2].MemberPrice)
	}
}
