package web

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"tribe/internal/billing/billingtest"
	"tribe/internal/events"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

const (
	billingPrice  = "price_tribe_web"
	billingSecret = "whsec_web_test_secret"
)

// billingEnv is membersEnv with online payment on against the Stripe API at
// apiBase (the fake or stripe-mock).
func billingEnv(apiBase string, extra ...string) map[string]string {
	env := membersEnv()
	env["STRIPE_SECRET_KEY"] = "sk_test_web"
	env["STRIPE_WEBHOOK_SECRET"] = billingSecret
	env["STRIPE_PRICE_ID"] = billingPrice
	env["STRIPE_API_BASE"] = apiBase
	for i := 0; i+1 < len(extra); i += 2 {
		env[extra[i]] = extra[i+1]
	}
	return env
}

// postWebhook delivers body to the webhook with the given Stripe-Signature
// header ("" for none).
func (m *testSite) postWebhook(body []byte, signature string) reply {
	m.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, m.srv.URL+"/api/billing/webhook", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	if signature != "" {
		req.Header.Set("Stripe-Signature", signature)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		m.t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	raw, _ := io.ReadAll(resp.Body)
	r := reply{status: resp.StatusCode, header: resp.Header, body: string(raw)}
	_ = json.Unmarshal(raw, &r.json)
	return r
}

// signed delivers an event signed with the site's secret now.
func (m *testSite) signed(body []byte) reply {
	m.t.Helper()
	return m.postWebhook(body, billingtest.Sign(body, billingSecret, time.Now()))
}

// subscriptionEvent is a customer.subscription.* event for the member.
func subscriptionEvent(id, typ, subID, customer, userID, status string, cancel bool) []byte {
	now := time.Now().Unix()
	return billingtest.Event(id, typ, now, billingtest.Sub{
		ID: subID, Customer: customer, Status: status, Price: billingPrice, UserID: userID,
		PeriodEnd: now + 30*24*3600, CancelAtPeriodEnd: cancel, Created: now,
	}.Object())
}

func (m *testSite) subscriptionStatus(u testUser) (status string, ok bool) {
	m.t.Helper()
	r := m.call(u, "GET", "/api/members/overview", nil)
	if r.status != 200 {
		m.t.Fatalf("overview: %d %s", r.status, r.body)
	}
	sub, _ := r.json["subscription"].(map[string]any)
	if sub == nil {
		return "", false
	}
	return sub["status"].(string), true
}

func TestBillingCheckout(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		m := newTestSite(t, db, billingEnv(fake.URL, "TRIBE_CAPACITY", "2"))
		ada := m.user("ada@example.com")

		if r := m.call(testUser{}, "POST", "/api/billing/checkout", map[string]string{"redirect_to": "members"}); r.status != 401 {
			t.Fatalf("anonymous checkout: %d %s", r.status, r.body)
		}
		r := m.call(ada, "POST", "/api/billing/checkout", map[string]string{"redirect_to": "members"})
		if r.status != 200 || !strings.HasPrefix(r.json["url"].(string), "https://checkout.stripe.test/c/cs_fake") {
			t.Fatalf("checkout: %d %s", r.status, r.body)
		}
		var session string
		for id, params := range fake.Sessions() {
			session = id
			if got := params.Get("success_url"); got != "https://ruv.example/members?success=true" {
				t.Errorf("success_url %q", got)
			}
			if got := params.Get("client_reference_id"); got != ada.id {
				t.Errorf("client_reference_id %q, want %s", got, ada.id)
			}
		}
		// Pressing again returns the same session, and no body means members.
		if again := m.call(ada, "POST", "/api/billing/checkout", nil); again.status != 200 || again.json["url"] != r.json["url"] {
			t.Fatalf("second checkout: %d %s, want %s", again.status, again.body, r.json["url"])
		}
		if bad := m.call(ada, "POST", "/api/billing/checkout", map[string]string{"redirect_to": "https://evil.example"}); bad.status != 400 || bad.errCode() != "invalid" {
			t.Fatalf("foreign redirect_to: %d %s", bad.status, bad.body)
		}

		// A subscriber is refused; and with one seat taken by a subscriber
		// and one held by Ada's checkout, the tribe is full.
		sub := m.user("sub@example.com")
		m.subscribe(sub, "active")
		if r := m.call(sub, "POST", "/api/billing/checkout", map[string]string{"redirect_to": "members"}); r.status != 409 || r.errCode() != "already_subscribed" {
			t.Fatalf("subscriber checkout: %d %s", r.status, r.body)
		}
		bob := m.user("bob@example.com")
		if r := m.call(bob, "POST", "/api/billing/checkout", map[string]string{"redirect_to": "members"}); r.status != 409 || r.errCode() != "at_capacity" {
			t.Fatalf("checkout at capacity: %d %s", r.status, r.body)
		}
		// Stripe expires Ada's session: the seat is free again.
		expired := billingtest.Event("evt_expired", "checkout.session.expired", time.Now().Unix(),
			billingtest.CheckoutSession(session, "", "", ada.id))
		if r := m.signed(expired); r.status != 200 {
			t.Fatalf("expired event: %d %s", r.status, r.body)
		}
		if r := m.call(bob, "POST", "/api/billing/checkout", map[string]string{"redirect_to": "members"}); r.status != 200 {
			t.Fatalf("checkout after the hold ended: %d %s", r.status, r.body)
		}

		// Stripe down: 503 unavailable, in words.
		fake.SetDown(true)
		carol := m.user("carol@example.com")
		m.exec(`DELETE FROM checkout_holds`)
		if r := m.call(carol, "POST", "/api/billing/checkout", nil); r.status != 503 || r.errCode() != "unavailable" {
			t.Fatalf("checkout with Stripe down: %d %s", r.status, r.body)
		}
	})
}

func TestBillingWithoutStripe(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		ada := m.user("ada@example.com")
		for _, path := range []string{"/api/billing/checkout", "/api/billing/portal"} {
			r := m.call(ada, "POST", path, map[string]string{"redirect_to": "members"})
			if r.status != 503 || r.errCode() != "billing_unavailable" || !strings.Contains(r.body, "not set up yet") {
				t.Errorf("%s without Stripe: %d %s", path, r.status, r.body)
			}
		}
		if r := m.call(ada, "POST", "/api/billing/refresh", nil); r.status != 200 || r.json["subscription"] != nil {
			t.Errorf("refresh without Stripe: %d %s", r.status, r.body)
		}
		st := m.call(testUser{}, "GET", "/api/tribe/status", nil)
		if st.json["payments_enabled"] != false {
			t.Errorf("tribe status without Stripe: %s", st.body)
		}
		body := subscriptionEvent("evt_1", "customer.subscription.created", "sub_1", "cus_1", ada.id, "active", false)
		if r := m.postWebhook(body, billingtest.Sign(body, billingSecret, time.Now())); r.status != 503 {
			t.Errorf("webhook without a secret: %d %s", r.status, r.body)
		}
	})
}

func TestBillingWebhook(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		m := newTestSite(t, db, billingEnv(fake.URL))
		ada := m.user("ada@example.com")
		other := m.user("other@example.com")
		adaStream := openStream(t, m.srv.URL, ada.token)
		adaStream.ready(t)
		otherStream := openStream(t, m.srv.URL, other.token)
		otherStream.ready(t)

		body := subscriptionEvent("evt_created", "customer.subscription.created", "sub_ada", "cus_ada", ada.id, "active", false)
		now := time.Now()
		refused := []struct {
			name, signature string
		}{
			{"missing", ""},
			{"malformed", "nonsense"},
			{"wrong secret", billingtest.Sign(body, "whsec_someone_else", now)},
			{"ten minutes old", billingtest.Sign(body, billingSecret, now.Add(-10*time.Minute))},
			{"from the future", billingtest.Sign(body, billingSecret, now.Add(10*time.Minute))},
		}
		for _, c := range refused {
			if r := m.postWebhook(body, c.signature); r.status != 400 || r.errCode() != "invalid" {
				t.Errorf("%s signature: %d %s", c.name, r.status, r.body)
			}
		}
		tampered := []byte(strings.Replace(string(body), `"active"`, `"trialing"`, 1))
		if r := m.postWebhook(tampered, billingtest.Sign(body, billingSecret, now)); r.status != 400 {
			t.Errorf("changed body: %d %s", r.status, r.body)
		}
		if _, ok := m.subscriptionStatus(ada); ok {
			t.Fatal("a refused delivery changed the subscription")
		}

		if r := m.signed(body); r.status != 200 || r.json["received"] != true {
			t.Fatalf("signed event: %d %s", r.status, r.body)
		}
		adaStream.expect(t, events.TopicSubscription)
		adaStream.expect(t, events.TopicTribe)
		otherStream.expect(t, events.TopicTribe) // the count, never Ada's subscription
		otherStream.quiet(t, 200*time.Millisecond)
		if status, _ := m.subscriptionStatus(ada); status != "active" {
			t.Fatalf("after the event: %q", status)
		}
		ov := m.call(ada, "GET", "/api/members/overview", nil)
		sub := ov.json["subscription"].(map[string]any)
		if sub["has_subscription_id"] != true || sub["complimentary"] != false || ov.json["is_subscriber"] != true {
			t.Errorf("overview after payment: %s", ov.body)
		}
		if me := m.call(ada, "GET", "/api/auth/session", nil); !strings.Contains(me.body, `"has_subscription_id":true`) {
			t.Errorf("user object after payment: %s", me.body)
		}
		if st := m.call(testUser{}, "GET", "/api/tribe/status", nil); st.json["active_members"] != float64(1) || st.json["payments_enabled"] != true {
			t.Errorf("tribe status: %s", st.body)
		}

		// Redelivery and ignored types: 200, nothing changes.
		if r := m.signed(body); r.status != 200 {
			t.Errorf("redelivery: %d %s", r.status, r.body)
		}
		ignored := billingtest.Event("evt_charge", "charge.succeeded", now.Unix(), map[string]any{"id": "ch_1", "object": "charge"})
		if r := m.signed(ignored); r.status != 200 {
			t.Errorf("ignored type: %d %s", r.status, r.body)
		}
		adaStream.quiet(t, 200*time.Millisecond)

		// Cancellation at the period end: Cancels Soon.
		cancel := subscriptionEvent("evt_updated", "customer.subscription.updated", "sub_ada", "cus_ada", ada.id, "active", true)
		if r := m.signed(cancel); r.status != 200 {
			t.Fatalf("update: %d %s", r.status, r.body)
		}
		ov = m.call(ada, "GET", "/api/members/overview", nil)
		if ov.json["subscription"].(map[string]any)["cancel_at_period_end"] != true {
			t.Errorf("after cancel_at_period_end: %s", ov.body)
		}

		// A database failure is the one case for a 5xx: Stripe retries.
		m.exec(`DROP TABLE payment_events`)
		later := subscriptionEvent("evt_later", "customer.subscription.deleted", "sub_ada", "cus_ada", ada.id, "canceled", false)
		if r := m.signed(later); r.status != 500 {
			t.Errorf("database failure: %d %s", r.status, r.body)
		}

		metrics := m.call(testUser{}, "GET", "/metrics", nil).body
		for _, want := range []string{
			`tribe_webhook_events_total{outcome="rejected",type="unverified"} 6`,
			`tribe_webhook_events_total{outcome="applied",type="customer.subscription.created"} 1`,
			`tribe_webhook_events_total{outcome="duplicate",type="customer.subscription.created"} 1`, // the redelivery
			`tribe_webhook_events_total{outcome="ignored",type="other"} 1`,
			`tribe_webhook_events_total{outcome="failed",type="customer.subscription.deleted"} 1`,
		} {
			if !strings.Contains(metrics, want) {
				t.Errorf("metrics lack %s", want)
			}
		}
	})
}

func TestBillingPortalAndRefresh(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		m := newTestSite(t, db, billingEnv(fake.URL))
		ada := m.user("ada@example.com")
		if r := m.call(ada, "POST", "/api/billing/portal", nil); r.status != 404 || r.errCode() != "no_billing_account" {
			t.Fatalf("portal before paying: %d %s", r.status, r.body)
		}
		if r := m.call(testUser{}, "POST", "/api/billing/refresh", nil); r.status != 401 {
			t.Fatalf("anonymous refresh: %d", r.status)
		}
		if r := m.call(ada, "POST", "/api/billing/checkout", nil); r.status != 200 {
			t.Fatalf("checkout: %d %s", r.status, r.body)
		}
		// Ada pays; Checkout returns before the webhook arrives.
		r := m.call(ada, "POST", "/api/billing/refresh", nil)
		if r.status != 200 || r.json["subscription"] != nil {
			t.Fatalf("refresh before paying: %d %s", r.status, r.body)
		}
		stream := openStream(t, m.srv.URL, ada.token)
		stream.ready(t)
		now := time.Now().Unix()
		fake.PutSubscription(billingtest.Sub{ID: "sub_paid", Customer: "cus_fake1", Status: "active", Price: billingPrice,
			UserID: ada.id, PeriodEnd: now + 30*24*3600, Created: now})
		r = m.call(ada, "POST", "/api/billing/refresh", nil)
		sub, _ := r.json["subscription"].(map[string]any)
		if r.status != 200 || sub["status"] != "active" || sub["has_subscription_id"] != true {
			t.Fatalf("refresh after paying: %d %s", r.status, r.body)
		}
		stream.expect(t, events.TopicSubscription)
		stream.expect(t, events.TopicTribe)
		// Nothing changed the second time: no notice.
		if r := m.call(ada, "POST", "/api/billing/refresh", nil); r.status != 200 {
			t.Fatalf("second refresh: %d", r.status)
		}
		stream.quiet(t, 200*time.Millisecond)

		r = m.call(ada, "POST", "/api/billing/portal", nil)
		if r.status != 200 || !strings.HasPrefix(r.json["url"].(string), "https://billing.stripe.test/p/") {
			t.Fatalf("portal: %d %s", r.status, r.body)
		}
		fake.SetDown(true)
		if r := m.call(ada, "POST", "/api/billing/refresh", nil); r.status != 503 || r.errCode() != "unavailable" {
			t.Fatalf("refresh with Stripe down: %d %s", r.status, r.body)
		}
	})
}

// TestBillingAgainstStripeMock runs checkout and the portal through the
// real client against stripe-mock, Stripe's official API mock.
func TestBillingAgainstStripeMock(t *testing.T) {
	t.Parallel()
	mock := billingtest.StripeMock(t)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, billingEnv(mock.URL))
		ada := m.user("ada@example.com")
		r := m.call(ada, "POST", "/api/billing/checkout", map[string]string{"redirect_to": "members"})
		if r.status != 200 || !strings.HasPrefix(fmt.Sprint(r.json["url"]), "https://") {
			t.Fatalf("checkout: %d %s", r.status, r.body)
		}
		m.exec(`INSERT INTO subscriptions (user_id, status, stripe_subscription_id, stripe_customer_id) VALUES ($1, 'active', 'sub_mock', 'cus_mock')`, ada.id)
		r = m.call(ada, "POST", "/api/billing/portal", nil)
		if r.status != 200 || !strings.HasPrefix(fmt.Sprint(r.json["url"]), "https://") {
			t.Fatalf("portal: %d %s", r.status, r.body)
		}
		if r := m.call(ada, "POST", "/api/billing/refresh", nil); r.status != 200 {
			t.Fatalf("refresh: %d %s", r.status, r.body)
		}
	})
}

func TestAdminMembersAndComplimentary(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		admin := m.user(membersAdminEmail)
		ada := m.user("ada@example.com")
		payer := m.user("payer@example.com")
		m.subscribe(payer, "active")
		m.exec(`UPDATE subscriptions SET stripe_subscription_id = 'sub_payer' WHERE user_id = $1`, payer.id)

		if r := m.call(ada, "GET", "/api/admin/members", nil); r.status != 403 {
			t.Fatalf("members list as a member: %d", r.status)
		}
		stream := openStream(t, m.srv.URL, ada.token)
		stream.ready(t)
		path := "/api/admin/members/" + ada.id + "/complimentary"
		r := m.call(admin, "PUT", path, map[string]any{"until": "2099-12-31"})
		if r.status != 200 {
			t.Fatalf("comp: %d %s", r.status, r.body)
		}
		got := r.json["member"].(map[string]any)
		if got["complimentary"] != true || got["until"] != "2099-12-31" || got["status"] != "active" || got["has_access"] != true || got["email"] != "ada@example.com" {
			t.Fatalf("comped member: %s", r.body)
		}
		stream.expect(t, events.TopicSubscription)
		stream.expect(t, events.TopicTribe)
		ov := m.call(ada, "GET", "/api/members/overview", nil)
		sub := ov.json["subscription"].(map[string]any)
		if ov.json["is_subscriber"] != true || sub["complimentary"] != true || sub["has_subscription_id"] != false {
			t.Fatalf("overview of a complimentary member: %s", ov.body)
		}
		if st := m.call(testUser{}, "GET", "/api/tribe/status", nil); st.json["active_members"] != float64(2) {
			t.Errorf("tribe status counts paying and complimentary: %s", st.body)
		}

		list := m.call(admin, "GET", "/api/admin/members", nil)
		members, _ := list.json["members"].([]any)
		if list.status != 200 || len(members) != 3 {
			t.Fatalf("members list: %d %s", list.status, list.body)
		}
		rows := map[string]map[string]any{}
		for _, row := range members {
			r := row.(map[string]any)
			rows[r["email"].(string)] = r
		}
		if r := rows[membersAdminEmail]; r["status"] != "free" || r["has_access"] != false || r["joined_at"] == "" {
			t.Errorf("free account: %v", r)
		}
		if r := rows["payer@example.com"]; r["status"] != "active" || r["complimentary"] != false || r["until"] != nil || r["has_access"] != true {
			t.Errorf("paying member: %v", r)
		}
		if r := rows["ada@example.com"]; r["complimentary"] != true || r["until"] != "2099-12-31" {
			t.Errorf("complimentary member: %v", r)
		}

		// No end; then refusals.
		if r := m.call(admin, "PUT", path, map[string]any{"until": nil}); r.status != 200 || r.json["member"].(map[string]any)["until"] != nil {
			t.Fatalf("comp without an end: %d %s", r.status, r.body)
		}
		for _, c := range []struct {
			body any
			code string
		}{
			{map[string]any{"until": "31/12/2099"}, "invalid"},
			{map[string]any{"until": 5}, "invalid"},
			{map[string]any{"until": "2001-01-01"}, "invalid"},
			{"", "bad_json"},
		} {
			if r := m.call(admin, "PUT", path, c.body); r.status != 400 || r.errCode() != c.code {
				t.Errorf("comp with %v: %d %s", c.body, r.status, r.body)
			}
		}
		if r := m.call(admin, "PUT", "/api/admin/members/"+store.NewID()+"/complimentary", map[string]any{"until": nil}); r.status != 404 {
			t.Errorf("comp of an unknown id: %d %s", r.status, r.body)
		}
		if r := m.call(admin, "PUT", "/api/admin/members/"+payer.id+"/complimentary", map[string]any{"until": nil}); r.status != 409 || r.errCode() != "already_subscribed" {
			t.Errorf("comp of a paying member: %d %s", r.status, r.body)
		}

		if r := m.call(admin, "DELETE", path, nil); r.status != 204 {
			t.Fatalf("uncomp: %d %s", r.status, r.body)
		}
		if _, ok := m.subscriptionStatus(ada); ok {
			t.Error("still a member after uncomp")
		}
		if r := m.call(admin, "DELETE", path, nil); r.status != 404 {
			t.Errorf("uncomp twice: %d %s", r.status, r.body)
		}
	})
}

// TestCompRespectsCapacity: a complimentary seat is a seat.
func TestCompRespectsCapacity(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		env := membersEnv()
		env["TRIBE_CAPACITY"] = "1"
		m := newTestSite(t, db, env)
		admin := m.user(membersAdminEmail)
		sub := m.user("sub@example.com")
		m.subscribe(sub, "active")
		ada := m.user("ada@example.com")
		r := m.call(admin, "PUT", "/api/admin/members/"+ada.id+"/complimentary", map[string]any{"until": nil})
		if r.status != 409 || r.errCode() != "at_capacity" {
			t.Fatalf("comp when full: %d %s", r.status, r.body)
		}
	})
}

// TestRejectedWebhookIsCountedAsRejected: an event billing refuses (Ada's
// subscription naming Bob's Stripe customer) is recorded as rejected and
// answered 200 so Stripe stops retrying it, but /metrics counted it as
// applied, hiding the refusal from whoever watches the dashboard. It is
// counted as rejected, and its redelivery as a duplicate.
func TestRejectedWebhookIsCountedAsRejected(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		m := newTestSite(t, db, billingEnv(fake.URL))
		ada, bob := m.user("ada@example.com"), m.user("bob@example.com")
		for _, body := range [][]byte{
			subscriptionEvent("evt_ada", "customer.subscription.created", "sub_ada", "cus_ada", ada.id, "active", false),
			subscriptionEvent("evt_bob", "customer.subscription.created", "sub_bob", "cus_bob", bob.id, "active", false),
		} {
			if r := m.signed(body); r.status != 200 {
				t.Fatalf("subscription: %d %s", r.status, r.body)
			}
		}
		forged := subscriptionEvent("evt_forged", "customer.subscription.updated", "sub_ada", "cus_bob", ada.id, "canceled", false)
		for range 2 {
			if r := m.signed(forged); r.status != 200 {
				t.Fatalf("rejected event: %d %s", r.status, r.body)
			}
		}
		if status, _ := m.subscriptionStatus(ada); status != "active" {
			t.Fatalf("the rejected event changed Ada's subscription: %q", status)
		}
		metrics := m.call(testUser{}, "GET", "/metrics", nil).body
		for _, want := range []string{
			`tribe_webhook_events_total{outcome="applied",type="customer.subscription.created"} 2`,
			`tribe_webhook_events_total{outcome="rejected",type="customer.subscription.updated"} 1`,
			`tribe_webhook_events_total{outcome="duplicate",type="customer.subscription.updated"} 1`,
		} {
			if !strings.Contains(metrics, want) {
				t.Errorf("metrics lack %s", want)
			}
		}
		if strings.Contains(metrics, `tribe_webhook_events_total{outcome="applied",type="customer.subscription.updated"}`) {
			t.Error("the rejected event is counted as applied")
		}
	})
}
