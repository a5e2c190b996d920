package web

import "net/http"

// registerDevMail adds the development mailbox, served only without SMTP_URL.
func (s *server) registerDevMail(mux *http.ServeMux) error { return nil }
