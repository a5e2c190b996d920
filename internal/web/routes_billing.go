package web

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/netip"
	"slices"
	"time"

	"tribe/internal/billing"
	"tribe/internal/errs"
	"tribe/internal/events"
	"tribe/internal/httpx"
	"tribe/internal/metrics"
)

// maxWebhookBody bounds a Stripe webhook delivery. Events are a few KB; a
// subscription with many items stays far below this.
const maxWebhookBody = 1 << 20

// billingAPI serves paid membership: checkout, the customer portal, the
// subscription refresh, Stripe's webhook, and the admins' members list with
// complimentary membership. docs/api.md ("Billing") is their contract;
// internal/billing decides everything.
type billingAPI struct {
	billing *billing.Service
	metrics *metrics.Metrics
	pub     publisher
	// proxies are TRIBE_TRUSTED_PROXIES: the hold rule counts checkouts
	// per client address, read as the rate limits read it.
	proxies []netip.Prefix
	limits  billingLimits
}

func (a *billingAPI) register(g *registrar) error {
	g.route("POST /api/billing/checkout", member, a.checkout)
	g.route("POST /api/billing/portal", member, perMember(a.limits.portal, a.portal))
	g.route("POST /api/billing/refresh", member, perMember(a.limits.refresh, a.refreshSubscription))
	g.route("POST /api/billing/webhook", anyone, a.webhook) // the Stripe signature is the credential
	g.route("GET /api/admin/members", admin, a.listMembers)
	g.route("PUT /api/admin/members/{id}/complimentary", admin, a.compMember)
	g.route("DELETE /api/admin/members/{id}/complimentary", admin, a.uncompMember)
	return nil
}

func (a *billingAPI) checkout(w http.ResponseWriter, r *http.Request) error {
	var in CheckoutRequest
	if err := httpx.ReadJSON(w, r, &in); err != nil && !errors.Is(err, httpx.ErrEmptyBody) {
		return err
	}
	p := caller(r)
	url, err := a.billing.CheckoutPlan(r.Context(), p.UserID, p.Email, clientKey(r, a.proxies), in.RedirectTo, in.Plan)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, URLReply{URL: url})
	return nil
}

func (a *billingAPI) portal(w http.ResponseWriter, r *http.Request) error {
	url, err := a.billing.Portal(r.Context(), caller(r).UserID)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, URLReply{URL: url})
	return nil
}

func (a *billingAPI) refreshSubscription(w http.ResponseWriter, r *http.Request) error {
	id := caller(r).UserID
	sub, changed, err := a.billing.RefreshChanged(r.Context(), id)
	if err != nil {
		return err
	}
	if changed {
		a.membershipChanged(r, id)
	}
	httpx.WriteJSON(w, http.StatusOK, SubscriptionReply{Subscription: sub})
	return nil
}

// membershipChanged tells the members' own tabs (their subscription) and
// everyone's (the member count).
func (a *billingAPI) membershipChanged(r *http.Request, userIDs ...string) {
	for _, id := range userIDs {
		a.pub.publish(r.Context(), events.Event{Topic: events.TopicSubscription, UserID: id})
	}
	if len(userIDs) > 0 {
		a.pub.publish(r.Context(), events.Event{Topic: events.TopicTribe})
	}
}

// webhookReceived answers Stripe's delivery.
type webhookReceived struct {
	Received bool `json:"received"`
}

// webhook applies one Stripe event. A bad, missing or old signature is 400
// and nothing is applied; event types billing does not handle are 200; only
// a failure Stripe should retry (the database) is 5xx.
func (a *billingAPI) webhook(w http.ResponseWriter, r *http.Request) error {
	body, err := httpx.ReadRaw(w, r, maxWebhookBody)
	if err != nil {
		a.metrics.WebhookEvent("unverified", "rejected")
		return err
	}
	done, err := a.billing.HandleWebhook(r.Context(), body, r.Header.Get("Stripe-Signature"))
	typ := webhookType(body)
	switch code := errs.CodeOf(err); {
	case err == nil:
	case code == errs.Invalid || code == errs.BillingUnavailable:
		a.metrics.WebhookEvent("unverified", "rejected")
		return err
	default:
		a.metrics.WebhookEvent(typ, "failed")
		return err
	}
	a.metrics.WebhookEvent(typ, string(done.Outcome))
	a.membershipChanged(r, done.Changed...)
	httpx.WriteJSON(w, http.StatusOK, webhookReceived{Received: true})
	return nil
}

// webhookType is a verified event's type for the metrics: one of the types
// billing handles, or "other", so the label set stays small.
func webhookType(body []byte) string {
	var ev struct {
		Type string `json:"type"`
	}
	_ = json.Unmarshal(body, &ev)
	if slices.Contains(billing.HandledEvents(), ev.Type) {
		return ev.Type
	}
	return "other"
}

// --- admins: the members list and complimentary membership

// FieldTypeMessage explains an until of the wrong type.
func (CompRequest) FieldTypeMessage(field string) string {
	if field == "until" {
		return errUntil.Message
	}
	return ""
}

var errUntil = errs.Field("until", `Until must be a date written YYYY-MM-DD, or null for no end.`)

const dateLayout = "2006-01-02"

func (a *billingAPI) listMembers(w http.ResponseWriter, r *http.Request) error {
	list, err := a.billing.ListAccounts(r.Context())
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, AdminMemberList{Members: list})
	return nil
}

var errNoAccount = errs.New(errs.NotFound, "No account has this id.")

func (a *billingAPI) compMember(w http.ResponseWriter, r *http.Request) error {
	var in CompRequest
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	var until *time.Time
	if in.Until != nil {
		day, err := time.Parse(dateLayout, *in.Until)
		if err != nil {
			return errUntil
		}
		end := day.AddDate(0, 0, 1) // through the end of that day
		until = &end
	}
	id := r.PathValue("id")
	if err := a.billing.Comp(r.Context(), id, until); err != nil {
		return err
	}
	a.membershipChanged(r, id)
	list, err := a.billing.ListAccounts(r.Context())
	if err != nil {
		return err
	}
	for _, m := range list {
		if m.UserID == id {
			httpx.WriteJSON(w, http.StatusOK, AdminMemberReply{Member: m})
			return nil
		}
	}
	return errNoAccount
}

func (a *billingAPI) uncompMember(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	if err := a.billing.Uncomp(r.Context(), id); err != nil {
		return err
	}
	a.membershipChanged(r, id)
	w.WriteHeader(http.StatusNoContent)
	return nil
}
