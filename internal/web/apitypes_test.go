package web

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"tribe/internal/billing"
	"tribe/internal/community"
	"tribe/internal/httpx"
	"tribe/internal/kb"
)

// The web app's response types are checked against the Go types the server
// encodes, the way TestAppRoutesMatchWebRouter checks the routes: each
// interface must name exactly the JSON fields of its Go type, and a field the
// server may leave out (omitempty) must be optional in TypeScript.
func TestWebResponseTypesMatchTheServer(t *testing.T) {
	pairs := []struct {
		file, iface string
		goType      any
	}{
		{"lib/api-types.ts", "ApiErrorBody", httpx.ErrorBody{}},
		{"lib/api-types.ts", "ApiErrorDetail", httpx.ErrorDetail{}},
		{"lib/api-types.ts", "User", userJSON{}},
		{"lib/api-types.ts", "Subscription", subscriptionJSON{}},
		{"lib/api-types.ts", "SessionBody", userBody{}},
		{"lib/api-types.ts", "UserBody", userBody{}},
		{"lib/api-types.ts", "MessageBody", messageBody{}},
		{"lib/api-types.ts", "TribeStatus", billing.TribeStatus{}},
		{"lib/api-types.ts", "Subscription", billing.Subscription{}},
		{"lib/api-types.ts", "KnowledgeMetadata", kb.Metadata{}},
		{"lib/api-types.ts", "SearchResult", kb.Result{}},
		{"lib/api-types.ts", "SearchResponse", kb.Results{}},
		{"lib/api-types.ts", "SeedBreakdown", kb.SeedBreakdown{}},
		{"lib/api-types.ts", "SeedResult", kb.SeedResult{}},
		{"lib/api-types.ts", "PageConfig", PageConfig{}},
		{"features/auth/api/types.ts", "WaitlistJoined", WaitlistJoined{}},
		{"features/members/api/types.ts", "MembersOverview", MembersOverview{}},
		{"features/members/api/types.ts", "Profile", community.Profile{}},
		{"features/members/api/types.ts", "ProfileBody", profileBody{}},
		{"features/members/api/types.ts", "ProfileInput", community.ProfileUpdate{}},
		{"features/members/api/types.ts", "CohortMember", community.CohortMember{}},
		{"features/members/api/types.ts", "Cohort", community.Cohort{}},
		{"features/members/api/types.ts", "CohortList", CohortList{}},
		{"features/members/api/types.ts", "CohortBody", cohortBody{}},
		{"features/members/api/types.ts", "CohortInput", community.CohortInput{}},
		{"features/members/api/types.ts", "LiveSession", community.SessionView{}},
		{"features/members/api/types.ts", "LiveSessionList", SessionList{}},
		{"features/members/api/types.ts", "LiveSessionReply", sessionReply{}},
		{"features/members/api/types.ts", "SessionInput", community.SessionInput{}},
		{"features/members/api/types.ts", "FeedStatus", FeedStatus{}},
		{"features/members/api/types.ts", "FeedCreated", FeedCreated{}},
		{"features/members/api/types.ts", "WaitlistEntry", WaitlistEntry{}},
		{"features/members/api/types.ts", "WaitlistEntries", WaitlistEntries{}},
		{"features/members/api/types.ts", "CheckoutRequest", CheckoutRequest{}},
		{"features/members/api/types.ts", "UrlReply", URLReply{}},
		{"features/members/api/types.ts", "SubscriptionReply", SubscriptionReply{}},
		{"features/members/api/types.ts", "AdminMember", AdminMember{}},
		{"features/members/api/types.ts", "AdminMemberList", AdminMemberList{}},
		{"features/members/api/types.ts", "AdminMemberReply", AdminMemberReply{}},
		{"features/members/api/types.ts", "CompRequest", CompRequest{}},
		{"features/members/api/types.ts", "KnowledgeDocument", kb.Document{}},
		{"features/members/api/types.ts", "KnowledgeDocumentList", kb.DocumentList{}},
		{"features/members/api/types.ts", "KnowledgeDocumentReply", documentBody{}},
		{"features/members/api/types.ts", "DocumentInput", kb.Input{}},
		{"features/tribe/api/types.ts", "UrlReply", URLReply{}},
	}
	for _, p := range pairs {
		src, err := os.ReadFile("../../web/src/" + p.file)
		if err != nil {
			t.Fatalf("read %s: %v", p.file, err)
		}
		tsFields, ok := tsInterface(string(src), p.iface)
		if !ok {
			t.Errorf("%s has no interface %s", p.file, p.iface)
			continue
		}
		goFields := jsonFields(reflect.TypeOf(p.goType))
		if !slices.Equal(slices.Sorted(keys(tsFields)), slices.Sorted(keys(goFields))) {
			t.Errorf("%s (%s) has fields %v; the server's %T writes %v",
				p.iface, p.file, slices.Sorted(keys(tsFields)), p.goType, slices.Sorted(keys(goFields)))
			continue
		}
		for name, omit := range goFields {
			if omit && !tsFields[name] {
				t.Errorf("%s.%s: the server leaves it out when empty, so it must be optional (%s?:)", p.iface, name, name)
			}
		}
	}
}

// tsInterface reads the fields of `export interface name { … }`: field name
// to whether it is optional.
func tsInterface(src, name string) (map[string]bool, bool) {
	start := regexp.MustCompile(`(?m)^export interface ` + name + `\b[^{]*\{\n`).FindStringIndex(src)
	if start == nil {
		return nil, false
	}
	body := src[start[1]:]
	body = body[:strings.Index(body, "\n}")]
	fields := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^  (\w+)(\??):`).FindAllStringSubmatch(body, -1) {
		fields[m[1]] = m[2] == "?"
	}
	return fields, true
}

// jsonFields are the JSON names a struct type encodes: name to omitempty.
func jsonFields(t reflect.Type) map[string]bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	out := map[string]bool{}
	for f := range t.Fields() {
		tag := f.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = strings.Contains(opts, "omitempty")
	}
	return out
}

func keys(m map[string]bool) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
