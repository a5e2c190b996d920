package content

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	contentfiles "tribe/content"
	"tribe/internal/content/contenttest"
)

// copyDefaults writes the embedded content into a fresh directory.
func copyDefaults(t *testing.T) string { return contenttest.Copy(t) }

// edit decodes a content file, applies change to the generic document and
// writes it back.
func edit(t *testing.T, dir, name string, change func(doc map[string]any)) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	change(doc)
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

var segment = regexp.MustCompile(`^([a-z_A-Z]+)((?:\[\d+\])*)$`)

// set assigns value at a path such as sessions[1].price; value deleteField
// removes the key instead.
func set(t *testing.T, doc map[string]any, path string, value any) {
	t.Helper()
	var cur any = doc
	parts := strings.Split(path, ".")
	for i, part := range parts {
		m := segment.FindStringSubmatch(part)
		if m == nil {
			t.Fatalf("bad path segment %q", part)
		}
		obj, ok := cur.(map[string]any)
		if !ok {
			t.Fatalf("%s: not an object", path)
		}
		indexes := regexp.MustCompile(`\d+`).FindAllString(m[2], -1)
		last := i == len(parts)-1
		if last && len(indexes) == 0 {
			if value == deleteField {
				delete(obj, m[1])
			} else {
				obj[m[1]] = value
			}
			return
		}
		cur = obj[m[1]]
		for j, ix := range indexes {
			n, _ := strconv.Atoi(ix)
			list, ok := cur.([]any)
			if !ok || n >= len(list) {
				t.Fatalf("%s: no index %d", path, n)
			}
			if last && j == len(indexes)-1 {
				list[n] = value
				return
			}
			cur = list[n]
		}
	}
}

const deleteField = "\x00delete"

func TestEmbeddedContentLoads(t *testing.T) {
	site, err := Load("")
	if err != nil {
		t.Fatalf("embedded content must load: %v", err)
	}
	if site.Source() != "embedded" {
		t.Errorf("source %q", site.Source())
	}
	wantSessions := map[int]float64{15: 149, 30: 299, 60: 499}
	if len(site.Services.Sessions) != len(wantSessions) {
		t.Fatalf("%d sessions", len(site.Services.Sessions))
	}
	for _, s := range site.Services.Sessions {
		if wantSessions[s.Duration] != s.Price {
			t.Errorf("%d-minute session costs %v, want %v", s.Duration, s.Price, wantSessions[s.Duration])
		}
		if s.Popular != (s.Duration == 30) {
			t.Errorf("%d-minute session popular=%v; the 30-minute one is the popular one", s.Duration, s.Popular)
		}
		if s.Booking != NativeBooking {
			t.Errorf("%d-minute session is not booked on the site", s.Duration)
		}
	}
	training := map[string]TrainingOption{}
	for _, o := range site.Services.Training {
		training[o.ID] = o
	}
	if g := training["group"]; g.Price != 500 || !g.IsPopular {
		t.Errorf("group training %+v", g)
	}
	if p := training["private"]; p.Price != 3000 || p.OriginalPrice != 5000 || !p.IsLimitedTime ||
		p.Booking != NativeBooking || p.DurationMinutes != 120 {
		t.Errorf("private training %+v", p)
	}
	if g := training["group"]; g.Booking != NativeBooking || g.Seats != 50 || g.DurationMinutes != 120 {
		t.Errorf("group training must be sold on the site by the seat, 50 to an occurrence: %+v", g)
	}
	if e := training["enterprise"]; e.Booking != InquiryBooking || e.BookingLink == "" {
		t.Errorf("the enterprise package must open the inquiry form, with its mail link kept for pages without scripts: %+v", e)
	}
	av := site.Services.Availability
	if av.TimeZone != "America/Toronto" || len(av.WeeklyHours) != 5 || av.WeeklyHours["saturday"] != nil ||
		av.WeeklyHours["monday"][0] != (HourRange{Start: "09:00", End: "17:00"}) {
		t.Errorf("availability defaults %+v: want weekdays 09:00-17:00", av)
	}
	if e := training["enterprise"]; e.Price != 50000 || e.Duration != "50 hours per month" {
		t.Errorf("enterprise training %+v", e)
	}
	tribe := site.Services.Tribe
	if tribe.PriceMonthly != 250 || tribe.Capacity != 50 || tribe.SessionCadence != "bi-weekly" || tribe.CohortSize != "5" {
		t.Errorf("tribe offer %+v", tribe)
	}
	if len(site.About.PACT.Principles) != 4 || site.About.PACT.Principles[0].Name != "Proactive" {
		t.Errorf("PACT %+v", site.About.PACT)
	}
	if site.Projects.Stats.TotalRepositories != 80 || site.Projects.Stats.TotalRepositoriesDisplay != "80+" {
		t.Errorf("stats %+v", site.Projects.Stats)
	}
	names := map[string]bool{}
	for _, p := range append(append([]Project{}, site.Projects.Featured...), site.Projects.Projects...) {
		names[p.Name] = true
	}
	for _, want := range []string{"AgentDB", "Claude-Flow", "Neural Trader", "FACT", "QuDAG", "strange-loops",
		"agentic-payments", "lean-agentic", "midstreamer", "AI Defence", "AIMDS"} {
		if !names[want] {
			t.Errorf("project %s missing", want)
		}
	}
	if site.Contact.BookingURL != "/booking" || site.Contact.OnlinePresence.Links.LinkedIn == "" {
		t.Errorf("contact %+v", site.Contact)
	}
	for _, name := range append(PublicFiles(), ResourcesFile) {
		raw, ok := site.Raw(name)
		want, _ := fs.ReadFile(contentfiles.FS(), name)
		if !ok || !bytes.Equal(raw, want) {
			t.Errorf("Raw(%s) is not the file's bytes", name)
		}
	}
}

// The 30-minute price is $299 wherever the site shows it: nothing in the
// content may still carry the $199 that one variant of the original showed.
func TestNoStalePriceInContent(t *testing.T) {
	for _, name := range append(PublicFiles(), ResourcesFile) {
		b, _ := fs.ReadFile(contentfiles.FS(), name)
		if bytes.Contains(b, []byte("199")) {
			t.Errorf("%s mentions 199", name)
		}
	}
}

func TestLoadFromDirectory(t *testing.T) {
	dir := copyDefaults(t)
	site, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if site.Source() != dir {
		t.Errorf("source %q, want %q", site.Source(), dir)
	}
	// Owners may add fields the server does not know; they are kept as written.
	edit(t, dir, AboutFile, func(doc map[string]any) { doc["pronouns"] = "he/him" })
	site, err = Load(dir)
	if err != nil {
		t.Fatalf("an unknown field must be accepted: %v", err)
	}
	raw, _ := site.Raw(AboutFile)
	onDisk, _ := os.ReadFile(filepath.Join(dir, AboutFile))
	if !bytes.Equal(raw, onDisk) || !bytes.Contains(raw, []byte(`"pronouns"`)) {
		t.Error("the raw bytes must be the file as written, extra fields included")
	}
}

func TestProblemsNameFileAndField(t *testing.T) {
	cases := []struct {
		name, file, path string
		value            any
		field, message   string
	}{
		{"zero price off the site", ServicesFile, "training[2].price", 0, "training[2].price", "must be a positive number"},
		{"negative price", ServicesFile, "sessions[2].price", -499, "sessions[2].price", "must be a positive number"},
		{"price as text", ServicesFile, "sessions[1].price", "299", "sessions[1].price", "must be a number, not string"},
		{"fractions of a cent", ServicesFile, "sessions[0].price", 149.999, "sessions[0].price", "whole cents"},
		{"missing price", ServicesFile, "sessions[0].price", deleteField, "sessions[0].price", "is required (write 0 for a free call"},
		{"missing price off the site", ServicesFile, "training[2].price", deleteField, "training[2].price", "must be a positive number"},
		{"booking neither native nor absent", ServicesFile, "sessions[1].booking", "cal", "sessions[1].booking", `must be "native"`},
		{"native booking without a length", ServicesFile, "training[1].duration_minutes", deleteField, "training[1].duration_minutes", "call's length in minutes"},
		{"native call of 7 minutes", ServicesFile, "sessions[0].duration", 7, "sessions[0].duration", "multiple of 5"},
		{"own booking page without native", ServicesFile, "training[2].booking_link", "/book/enterprise", "training[2].booking_link", `add "booking": "native"`},
		{"seats on an option not booked here", ServicesFile, "training[2].seats", 20, "training[2].seats", "natively booked option"},
		{"per-offer currency in lower case", ServicesFile, "sessions[0].currency", "eur", "sessions[0].currency", "three-letter"},
		{"availability zone unknown", ServicesFile, "availability.time_zone", "Mars/Olympus", "availability.time_zone", "IANA time zone"},
		{"availability zone missing", ServicesFile, "availability", deleteField, "availability.time_zone", "IANA time zone"},
		{"availability day misspelt", ServicesFile, "availability.weekly_hours.munday", []any{map[string]any{"start": "09:00", "end": "12:00"}}, "availability.weekly_hours.munday", "not a day of the week"},
		{"availability range backwards", ServicesFile, "availability.weekly_hours.monday", []any{map[string]any{"start": "17:00", "end": "09:00"}}, "availability.weekly_hours.monday[0]", "ends (09:00) before it starts (17:00)"},
		{"availability ranges overlap", ServicesFile, "availability.weekly_hours.friday", []any{map[string]any{"start": "09:00", "end": "12:00"}, map[string]any{"start": "11:30", "end": "15:00"}}, "availability.weekly_hours.friday[1]", "before the previous range ends"},
		{"availability time not HH:MM", ServicesFile, "availability.weekly_hours.tuesday", []any{map[string]any{"start": "9am", "end": "17:00"}}, "availability.weekly_hours.tuesday[0]", `start "9am" must be a time written HH:MM`},
		{"availability with no hours", ServicesFile, "availability.weekly_hours", map[string]any{}, "availability.weekly_hours", "at least one day's hours"},
		{"duration as fraction", ServicesFile, "sessions[0].duration", 15.5, "sessions[0].duration", "must be a whole number"},
		{"duplicate duration", ServicesFile, "sessions[2].duration", 30, "sessions[2].duration", "already offered by sessions[1]"},
		{"two popular sessions", ServicesFile, "sessions[2].popular", true, "sessions[2].popular", "only one session"},
		{"duplicate id", ServicesFile, "sessions[0].id", "session-30", "sessions[1].id", "already used by sessions[0].id"},
		{"bad id", ServicesFile, "sessions[0].id", "Session 15", "sessions[0].id", "slug"},
		{"relative booking link", ServicesFile, "sessions[0].booking_link", "cal.com/ruv/15min", "sessions[0].booking_link", "absolute http(s) URL"},
		{"no sessions", ServicesFile, "sessions", []any{}, "sessions", "at least 1"},
		{"no features", ServicesFile, "sessions[1].features", []any{}, "sessions[1].features", "at least 1"},
		{"blank feature", ServicesFile, "sessions[1].features[2]", " ", "sessions[1].features[2]", "must not be blank"},
		{"original price below price", ServicesFile, "training[1].originalPrice", 1000, "training[1].originalPrice", "higher than price"},
		{"missing button text", ServicesFile, "training[2].button_text", deleteField, "training[2].button_text", "is required"},
		{"summary price disagrees", ServicesFile, "neural_trader.group_sessions.price", 450, "neural_trader.group_sessions.price", "must equal training[0].price"},
		{"tribe price missing", ServicesFile, "tribe.price_monthly", deleteField, "tribe.price_monthly", "positive number"},
		{"tribe capacity zero", ServicesFile, "tribe.capacity", 0, "tribe.capacity", "positive whole number"},
		{"lower-case currency", ServicesFile, "currency", "usd", "currency", "three-letter"},
		{"empty answer", ServicesFile, "faq[3].answer", "", "faq[3].answer", "is required"},
		{"missing name", AboutFile, "name", deleteField, "name", "is required"},
		{"blank PACT meaning", AboutFile, "pact.principles[2].meaning", "", "pact.principles[2].meaning", "is required"},
		{"expertise not a list", AboutFile, "expertise", "agents", "expertise", "must be a list, not string"},
		{"relative follower link", AboutFile, "followers[0].url", "linkedin.com/in/reuvencohen", "followers[0].url", "absolute http(s) URL"},
		{"icon not kebab case", ProjectsFile, "featured[0].icon", "Trending Up", "featured[0].icon", "lucide icon name"},
		{"project without url", ProjectsFile, "projects[0].url", "", "projects[0].url", "is required"},
		{"project id reused", ProjectsFile, "projects[1].id", "agentdb", "projects[1].id", "already used by featured[0].id"},
		{"showcase page elsewhere", ProjectsFile, "projects[6].page", "https://example.com/x", "projects[6].page", "site path"},
		{"repository count missing", ProjectsFile, "stats.total_repositories", deleteField, "stats.total_repositories", "positive whole number"},
		{"github url as path", ProjectsFile, "stats.github_url", "/ruvnet", "stats.github_url", "absolute http(s) URL"},
		{"empty stack category", StackFile, "categories[1].tools", []any{}, "categories[1].tools", "at least 1"},
		{"stack link with space", StackFile, "categories[1].tools[0].url", "https://exa mple.com", "categories[1].tools[0].url", "absolute http(s) URL"},
		{"display-name email", ContactFile, "email", "rUv <ruv@ruv.io>", "email", "bare e-mail address"},
		{"missing linkedin", ContactFile, "online_presence.links.linkedin", deleteField, "online_presence.links.linkedin", "is required"},
		{"booking url without slash", ContactFile, "booking_url", "booking", "booking_url", "site path"},
		{"resource outside the site", ResourcesFile, "resources[0].uri", "/content/secret.json", "resources[0].uri", "path this site serves"},
		{"resource listed twice", ResourcesFile, "resources[1].uri", "/content/about.json", "resources[1].uri", "already listed by resources[0]"},
		{"bad media type", ResourcesFile, "resources[1].mime", "json", "resources[1].mime", "media type"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyDefaults(t)
			edit(t, dir, tc.file, func(doc map[string]any) { set(t, doc, tc.path, tc.value) })
			assertProblem(t, dir, tc.file, tc.field, tc.message)
		})
	}
}

func TestBrokenFilesNameFileAndPlace(t *testing.T) {
	write := func(t *testing.T, dir, name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("invalid JSON", func(t *testing.T) {
		dir := copyDefaults(t)
		write(t, dir, ServicesFile, "{\n  \"currency\": \"USD\",\n  \"sessions\": [,]\n}\n")
		assertProblem(t, dir, ServicesFile, "line 3, column 16", "invalid JSON")
	})
	t.Run("not an object", func(t *testing.T) {
		dir := copyDefaults(t)
		write(t, dir, AboutFile, `["rUv"]`)
		assertProblem(t, dir, AboutFile, "", "must hold a JSON object, not array")
	})
	t.Run("missing file", func(t *testing.T) {
		dir := copyDefaults(t)
		if err := os.Remove(filepath.Join(dir, StackFile)); err != nil {
			t.Fatal(err)
		}
		assertProblem(t, dir, StackFile, "", "cannot read the file")
	})
	t.Run("missing resource list", func(t *testing.T) {
		dir := copyDefaults(t)
		if err := os.RemoveAll(filepath.Join(dir, "mcp")); err != nil {
			t.Fatal(err)
		}
		assertProblem(t, dir, ResourcesFile, "", "cannot read the file")
	})
}

// assertProblem loads dir and checks that the problem list has one naming
// file and field, and that the error prints as one line naming both.
func assertProblem(t *testing.T, dir, file, field, message string) {
	t.Helper()
	site, err := Load(dir)
	if err == nil || site != nil {
		t.Fatalf("loaded despite the broken %s", file)
	}
	var probs Problems
	if !errors.As(err, &probs) {
		t.Fatalf("error %T is not Problems: %v", err, err)
	}
	wantFile := filepath.Join(dir, filepath.FromSlash(file))
	for _, p := range probs {
		if p.File == wantFile && p.Field == field && strings.Contains(p.Message, message) {
			prefix := wantFile + ": "
			if field != "" {
				prefix += field + ": "
			}
			if msg := err.Error(); !strings.Contains(msg, prefix) || strings.Contains(msg, "\n") {
				t.Errorf("error should be one line containing %q, got %q", prefix, msg)
			}
			return
		}
	}
	t.Fatalf("no problem %s: %s: %q among %q", file, field, message, err.Error())
}

func TestEveryProblemIsReported(t *testing.T) {
	dir := copyDefaults(t)
	edit(t, dir, ServicesFile, func(doc map[string]any) {
		set(t, doc, "sessions[0].price", -1)
		set(t, doc, "sessions[1].price", -1)
	})
	edit(t, dir, ContactFile, func(doc map[string]any) { set(t, doc, "email", "nobody") })
	edit(t, dir, AboutFile, func(doc map[string]any) { set(t, doc, "title", "") })
	edit(t, dir, StackFile, func(doc map[string]any) { set(t, doc, "categories", []any{}) })
	_, err := Load(dir)
	var probs Problems
	if !errors.As(err, &probs) || len(probs) != 5 {
		t.Fatalf("want 5 problems, got %v", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "and 2 more") || strings.Contains(msg, "\n") {
		t.Errorf("summary line %q", msg)
	}
}

func TestEmbeddedDefaultsAreTheLabel(t *testing.T) {
	// Errors in the embedded files name them as they sit in the repository.
	_, err := LoadFS(os.DirFS(t.TempDir()), "content")
	var probs Problems
	if !errors.As(err, &probs) || probs[0].File != filepath.Join("content", AboutFile) {
		t.Fatalf("%v", err)
	}
}

func TestSearchIndexIsDerivedFromContent(t *testing.T) {
	site, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	byURI := map[string]int{}
	for _, it := range site.Index.Items {
		if it.Title == "" || it.Text == "" || len(it.Tags) == 0 {
			t.Errorf("incomplete item %+v", it)
		}
		byURI[it.URI]++
	}
	for _, name := range PublicFiles() {
		if byURI[ContentPrefix+name] == 0 {
			t.Errorf("no search item from %s", name)
		}
	}
	find := func(idx SearchIndex, title string) SearchItem {
		for _, it := range idx.Items {
			if it.Title == title {
				return it
			}
		}
		t.Fatalf("no item titled %q", title)
		return SearchItem{}
	}
	if it := find(site.Index, "Deep Dive (30 minutes)"); !strings.Contains(it.Text, "$299") || !strings.Contains(it.Text, "Most popular") {
		t.Errorf("30-minute item: %q", it.Text)
	}
	if it := find(site.Index, "Neural Trader Private Training"); !strings.Contains(it.Text, "$3,000 (was $5,000)") {
		t.Errorf("private training item: %q", it.Text)
	}
	if it := find(site.Index, "The Tribe"); !strings.Contains(it.Text, "$250 per month") || !strings.Contains(it.Text, "capped at 50") {
		t.Errorf("tribe item: %q", it.Text)
	}

	dir := copyDefaults(t)
	edit(t, dir, ServicesFile, func(doc map[string]any) { set(t, doc, "sessions[1].price", 349) })
	edit(t, dir, ProjectsFile, func(doc map[string]any) { set(t, doc, "featured[0].name", "AgentDB Pro") })
	changed, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if it := find(changed.Index, "Deep Dive (30 minutes)"); !strings.Contains(it.Text, "$349") || strings.Contains(it.Text, "$299") {
		t.Errorf("the index must follow the changed price: %q", it.Text)
	}
	if it := find(changed.Index, "AgentDB Pro"); !strings.Contains(it.Text, "AgentDB Pro:") || !strings.Contains(strings.Join(it.Tags, ","), "agentdb") {
		t.Errorf("renamed project item: %+v", it)
	}
}

// A natively booked offer may be free; its price is then written as 0.
func TestFreeNativeCallLoads(t *testing.T) {
	dir := copyDefaults(t)
	edit(t, dir, ServicesFile, func(doc map[string]any) { set(t, doc, "sessions[0].price", 0) })
	site, err := Load(dir)
	if err != nil {
		t.Fatalf("a free native call must load: %v", err)
	}
	if site.Services.Sessions[0].Price != 0 {
		t.Fatalf("price %v", site.Services.Sessions[0].Price)
	}
}

// A price in cents of a currency without cents would be rounded when charged.
func TestCentsOfACurrencyWithoutCentsAreRefused(t *testing.T) {
	dir := copyDefaults(t)
	edit(t, dir, ServicesFile, func(doc map[string]any) {
		set(t, doc, "sessions[0].currency", "JPY")
		set(t, doc, "sessions[0].price", 149.5)
	})
	assertProblem(t, dir, ServicesFile, "sessions[0].price", "whole number in JPY")
}

func TestMinorUnits(t *testing.T) {
	for _, tc := range []struct {
		price    float64
		currency string
		want     int64
	}{{299, "USD", 29900}, {149.5, "USD", 14950}, {0.29, "EUR", 29}, {3000, "JPY", 3000}, {0, "USD", 0}, {19.99, "usd", 1999}} {
		if got := MinorUnits(tc.price, tc.currency); got != tc.want {
			t.Errorf("MinorUnits(%v, %s) = %d, want %d", tc.price, tc.currency, got, tc.want)
		}
	}
}

func TestParseHoursEdges(t *testing.T) {
	spans, _, problem := ParseHours([]HourRange{{"00:00", "09:00"}, {"09:00", "24:00"}})
	if problem != "" || spans[1] != [2]int{540, 1440} {
		t.Fatalf("touching ranges up to 24:00: %v %q", spans, problem)
	}
	for _, bad := range []HourRange{{"24:00", "24:00"}, {"09:60", "10:00"}, {"9:00", "10:00"}, {"10:00", "10:00"}, {"-1:00", "02:00"}} {
		if _, _, problem := ParseHours([]HourRange{bad}); problem == "" {
			t.Errorf("%v accepted", bad)
		}
	}
}

func TestFormatPrice(t *testing.T) {
	for _, tc := range []struct {
		amount   float64
		currency string
		want     string
	}{
		{149, "USD", "$149"},
		{3000, "USD", "$3,000"},
		{50000, "", "$50,000"},
		{1234567.5, "USD", "$1,234,567.50"},
		{149.99, "USD", "$149.99"},
		{1200, "EUR", "1,200 EUR"},
	} {
		if got := FormatPrice(tc.amount, tc.currency); got != tc.want {
			t.Errorf("FormatPrice(%v, %q) = %q, want %q", tc.amount, tc.currency, got, tc.want)
		}
	}
}

func TestFormatMinorWritesStoredAmounts(t *testing.T) {
	for _, tc := range []struct {
		amount   int64
		currency string
		want     string
	}{
		{29900, "USD", "$299"},
		{14950, "usd", "$149.50"},
		{1, "USD", "$0.01"},
		{120000, "EUR", "1,200 EUR"},
		{1200, "JPY", "1,200 JPY"}, // zero-decimal: the amount is whole yen
	} {
		if got := FormatMinor(tc.amount, tc.currency); got != tc.want {
			t.Errorf("FormatMinor(%d, %q) = %q, want %q", tc.amount, tc.currency, got, tc.want)
		}
	}
}

func TestPathAt(t *testing.T) {
	doc := []byte(`{"a": {"b": [1, {"c": "x"}, [true, "y"]]}, "d": "z"}`)
	for _, tc := range []struct {
		needle string
		want   string
	}{
		{`"x"`, "a.b[1].c"},
		{`"y"`, "a.b[2][1]"},
		{`"z"`, "d"},
		{`1`, "a.b[0]"},
	} {
		end := int64(bytes.Index(doc, []byte(tc.needle)) + len(tc.needle))
		if got := pathAt(doc, end); got != tc.want {
			t.Errorf("pathAt(%s) = %q, want %q", tc.needle, got, tc.want)
		}
	}
}

func TestSetTribeCapacity(t *testing.T) {
	site, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	before, _ := site.Raw(ServicesFile)
	if err := site.SetTribeCapacity(site.Services.Tribe.Capacity); err != nil {
		t.Fatal(err)
	}
	if same, _ := site.Raw(ServicesFile); string(same) != string(before) {
		t.Fatal("setting the cap the file already has must leave its bytes alone")
	}
	if err := site.SetTribeCapacity(7); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tribe    TribeOffer `json:"tribe"`
		Sessions []any      `json:"sessions"`
	}
	raw, _ := site.Raw(ServicesFile)
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Tribe.Capacity != 7 || site.Services.Tribe.Capacity != 7 {
		t.Fatalf("cap = %d in the file, %d parsed; want 7", doc.Tribe.Capacity, site.Services.Tribe.Capacity)
	}
	if doc.Tribe.Name != site.Services.Tribe.Name || len(doc.Sessions) == 0 {
		t.Fatalf("other fields were lost: %s", raw)
	}
	if err := site.SetTribeCapacity(0); err == nil {
		t.Fatal("a cap of 0 must be refused")
	}
}

// Exports write money as the decimal people read, not the stored cents.
func TestDecimalAmountWritesTheMajorUnit(t *testing.T) {
	for _, tc := range []struct {
		amount   int64
		currency string
		want     string
	}{
		{50000, "USD", "500.00"}, {14950, "usd", "149.50"}, {5, "EUR", "0.05"}, {0, "USD", "0.00"},
		{-2550, "USD", "-25.50"}, {5000, "JPY", "5000"}, {5000, "jpy", "5000"},
	} {
		if got := DecimalAmount(tc.amount, tc.currency); got != tc.want {
			t.Errorf("DecimalAmount(%d, %q) = %q, want %q", tc.amount, tc.currency, got, tc.want)
		}
	}
}
