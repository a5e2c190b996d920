package forum

import "time"

// The JSON objects of the community (docs/api.md, "Community"), read by
// tygo.yaml: only JSON types here.

// Author is who wrote a thread or a reply.
type Author struct {
	ID        string  `json:"id"`
	FullName  string  `json:"full_name"`
	AvatarURL *string `json:"avatar_url" tstype:"string | null,required"`
	// Level is the member's level, computed when read.
	Level string `json:"level"`
}

// Thread is one thread as the caller sees it in the list.
type Thread struct {
	ID       string `json:"id"`
	Category string `json:"category"`
	Title    string `json:"title"`
	// Excerpt is the start of the body as plain text.
	Excerpt        string    `json:"excerpt"`
	Author         Author    `json:"author"`
	CreatedAt      time.Time `json:"created_at"`
	LastActivityAt time.Time `json:"last_activity_at"`
	// ReplyCount counts the replies everyone sees (hidden ones aside).
	ReplyCount int `json:"reply_count"`
	// Reactions is how many members gave it a "🔥"; Reacted says the caller did.
	Reactions       int     `json:"reactions"`
	Reacted         bool    `json:"reacted"`
	Pinned          bool    `json:"pinned"`
	AcceptedReplyID *string `json:"accepted_reply_id" tstype:"string | null,required"`
	// Hidden says an admin hid it; only its author and admins see it then.
	Hidden bool `json:"hidden"`
	// HiddenReason is the admin's reason, sent to the author and admins
	// only; null otherwise.
	HiddenReason *string `json:"hidden_reason" tstype:"string | null,required"`
	// Mine says the caller wrote it (and may edit or delete it).
	Mine bool `json:"mine"`
}

// ThreadDetail is one thread with its body and replies.
type ThreadDetail struct {
	Thread   `tstype:",extends"`
	Body     string     `json:"body"`
	EditedAt *time.Time `json:"edited_at" tstype:"string | null,required"`
	// Muted says the caller muted the thread.
	Muted bool `json:"muted"`
	// CanReply says the caller may reply and react.
	CanReply bool `json:"can_reply"`
	// CanAccept says the caller may choose the accepted answer.
	CanAccept bool    `json:"can_accept"`
	Replies   []Reply `json:"replies"`
}

// Reply is one reply to a thread.
type Reply struct {
	ID        string     `json:"id"`
	ThreadID  string     `json:"thread_id"`
	Author    Author     `json:"author"`
	Body      string     `json:"body"`
	CreatedAt time.Time  `json:"created_at"`
	EditedAt  *time.Time `json:"edited_at" tstype:"string | null,required"`
	Reactions int        `json:"reactions"`
	Reacted   bool       `json:"reacted"`
	Accepted  bool       `json:"accepted"`
	Mine      bool       `json:"mine"`
	Hidden    bool       `json:"hidden"`
	// HiddenReason is sent to the reply's author and admins only.
	HiddenReason *string `json:"hidden_reason" tstype:"string | null,required"`
}

// ThreadList answers GET /api/community/threads.
type ThreadList struct {
	Threads []Thread `json:"threads"`
	// NextCursor asks for the next page; null on the last one (and for a
	// search, which answers its best matches at once).
	NextCursor *string `json:"next_cursor" tstype:"string | null,required"`
	// CanPost says the caller may start threads; false for free members.
	CanPost bool `json:"can_post"`
	// CanAnnounce says the caller may post announcements (admins).
	CanAnnounce bool `json:"can_announce"`
}

// ThreadEnvelope is the answer carrying one thread.
type ThreadEnvelope struct {
	Thread *ThreadDetail `json:"thread" tstype:"ThreadDetail,required"` // never nil when written
}

// ReplyEnvelope is the answer carrying one reply.
type ReplyEnvelope struct {
	Reply *Reply `json:"reply" tstype:"Reply,required"` // never nil when written
}

// ThreadInput is what POST /api/community/threads takes.
type ThreadInput struct {
	Category string `json:"category"`
	Title    string `json:"title"`
	Body     string `json:"body"`
}

// ThreadPatch is what PATCH /api/community/threads/{id} takes: a nil
// field keeps its value.
type ThreadPatch struct {
	Category *string `json:"category" tstype:"string | null"`
	Title    *string `json:"title" tstype:"string | null"`
	Body     *string `json:"body" tstype:"string | null"`
}

// ReplyInput is what POST /api/community/threads/{id}/replies and PATCH
// /api/community/replies/{id} take.
type ReplyInput struct {
	Body string `json:"body"`
}

// AcceptInput is what PUT /api/community/threads/{id}/accepted takes: a
// null reply_id takes the accepted answer back.
type AcceptInput struct {
	ReplyID *string `json:"reply_id" tstype:"string | null"`
}

// MuteInput is what PUT /api/community/threads/{id}/mute takes, and its answer.
type MuteInput struct {
	Muted bool `json:"muted"`
}

// ReportInput is what POST /api/community/reports takes: a thread or a reply.
type ReportInput struct {
	ThreadID string `json:"thread_id"`
	ReplyID  string `json:"reply_id"`
	Reason   string `json:"reason"`
}

// Moderation is what PUT /api/admin/community/threads/{id} (and
// …/replies/{id}, without pinned) takes: hiding needs a reason, which the
// author reads.
type Moderation struct {
	Pinned *bool   `json:"pinned" tstype:"boolean | null"`
	Hidden *bool   `json:"hidden" tstype:"boolean | null"`
	Reason *string `json:"reason" tstype:"string | null"`
}

// Report is one open report, as admins read it.
type Report struct {
	ID          string  `json:"id"`
	ThreadID    string  `json:"thread_id"`
	ReplyID     *string `json:"reply_id" tstype:"string | null,required"`
	ThreadTitle string  `json:"thread_title"`
	// Excerpt is the start of the reported post.
	Excerpt      string    `json:"excerpt"`
	Reason       string    `json:"reason"`
	ReporterName string    `json:"reporter_name"`
	CreatedAt    time.Time `json:"created_at"`
	// Hidden says the reported post is hidden already.
	Hidden bool `json:"hidden"`
	// Link opens the post in the members area.
	Link string `json:"link"`
}

// ReportList answers GET /api/admin/community/reports.
type ReportList struct {
	Reports []Report `json:"reports"`
}
