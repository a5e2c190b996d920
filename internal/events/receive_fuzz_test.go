package events

import (
	"encoding/json"
	"testing"
)

// FuzzReceive feeds arbitrary payloads to the PostgreSQL listener's parser.
// Nothing may panic; a topic reaches a stream only if it is a known topic
// (topics become SSE event names, so nothing else may reach the wire), and
// a notice for one user never reaches another user's stream.
func FuzzReceive(f *testing.F) {
	for _, s := range []string{
		`{"topic":"cohorts","user":"","from":"other","ns":"public"}`,
		`{"topic":"subscription","user":"ada","from":"other","ns":"public"}`,
		`{"topic":"profile","user":"grace","from":"other","ns":"public"}`,
		`{"topic":"sessions","user":"","from":"other","ns":"elsewhere"}`,
		`{"topic":"cohorts\nevent: x","user":"","from":"other","ns":"public"}`,
		`{"topic":"ready","user":"","from":"other","ns":"public"}`,
		`{"topic":"cohorts","user":"","from":"SELF","ns":"public"}`,
		`{"topic":1}`, `null`, `[]`, `{`, ``, `{"topic":"cohorts","topic":"nope","ns":"public"}`,
		`{"Topic":"COHORTS","NS":"public"}`, "\x00",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, payload string) {
		h := New(nil, quietLogger())
		defer h.Close()
		ada := subscribe(t, h, "ada")
		grace := subscribe(t, h, "grace")
		h.receive("public", payload)

		var n notice
		valid := json.Unmarshal([]byte(payload), &n) == nil && n.NS == "public" && n.From != h.instance && Known(n.Topic)
		for _, s := range []struct {
			sub  *Subscription
			user string
		}{{ada, "ada"}, {grace, "grace"}} {
			got := s.sub.Take()
			for _, topic := range got {
				if !Known(topic) {
					t.Fatalf("unknown topic %q reached a stream from %q", topic, payload)
				}
			}
			want := valid && (n.User == "" || n.User == s.user)
			if want != (len(got) == 1) || len(got) > 1 {
				t.Fatalf("%s got %q from %q; want delivered=%v", s.user, got, payload, want)
			}
		}
	})
}
