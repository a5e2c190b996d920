package content

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"net/mail"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"tribe/internal/plural"
)

// checker collects the problems of one file; each helper names the JSON
// path it checks so a problem points at the exact field to fix.
type checker struct {
	file     string
	problems []Problem
}

func (c *checker) fail(field, format string, args ...any) {
	c.problems = append(c.problems, Problem{File: c.file, Field: field, Message: fmt.Sprintf(format, args...)})
}

// text requires a non-blank string.
func (c *checker) text(field, v string) {
	if strings.TrimSpace(v) == "" {
		c.fail(field, "is required and must not be blank")
	}
}

// texts requires at least min entries, none blank.
func (c *checker) texts(field string, vs []string, min int) {
	c.count(field, len(vs), min)
	for i, v := range vs {
		c.text(fmt.Sprintf("%s[%d]", field, i), v)
	}
}

// count requires at least min entries in a list.
func (c *checker) count(field string, n, min int) {
	if n < min {
		c.fail(field, "must list at least %s", plural.Count(min, "entry", "entries"))
	}
}

// price requires a positive amount in whole cents; a typo such as 2999.999
// or a forgotten value (0) would otherwise reach the booking page.
func (c *checker) price(field string, v float64) {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0) || v <= 0:
		c.fail(field, "must be a positive number")
	case v > 10_000_000:
		c.fail(field, "must be at most 10000000")
	case math.Abs(v*100-math.Round(v*100)) > 1e-6:
		c.fail(field, "must be in whole cents (at most two decimals)")
	}
}

var (
	slugPattern = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)
	mimePattern = regexp.MustCompile(`^[a-z]+/[a-z0-9.+-]+$`)
	currencyPat = regexp.MustCompile(`^[A-Z]{3}$`)
)

// id requires a lower-case slug that is unique among seen (the pages use ids
// as keys and in links, so duplicates would collide).
func (c *checker) id(field, v string, seen map[string]string) {
	if !slugPattern.MatchString(v) {
		c.fail(field, "must be a lower-case slug such as %q", "session-30")
		return
	}
	if first, dup := seen[v]; dup {
		c.fail(field, "%q is already used by %s", v, first)
		return
	}
	seen[v] = field
}

// linkKind says which forms of address a field accepts.
type linkKind int

const (
	absoluteURL linkKind = iota // https://example.com/...
	siteLink                    // absolute URL or a path on this site
	bookingLink                 // absolute URL, site path or mailto: address
	sitePath                    // a path on this site only
)

// link checks an address; an empty value is accepted only when optional.
func (c *checker) link(field, v string, kind linkKind, optional bool) {
	if v == "" {
		if !optional {
			c.fail(field, "is required")
		}
		return
	}
	if problem := linkProblem(v, kind); problem != "" {
		c.fail(field, "%s", problem)
	}
}

func linkProblem(v string, kind linkKind) string {
	want := map[linkKind]string{
		absoluteURL: "must be an absolute http(s) URL such as https://example.com",
		siteLink:    "must be an absolute http(s) URL or a site path starting with /",
		bookingLink: "must be an absolute http(s) URL, a site path starting with / or a mailto: address",
		sitePath:    "must be a site path starting with /, such as /booking",
	}[kind]
	if strings.ContainsAny(v, " \t\r\n") {
		return want
	}
	u, err := url.Parse(v)
	if err != nil {
		return want
	}
	isPath := strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "//") && u.Scheme == "" && u.Host == ""
	isAbsolute := (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
	isMailto := u.Scheme == "mailto" && u.Opaque != ""
	if isMailto {
		if _, err := mail.ParseAddress(u.Opaque); err != nil {
			return "names an invalid e-mail address"
		}
	}
	ok := false
	switch kind {
	case absoluteURL:
		ok = isAbsolute
	case siteLink:
		ok = isAbsolute || isPath
	case bookingLink:
		ok = isAbsolute || isPath || isMailto
	case sitePath:
		ok = isPath
	}
	if !ok {
		return want
	}
	return ""
}

func checkAbout(c *checker, a *About) {
	c.text("name", a.Name)
	c.text("handle", a.Handle)
	c.text("title", a.Title)
	c.text("summary", a.Summary)
	c.link("website", a.Website, absoluteURL, true)
	c.texts("expertise", a.Expertise, 1)
	c.text("pact.summary", a.PACT.Summary)
	c.count("pact.principles", len(a.PACT.Principles), 1)
	for i, p := range a.PACT.Principles {
		f := fmt.Sprintf("pact.principles[%d]", i)
		c.text(f+".name", p.Name)
		c.text(f+".meaning", p.Meaning)
	}
	c.count("philosophy", len(a.Philosophy), 1)
	for i, p := range a.Philosophy {
		f := fmt.Sprintf("philosophy[%d]", i)
		c.text(f+".title", p.Title)
		c.text(f+".description", p.Description)
	}
	c.count("clients", len(a.Clients), 1)
	for i, cl := range a.Clients {
		c.text(fmt.Sprintf("clients[%d].name", i), cl.Name)
	}
	c.texts("biography", a.Biography, 1)
	for i, fl := range a.Followers {
		f := fmt.Sprintf("followers[%d]", i)
		c.text(f+".platform", fl.Platform)
		c.text(f+".count", fl.Count)
		c.link(f+".url", fl.URL, absoluteURL, false)
	}
}

func checkServices(c *checker, s *Services, raw []byte) {
	if !currencyPat.MatchString(s.Currency) {
		c.fail("currency", "must be a three-letter currency code such as USD")
	}

	// Booking links are optional on purpose: the booking page shows a
	// disabled Book button for a card without one, which lets the owner
	// pause bookings without removing the offer.
	c.count("sessions", len(s.Sessions), 1)
	ids := map[string]string{}
	durations := map[int]string{}
	popular := ""
	for i, se := range s.Sessions {
		f := fmt.Sprintf("sessions[%d]", i)
		c.id(f+".id", se.ID, ids)
		c.text(f+".name", se.Name)
		switch first, dup := durations[se.Duration]; {
		case se.Duration < 5 || se.Duration > 480:
			c.fail(f+".duration", "must be a number of minutes from 5 to 480")
		case dup:
			c.fail(f+".duration", "%d minutes is already offered by %s", se.Duration, first)
		default:
			durations[se.Duration] = f
		}
		c.bookable(f, se.Booking, se.BookingLink, f+".duration", se.Duration, se.Price, se.Currency, s.Currency)
		c.memberPrice(f, se.MemberPrice, se.Price, se.Booking, se.Currency, s.Currency)
		c.texts(f+".features", se.Features, 1)
		if se.Popular {
			if popular != "" {
				c.fail(f+".popular", "only one session can be the most popular; %s already is", popular)
			}
			popular = f
		}
	}

	// A natively booked offer may cost 0 (a free call), so a price left out
	// would silently read as free: every offer must write its price.
	var written struct {
		Sessions []map[string]json.RawMessage `json:"sessions"`
		Training []map[string]json.RawMessage `json:"training"`
	}
	if json.Unmarshal(raw, &written) == nil {
		for _, l := range []struct {
			name   string
			offers []map[string]json.RawMessage
		}{{"sessions", written.Sessions}, {"training", written.Training}} {
			for i, o := range l.offers {
				if _, ok := o["price"]; !ok {
					c.fail(fmt.Sprintf("%s[%d].price", l.name, i), "is required (write 0 for a free call booked on this site)")
				}
			}
		}
	}

	c.count("training", len(s.Training), 1)
	trainingByID := map[string]int{}
	for i, t := range s.Training {
		f := fmt.Sprintf("training[%d]", i)
		c.id(f+".id", t.ID, ids)
		trainingByID[t.ID] = i
		c.text(f+".title", t.Title)
		c.bookable(f, t.Booking, t.BookingLink, f+".duration_minutes", t.DurationMinutes, t.Price, t.Currency, s.Currency)
		c.memberPrice(f, t.MemberPrice, t.Price, t.Booking, t.Currency, s.Currency)
		if t.Seats < 0 || t.Seats > 1000 || (t.Seats > 0 && t.Booking != NativeBooking) {
			c.fail(f+".seats", "must be the default seats of an occurrence, from 1 to 1000, on a natively booked option (or left out)")
		}
		if t.OriginalPrice != 0 {
			c.price(f+".originalPrice", t.OriginalPrice)
			if t.OriginalPrice <= t.Price {
				c.fail(f+".originalPrice", "must be higher than price (it is shown struck through)")
			}
		}
		c.text(f+".duration", t.Duration)
		c.text(f+".capacity", t.Capacity)
		c.texts(f+".features", t.Features, 1)
		c.text(f+".button_text", t.ButtonText)
	}

	checkPackages(c, s)

	nt := s.NeuralTrader
	c.price("neural_trader.group_sessions.price", nt.GroupSessions.Price)
	c.text("neural_trader.group_sessions.duration", nt.GroupSessions.Duration)
	c.text("neural_trader.group_sessions.capacity", nt.GroupSessions.Capacity)
	c.price("neural_trader.private_training.price", nt.PrivateTraining.Price)
	c.price("neural_trader.enterprise_package.price", nt.EnterprisePackage.Price)
	c.text("neural_trader.enterprise_package.description", nt.EnterprisePackage.Description)
	c.texts("neural_trader.included_benefits", nt.IncludedBenefits, 1)
	c.text("neural_trader.booking_info", nt.BookingInfo)
	// The summary repeats the training cards' prices for the console; a
	// mismatch is exactly the two-prices defect the files exist to prevent.
	for _, m := range []struct {
		field, id string
		price     float64
	}{
		{"neural_trader.group_sessions.price", "group", nt.GroupSessions.Price},
		{"neural_trader.private_training.price", "private", nt.PrivateTraining.Price},
		{"neural_trader.enterprise_package.price", "enterprise", nt.EnterprisePackage.Price},
	} {
		if i, ok := trainingByID[m.id]; ok && s.Training[i].Price != m.price && m.price > 0 {
			c.fail(m.field, "must equal training[%d].price (%v), the %q card's price", i, s.Training[i].Price, m.id)
		}
	}

	t := s.Tribe
	c.text("tribe.name", t.Name)
	c.text("tribe.summary", t.Summary)
	c.price("tribe.price_monthly", t.PriceMonthly)
	if !currencyPat.MatchString(t.Currency) {
		c.fail("tribe.currency", "must be a three-letter currency code such as USD")
	}
	c.text("tribe.session_cadence", t.SessionCadence)
	c.text("tribe.session_length", t.SessionLength)
	c.text("tribe.cohort_size", t.CohortSize)
	if t.Capacity < 1 {
		c.fail("tribe.capacity", "must be a positive whole number")
	}
	c.texts("tribe.features", t.Features, 0)
	c.texts("tribe.what_you_will_build", t.WhatYouWillBuild, 0)

	native := false
	for _, se := range s.Sessions {
		native = native || se.Booking == NativeBooking
	}
	for _, t := range s.Training {
		native = native || t.Booking == NativeBooking
	}
	c.availability(s.Availability, native)

	c.count("how_it_works", len(s.HowItWorks), 1)
	for i, st := range s.HowItWorks {
		f := fmt.Sprintf("how_it_works[%d]", i)
		c.text(f+".title", st.Title)
		c.text(f+".description", st.Description)
	}
	c.count("faq", len(s.FAQ), 1)
	for i, q := range s.FAQ {
		f := fmt.Sprintf("faq[%d]", i)
		c.text(f+".question", q.Question)
		c.text(f+".answer", q.Answer)
	}
}

// bookable checks how an offer is booked. "booking": "native" makes the site
// book it, which needs a call length (minutes) and allows a price of 0 (a free
// call, confirmed without payment); otherwise the price must be positive and
// booking_link, when given, is where visitors book. A link to the site's own
// booking page (/book/...) without "native" would lead to a page that
// refuses the type, so it is refused here.
func (c *checker) bookable(f, booking, link, minutesField string, minutes int, price float64, currency, fileCurrency string) {
	native := booking == NativeBooking
	if booking != "" && !native && booking != InquiryBooking {
		c.fail(f+".booking", "must be %q (this site takes the booking), %q (the site's inquiry form) or left out (visitors use booking_link)",
			NativeBooking, InquiryBooking)
	}
	switch {
	case native && (minutes < 5 || minutes > 480 || minutes%5 != 0):
		c.fail(minutesField, "must be the call's length in minutes, a multiple of 5 from 5 to 480, for a natively booked offer")
	case !native && minutes != 0 && (minutes < 5 || minutes > 480):
		c.fail(minutesField, "must be a number of minutes from 5 to 480")
	}
	if !native || price != 0 { // 0 is a free native call, confirmed without payment
		c.price(f+".price", price)
	}
	if currency != "" && !currencyPat.MatchString(currency) {
		c.fail(f+".currency", "must be a three-letter currency code such as USD, or left out for the file's currency")
	}
	if currency == "" {
		currency = fileCurrency
	}
	if zeroDecimal[currency] && price != float64(int64(price)) {
		c.fail(f+".price", "must be a whole number in %s, which has no smaller unit", currency)
	}
	if native && link != "" {
		// Two places to book one offer drift apart: visitors were sent to the
		// old scheduler by the AI and the search index while the page booked here.
		c.fail(f+".booking_link", "must be left out when \"booking\" is %q: the site books it at /book/{id}", NativeBooking)
	}
	c.link(f+".booking_link", link, bookingLink, true)
	if !native && (strings.HasPrefix(link, "/book/") || link == "/book") {
		c.fail(f+".booking_link", "points at this site's booking page; add \"booking\": %q to book it here, or link to an external scheduler", NativeBooking)
	}
}

// memberPrice checks an offer's member price: none (0), or a positive price
// below the offer's own on a paid offer the site books (the server charges
// it, so an external scheduler could not).
func (c *checker) memberPrice(f string, member, price float64, booking, currency, fileCurrency string) {
	if member == 0 {
		return
	}
	c.price(f+".member_price", member)
	switch {
	case booking != NativeBooking:
		c.fail(f+".member_price", "needs \"booking\": %q: only a price the site charges itself can be lower for members", NativeBooking)
	case member >= price:
		c.fail(f+".member_price", "must be lower than price (%v)", price)
	}
	if currency == "" {
		currency = fileCurrency
	}
	if zeroDecimal[currency] && member != float64(int64(member)) {
		c.fail(f+".member_price", "must be a whole number in %s, which has no smaller unit", currency)
	}
}

// checkPackages checks the session packages: each pays for calls of one
// paid, natively booked one-to-one type (a seat of a group date is not
// sold ahead), in that type's currency.
func checkPackages(c *checker, s *Services) {
	types := map[string]struct {
		price    float64
		currency string
	}{}
	for _, se := range s.Sessions {
		if se.Booking == NativeBooking {
			types[se.ID] = struct {
				price    float64
				currency string
			}{se.Price, cmp.Or(se.Currency, s.Currency)}
		}
	}
	for _, t := range s.Training {
		if t.Booking == NativeBooking && t.Seats == 0 {
			types[t.ID] = struct {
				price    float64
				currency string
			}{t.Price, cmp.Or(t.Currency, s.Currency)}
		}
	}
	ids := map[string]string{}
	for i, p := range s.Packages {
		f := fmt.Sprintf("packages[%d]", i)
		c.id(f+".id", p.ID, ids)
		c.text(f+".name", p.Name)
		t, ok := types[p.Type]
		switch {
		case !ok:
			c.fail(f+".type", "must be the id of a session or training booked on this site (\"booking\": %q, not by the seat)", NativeBooking)
		case t.price == 0:
			c.fail(f+".type", "%s is free: a package sells paid calls", p.Type)
		}
		if p.Count < 1 || p.Count > 100 {
			c.fail(f+".count", "must be the number of calls, from 1 to 100")
		}
		c.price(f+".price", p.Price)
		currency := cmp.Or(p.Currency, s.Currency)
		if p.Currency != "" && !currencyPat.MatchString(p.Currency) {
			c.fail(f+".currency", "must be a three-letter currency code such as USD, or left out for the file's currency")
		}
		if ok && currency != t.currency {
			c.fail(f+".currency", "must be the currency of %s (%s)", p.Type, t.currency)
		}
		if zeroDecimal[currency] && p.Price != float64(int64(p.Price)) {
			c.fail(f+".price", "must be a whole number in %s, which has no smaller unit", currency)
		}
		if p.MemberPrice != 0 {
			c.price(f+".member_price", p.MemberPrice)
			if p.MemberPrice >= p.Price {
				c.fail(f+".member_price", "must be lower than price (%v)", p.Price)
			}
			if zeroDecimal[currency] && p.MemberPrice != float64(int64(p.MemberPrice)) {
				c.fail(f+".member_price", "must be a whole number in %s, which has no smaller unit", currency)
			}
		}
		if p.ValidDays < 1 || p.ValidDays > 1095 {
			c.fail(f+".valid_days", "must be how many days the credits last, from 1 to 1095 (three years)")
		}
	}
}

// Weekdays are the keys of weekly hours, Sunday first as time.Weekday counts.
var Weekdays = [7]string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}

// availability checks the booking calendar's defaults; they are required
// once any offer is booked natively.
func (c *checker) availability(a Availability, required bool) {
	if !required && a.TimeZone == "" && len(a.WeeklyHours) == 0 {
		return
	}
	if _, err := LoadZone(a.TimeZone); err != nil {
		c.fail("availability.time_zone", "must be an IANA time zone such as America/Toronto")
	}
	known := map[string]bool{}
	for _, d := range Weekdays {
		known[d] = true
	}
	open := 0
	for _, day := range sortedKeys(a.WeeklyHours) {
		f := "availability.weekly_hours." + day
		if !known[day] {
			c.fail(f, "is not a day of the week; use monday to sunday in lower case")
			continue
		}
		if _, at, problem := ParseHours(a.WeeklyHours[day]); problem != "" {
			c.fail(fmt.Sprintf("%s[%d]", f, at), "%s", problem)
		}
		open += len(a.WeeklyHours[day])
	}
	if required && open == 0 {
		c.fail("availability.weekly_hours", "must give at least one day's hours when an offer is booked on this site")
	}
}

func checkProjects(c *checker, p *Projects) {
	c.count("featured", len(p.Featured), 1)
	c.count("projects", len(p.Projects), 1)
	ids := map[string]string{}
	check := func(list string, ps []Project) {
		for i, pr := range ps {
			f := fmt.Sprintf("%s[%d]", list, i)
			c.id(f+".id", pr.ID, ids)
			if !slugPattern.MatchString(pr.Icon) {
				c.fail(f+".icon", "must be a lucide icon name in kebab case, such as %q", "trending-up")
			}
			c.text(f+".name", pr.Name)
			c.text(f+".description", pr.Description)
			c.link(f+".url", pr.URL, siteLink, false)
			c.link(f+".page", pr.Page, sitePath, true)
			c.texts(f+".tags", pr.Tags, 0)
		}
	}
	check("featured", p.Featured)
	check("projects", p.Projects)
	if p.Stats.TotalRepositories < 1 {
		c.fail("stats.total_repositories", "must be a positive whole number")
	}
	c.text("stats.total_repositories_display", p.Stats.TotalRepositoriesDisplay)
	c.link("stats.github_url", p.Stats.GitHubURL, absoluteURL, false)
	c.link("stats.npm_url", p.Stats.NPMURL, absoluteURL, true)
}

func checkStack(c *checker, s *Stack) {
	c.count("categories", len(s.Categories), 1)
	ids := map[string]string{}
	for i, cat := range s.Categories {
		f := fmt.Sprintf("categories[%d]", i)
		c.id(f+".id", cat.ID, ids)
		c.text(f+".name", cat.Name)
		c.count(f+".tools", len(cat.Tools), 1)
		for j, t := range cat.Tools {
			tf := fmt.Sprintf("%s.tools[%d]", f, j)
			c.text(tf+".name", t.Name)
			c.link(tf+".url", t.URL, absoluteURL, true)
		}
	}
}

func checkContact(c *checker, ct *Contact) {
	if addr, err := mail.ParseAddress(ct.Email); err != nil || addr.Address != ct.Email {
		c.fail("email", "must be a bare e-mail address such as hello@example.com")
	}
	c.link("booking_url", ct.BookingURL, siteLink, false)
	c.link("website", ct.Website, absoluteURL, true)
	l := ct.OnlinePresence.Links
	// LinkedIn and GitHub are required because console commands of those
	// names print them; the footer simply omits a missing YouTube or X link.
	c.link("online_presence.links.linkedin", l.LinkedIn, absoluteURL, false)
	c.link("online_presence.links.github", l.GitHub, absoluteURL, false)
	c.link("online_presence.links.youtube", l.YouTube, absoluteURL, true)
	c.link("online_presence.links.x", l.X, absoluteURL, true)
}

// readablePaths are the site paths a resource may point at: the console's
// resources/read fetches the URI from this site, so anything else would be
// a dead entry.
func readablePaths() map[string]bool {
	paths := map[string]bool{SearchIndexPath: true, ResourcesPath: true}
	for _, name := range PublicFiles() {
		paths[ContentPrefix+name] = true
	}
	return paths
}

func checkResources(c *checker, r *Resources) {
	c.count("resources", len(r.Resources), 1)
	readable := readablePaths()
	seen := map[string]string{}
	for i, res := range r.Resources {
		f := fmt.Sprintf("resources[%d]", i)
		switch first, dup := seen[res.URI]; {
		case !readable[res.URI]:
			c.fail(f+".uri", "must be a path this site serves: /content/<file>.json, %s or %s", SearchIndexPath, ResourcesPath)
		case dup:
			c.fail(f+".uri", "%q is already listed by %s", res.URI, first)
		default:
			seen[res.URI] = f
		}
		if !mimePattern.MatchString(res.MIME) {
			c.fail(f+".mime", "must be a media type such as application/json")
		}
		c.text(f+".title", res.Title)
		c.text(f+".description", res.Description)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
