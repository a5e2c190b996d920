package web

import "net/http"

// registerMembers adds the members-area endpoints: profile, cohorts, live
// sessions, calendar feeds, tribe status and the live-update stream.
func (s *server) registerMembers(mux *http.ServeMux) error { return nil }
