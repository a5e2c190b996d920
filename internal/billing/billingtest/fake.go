package billingtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// Fake is a small stateful stand-in for the Stripe endpoints billing uses:
// customers, Checkout Sessions (create, expire), subscriptions (retrieve,
// list by customer), refunds (create, list) and portal sessions. Unlike stripe-mock it remembers
// what was created, serves the subscriptions a test puts in it, and honours
// Idempotency-Key as Stripe does (the same key gets the first answer again;
// concurrent requests with one key run one at a time).
type Fake struct {
	URL string
	srv *httptest.Server

	// Delay is added to every request, to widen race windows.
	Delay time.Duration
	// Now is the fake's clock, sent as each answer's Date (Stripe's clock);
	// time.Now when nil.
	Now func() time.Time

	mu        sync.Mutex
	n         int
	customers []url.Values
	sessions  map[string]url.Values
	expired   []string
	subs      map[string]Sub
	prices    map[string]map[string]any
	refunds   []map[string]any
	requests  map[string]int
	down      bool
	keys      map[string]*keyed
}

type keyed struct {
	mu     sync.Mutex
	done   bool
	status int
	body   []byte
}

// NewFake starts a Fake that stops when the test ends.
func NewFake(t testing.TB) *Fake {
	f := &Fake{sessions: map[string]url.Values{}, subs: map[string]Sub{}, prices: map[string]map[string]any{}, requests: map[string]int{}, keys: map[string]*keyed{}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	f.URL = f.srv.URL
	t.Cleanup(f.srv.Close)
	return f
}

// PutSubscription makes the fake serve s (replacing an earlier one with its id).
func (f *Fake) PutSubscription(s Sub) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.subs[s.ID] = s
}

// PutPrice makes the fake serve a recurring price.
func (f *Fake) PutPrice(id string, amount int64, currency, interval string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.prices[id] = map[string]any{"id": id, "object": "price", "unit_amount": amount, "currency": currency, "active": true,
		"type": "recurring", "recurring": map[string]any{"interval": interval, "interval_count": 1}}
}

// SetDown makes every request fail with 500 (Stripe unreachable) or not.
func (f *Fake) SetDown(down bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.down = down
}

// Customers returns the parameters of every customer created, in order.
func (f *Fake) Customers() []url.Values {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]url.Values(nil), f.customers...)
}

// Sessions returns the parameters of every Checkout Session created, by id.
func (f *Fake) Sessions() map[string]url.Values {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make(map[string]url.Values, len(f.sessions))
	for k, v := range f.sessions {
		out[k] = v
	}
	return out
}

// Expired returns the ids of the Checkout Sessions expired through the API.
func (f *Fake) Expired() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.expired...)
}

// Refunds returns the refunds created, in order: id, payment_intent, amount.
func (f *Fake) Refunds() []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]map[string]any(nil), f.refunds...)
}

// AddRefund makes the fake report a refund made elsewhere (the dashboard).
func (f *Fake) AddRefund(id, paymentIntent string, amount int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.refunds = append(f.refunds, map[string]any{"id": id, "object": "refund", "amount": amount,
		"payment_intent": paymentIntent, "status": "succeeded", "currency": "usd"})
}

// Requests counts requests by "METHOD /path".
func (f *Fake) Requests(key string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests[key]
}

func (f *Fake) serve(w http.ResponseWriter, r *http.Request) {
	if f.Delay > 0 {
		time.Sleep(f.Delay)
	}
	_ = r.ParseForm()
	now := time.Now
	if f.Now != nil {
		now = f.Now
	}
	w.Header().Set("Date", now().UTC().Format(http.TimeFormat))
	f.mu.Lock()
	f.requests[r.Method+" "+r.URL.Path]++
	down := f.down
	f.mu.Unlock()
	if down {
		writeJSON(w, http.StatusInternalServerError, stripeError("api_error", "the fake is down"))
		return
	}
	key := r.Header.Get("Idempotency-Key")
	if r.Method != http.MethodPost || key == "" {
		status, body := f.route(r)
		writeJSON(w, status, body)
		return
	}
	f.mu.Lock()
	k := f.keys[key]
	if k == nil {
		k = &keyed{}
		f.keys[key] = k
	}
	f.mu.Unlock()
	k.mu.Lock()
	defer k.mu.Unlock()
	if !k.done {
		status, body := f.route(r)
		b, _ := json.Marshal(body)
		k.done, k.status, k.body = true, status, b
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Idempotent-Replayed", "true")
	w.WriteHeader(k.status)
	_, _ = w.Write(k.body)
}

func (f *Fake) route(r *http.Request) (int, any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p := r.URL.Path
	switch {
	case r.Method == http.MethodPost && p == "/v1/customers":
		f.n++
		id := fmt.Sprintf("cus_fake%d", f.n)
		f.customers = append(f.customers, r.PostForm)
		return http.StatusOK, map[string]any{"id": id, "object": "customer", "email": r.PostForm.Get("email")}
	case r.Method == http.MethodPost && p == "/v1/checkout/sessions":
		f.n++
		id := fmt.Sprintf("cs_fake%d", f.n)
		f.sessions[id] = r.PostForm
		return http.StatusOK, map[string]any{
			"id": id, "object": "checkout.session", "mode": r.PostForm.Get("mode"), "status": "open",
			"url": "https://checkout.stripe.test/c/" + id, "customer": r.PostForm.Get("customer"),
			"client_reference_id": r.PostForm.Get("client_reference_id"),
		}
	case r.Method == http.MethodPost && strings.HasPrefix(p, "/v1/checkout/sessions/") && strings.HasSuffix(p, "/expire"):
		id := strings.TrimSuffix(strings.TrimPrefix(p, "/v1/checkout/sessions/"), "/expire")
		f.expired = append(f.expired, id)
		return http.StatusOK, map[string]any{"id": id, "object": "checkout.session", "status": "expired"}
	case r.Method == http.MethodPost && p == "/v1/refunds":
		f.n++
		pi := r.PostForm.Get("payment_intent")
		var amount int64
		_, _ = fmt.Sscan(r.PostForm.Get("amount"), &amount)
		refund := map[string]any{"id": fmt.Sprintf("re_fake%d", f.n), "object": "refund", "amount": amount,
			"payment_intent": pi, "status": "succeeded", "currency": "usd"}
		f.refunds = append(f.refunds, refund)
		return http.StatusOK, refund
	case r.Method == http.MethodGet && p == "/v1/refunds":
		data := []any{}
		for _, rf := range f.refunds {
			if pi := r.URL.Query().Get("payment_intent"); pi == "" || pi == rf["payment_intent"] {
				data = append(data, rf)
			}
		}
		return http.StatusOK, map[string]any{"object": "list", "data": data, "has_more": false, "url": "/v1/refunds"}
	case r.Method == http.MethodPost && p == "/v1/billing_portal/sessions":
		f.n++
		return http.StatusOK, map[string]any{
			"id": fmt.Sprintf("bps_fake%d", f.n), "object": "billing_portal.session",
			"customer": r.PostForm.Get("customer"), "url": fmt.Sprintf("https://billing.stripe.test/p/%d", f.n),
		}
	case r.Method == http.MethodGet && strings.HasPrefix(p, "/v1/subscriptions/"):
		s, ok := f.subs[strings.TrimPrefix(p, "/v1/subscriptions/")]
		if !ok {
			return http.StatusNotFound, stripeError("invalid_request_error", "No such subscription")
		}
		return http.StatusOK, s.Expanded()
	case r.Method == http.MethodGet && strings.HasPrefix(p, "/v1/prices/"):
		pr, ok := f.prices[strings.TrimPrefix(p, "/v1/prices/")]
		if !ok {
			return http.StatusNotFound, stripeError("invalid_request_error", "No such price")
		}
		return http.StatusOK, pr
	case r.Method == http.MethodGet && p == "/v1/subscriptions":
		data := []any{}
		for _, s := range f.subs {
			c, price := r.URL.Query().Get("customer"), r.URL.Query().Get("price")
			if (c == "" || c == s.Customer) && (price == "" || price == s.Price) {
				data = append(data, s.Expanded())
			}
		}
		return http.StatusOK, map[string]any{"object": "list", "data": data, "has_more": false, "url": "/v1/subscriptions"}
	}
	return http.StatusNotFound, stripeError("invalid_request_error", "the fake does not serve "+r.Method+" "+p)
}

func stripeError(typ, msg string) map[string]any {
	return map[string]any{"error": map[string]any{"type": typ, "message": msg}}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
