// Package gaps keeps the knowledge gaps: questions asked of the site (the AI
// chat, which the console's ask goes through, and the MCP search tool) whose
// best knowledge-base match was weak (kb.Results.Weak). Only the question's
// text (e-mail addresses, phone and card numbers taken out: Redact) and the
// time it was asked are kept, never an address or an account, and only for
// Retention. Each question joins a cluster of similar wording when it is
// stored, so the admins' list is read a page of clusters at a time.
package gaps

import (
	"context"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"tribe/internal/clock"
	"tribe/internal/errs"
	"tribe/internal/ratelimit"
	"tribe/internal/store"
)

// Retention is how long a question is kept.
const Retention = 90 * 24 * time.Hour

// MaxKept bounds the table between sweeps: a flood of odd questions cannot
// grow it without end; the sweep keeps the newest MaxKept.
const MaxKept = 20000

// maxQuestion is the longest question kept, in characters (the search's
// own limit).
const maxQuestion = 1000

// PerClientPerHour is how many questions one client (an IPv4 address or
// an IPv6 /64) may add in an hour: a person asks a handful, while a script
// looping odd questions would otherwise fill MaxKept and push every real
// question out.
const PerClientPerHour = 20

// The page sizes of List.
const (
	DefaultPage = 50
	MaxPage     = 200
)

// backfillBatch is how many unclustered questions one transaction of
// Backfill takes: short enough not to hold the write lock long.
const backfillBatch = 200

// Service records and reads the gaps.
type Service struct {
	db        *store.DB
	now       clock.Clock
	logger    *slog.Logger
	perClient *ratelimit.Limiter
}

// New returns the service over db; now is its clock (nil: time.Now).
func New(db *store.DB, now clock.Clock, logger *slog.Logger) *Service {
	if now == nil {
		now = time.Now
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Service{db: db, now: now, logger: logger,
		perClient: ratelimit.New(PerClientPerHour, time.Hour/PerClientPerHour, ratelimit.WithClock(now), ratelimit.Shared(db, "gaps-client"))}
}

// Record keeps question as asked now, redacted (Redact) and joined to its
// cluster. It never fails the search it comes from: an error is logged.
// Blank questions are not kept, nor those of a client (WithClient) past
// PerClientPerHour.
func (s *Service) Record(ctx context.Context, question string) {
	q := clean(question)
	if q == "" {
		return
	}
	if ok, _ := s.perClient.Allow(clientOf(ctx)); !ok {
		return
	}
	// The search may be cancelled as it ends; the record is still kept.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	at := s.now()
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		if err := s.lock(ctx, tx); err != nil {
			return err
		}
		cluster, err := s.join(ctx, tx, q, at)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO knowledge_gaps (id, question, asked_at, cluster_id) VALUES ($1, $2, $3, $4)`,
			store.NewID(), q, store.At(at), cluster)
		return err
	})
	if err != nil {
		s.logger.Warn("knowledge gap not recorded", "err", err)
	}
}

// clean is a question as it is kept: spaces collapsed, redacted, at most
// maxQuestion characters; "" when nothing is left to keep.
func clean(question string) string {
	if !utf8.ValidString(question) {
		return ""
	}
	q := Redact(strings.Join(strings.Fields(question), " "))
	if utf8.RuneCountInString(q) > maxQuestion {
		q = string([]rune(q)[:maxQuestion])
	}
	return q
}

// lock serialises the writers of the gaps on PostgreSQL, where two
// instances could otherwise each start a cluster for the same wording;
// SQLite's write transaction is already exclusive.
func (s *Service) lock(ctx context.Context, tx *sql.Tx) error {
	if s.db.Dialect != store.Postgres {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext('tribe.knowledge_gaps:' || current_schema()))`); err != nil {
		return fmt.Errorf("lock knowledge gaps: %w", err)
	}
	return nil
}

// join counts q, asked at, in the cluster it belongs to and returns that
// cluster's id: the cluster whose words overlap q's by at least Similar
// (the closest; ties: asked last), or for a question without topic words
// the one of the same exactKey; otherwise a new cluster. The cluster shows
// its most recent wording.
func (s *Service) join(ctx context.Context, tx *sql.Tx, q string, at time.Time) (string, error) {
	words := sortedWords(Words(q))
	exact := ""
	if len(words) == 0 {
		exact = exactKey(q)
	}
	id, err := s.closest(ctx, tx, words, exact)
	if err != nil {
		return "", err
	}
	if id != "" {
		_, err := tx.ExecContext(ctx, `UPDATE knowledge_gap_clusters SET asked = asked + 1,
			question = CASE WHEN $2 >= last_asked THEN $3 ELSE question END,
			last_asked = CASE WHEN $2 >= last_asked THEN $2 ELSE last_asked END
			WHERE id = $1`, id, store.At(at), q)
		if err != nil {
			return "", fmt.Errorf("count knowledge gap: %w", err)
		}
		return id, nil
	}
	id = store.NewID()
	if _, err := tx.ExecContext(ctx, `INSERT INTO knowledge_gap_clusters (id, question, words, exact, asked, last_asked)
		VALUES ($1, $2, $3, $4, 1, $5)`, id, q, len(words), exact, store.At(at)); err != nil {
		return "", fmt.Errorf("start knowledge gap cluster: %w", err)
	}
	for _, w := range words {
		if _, err := tx.ExecContext(ctx, `INSERT INTO knowledge_gap_words (word, cluster_id) VALUES ($1, $2)`, w, id); err != nil {
			return "", fmt.Errorf("start knowledge gap cluster: %w", err)
		}
	}
	return id, nil
}

// closest is the id of the cluster q joins, "" for none. Only clusters
// sharing a word can be similar, so the word index finds every candidate;
// 3s >= a+b is Jaccard >= Similar in whole numbers.
func (s *Service) closest(ctx context.Context, tx *sql.Tx, words []string, exact string) (string, error) {
	var id string
	var err error
	if len(words) == 0 {
		err = tx.QueryRowContext(ctx, `SELECT id FROM knowledge_gap_clusters WHERE exact = $1 ORDER BY last_asked DESC LIMIT 1`, exact).Scan(&id)
	} else {
		args := make([]any, 0, len(words)+1)
		args = append(args, len(words))
		marks := make([]string, len(words))
		for i, w := range words {
			args = append(args, w)
			marks[i] = "$" + strconv.Itoa(i+2)
		}
		err = tx.QueryRowContext(ctx, `SELECT c.id FROM knowledge_gap_words w JOIN knowledge_gap_clusters c ON c.id = w.cluster_id
			WHERE w.word IN (`+strings.Join(marks, ", ")+`)
			GROUP BY c.id, c.words, c.last_asked
			HAVING 3 * COUNT(*) >= c.words + $1
			ORDER BY 1.0 * COUNT(*) / (c.words + $1 - COUNT(*)) DESC, c.last_asked DESC, c.id
			LIMIT 1`, args...).Scan(&id)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("find knowledge gap cluster: %w", err)
	}
	return id, nil
}

// Backfill clusters (and redacts) the questions stored before questions
// were clustered on write, oldest first, a batch per transaction, and
// returns how many it took. The gaps worker runs it at start-up, behind
// readiness; a second instance running it at once skips the rows the
// first has taken.
func (s *Service) Backfill(ctx context.Context) (int, error) {
	total := 0
	for {
		n := 0
		err := s.db.Tx(ctx, func(tx *sql.Tx) error {
			if err := s.lock(ctx, tx); err != nil {
				return err
			}
			rows, err := tx.QueryContext(ctx, `SELECT id, question, asked_at FROM knowledge_gaps
				WHERE cluster_id IS NULL ORDER BY asked_at, id LIMIT $1`, backfillBatch)
			if err != nil {
				return fmt.Errorf("read unclustered knowledge gaps: %w", err)
			}
			type row struct {
				id, question string
				at           store.Time
			}
			var batch []row
			for rows.Next() {
				var r row
				if err := rows.Scan(&r.id, &r.question, &r.at); err != nil {
					_ = rows.Close()
					return fmt.Errorf("read unclustered knowledge gaps: %w", err)
				}
				batch = append(batch, r)
			}
			if err := rows.Close(); err != nil {
				return fmt.Errorf("read unclustered knowledge gaps: %w", err)
			}
			for _, r := range batch {
				q := clean(r.question)
				if q == "" {
					if _, err := tx.ExecContext(ctx, `DELETE FROM knowledge_gaps WHERE id = $1`, r.id); err != nil {
						return fmt.Errorf("drop blank knowledge gap: %w", err)
					}
					continue
				}
				cluster, err := s.join(ctx, tx, q, r.at.Time)
				if err != nil {
					return err
				}
				if _, err := tx.ExecContext(ctx, `UPDATE knowledge_gaps SET question = $2, cluster_id = $3 WHERE id = $1`,
					r.id, q, cluster); err != nil {
					return fmt.Errorf("cluster knowledge gap: %w", err)
				}
			}
			n = len(batch)
			return nil
		})
		if err != nil {
			return total, err
		}
		total += n
		if n < backfillBatch {
			return total, nil
		}
	}
}

// Sweep deletes the questions older than Retention and all but the newest
// MaxKept, then recounts the clusters and drops the empty ones. Deleting
// is idempotent: two instances sweeping at once delete each row once
// between them and neither fails.
func (s *Service) Sweep(ctx context.Context) (int64, error) {
	cutoff := store.At(s.now().Add(-Retention))
	var n int64
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		if err := s.lock(ctx, tx); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM knowledge_gaps WHERE asked_at < $1`, cutoff)
		if err != nil {
			return fmt.Errorf("delete old knowledge gaps: %w", err)
		}
		old, _ := res.RowsAffected()
		// SQLite needs a LIMIT before an OFFSET; -1 is "no limit".
		beyond := `SELECT id FROM knowledge_gaps ORDER BY asked_at DESC, id DESC LIMIT -1 OFFSET $1`
		if s.db.Dialect == store.Postgres {
			beyond = `SELECT id FROM knowledge_gaps ORDER BY asked_at DESC, id DESC OFFSET $1`
		}
		res, err = tx.ExecContext(ctx, `DELETE FROM knowledge_gaps WHERE id IN (`+beyond+`)`, MaxKept)
		if err != nil {
			return fmt.Errorf("trim knowledge gaps: %w", err)
		}
		over, _ := res.RowsAffected()
		n = old + over
		if n == 0 {
			return nil
		}
		// The newest question of a cluster is never deleted before an older
		// one, so what a cluster shows stays true; only its count moves.
		if _, err := tx.ExecContext(ctx, `UPDATE knowledge_gap_clusters SET asked =
			(SELECT COUNT(*) FROM knowledge_gaps g WHERE g.cluster_id = knowledge_gap_clusters.id)`); err != nil {
			return fmt.Errorf("recount knowledge gaps: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM knowledge_gap_clusters WHERE asked = 0`); err != nil {
			return fmt.Errorf("drop empty knowledge gap clusters: %w", err)
		}
		return nil
	})
	return n, err
}

// Run clusters the questions stored before clustering on write, then
// sweeps now and every interval until ctx ends.
func (s *Service) Run(ctx context.Context, every time.Duration) {
	if n, err := s.Backfill(ctx); err != nil && ctx.Err() == nil {
		s.logger.Error("knowledge gaps back-fill", "err", err)
	} else if n > 0 {
		s.logger.Info("knowledge gaps clustered", "questions", n)
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if _, err := s.Sweep(ctx); err != nil && ctx.Err() == nil {
			s.logger.Error("knowledge gaps sweep", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// List is one page of the clusters asked in the last Retention, most asked
// first (ties: asked last first), at most limit of them (0: DefaultPage)
// after cursor (a previous page's Next; "" for the first page).
func (s *Service) List(ctx context.Context, limit int, cursor string) (Groups, error) {
	since := s.now().Add(-Retention)
	out := Groups{Groups: []Group{}, Since: since.UTC()}
	switch {
	case limit == 0:
		limit = DefaultPage
	case limit < 1 || limit > MaxPage:
		return out, errs.Field("limit", fmt.Sprintf("Limit must be a whole number from 1 to %d.", MaxPage))
	}
	after, err := readCursor(cursor)
	if err != nil {
		return out, err
	}
	// The list's statements are prepared once (store.ReadRows): parsing them
	// was a good part of a page's processor time.
	if err := s.db.ReadRow(ctx, `SELECT COUNT(*) FROM knowledge_gap_clusters WHERE last_asked >= $1`,
		store.At(since)).Scan(&out.Total); err != nil {
		return out, fmt.Errorf("count knowledge gaps: %w", err)
	}
	q := `SELECT id, question, asked, last_asked FROM knowledge_gap_clusters WHERE last_asked >= $1`
	args := []any{store.At(since), limit + 1}
	if after != nil {
		q += ` AND (asked, last_asked, id) < ($3, $4, $5)`
		args = append(args, after.asked, store.At(after.last), after.id)
	}
	q += ` ORDER BY asked DESC, last_asked DESC, id DESC LIMIT $2`
	rows, err := s.db.ReadRows(ctx, q, args...)
	if err != nil {
		return out, fmt.Errorf("read knowledge gaps: %w", err)
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		var g Group
		var at store.Time
		if err := rows.Scan(&g.ID, &g.Question, &g.Count, &at); err != nil {
			return out, fmt.Errorf("read knowledge gaps: %w", err)
		}
		g.LastAsked, g.Others = at.Time, []string{}
		out.Groups = append(out.Groups, g)
	}
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("read knowledge gaps: %w", err)
	}
	if len(out.Groups) > limit {
		out.Groups = out.Groups[:limit]
		last := out.Groups[limit-1]
		out.Next = writeCursor(pageCursor{asked: last.Count, last: last.LastAsked, id: last.ID})
	}
	if err := s.others(ctx, out.Groups); err != nil {
		return out, err
	}
	return out, nil
}

// recentWordings is how many of a group's latest questions others reads:
// enough to find three other wordings of any group asked in a few ways,
// and the same small cost for a group asked ten thousand times.
const recentWordings = 20

// others fills in up to three other wordings of each group, most recent
// first, from each group's latest questions (the index on cluster and
// time), in one query for the page.
func (s *Service) others(ctx context.Context, groups []Group) error {
	if len(groups) == 0 {
		return nil
	}
	at := make(map[string]int, len(groups))
	// The statement has a place for DefaultPage or MaxPage groups, so that
	// two prepared statements serve every page; the places left over repeat
	// the last group, whose wordings are then read twice and kept once.
	places := DefaultPage
	if len(groups) > places {
		places = MaxPage
	}
	args := make([]any, places)
	parts := make([]string, places)
	for i := range places {
		g := groups[min(i, len(groups)-1)]
		at[g.ID] = min(i, len(groups)-1)
		args[i] = g.ID
		parts[i] = `SELECT * FROM (SELECT cluster_id, question, asked_at, id FROM knowledge_gaps WHERE cluster_id = $` +
			strconv.Itoa(i+1) + ` ORDER BY asked_at DESC, id DESC LIMIT ` + strconv.Itoa(recentWordings) + `) AS w` + strconv.Itoa(i)
	}
	rows, err := s.db.ReadRows(ctx, strings.Join(parts, " UNION ALL ")+` ORDER BY 1, 3 DESC, 4 DESC`, args...)
	if err != nil {
		return fmt.Errorf("read knowledge gap wordings: %w", err)
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		var id, q, rowID string
		var when store.Time
		if err := rows.Scan(&id, &q, &when, &rowID); err != nil {
			return fmt.Errorf("read knowledge gap wordings: %w", err)
		}
		g := &groups[at[id]]
		if q != g.Question && len(g.Others) < 3 && !slices.Contains(g.Others, q) {
			g.Others = append(g.Others, q)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read knowledge gap wordings: %w", err)
	}
	return nil
}

// pageCursor is where a page ended: the last group's count, last asked
// time and id, the order List reads in.
type pageCursor struct {
	asked int
	last  time.Time
	id    string
}

func writeCursor(c pageCursor) string {
	raw := strconv.Itoa(c.asked) + "|" + strconv.FormatInt(c.last.UnixMilli(), 10) + "|" + c.id
	return base64.RawURLEncoding.EncodeToString([]byte(raw))
}

// errCursor answers a cursor that no page handed out.
var errCursor = errs.Field("cursor", "Cursor must be the next value of a previous page.")

func readCursor(s string) (*pageCursor, error) {
	if s == "" {
		return nil, nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, errCursor
	}
	parts := strings.SplitN(string(raw), "|", 3)
	if len(parts) != 3 || parts[2] == "" {
		return nil, errCursor
	}
	asked, err1 := strconv.Atoi(parts[0])
	ms, err2 := strconv.ParseInt(parts[1], 10, 64)
	if err1 != nil || err2 != nil || asked < 0 {
		return nil, errCursor
	}
	return &pageCursor{asked: asked, last: time.UnixMilli(ms).UTC(), id: parts[2]}, nil
}
