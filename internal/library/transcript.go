package library

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"tribe/internal/access"
	"tribe/internal/errs"
	"tribe/internal/store"
	"tribe/internal/subtitles"
)

// MaxTranscript bounds a transcript file, in bytes: a day of speech as
// WebVTT is about 2 MB.
const MaxTranscript = 8 << 20

// passageSize is the length, in characters, a passage of a transcript
// aims at: about the knowledge base's chunk, so one passage is one chunk
// and its time is the time of what search finds.
const passageSize = 700

// Passage is a stretch of a transcript as the knowledge base keeps it: its
// citation ("Replay: <title> at 12:34"), its words, and the link that plays
// the recording from its start.
type Passage struct {
	Title, Text, Link string
	StartS            int
}

// Clock writes seconds as a person reads a position: 12:34 or 1:02:03.
func Clock(seconds int) string {
	h, m, s := seconds/3600, seconds/60%60, seconds%60
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%02d", h, m, s)
	}
	return fmt.Sprintf("%d:%02d", m, s)
}

// Passages cuts a transcript into passages of about passageSize
// characters, each starting at a cue, cited by its start.
func Passages(id, title string, cues []Cue) []Passage {
	var out []Passage
	var text strings.Builder
	start := 0
	flush := func() {
		if text.Len() == 0 {
			return
		}
		out = append(out, Passage{Title: "Replay: " + title + " at " + Clock(start), Text: text.String(),
			Link: fmt.Sprintf("/members/library/%s?t=%d", id, start), StartS: start})
		text.Reset()
	}
	for _, c := range cues {
		if text.Len() > 0 && utf8.RuneCountInString(text.String())+1+utf8.RuneCountInString(c.Text) > passageSize {
			flush()
		}
		if text.Len() == 0 {
			start = int(math.Floor(c.Start))
		} else {
			text.WriteByte(' ')
		}
		text.WriteString(c.Text)
	}
	flush()
	return out
}

// SetTranscript reads a WebVTT or SRT file into an item's transcript
// (admins) and answers the cues; a malformed file is refused naming its
// line. The transcript of a published item goes into the knowledge base.
func (s *Service) SetTranscript(ctx context.Context, v access.Viewer, id string, file []byte) ([]Cue, error) {
	if !v.Admin {
		return nil, ErrForAdmins
	}
	if len(strings.TrimSpace(string(file))) == 0 {
		return nil, errs.Field("transcript", "Send the transcript as WebVTT or SRT text in the request body.")
	}
	parsed, err := subtitles.Parse(string(file))
	var pe *subtitles.Error
	if errors.As(err, &pe) {
		return nil, errs.Field("transcript", fmt.Sprintf("The transcript is not valid WebVTT or SRT: line %d: %s.", pe.Line, pe.Msg))
	}
	if err != nil {
		return nil, err
	}
	cues := make([]Cue, len(parsed))
	for i, c := range parsed {
		cues[i] = Cue(c)
	}
	var r *row
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		var err error
		if r, err = loadRow(ctx, tx, id, false); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE library_items SET transcript = $1, updated_at = $2 WHERE id = $3`,
			encode(cues), store.At(s.o.Clock()), id)
		return err
	})
	if err != nil {
		return nil, wrap("store transcript", err)
	}
	r.transcript = cues
	s.reindex(ctx, r)
	return cues, nil
}
