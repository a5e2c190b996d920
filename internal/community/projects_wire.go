package community

import "time"

// The JSON objects of the projects board and the member directory
// (docs/api.md, "Projects and directory"), read by tygo.yaml: only JSON
// types here.

// Project is one project on the board as the caller sees it.
type Project struct {
	ID              string  `json:"id"`
	AuthorID        string  `json:"author_id"`
	AuthorName      string  `json:"author_name"`
	AuthorAvatarURL *string `json:"author_avatar_url" tstype:"string | null,required"`
	Title           string  `json:"title"`
	Link            string  `json:"link"`
	Description     string  `json:"description"`
	// RepoURL is the optional repository link.
	RepoURL *string  `json:"repo_url" tstype:"string | null,required"`
	Tags    []string `json:"tags"`
	// Reactions is how many members gave it a "🔥"; Reacted says the caller did.
	Reactions int  `json:"reactions"`
	Reacted   bool `json:"reacted"`
	Comments  int  `json:"comments"`
	// Mine says the caller wrote it (and may edit or delete it).
	Mine bool `json:"mine"`
	// Hidden says an admin hid it; only its author and admins see it then.
	Hidden bool `json:"hidden"`
	// HiddenReason is the admin's reason, sent to the author and admins
	// only; null otherwise.
	HiddenReason *string   `json:"hidden_reason" tstype:"string | null,required"`
	CreatedAt    time.Time `json:"created_at"`
	UpdatedAt    time.Time `json:"updated_at"`
}

// ProjectInput is what POST /api/projects takes.
type ProjectInput struct {
	Title       string   `json:"title"`
	Link        string   `json:"link"`
	Description string   `json:"description"`
	RepoURL     string   `json:"repo_url"`
	Tags        []string `json:"tags"`
}

// ProjectPatch is what PATCH /api/projects/{id} takes: a nil field keeps
// its value. The author changes the first five; admins set Hidden (with a
// HiddenReason when hiding).
type ProjectPatch struct {
	Title        *string   `json:"title" tstype:"string | null"`
	Link         *string   `json:"link" tstype:"string | null"`
	Description  *string   `json:"description" tstype:"string | null"`
	RepoURL      *string   `json:"repo_url" tstype:"string | null"`
	Tags         *[]string `json:"tags" tstype:"string[] | null"`
	Hidden       *bool     `json:"hidden" tstype:"boolean | null"`
	HiddenReason *string   `json:"hidden_reason" tstype:"string | null"`
}

// Comment is one comment on a project.
type Comment struct {
	ID              string    `json:"id"`
	ProjectID       string    `json:"project_id"`
	AuthorID        string    `json:"author_id"`
	AuthorName      string    `json:"author_name"`
	AuthorAvatarURL *string   `json:"author_avatar_url" tstype:"string | null,required"`
	Body            string    `json:"body"`
	CreatedAt       time.Time `json:"created_at"`
}

// CommentInput is what POST /api/projects/{id}/comments takes.
type CommentInput struct {
	Body string `json:"body"`
}

// ProjectLink is a project as the directory lists it under its author.
type ProjectLink struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Link  string `json:"link"`
}

// DirectoryEntry is one member who chose to be listed in the member
// directory. It never carries an e-mail address.
type DirectoryEntry struct {
	ID        string  `json:"id"`
	FullName  string  `json:"full_name"`
	AvatarURL *string `json:"avatar_url" tstype:"string | null,required"`
	JobTitle  string  `json:"job_title"`
	Company   string  `json:"company"`
	Location  string  `json:"location"`
	Bio       string  `json:"bio"`
	// Level is the member's level, computed from their rows when read.
	Level string `json:"level"`
	// Cohort is the name of the member's cohort, null when in none.
	Cohort   *string       `json:"cohort" tstype:"string | null,required"`
	Projects []ProjectLink `json:"projects"`
}
