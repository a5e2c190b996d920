package agent

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"tribe/internal/errs"
	"tribe/internal/kb"
)

func call(t *testing.T, r *Registry, name, args string) (any, error) {
	t.Helper()
	return r.Call(context.Background(), anonymous, name, json.RawMessage(args))
}

func TestSearchTool(t *testing.T) {
	k := &fakeKB{results: []kb.Result{
		passage("The Tribe: membership, price and capacity", "/tribe", "Membership costs $250 per month."),
		passage("Deep Dive", "/content/services.json", "30 minutes, $299."),
	}}
	r := siteRegistry(t, k)
	out, err := call(t, r, ToolSearch, `{"query": "tribe price", "limit": 1}`)
	if err != nil {
		t.Fatal(err)
	}
	got := out.(SearchOutput)
	if got.Query != "tribe price" || len(got.Results) != 1 || got.Results[0].Title != "The Tribe: membership, price and capacity" ||
		got.Results[0].Source != "/tribe" || !strings.Contains(got.Results[0].Content, "$250") {
		t.Fatalf("%+v", got)
	}
	if _, err := call(t, r, ToolSearch, `{"query": "x", "limit": 50}`); !errs.Is(err, errs.Invalid) {
		t.Fatalf("limit 50: %v", err)
	}
	k.err = errs.Field("query", "Please enter a search query.")
	_, err = call(t, r, ToolSearch, `{"query": " "}`)
	wantErr(t, err, errs.Invalid, "Please enter a search query.")
}

func TestReadResource(t *testing.T) {
	r := siteRegistry(t, &fakeKB{})
	cases := []struct {
		args string
		want any
	}{
		{`{"uri": "/content/services.json", "path": "sessions[1].price"}`, json.Number("299")},
		{`{"uri": "content/services.json", "path": "tribe.price_monthly"}`, json.Number("250")},
		{`{"uri": "https://ruv.example/content/contact.json", "path": "online_presence.links['github']"}`, "https://github.com/ruvnet"},
		{`{"uri": "/content/contact.json", "path": "[\"email\"]"}`, "ruv@ruv.io"},
		{`{"uri": "/mcp/resources.json", "path": "resources[0].uri"}`, "/content/about.json"},
	}
	for _, c := range cases {
		out, err := call(t, r, ToolReadResource, c.args)
		if err != nil {
			t.Fatalf("%s: %v", c.args, err)
		}
		if got := out.(ResourceOutput).Value; !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %#v, want %#v", c.args, got, c.want)
		}
	}
	out, err := call(t, r, ToolReadResource, `{"uri": "/mcp/search-index.json"}`)
	if err != nil {
		t.Fatal(err)
	}
	if items := out.(ResourceOutput).Value.(map[string]any)["items"].([]any); len(items) < 10 {
		t.Errorf("search index has %d items", len(items))
	}

	_, err = call(t, r, ToolReadResource, `{"uri": "/content/missing.json"}`)
	wantErr(t, err, errs.NotFound, "Resource not found: /content/missing.json")
	_, err = call(t, r, ToolReadResource, `{"uri": "/etc/passwd"}`)
	wantErr(t, err, errs.NotFound, "Resource not found")
	_, err = call(t, r, ToolReadResource, `{"uri": "/content/services.json", "path": "sessions[9].price"}`)
	wantErr(t, err, errs.NotFound, "Path not found: sessions[9].price")
	_, err = call(t, r, ToolReadResource, `{"uri": "/content/services.json", "path": "sessions..price"}`)
	wantErr(t, err, errs.Invalid, "Invalid path: sessions..price")
}

func TestParsePath(t *testing.T) {
	k := func(s string) pathKey { return pathKey{key: s} }
	i := func(n int) pathKey { return pathKey{index: n, isIdx: true} }
	cases := map[string][]pathKey{
		"":                      nil,
		"a":                     {k("a")},
		"a.b":                   {k("a"), k("b")},
		".a":                    {k("a")},
		"sessions[1].price":     {k("sessions"), i(1), k("price")},
		"[0][12]":               {i(0), i(12)},
		"links['home'].x":       {k("links"), k("home"), k("x")},
		`a["b.c"]`:              {k("a"), k("b.c")},
		`a['it''s']`:            {k("a"), k("it''s")},
		"with space.and-dash_1": {k("with space"), k("and-dash_1")},
	}
	for path, want := range cases {
		got, err := parsePath(path)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %v, %v; want %v", path, got, err, want)
		}
	}
	for _, bad := range []string{"a..b", "a[", "a[x]", "a['b]", "a]", "a.", "[1", "a[99999999999999999999]"} {
		if _, err := parsePath(bad); !errs.Is(err, errs.Invalid) {
			t.Errorf("%q accepted: %v", bad, err)
		}
	}
}

func TestListServices(t *testing.T) {
	r := siteRegistry(t, &fakeKB{})
	out, err := call(t, r, ToolListServices, `{}`)
	if err != nil {
		t.Fatal(err)
	}
	s := out.(ServicesOutput)
	if len(s.Sessions) != 3 || s.Sessions[1].PriceText != "$299" || s.Sessions[1].Duration != "30 minutes" ||
		s.Sessions[1].BookingLink != "https://ruv.example/book/session-30" || !s.Sessions[1].Popular {
		t.Errorf("sessions: %+v", s.Sessions)
	}
	if len(s.Training) != 3 || s.Training[1].PriceText != "$3,000" || s.Training[1].OriginalPrice != 5000 || !s.Training[1].LimitedTime {
		t.Errorf("training: %+v", s.Training)
	}
	if s.Tribe.PriceText != "$250 per month" || s.Tribe.Capacity != 40 || s.Tribe.JoinLink != "https://ruv.example/tribe" {
		t.Errorf("tribe (capacity from the configuration, not the file): %+v", s.Tribe)
	}
	if s.BookingPage != "https://ruv.example/booking" {
		t.Errorf("booking page %q", s.BookingPage)
	}
	if _, err := call(t, r, ToolListServices, `{"all": true}`); !errs.Is(err, errs.Invalid) {
		t.Errorf("unknown argument: %v", err)
	}
}

func TestSiteToolsAreOpenAndReadOnly(t *testing.T) {
	for _, tool := range SiteTools(siteDeps(t, &fakeKB{})) {
		if tool.Who != Anyone || !tool.ReadOnly || tool.Title == "" || tool.Description == "" || !json.Valid(tool.OutputSchema) {
			t.Errorf("%s: who %s, read-only %v, title %q", tool.Name, tool.Who, tool.ReadOnly, tool.Title)
		}
	}
}
