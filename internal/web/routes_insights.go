package web

import (
	"net/http"

	"tribe/internal/billing"
	"tribe/internal/clock"
	"tribe/internal/httpx"
	"tribe/internal/insights"
	"tribe/internal/store"
)

// insightsAPI serves the owner's numbers (Admin → Insights), computed by
// internal/insights from the membership ledger and the tables it reads;
// docs/api.md ("Insights") is the contract.
type insightsAPI struct {
	db      *store.DB
	billing *billing.Service
	now     clock.Clock
}

func (a *insightsAPI) register(g *registrar) error {
	g.route("GET /api/admin/insights", admin, a.report)
	return nil
}

func (a *insightsAPI) report(w http.ResponseWriter, r *http.Request) error {
	now := a.now()
	q := r.URL.Query()
	from, to, err := insights.ParseRange(q.Get("from"), q.Get("to"), now)
	if err != nil {
		return err
	}
	rep, err := insights.Build(r.Context(), a.db, a.billing, from, to, now)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, rep)
	return nil
}
