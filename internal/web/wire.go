package web

import (
	"time"

	"tribe/internal/agent"
	"tribe/internal/billing"
	"tribe/internal/community"
	"tribe/internal/kb"
	"tribe/internal/levels"
)

// This file holds the JSON objects this package's handlers read and write
// that are not a domain package's own (docs/api.md is their contract).
// `make types` turns them into web/src/lib/api-types/web.ts (tygo.yaml), so
// what is declared here is what the web app compiles against: a pointer the
// server always writes says `tstype:"T | null,required"`, and a field it may
// leave out says omitempty.

// User is the user object of docs/api.md ("Accounts and sessions").
type User struct {
	ID             string `json:"id"`
	Email          string `json:"email"`
	EmailConfirmed bool   `json:"email_confirmed"`
	FullName       string `json:"full_name"`
	// AvatarURL is the path of the member's picture under /avatars/.
	AvatarURL *string `json:"avatar_url" tstype:"string | null,required"`
	IsAdmin   bool    `json:"is_admin"`
	// NameUnverified: the profile name predates the proof of the address
	// (docs/api.md, "Proving the address").
	NameUnverified bool   `json:"name_unverified"`
	CreatedAt      string `json:"created_at"`
	// Subscription is nil for a free member.
	Subscription *UserSubscription `json:"subscription" tstype:"UserSubscription | null,required"`
}

// UserSubscription is the paid-membership part of a user: billing's
// Subscription with its end written like the other times of the user.
type UserSubscription struct {
	Status           string  `json:"status" tstype:"billing.Status"`
	CurrentPeriodEnd *string `json:"current_period_end" tstype:"string | null,required"`
	// CancelAtPeriodEnd: the membership ends at CurrentPeriodEnd instead of
	// renewing.
	CancelAtPeriodEnd bool `json:"cancel_at_period_end"`
	// Complimentary: given by an admin, never charged; CurrentPeriodEnd is
	// its end, or null for no end.
	Complimentary bool `json:"complimentary"`
	// HasSubscriptionID: a Stripe subscription is linked (after Checkout
	// the page waits for an active status with one).
	HasSubscriptionID bool `json:"has_subscription_id"`
}

// SessionBody answers GET /api/auth/session: the signed-in user, or null.
type SessionBody struct {
	User *User `json:"user" tstype:"User | null,required"`
}

// UserBody answers sign-up, sign-in and password reset: the user the
// answer signed in.
type UserBody struct {
	User *User `json:"user" tstype:"User,required"`
}

// MessageBody answers what only carries a sentence for a person (password
// forgotten, confirmation resent).
type MessageBody struct {
	Message string `json:"message"`
}

// WaitlistJoined answers POST /api/waitlist: "added" (201) for a new entry,
// "already" (200) for a known address.
type WaitlistJoined struct {
	Status  string `json:"status" tstype:"'added' | 'already'"`
	Message string `json:"message"`
}

// WaitlistEntry is one person on the wait list, as admins see them.
type WaitlistEntry struct {
	ID        string `json:"id"`
	FullName  string `json:"full_name"`
	Email     string `json:"email"`
	CreatedAt string `json:"created_at"`
}

// WaitlistEntries answers GET /api/admin/waitlist, newest first.
type WaitlistEntries struct {
	Entries []WaitlistEntry `json:"entries"`
}

// MembersOverview is the dashboard's summary of GET /api/members/overview.
type MembersOverview struct {
	Subscription *billing.Subscription `json:"subscription" tstype:"billing.Subscription | null,required"`
	IsSubscriber bool                  `json:"is_subscriber"`
	IsAdmin      bool                  `json:"is_admin"`
	Tribe        billing.TribeStatus   `json:"tribe"`
	// GroupChatURL is the invitation, only for those who may see paid
	// content, when the site has one.
	GroupChatURL *string `json:"group_chat_url" tstype:"string | null,required"`
}

// ProfileBody answers GET and PUT /api/profile and the avatar's changes.
type ProfileBody struct {
	Profile *community.Profile `json:"profile" tstype:"community.Profile,required"`
}

// CohortBody answers a cohort's creation, edit or joining.
type CohortBody struct {
	Cohort *community.Cohort `json:"cohort" tstype:"community.Cohort,required"`
}

// CohortList is the answer of GET /api/cohorts.
type CohortList struct {
	Cohorts    []community.Cohort `json:"cohorts"`
	MyCohortID *string            `json:"my_cohort_id" tstype:"string | null,required"`
}

// SessionList is the answer of GET /api/sessions.
type SessionList struct {
	Sessions []community.SessionView `json:"sessions"`
	CanJoin  bool                    `json:"can_join"`
}

// SessionReply answers GET /api/sessions/{id} and an admin's change of a
// session.
type SessionReply struct {
	Session community.SessionView `json:"session"`
}

// FeedStatus is the answer of GET /api/calendar/feed.
type FeedStatus struct {
	Exists    bool       `json:"exists"`
	CreatedAt *time.Time `json:"created_at" tstype:"string | null,required"`
}

// FeedCreated is the answer of POST /api/calendar/feed: the secret URL, shown once.
type FeedCreated struct {
	URL       string    `json:"url"`
	CreatedAt time.Time `json:"created_at"`
}

// CheckoutRequest is the body of POST /api/billing/checkout.
type CheckoutRequest struct {
	// RedirectTo names the page Stripe returns to: "members" (the default).
	RedirectTo string `json:"redirect_to"`
	// Plan is "monthly" (the default) or "annual" (when
	// STRIPE_PRICE_ID_ANNUAL is set).
	Plan string `json:"plan,omitempty"`
}

// URLReply answers checkout and portal: where to send the browser.
type URLReply struct {
	URL string `json:"url"`
}

// SubscriptionReply answers POST /api/billing/refresh: the subscription as
// it now stands, null for a free member.
type SubscriptionReply struct {
	Subscription *billing.Subscription `json:"subscription" tstype:"billing.Subscription | null,required"`
}

// AdminMemberList answers GET /api/admin/members: every account, oldest
// first.
type AdminMemberList struct {
	Members []billing.Member `json:"members"`
}

// AdminMemberReply answers PUT /api/admin/members/{id}/complimentary.
type AdminMemberReply struct {
	Member billing.Member `json:"member"`
}

// CompRequest is the body of PUT /api/admin/members/{id}/complimentary.
type CompRequest struct {
	// Until is the last day of the membership (UTC), YYYY-MM-DD; null or
	// absent for no end.
	Until *string `json:"until" tstype:"string | null"`
}

// SearchRequest is the body of POST /api/search.
type SearchRequest struct {
	Query string `json:"query"`
	// Limit is at most kb.MaxResults; 0 or absent asks for kb.DefaultResults.
	Limit int `json:"limit"`
}

// DocumentBody answers a document's creation or edit.
type DocumentBody struct {
	Document kb.Document `json:"document"`
}

// AIChatRequest is the body of POST /api/ai/chat.
type AIChatRequest struct {
	Messages []agent.ChatMessage `json:"messages"`
	// Purpose "goal" asks for a step-by-step plan (the goal planner);
	// left out, the last message is answered.
	Purpose string `json:"purpose,omitempty" tstype:"'goal'"`
}

// PageConfig is what the pages need to know about this server's settings,
// embedded in every page as #tribe-config when any is set.
type PageConfig struct {
	// GoalWidgetURL is TRIBE_GOAL_WIDGET_URL: the goal page and dialog load
	// this script instead of the built-in planner.
	GoalWidgetURL string `json:"goal_widget_url,omitempty"`
}

// AwardList is the answer of GET /api/admin/awards and GET /api/members/me/awards.
type AwardList struct {
	Awards []levels.Award `json:"awards"`
}

// AwardReply is the answer of the calls that make or change one award.
type AwardReply struct {
	Award *levels.Award `json:"award" tstype:"levels.Award,required"`
}

// ProjectList is the answer of GET /api/projects.
type ProjectList struct {
	Projects []community.Project `json:"projects"`
	// CanPost says the caller may share, react and comment (subscribers
	// and admins); free members read the board.
	CanPost bool `json:"can_post"`
}

// ProjectReply is the answer of the calls that make or change one project.
type ProjectReply struct {
	Project *community.Project `json:"project" tstype:"community.Project,required"`
}

// CommentList is the answer of GET /api/projects/{id}/comments.
type CommentList struct {
	Comments []community.Comment `json:"comments"`
}

// CommentReply is the answer of POST /api/projects/{id}/comments.
type CommentReply struct {
	Comment *community.Comment `json:"comment" tstype:"community.Comment,required"`
}

// DirectoryList is the answer of GET /api/members/directory.
type DirectoryList struct {
	Members []community.DirectoryEntry `json:"members"`
}
