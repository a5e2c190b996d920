package agent

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"tribe/internal/access"
	"tribe/internal/booking"
	"tribe/internal/clock"
	"tribe/internal/community"
	"tribe/internal/errs"
	"tribe/internal/forum"
	"tribe/internal/levels"
	"tribe/internal/oauth"
	"tribe/internal/store"
)

// The member tools: what a member's own assistant may do for them over MCP.
const (
	ToolMyNextSessions = "my_next_sessions"
	ToolRSVPSession    = "rsvp_session"
	ToolMyProgress     = "my_progress"
	ToolSearchTribe    = "search_tribe"
	ToolPostQuestion   = "post_question"
	ToolMyBookings     = "my_bookings"
	ToolHoldBooking    = "hold_booking"
)

// Holds is the booking call hold_booking makes; *booking.Service is one.
type Holds interface {
	Reserve(ctx context.Context, in booking.Request) (*booking.Created, error)
	ManageURL(id, token string) string
}

// Account is the member's name and address, which a booking made for them
// carries (auth.Service.User gives them).
type Account func(ctx context.Context, userID string) (name, email string, err error)

// MemberBookings is the booking list the my_bookings tool reads;
// *booking.Service is one.
type MemberBookings interface {
	List(ctx context.Context, f booking.Filter) ([]*booking.Booking, error)
	TypeName(id string) string
	AssistantManageURL(ctx context.Context, id, userID string) (string, error)
}

// MemberDeps is what the member tools read and write. Each tool reads the
// member from the Viewer it is called with, never from its arguments, so
// an assistant can only ever act for the member who connected it.
type MemberDeps struct {
	Site   SiteDeps
	DB     *store.DB
	Levels *levels.Service
	Forum  *forum.Service
	// Bookings, when set, adds my_bookings.
	Bookings MemberBookings
	// Holds and Account, when both set, add hold_booking.
	Holds   Holds
	Account Account
	// Clock is the members area's clock (RSVPs close at the start, the join
	// window opens community.JoinEarly before it).
	Clock clock.Clock
}

// MemberTools returns the tools for a member's assistant. Each needs a
// signed-in member (an access token) and names the scope it needs.
func MemberTools(d MemberDeps) []Tool {
	if d.Clock == nil {
		d.Clock = time.Now
	}
	tools := []Tool{
		{
			Name:  ToolMyNextSessions,
			Title: "My next live sessions",
			Description: "The tribe's upcoming live sessions with the member's RSVP and how many are going. For " +
				"subscribers, the join link once the session opens (15 minutes before the start).",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {
				"limit": {"type": "integer", "minimum": 1, "maximum": 20, "description": "Most sessions to return (default 5)"}
			}, "additionalProperties": false}`),
			ReadOnly: true, Who: Member, Scope: oauth.ScopeRead, Run: d.nextSessions,
		},
		{
			Name:        ToolRSVPSession,
			Title:       "RSVP to a live session",
			Description: "Say whether the member is going to a live session (subscribers only; closes when the session starts).",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {
				"session_id": {"type": "string", "minLength": 1, "maxLength": 100, "description": "The id from my_next_sessions"},
				"going": {"type": "boolean", "description": "true: going; false: not going"}
			}, "required": ["session_id", "going"], "additionalProperties": false}`),
			Who: Member, Scope: oauth.ScopeWrite, Run: d.rsvp,
		},
		{
			Name:        ToolMyProgress,
			Title:       "My progress",
			Description: "The member's level in the tribe, what counts towards it, and what the next level needs.",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {}, "additionalProperties": false}`),
			ReadOnly:    true, Who: Member, Scope: oauth.ScopeRead, Run: d.progress,
		},
		{
			Name:  ToolSearchTribe,
			Title: "Search the tribe",
			Description: "Search the knowledge base (passages with their sources) and the community's threads the " +
				"member can see (with links).",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {
				"query": {"type": "string", "minLength": 1, "maxLength": 200, "description": "What to look for, in words"},
				"limit": {"type": "integer", "minimum": 1, "maximum": 10, "description": "Most results of each kind (default 5)"}
			}, "required": ["query"], "additionalProperties": false}`),
			ReadOnly: true, Who: Member, Scope: oauth.ScopeRead, Run: d.searchTribe,
		},
		{
			Name:  ToolPostQuestion,
			Title: "Post a question to the community",
			Description: "Start a thread in the community's Questions category in the member's name (subscribers " +
				"only). Confirm the title and text with the member first.",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {
				"title": {"type": "string", "minLength": 1, "maxLength": ` + fmt.Sprint(forum.MaxTitle) + `},
				"body": {"type": "string", "minLength": 1, "maxLength": ` + fmt.Sprint(forum.MaxBody) + `}
			}, "required": ["title", "body"], "additionalProperties": false}`),
			Who: Member, Scope: oauth.ScopeWrite, Run: d.postQuestion,
		},
	}
	if d.Bookings != nil {
		tools = append(tools, Tool{
			Name:  ToolMyBookings,
			Title: "My bookings",
			Description: "The calls the member booked on the site while signed in: upcoming ones soonest first, or " +
				"past or cancelled ones. An upcoming one carries manage_url, where the member cancels or moves it in the browser.",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {
				"scope": {"type": "string", "enum": ["upcoming", "past", "cancelled"], "description": "Which bookings (default upcoming)"}
			}, "additionalProperties": false}`),
			ReadOnly: true, Who: Member, Scope: oauth.ScopeRead, Run: d.myBookings,
		})
	}
	if d.Holds != nil && d.Account != nil {
		tools = append(tools, Tool{
			Name:  ToolHoldBooking,
			Title: "Hold a booking",
			Description: "Hold a free time (from find_available_slots) for the member, in their name and address. A " +
				"paid call answers a Checkout link the member opens in the browser to pay before the hold expires: " +
				"you never pay. Confirm the type and time with the member first.",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {
				"type": {"type": "string", "minLength": 1, "maxLength": 64, "description": "The session type id from find_available_slots"},
				"start": {"type": "string", "minLength": 20, "maxLength": 40, "description": "The start exactly as find_available_slots gave it (RFC 3339)"},
				"time_zone": {"type": "string", "minLength": 1, "maxLength": 64, "description": "The member's IANA time zone, for their mails"},
				"notes": {"type": "string", "maxLength": 2000, "description": "What the member wants to talk about"}
			}, "required": ["type", "start", "time_zone"], "additionalProperties": false}`),
			Who: Member, Scope: oauth.ScopeWrite, Run: d.holdBooking,
		})
	}
	return tools
}

// HoldOutput answers hold_booking.
type HoldOutput struct {
	BookingID   string     `json:"booking_id"`
	Status      string     `json:"status"`
	Start       time.Time  `json:"start"`
	End         time.Time  `json:"end"`
	Amount      int64      `json:"amount"`
	Currency    string     `json:"currency"`
	ExpiresAt   *time.Time `json:"expires_at,omitempty"`
	CheckoutURL string     `json:"checkout_url,omitempty"`
	ManageURL   string     `json:"manage_url"`
	Next        string     `json:"next"`
}

func (d MemberDeps) holdBooking(ctx context.Context, v access.Viewer, raw json.RawMessage) (any, error) {
	var a struct {
		Type     string `json:"type"`
		Start    string `json:"start"`
		TimeZone string `json:"time_zone"`
		Notes    string `json:"notes"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, fmt.Errorf("decode checked arguments: %w", err)
	}
	name, email, err := d.Account(ctx, v.UserID)
	if err != nil {
		return nil, err
	}
	// A hold key of its own per call: a second call is a second press from
	// another browser (refused while the time is held), never a way to get
	// the first hold's manage token. The per-address limits count the
	// member, since an assistant's address says nothing about them.
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	c, err := d.Holds.Reserve(ctx, booking.Request{Type: a.Type, Start: a.Start, TimeZone: a.TimeZone, Notes: a.Notes,
		Name: name, Email: email, UserID: v.UserID, ClientAddr: "member:" + v.UserID, HoldKey: base64.RawURLEncoding.EncodeToString(key)})
	if err != nil {
		return nil, err
	}
	b := c.Booking
	out := HoldOutput{BookingID: b.ID, Status: b.Status, Start: b.Start, End: b.End, Amount: b.Amount, Currency: b.Currency,
		ExpiresAt: b.ExpiresAt, CheckoutURL: c.CheckoutURL, ManageURL: d.Holds.ManageURL(b.ID, c.Token)}
	switch {
	case c.CheckoutURL != "":
		out.Next = "Give the member checkout_url to pay in their browser before expires_at; the time is theirs once paid."
	case b.Status == booking.StatusConfirmed:
		out.Next = "Booked: the invitation is on its way to " + email + "."
	default:
		out.Next = "Requested: the owner confirms it and arranges payment by e-mail to " + email + "."
	}
	return out, nil
}

// BookingItem is one booking as my_bookings answers it.
type BookingItem struct {
	ID          string    `json:"id"`
	Type        string    `json:"type"`
	TypeName    string    `json:"type_name"`
	Status      string    `json:"status"`
	Start       time.Time `json:"start"`
	End         time.Time `json:"end"`
	TimeZone    string    `json:"time_zone"`
	Amount      int64     `json:"amount"`
	Currency    string    `json:"currency"`
	MeetingLink string    `json:"meeting_link,omitempty"`
	// ManageURL cancels or moves an upcoming booking in the browser.
	ManageURL string `json:"manage_url,omitempty"`
}

func (d MemberDeps) myBookings(ctx context.Context, v access.Viewer, raw json.RawMessage) (any, error) {
	var a struct {
		Scope string `json:"scope"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, fmt.Errorf("decode checked arguments: %w", err)
	}
	// The member is the token's: the filter never comes from the arguments.
	list, err := d.Bookings.List(ctx, booking.Filter{Scope: a.Scope, UserID: v.UserID, Limit: 50})
	if err != nil {
		return nil, err
	}
	out := struct {
		Bookings []BookingItem `json:"bookings"`
	}{Bookings: []BookingItem{}}
	for _, b := range list {
		item := BookingItem{ID: b.ID, Type: b.Type, TypeName: d.Bookings.TypeName(b.Type), Status: b.Status, Start: b.Start,
			End: b.End, TimeZone: b.TimeZone, Amount: b.Amount, Currency: b.Currency}
		if b.Status == "confirmed" {
			item.MeetingLink = b.MeetingLink
		}
		// A link to cancel or move it, for the member to open: only while
		// there is something to change.
		if (b.Status == "confirmed" || b.Status == "requested" || b.Status == "held") && b.Start.After(d.Clock()) {
			if item.ManageURL, err = d.Bookings.AssistantManageURL(ctx, b.ID, v.UserID); err != nil {
				return nil, err
			}
		}
		out.Bookings = append(out.Bookings, item)
	}
	return out, nil
}

// SessionItem is one session as my_next_sessions answers it.
type SessionItem struct {
	ID        string    `json:"id"`
	Title     string    `json:"title"`
	StartsAt  time.Time `json:"starts_at"`
	EndsAt    time.Time `json:"ends_at"`
	Timezone  string    `json:"timezone"`
	State     string    `json:"state"`
	Status    string    `json:"status"`
	Going     int       `json:"going_count"`
	MyRSVP    *bool     `json:"my_rsvp"`
	CanRSVP   bool      `json:"can_rsvp"`
	JoinURL   string    `json:"join_url,omitempty"`
	JoinOpens time.Time `json:"join_opens_at"`
}

// NextSessionsOutput answers my_next_sessions.
type NextSessionsOutput struct {
	Sessions []SessionItem `json:"sessions"`
	Note     string        `json:"note,omitempty"`
}

func (d MemberDeps) nextSessions(ctx context.Context, v access.Viewer, raw json.RawMessage) (any, error) {
	var a struct {
		Limit int `json:"limit"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, fmt.Errorf("decode checked arguments: %w", err)
	}
	if a.Limit == 0 {
		a.Limit = 5
	}
	now := d.Clock()
	views, err := community.ListSessions(ctx, d.DB, v, now)
	if err != nil {
		return nil, err
	}
	out := NextSessionsOutput{Sessions: []SessionItem{}}
	for _, s := range views {
		if !s.Upcoming || s.Status == "cancelled" || len(out.Sessions) >= a.Limit {
			continue
		}
		item := SessionItem{ID: s.ID, Title: s.Title, StartsAt: s.StartsAt, EndsAt: s.EndsAt, Timezone: s.Timezone,
			State: s.State, Status: s.Status, Going: s.Going, MyRSVP: s.MyRSVP, JoinOpens: s.StartsAt.Add(-community.JoinEarly),
			CanRSVP: v.SeesPaidContent() && now.Before(s.StartsAt)}
		// The join link only while it can be used, and only for those the
		// membership lets in; the site's link records attendance.
		if v.SeesPaidContent() && !now.Before(item.JoinOpens) && now.Before(s.EndsAt) {
			item.JoinURL = community.JoinLink(d.Site.BaseURL, s.ID)
		}
		out.Sessions = append(out.Sessions, item)
	}
	if !v.SeesPaidContent() {
		out.Note = "Live sessions are for tribe members: this member can see them but not RSVP or join until they subscribe."
	}
	return out, nil
}

func (d MemberDeps) rsvp(ctx context.Context, v access.Viewer, raw json.RawMessage) (any, error) {
	var a struct {
		SessionID string `json:"session_id"`
		Going     bool   `json:"going"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, fmt.Errorf("decode checked arguments: %w", err)
	}
	now := d.Clock()
	if err := community.SetRSVP(ctx, d.DB, v, a.SessionID, community.RSVPInput{Going: &a.Going}, now); err != nil {
		return nil, err
	}
	s, err := community.GetSession(ctx, d.DB, v, a.SessionID, now)
	if err != nil {
		return nil, err
	}
	return map[string]any{"session_id": s.ID, "title": s.Title, "starts_at": s.StartsAt, "my_rsvp": s.MyRSVP, "going_count": s.Going}, nil
}

func (d MemberDeps) progress(ctx context.Context, v access.Viewer, _ json.RawMessage) (any, error) {
	return d.Levels.ProgressOf(ctx, v.UserID)
}

// ThreadItem is one community thread search_tribe found.
type ThreadItem struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	Category string `json:"category"`
	Excerpt  string `json:"excerpt"`
	Replies  int    `json:"reply_count"`
	Link     string `json:"link"`
}

// SearchTribeOutput answers search_tribe.
type SearchTribeOutput struct {
	Knowledge SearchOutput `json:"knowledge"`
	Threads   []ThreadItem `json:"threads"`
}

func (d MemberDeps) searchTribe(ctx context.Context, v access.Viewer, raw json.RawMessage) (any, error) {
	var a struct {
		Query string `json:"query"`
		Limit int    `json:"limit"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, fmt.Errorf("decode checked arguments: %w", err)
	}
	if a.Limit == 0 {
		a.Limit = 5
	}
	// The knowledge base through the anonymous search tool's own path, so
	// the two rank and record gaps alike.
	args, _ := json.Marshal(searchArgs{Query: a.Query, Limit: a.Limit})
	found, err := d.Site.search(ctx, v, args)
	if err != nil {
		return nil, err
	}
	out := SearchTribeOutput{Knowledge: found.(SearchOutput), Threads: []ThreadItem{}}
	list, err := d.Forum.List(ctx, v, forum.ListQuery{Q: a.Query})
	if err != nil {
		return nil, err
	}
	base := strings.TrimRight(d.Site.BaseURL, "/")
	for _, t := range list.Threads {
		if len(out.Threads) >= a.Limit {
			break
		}
		out.Threads = append(out.Threads, ThreadItem{ID: t.ID, Title: t.Title, Category: t.Category, Excerpt: t.Excerpt,
			Replies: t.ReplyCount, Link: base + "/members/community/" + t.ID})
	}
	return out, nil
}

func (d MemberDeps) postQuestion(ctx context.Context, v access.Viewer, raw json.RawMessage) (any, error) {
	var a struct {
		Title string `json:"title"`
		Body  string `json:"body"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, fmt.Errorf("decode checked arguments: %w", err)
	}
	if !v.SeesPaidContent() {
		return nil, errs.New(errs.Forbidden, "Posting in the community is for tribe members: this member has no subscription.")
	}
	t, err := d.Forum.Create(ctx, v, forum.ThreadInput{Category: forum.CategoryQuestion, Title: a.Title, Body: a.Body})
	if err != nil {
		return nil, err
	}
	return map[string]any{"id": t.ID, "title": t.Title, "category": t.Category,
		"link": strings.TrimRight(d.Site.BaseURL, "/") + "/members/community/" + t.ID}, nil
}
