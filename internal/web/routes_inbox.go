package web

import (
	"net/http"
	"time"

	"tribe/internal/errs"
	"tribe/internal/httpx"
	"tribe/internal/inbox"
	"tribe/internal/push"
	"tribe/internal/ratelimit"
)

// inboxAPI serves the notification centre and members' Web Push
// subscriptions. internal/inbox and internal/push decide; docs/api.md
// ("Notifications") is the contract. The per-kind channels travel with the
// notification settings (routes_notify.go).
type inboxAPI struct {
	inbox *inbox.Service
	push  *push.Service
	// subscribe bounds how often one member adds a browser: ten may be
	// kept, so a script has nothing to gain from many more tries.
	subscribe *ratelimit.Limiter
}

func newInboxAPI(in *inbox.Service, ps *push.Service) *inboxAPI {
	return &inboxAPI{inbox: in, push: ps, subscribe: ratelimit.New(20, 3*time.Minute)}
}

func (a *inboxAPI) register(g *registrar) error {
	g.route("GET /api/notifications", member, a.list)
	g.route("POST /api/notifications/read", member, a.read)
	g.route("GET /api/push/key", member, a.key)
	g.route("POST /api/push/subscriptions", member, a.addSubscription)
	g.route("DELETE /api/push/subscriptions", member, a.removeSubscription)
	return nil
}

func (a *inboxAPI) list(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	unread := false
	switch q.Get("unread") {
	case "", "0", "false":
	case "1", "true":
		unread = true
	default:
		return errs.Field("unread", "unread is 1 or 0.")
	}
	list, err := a.inbox.List(r.Context(), caller(r).UserID, unread, q.Get("cursor"))
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, list)
	return nil
}

func (a *inboxAPI) read(w http.ResponseWriter, r *http.Request) error {
	var in inbox.ReadInput
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	res, err := a.inbox.MarkRead(r.Context(), caller(r).UserID, in)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, res)
	return nil
}

func (a *inboxAPI) key(w http.ResponseWriter, r *http.Request) error {
	k, err := a.push.PublicKey(r.Context())
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, inbox.PushKey{PublicKey: k})
	return nil
}

func (a *inboxAPI) addSubscription(w http.ResponseWriter, r *http.Request) error {
	user := caller(r).UserID
	if err := limited(limitCheck{a.subscribe, user}); err != nil {
		return err
	}
	var in push.SubscriptionInput
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	if err := a.push.Subscribe(r.Context(), user, in); err != nil {
		return err
	}
	w.WriteHeader(http.StatusCreated)
	return nil
}

func (a *inboxAPI) removeSubscription(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Endpoint string `json:"endpoint"`
	}
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	if _, err := a.push.Unsubscribe(r.Context(), caller(r).UserID, in.Endpoint); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
