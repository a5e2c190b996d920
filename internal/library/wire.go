package library

import "time"

// Kinds of item.
const (
	KindRecording = "recording"
	KindMaterial  = "material"
	KindLesson    = "lesson"
	KindLink      = "link"
)

// Why an item is locked for a viewer.
const (
	LockMembership = "membership" // free members: subscribe to open it
	LockLevel      = "level"      // the item asks for a higher Tribe Level
)

// Progress is where a member is in an item.
type Progress struct {
	PositionS int  `json:"position_s"`
	Completed bool `json:"completed"`
}

// Chapter is a named point in a recording.
type Chapter struct {
	StartS int    `json:"start_s"`
	Title  string `json:"title"`
}

// Cue is one timed line of a transcript, in seconds.
type Cue struct {
	Start float64 `json:"start"`
	End   float64 `json:"end"`
	Text  string  `json:"text"`
}

// Item is one entry of the library as the list shows it to a viewer. A
// locked item shows what it is, never its media, body or transcript.
type Item struct {
	ID          string   `json:"id"`
	Kind        string   `json:"kind"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	SessionID   *string  `json:"session_id" tstype:"string | null,required"`
	Tags        []string `json:"tags"`
	DurationS   int      `json:"duration_s"`
	MinLevel    int      `json:"min_level"`
	// RequiredLevel names MinLevel's Tribe Level ("" when none).
	RequiredLevel string `json:"required_level"`
	Locked        bool   `json:"locked"`
	// LockReason says why: "membership" or "level" ("" when not locked).
	LockReason    string     `json:"lock_reason"`
	Progress      Progress   `json:"progress"`
	HasTranscript bool       `json:"has_transcript"`
	HasMedia      bool       `json:"has_media"`
	PublishedAt   *time.Time `json:"published_at" tstype:"string | null,required"`
}

// ItemDetail is one item with what a viewer who may open it reads: the
// media address, the link, the lesson's Markdown, chapters and transcript.
type ItemDetail struct {
	Item `tstype:",extends"`
	// MediaURL plays or downloads the item's file (GET, with the same
	// access check); "" when locked or when it has none.
	MediaURL  string `json:"media_url"`
	MediaType string `json:"media_type"`
	MediaSize int64  `json:"media_size"`
	// URL is a link's address; EmbedURL the privacy-enhanced player of a
	// YouTube or Vimeo video ("" for other links).
	URL        string    `json:"url"`
	EmbedURL   string    `json:"embed_url"`
	Body       string    `json:"body"`
	Chapters   []Chapter `json:"chapters"`
	Transcript []Cue     `json:"transcript"`
}

// ItemList answers GET /api/library.
type ItemList struct {
	Items []Item `json:"items"`
}

// ItemEnvelope answers one item.
type ItemEnvelope struct {
	Item ItemDetail `json:"item"`
}

// ItemInput creates an item (POST /api/admin/library) or changes one
// (PATCH: a field left out keeps its value; session_id and published_at
// may be sent as null to clear them).
type ItemInput struct {
	Kind        *string    `json:"kind" tstype:"string"`
	Title       *string    `json:"title" tstype:"string"`
	Description *string    `json:"description" tstype:"string"`
	SessionID   *string    `json:"session_id" tstype:"string | null"`
	Tags        *[]string  `json:"tags" tstype:"string[]"`
	DurationS   *int       `json:"duration_s" tstype:"number"`
	MinLevel    *int       `json:"min_level" tstype:"number"`
	PublishedAt *time.Time `json:"published_at" tstype:"string | null"`
	URL         *string    `json:"url" tstype:"string"`
	Body        *string    `json:"body" tstype:"string"`
	Chapters    *[]Chapter `json:"chapters" tstype:"Chapter[]"`
	// set records which fields the JSON named, so null can clear.
	set map[string]bool
}

// ProgressInput saves a member's place: completed true marks the item
// finished, false unmarks it, absent keeps it (reaching 90 % marks it).
type ProgressInput struct {
	PositionS int   `json:"position_s"`
	Completed *bool `json:"completed" tstype:"boolean | null"`
}

// ProgressEnvelope answers PUT /api/library/{id}/progress.
type ProgressEnvelope struct {
	Progress Progress `json:"progress"`
}

// Stats answers GET /api/admin/library/{id}/stats: how many members
// started and finished the item.
type Stats struct {
	Started  int `json:"started"`
	Finished int `json:"finished"`
}

// MediaInput attaches a finished upload to an item.
type MediaInput struct {
	UploadID string `json:"upload_id"`
}

// UploadInput starts a resumable upload (POST /api/admin/uploads).
type UploadInput struct {
	Filename    string `json:"filename"`
	Size        int64  `json:"size"`
	ContentType string `json:"content_type"`
}

// UploadState is where an upload stands: the next byte it expects.
type UploadState struct {
	UploadID string `json:"upload_id"`
	Offset   int64  `json:"offset"`
	Size     int64  `json:"size"`
	Complete bool   `json:"complete"`
}

// TranscriptEnvelope answers PUT /api/admin/library/{id}/transcript.
type TranscriptEnvelope struct {
	Transcript []Cue `json:"transcript"`
}
