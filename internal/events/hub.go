package events

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"tribe/internal/clock"
	"tribe/internal/store"
)

// Channel is the PostgreSQL notification channel every instance listens on.
const Channel = "tribe_events"

// readyWait bounds how long a new stream waits for the PostgreSQL listener to
// be in place. Past it the stream starts anyway: local notices still arrive,
// and the listener sends a full refresh once it connects.
const readyWait = 5 * time.Second

// MaxStreamsPerUser bounds one user's open streams in one process, so a
// single account cannot hold an unbounded number of connections.
const MaxStreamsPerUser = 16

// Errors returned by Subscribe.
var (
	ErrClosed  = errors.New("live updates are shut down")
	ErrTooMany = errors.New("too many live-update streams for this user")
)

// Known reports whether topic is one of the topics browsers are told about.
// Only known topics travel: a topic becomes an SSE event name, so nothing
// else may reach the stream.
func Known(topic string) bool {
	switch topic {
	case TopicCohorts, TopicSessions, TopicSubscription, TopicProfile, TopicTribe, TopicBooking, TopicProgress, TopicProjects, TopicCommunity, TopicNotifications:
		return true
	}
	return false
}

// serverTopic reports whether topic travels between servers only: it is
// published and delivered to watchers, never to browser streams.
func serverTopic(topic string) bool { return topic == TopicKB }

// allTopics is what a subscriber is told after notices may have been missed.
var allTopics = []string{TopicCohorts, TopicSessions, TopicSubscription, TopicProfile, TopicTribe, TopicBooking, TopicProgress, TopicProjects, TopicCommunity, TopicNotifications}

// Hub fans change notices out to the open browser streams of this process
// and, on PostgreSQL, through LISTEN/NOTIFY to those of every other instance
// on the same database. Publishing never blocks on a slow stream.
//
// The PostgreSQL listener runs only while this process has at least one
// subscriber: a process with no open stream has nobody to deliver to, and
// building a handler (as every test does) costs no connection.
type Hub struct {
	db       *store.DB
	logger   *slog.Logger
	instance string // tags our own notifications so the listener skips them

	mu        sync.Mutex
	subs      map[*Subscription]struct{}
	perUser   map[string]int
	closed    bool
	listener  *listener // nil while nobody is subscribed or on SQLite
	listeners sync.WaitGroup

	now        clock.Clock // presence expiry (presence.go)
	presenceMu sync.Mutex  // one presence write at a time, each reading the count as it runs
}

// New returns a hub for db. On SQLite (one instance by design) notices stay in
// the process; on PostgreSQL they also go through the database.
func New(db *store.DB, logger *slog.Logger, opts ...Option) *Hub {
	h := &Hub{
		db:       db,
		logger:   logger,
		instance: store.NewID(),
		subs:     make(map[*Subscription]struct{}),
		perUser:  make(map[string]int),
		now:      time.Now,
	}
	for _, o := range opts {
		o(h)
	}
	return h
}

func (h *Hub) bridged() bool { return h.db != nil && h.db.Dialect == store.Postgres }

// Publish delivers e to this process's subscribers at once and, on
// PostgreSQL, notifies the other instances. The local delivery happens even
// when the database refuses the notification.
func (h *Hub) Publish(ctx context.Context, e Event) error {
	if !Known(e.Topic) && !serverTopic(e.Topic) {
		return fmt.Errorf("publish live update: unknown topic %q", e.Topic)
	}
	h.deliver(e)
	if !h.bridged() {
		return nil
	}
	// current_schema() keeps deployments (and test runs) that share one
	// database under different schemas from hearing each other.
	const q = `SELECT pg_notify($1, json_build_object(
		'topic', $2::text, 'user', $3::text, 'from', $4::text, 'ns', current_schema())::text)`
	if _, err := h.db.Write.ExecContext(ctx, q, Channel, e.Topic, e.UserID, h.instance); err != nil {
		return fmt.Errorf("publish live update %q to other instances: %w", e.Topic, err)
	}
	return nil
}

// deliver offers e to every subscriber allowed to see it.
func (h *Hub) deliver(e Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs {
		if s.wants(e.Topic) && (e.UserID == "" || e.UserID == s.userID) {
			s.offer(e.Topic)
		}
	}
}

// resync tells every subscriber that anything may have changed, after a
// period in which notices from other instances could not arrive.
func (h *Hub) resync() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs {
		topics := allTopics
		if s.topics != nil {
			topics = s.topics
		}
		for _, t := range topics {
			s.offer(t)
		}
	}
}

// Subscribe opens a subscription for userID's stream. On PostgreSQL it waits
// (briefly) until the listener is in place, so that a stream that reports
// itself ready does not miss notices from other instances.
func (h *Hub) Subscribe(ctx context.Context, userID string) (*Subscription, error) {
	return h.subscribe(ctx, userID, nil)
}

// Watch opens a subscription of this server itself to the given server
// topics (TopicKB), delivered from this process and, on PostgreSQL, from
// every other instance. It keeps the listener running while it is open and
// is told every topic again after the listener lost its connection.
func (h *Hub) Watch(ctx context.Context, topics ...string) (*Subscription, error) {
	for _, t := range topics {
		if !serverTopic(t) {
			return nil, fmt.Errorf("watch live updates: %q is not a server topic", t)
		}
	}
	return h.subscribe(ctx, "", slices.Clone(topics))
}

// subscribe opens a browser stream's subscription (topics nil) or a
// server's watch (topics set).
func (h *Hub) subscribe(ctx context.Context, userID string, topics []string) (*Subscription, error) {
	s := &Subscription{
		hub:    h,
		userID: userID,
		topics: topics,
		wake:   make(chan struct{}, 1),
		done:   make(chan struct{}),
	}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil, ErrClosed
	}
	if topics == nil && h.perUser[userID] >= MaxStreamsPerUser {
		h.mu.Unlock()
		return nil, ErrTooMany
	}
	h.subs[s] = struct{}{}
	first := false
	if topics == nil {
		h.perUser[userID]++
		first = h.perUser[userID] == 1
	}
	var ready <-chan struct{}
	if h.bridged() {
		if h.listener == nil {
			h.listener = h.startListener()
		}
		ready = h.listener.ready
	}
	h.mu.Unlock()

	if first {
		if err := h.syncPresence(ctx, userID); err != nil {
			// The stream works without it; this member may get a push
			// their open tab already shows until the next heartbeat.
			h.logger.Warn("live presence not recorded", "err", err)
		}
	}
	if ready == nil {
		return s, nil
	}
	t := time.NewTimer(readyWait)
	defer t.Stop()
	select {
	case <-ready:
	case <-t.C:
		h.logger.Warn("live updates: the database listener is not ready yet; starting the stream without it")
	case <-ctx.Done():
		s.Close()
		return nil, fmt.Errorf("subscribe to live updates: %w", ctx.Err())
	case <-s.done:
		return nil, ErrClosed
	}
	return s, nil
}

// remove drops s and stops the listener when s was the last subscriber;
// the member's presence here goes with their last stream.
func (h *Hub) remove(s *Subscription) {
	h.mu.Lock()
	if _, ok := h.subs[s]; !ok {
		h.mu.Unlock()
		return
	}
	delete(h.subs, s)
	last := false
	if s.topics == nil {
		if h.perUser[s.userID]--; h.perUser[s.userID] <= 0 {
			delete(h.perUser, s.userID)
			last = !h.closed // a closing hub forgets all its rows at once
		}
	}
	if len(h.subs) == 0 && h.listener != nil {
		h.listener.stop()
		h.listener = nil
	}
	h.mu.Unlock()
	if last {
		h.streamEnded(s.userID)
	}
}

// Close ends every subscription and the listener, and refuses new
// subscriptions. It waits for the listener to let go of its connection.
func (h *Hub) Close() {
	h.mu.Lock()
	h.closed = true
	subs := make([]*Subscription, 0, len(h.subs))
	for s := range h.subs {
		subs = append(subs, s)
	}
	h.mu.Unlock()
	for _, s := range subs {
		s.Close()
	}
	h.forgetInstance()
	h.listeners.Wait()
}

// Subscription is one browser stream's inbox. Pending notices are kept as a
// set of topics, so repeats coalesce and a stream that does not keep up holds
// at most one pending notice per topic instead of a queue that grows or a
// publisher that waits.
type Subscription struct {
	hub    *Hub
	userID string
	topics []string // a server's watch: the server topics it follows; nil for a browser stream

	mu      sync.Mutex
	pending []string      // distinct topics, oldest first
	wake    chan struct{} // one slot: "something is pending"
	done    chan struct{} // closed when the subscription ends
	once    sync.Once
}

// wants reports whether topic is for this subscription: browser streams get
// the browser topics, a watch only what it asked for.
func (s *Subscription) wants(topic string) bool {
	if s.topics == nil {
		return Known(topic)
	}
	return slices.Contains(s.topics, topic)
}

// offer adds topic to the pending set and wakes the reader without waiting.
func (s *Subscription) offer(topic string) {
	s.mu.Lock()
	if !slices.Contains(s.pending, topic) {
		s.pending = append(s.pending, topic)
	}
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default: // a wake-up is already pending; it covers this notice too
	}
}

// Wake is signalled when notices are pending; read them with Take.
func (s *Subscription) Wake() <-chan struct{} { return s.wake }

// Take returns and clears the pending topics, oldest first.
func (s *Subscription) Take() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pending
	s.pending = nil
	return p
}

// Done is closed when the subscription ends (Close, or the hub closing).
func (s *Subscription) Done() <-chan struct{} { return s.done }

// Close ends the subscription. It is safe to call more than once.
func (s *Subscription) Close() {
	s.once.Do(func() {
		close(s.done)
		s.hub.remove(s)
	})
}

// Open is the number of live-update streams open in this process.
func (h *Hub) Open() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}
