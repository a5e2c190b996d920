// Package metrics keeps the site's Prometheus metrics in a private registry:
// HTTP requests by route pattern and status with latency histograms, the
// database pools, the mail outbox, open live-update streams, payment webhook
// events and AI requests and tokens. Callers record through its methods, so
// no other package imports the Prometheus client.
package metrics

import (
	"context"
	"maps"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"tribe/internal/mail"
	"tribe/internal/store"
)

// Metrics is the site's set of metrics and the registry that serves them.
type Metrics struct {
	registry *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	webhooks *prometheus.CounterVec
	aiReqs   *prometheus.CounterVec
	aiTokens *prometheus.CounterVec

	// series holds each (route, method, status)'s counter and histogram
	// once resolved: resolving labels hashes and checks every value, which
	// every request would otherwise pay. The map is replaced, never
	// changed, when a series is added (seriesMu serialises that), so a
	// request reads it without a lock: series are few and added early,
	// and a typed map is a third of what a sync.Map lookup cost.
	series   atomic.Pointer[map[seriesKey]*requestSeries]
	seriesMu sync.Mutex
}

type seriesKey struct {
	route, method string
	status        int
	untimed       bool
}

type requestSeries struct {
	count   prometheus.Counter
	latency prometheus.Observer // nil for untimed requests (Request)
}

// Sources are the live values read at scrape time.
type Sources struct {
	DB *store.DB
	// OpenStreams is the number of open live-update streams.
	OpenStreams func() int
	// OpenHolds counts the bookings held for payment now: a pile of them
	// is someone holding the owner's times without paying.
	OpenHolds func(ctx context.Context) (int, error)
}

// New builds the metrics and registers the collectors that read src.
func New(src Sources) *Metrics {
	m := &Metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tribe_http_requests_total", Help: "HTTP requests by route pattern, method and status.",
		}, []string{"route", "method", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "tribe_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by route pattern (streams and the web app's pages and files excluded).",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
		}, []string{"route"}),
		webhooks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tribe_webhook_events_total", Help: "Payment webhook events by type and outcome (applied, ignored, duplicate, rejected, failed).",
		}, []string{"type", "outcome"}),
		aiReqs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tribe_ai_requests_total", Help: "AI chat requests by provider (model or offline) and outcome.",
		}, []string{"provider", "outcome"}),
		aiTokens: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tribe_ai_tokens_total", Help: "AI tokens by kind (prompt or completion).",
		}, []string{"kind"}),
	}
	m.series.Store(&map[seriesKey]*requestSeries{})
	m.registry.MustRegister(m.requests, m.latency, m.webhooks, m.aiReqs, m.aiTokens,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if src.DB != nil {
		m.registry.MustRegister(collectors.NewDBStatsCollector(src.DB.Write, "write"))
		if src.DB.Read != src.DB.Write {
			m.registry.MustRegister(collectors.NewDBStatsCollector(src.DB.Read, "read"))
		}
		m.registry.MustRegister(&outboxCollector{db: src.DB})
	}
	if src.OpenStreams != nil {
		m.registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "tribe_live_update_streams", Help: "Open live-update streams in this process.",
		}, func() float64 { return float64(src.OpenStreams()) }))
	}
	if src.OpenHolds != nil {
		m.registry.MustRegister(&holdsCollector{count: src.OpenHolds})
	}
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}

// Request records one answered request. route is the matched pattern
// ("GET /api/cohorts/{id}"), never the raw path, so labels stay few. An
// untimed request is counted and kept out of the latency histogram: a
// stream, whose life is not a latency, or a file served from memory, whose
// microseconds would only hide the slow answers in the quantiles.
func (m *Metrics) Request(route, method string, status int, took time.Duration, untimed bool) {
	key := seriesKey{route: route, method: knownMethod(method), status: status, untimed: untimed}
	s := (*m.series.Load())[key]
	if s == nil {
		s = m.addSeries(key)
	}
	s.count.Inc()
	if s.latency != nil {
		s.latency.Observe(took.Seconds())
	}
}

// addSeries resolves key's counter and histogram and publishes them in a
// new copy of the series map.
func (m *Metrics) addSeries(key seriesKey) *requestSeries {
	m.seriesMu.Lock()
	defer m.seriesMu.Unlock()
	old := *m.series.Load()
	if s := old[key]; s != nil {
		return s
	}
	label := key.route
	if label == "" {
		label = "unmatched"
	}
	s := &requestSeries{count: m.requests.WithLabelValues(label, key.method, strconv.Itoa(key.status))}
	if !key.untimed {
		s.latency = m.latency.WithLabelValues(label)
	}
	next := make(map[seriesKey]*requestSeries, len(old)+1)
	maps.Copy(next, old)
	next[key] = s
	m.series.Store(&next)
	return s
}

// knownMethod is method when it is one of HTTP's own, else "OTHER": a
// client may send any word as a method, and each would be a new series.
func knownMethod(method string) string {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return method
	}
	return "OTHER"
}

// WebhookEvent records one payment webhook event and what came of it.
func (m *Metrics) WebhookEvent(eventType, outcome string) {
	m.webhooks.WithLabelValues(eventType, outcome).Inc()
}

// AIRequest records one AI chat request and its token use.
func (m *Metrics) AIRequest(provider, outcome string, promptTokens, completionTokens int) {
	m.aiReqs.WithLabelValues(provider, outcome).Inc()
	m.aiTokens.WithLabelValues("prompt").Add(float64(promptTokens))
	m.aiTokens.WithLabelValues("completion").Add(float64(completionTokens))
}

// outboxCollector reports the mail outbox by status at scrape time.
type outboxCollector struct{ db *store.DB }

var outboxDesc = prometheus.NewDesc("tribe_mail_outbox_messages",
	"Messages in the mail outbox by status (pending and sending are the queue; failed gave up).", []string{"status"}, nil)

func (c *outboxCollector) Describe(ch chan<- *prometheus.Desc) { ch <- outboxDesc }

func (c *outboxCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	counts, err := mail.CountByStatus(ctx, c.db)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(outboxDesc, err)
		return
	}
	for _, status := range []string{"pending", "sending", "sent", "failed"} {
		ch <- prometheus.MustNewConstMetric(outboxDesc, prometheus.GaugeValue, float64(counts[status]), status)
	}
}

// holdsCollector reports the bookings waiting for payment at scrape time.
type holdsCollector struct {
	count func(ctx context.Context) (int, error)
}

var holdsDesc = prometheus.NewDesc("tribe_booking_open_holds",
	"Bookings held for payment now (many at once: someone holding times without paying).", nil, nil)

func (c *holdsCollector) Describe(ch chan<- *prometheus.Desc) { ch <- holdsDesc }

func (c *holdsCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	n, err := c.count(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(holdsDesc, err)
		return
	}
	ch <- prometheus.MustNewConstMetric(holdsDesc, prometheus.GaugeValue, float64(n))
}
