package web

import (
	"net/http"
	"net/netip"
	"time"

	"tribe/internal/httpx"
	"tribe/internal/inquiries"
	"tribe/internal/ratelimit"
)

// inquiriesAPI serves the enterprise inquiry form and the owner's list of
// inquiries. docs/api.md ("Enterprise inquiries") is their contract;
// internal/inquiries decides everything.
type inquiriesAPI struct {
	inquiries *inquiries.Service
	proxies   []netip.Prefix
	// send bounds inquiries per client address: a small office can send a
	// few, a script cannot fill the owner's inbox.
	send *ratelimit.Limiter
}

func newInquiriesAPI(svc *inquiries.Service, proxies []netip.Prefix, share shareLimit) *inquiriesAPI {
	return &inquiriesAPI{inquiries: svc, proxies: proxies, send: ratelimit.New(10, 6*time.Minute, share("inquiries"))}
}

func (a *inquiriesAPI) register(g *registrar) error {
	g.route("POST /api/inquiries", anyone, a.submit)
	g.route("GET /api/admin/inquiries", admin, a.list)
	g.route("PATCH /api/admin/inquiries", admin, a.update)
	return nil
}

func (a *inquiriesAPI) submit(w http.ResponseWriter, r *http.Request) error {
	client := clientKey(r, a.proxies)
	if err := limited(limitCheck{a.send, client}); err != nil {
		return err
	}
	var in inquiries.Input
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	q, err := a.inquiries.Submit(r.Context(), in, client)
	if err != nil {
		return err
	}
	// The sender gets their own words back, not the owner's status or note.
	httpx.WriteJSON(w, http.StatusCreated, InquirySent{ID: q.ID, CreatedAt: q.CreatedAt})
	return nil
}

func (a *inquiriesAPI) list(w http.ResponseWriter, r *http.Request) error {
	list, err := a.inquiries.List(r.Context(), r.URL.Query().Get("status"))
	if err != nil {
		return err
	}
	out := InquiryList{Inquiries: make([]inquiries.Inquiry, len(list))}
	for i, q := range list {
		out.Inquiries[i] = *q
	}
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}

func (a *inquiriesAPI) update(w http.ResponseWriter, r *http.Request) error {
	var in inquiries.Patch
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	q, err := a.inquiries.Update(r.Context(), in)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, InquiryReply{Inquiry: *q})
	return nil
}
