package library

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"tribe/internal/access"
	"tribe/internal/errs"
	"tribe/internal/storage"
	"tribe/internal/store"
)

// Uploads are resumable: the admin announces a file's size, then sends it
// in chunks, each stored as an object of its own under UploadPrefix
// through the one storage interface; the chunk that does not arrive whole
// is sent again from the offset the server reports. Attaching the upload
// to an item streams the parts, in order, into one object with one Put.

// UploadPrefix is the folder of the parts of uploads in progress.
const UploadPrefix = "uploads/"

// MediaPrefix is the folder of items' files.
const MediaPrefix = "library/"

// UploadTTL is how long an upload that receives nothing is kept.
const UploadTTL = 24 * time.Hour

// MaxFilename bounds an upload's file name, in characters.
const MaxFilename = 255

var (
	errNoUpload = errs.New(errs.NotFound, "Upload not found (it may have been attached, or removed after a day without progress).")
	errNoMedia  = errs.New(errs.NotFound, "This item has no file.")
)

// OffsetError refuses a chunk that does not start where the upload is: the
// client resumes from Offset.
type OffsetError struct {
	Err    *errs.Error
	Offset int64
}

func (e *OffsetError) Error() string { return e.Err.Error() }

// Unwrap lets errors.As find the *errs.Error the answer is written from.
func (e *OffsetError) Unwrap() error { return e.Err }

// upload is an upload's row.
type upload struct {
	id, filename, contentType string
	size, received            int64
}

func (u *upload) state() *UploadState {
	return &UploadState{UploadID: u.id, Offset: u.received, Size: u.size, Complete: u.received == u.size}
}

// CreateUpload announces an upload of in.Size bytes (admins).
func (s *Service) CreateUpload(ctx context.Context, v access.Viewer, in UploadInput) (*UploadState, error) {
	if !v.Admin {
		return nil, ErrForAdmins
	}
	name := strings.TrimSpace(in.Filename)
	if name == "" || utf8.RuneCountInString(name) > MaxFilename || !storable(name) {
		return nil, errs.Field("filename", fmt.Sprintf("The file name must be 1 to %d characters.", MaxFilename))
	}
	if in.Size <= 0 || in.Size > s.o.MaxUpload {
		return nil, errs.Field("size", fmt.Sprintf("The size must be 1 to %d bytes (TRIBE_MAX_UPLOAD).", s.o.MaxUpload))
	}
	ct := strings.TrimSpace(in.ContentType)
	if len(ct) > 200 || !storable(ct) {
		return nil, errs.Field("content_type", "The content type must be at most 200 characters.")
	}
	u := upload{id: store.NewID(), filename: name, contentType: ct, size: in.Size}
	now := store.At(s.o.Clock())
	if _, err := s.db.Write.ExecContext(ctx, `INSERT INTO library_uploads (id, created_by, filename, content_type, size, received, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, 0, $6, $6)`, u.id, v.UserID, u.filename, u.contentType, u.size, now); err != nil {
		return nil, fmt.Errorf("create upload: %w", err)
	}
	return u.state(), nil
}

func loadUpload(ctx context.Context, q querier, id string) (*upload, error) {
	var u upload
	err := q.QueryRowContext(ctx, `SELECT id, filename, content_type, size, received FROM library_uploads WHERE id = $1`, id).
		Scan(&u.id, &u.filename, &u.contentType, &u.size, &u.received)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNoUpload
	}
	if err != nil {
		return nil, fmt.Errorf("read upload: %w", err)
	}
	return &u, nil
}

// Upload answers where an upload stands (admins), so a client resumes
// after a dropped connection.
func (s *Service) Upload(ctx context.Context, v access.Viewer, id string) (*UploadState, error) {
	if !v.Admin {
		return nil, ErrForAdmins
	}
	u, err := loadUpload(ctx, s.db.Read, id)
	if err != nil {
		return nil, err
	}
	return u.state(), nil
}

// Range is a chunk's place: bytes First to Last (inclusive) of Total.
type Range struct{ First, Last, Total int64 }

// ParseContentRange reads "bytes FIRST-LAST/TOTAL" (RFC 9110 §14.4).
func ParseContentRange(h string) (Range, error) {
	bad := errs.Field("Content-Range", "Send the chunk's place as Content-Range: bytes FIRST-LAST/TOTAL.")
	rest, ok := strings.CutPrefix(strings.TrimSpace(h), "bytes ")
	if !ok {
		return Range{}, bad
	}
	span, total, ok := strings.Cut(rest, "/")
	first, last, ok2 := strings.Cut(span, "-")
	if !ok || !ok2 {
		return Range{}, bad
	}
	var r Range
	var err1, err2, err3 error
	r.First, err1 = strconv.ParseInt(first, 10, 64)
	r.Last, err2 = strconv.ParseInt(last, 10, 64)
	r.Total, err3 = strconv.ParseInt(total, 10, 64)
	if errors.Join(err1, err2, err3) != nil || r.First < 0 || r.Last < r.First || r.Last >= r.Total {
		return Range{}, bad
	}
	return r, nil
}

// partKey names a part's object. The random tail keeps two clients racing
// for one offset from writing over each other's object.
func partKey(uploadID string, start int64) string {
	return fmt.Sprintf("%s%s/%020d-%s", UploadPrefix, uploadID, start, store.NewID())
}

// AppendChunk stores one chunk of an upload (admins). It must start at the
// upload's offset (else an *OffsetError with the offset to resume from)
// and the total must be the announced size. body is streamed into the
// store: memory does not grow with the chunk.
func (s *Service) AppendChunk(ctx context.Context, v access.Viewer, id string, rg Range, body io.Reader) (*UploadState, error) {
	if !v.Admin {
		return nil, ErrForAdmins
	}
	u, err := loadUpload(ctx, s.db.Read, id)
	if err != nil {
		return nil, err
	}
	if rg.Total != u.size {
		return nil, errs.Field("Content-Range", fmt.Sprintf("The upload was announced as %d bytes, not %d.", u.size, rg.Total))
	}
	if rg.First != u.received {
		return nil, s.offsetError(u.received)
	}
	n := rg.Last - rg.First + 1
	key := partKey(id, rg.First)
	br := &bodyReader{r: body}
	if err := s.o.Files.Put(ctx, key, br, n, "application/octet-stream"); err != nil {
		if errors.Is(err, storage.ErrShortWrite) || br.err != nil || ctx.Err() != nil {
			return nil, &OffsetError{Err: errs.Errorf(errs.Invalid,
				"The chunk ended before its last byte; send it again from byte %d.", u.received), Offset: u.received}
		}
		return nil, fmt.Errorf("store chunk: %w", err)
	}
	won := false
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE library_uploads SET received = $1, updated_at = $2 WHERE id = $3 AND received = $4`,
			rg.Last+1, store.At(s.o.Clock()), id, rg.First)
		if err != nil {
			return err
		}
		if k, _ := res.RowsAffected(); k == 0 {
			return nil
		}
		won = true
		_, err = tx.ExecContext(ctx, `INSERT INTO library_upload_parts (upload_id, start, size, object_key) VALUES ($1, $2, $3, $4)`,
			id, rg.First, n, key)
		return err
	})
	if err != nil || !won {
		_ = s.o.Files.Delete(ctx, key)
		if err != nil {
			return nil, fmt.Errorf("record chunk: %w", err)
		}
		// Another request moved the upload on first (or it was attached).
		now, lerr := loadUpload(ctx, s.db.Read, id)
		if lerr != nil {
			return nil, lerr
		}
		return nil, s.offsetError(now.received)
	}
	u.received = rg.Last + 1
	return u.state(), nil
}

// bodyReader remembers that the request body failed (a dropped
// connection), which the store reports as its own error.
type bodyReader struct {
	r   io.Reader
	err error
}

func (b *bodyReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		b.err = err
	}
	return n, err
}

func (s *Service) offsetError(offset int64) error {
	return &OffsetError{Err: errs.Errorf(errs.Conflict, "The upload has %d bytes; send the next chunk from there.", offset), Offset: offset}
}

// part is one stored chunk of an upload.
type part struct {
	start, size int64
	key         string
}

func (s *Service) parts(ctx context.Context, q interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}, id string) ([]part, error) {
	rows, err := q.QueryContext(ctx, `SELECT start, size, object_key FROM library_upload_parts WHERE upload_id = $1 ORDER BY start`, id)
	if err != nil {
		return nil, fmt.Errorf("read parts: %w", err)
	}
	defer func() { _ = rows.Close() }()
	var out []part
	for rows.Next() {
		var p part
		if err := rows.Scan(&p.start, &p.size, &p.key); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// partsReader reads the parts one after another, opening each only when
// the one before it is read through, so one part is open at a time.
type partsReader struct {
	ctx   context.Context
	files storage.Store
	parts []part
	cur   storage.Object
	left  int64 // bytes of the current part still to read
}

func (p *partsReader) Read(b []byte) (int, error) {
	for p.cur == nil || p.left == 0 {
		if p.cur != nil {
			_ = p.cur.Close()
			p.cur = nil
		}
		if len(p.parts) == 0 {
			return 0, io.EOF
		}
		obj, info, err := p.files.Open(p.ctx, p.parts[0].key)
		if err != nil {
			return 0, fmt.Errorf("open part %s: %w", p.parts[0].key, err)
		}
		if info.Size != p.parts[0].size {
			_ = obj.Close()
			return 0, fmt.Errorf("part %s holds %d bytes, %d recorded", p.parts[0].key, info.Size, p.parts[0].size)
		}
		p.cur, p.left, p.parts = obj, p.parts[0].size, p.parts[1:]
	}
	if int64(len(b)) > p.left {
		b = b[:p.left]
	}
	n, err := p.cur.Read(b)
	p.left -= int64(n)
	if errors.Is(err, io.EOF) {
		if p.left > 0 {
			return n, io.ErrUnexpectedEOF
		}
		err = nil
	}
	return n, err
}

func (p *partsReader) Close() error {
	if p.cur != nil {
		return p.cur.Close()
	}
	return nil
}

// AttachMedia makes a finished upload an item's file (admins): its type is
// sniffed from its first bytes (a web page is refused), its parts are
// streamed into one object with one Put, and the item points at it; the
// item's previous file, the parts and the upload are then removed.
func (s *Service) AttachMedia(ctx context.Context, v access.Viewer, itemID string, in MediaInput) (*ItemDetail, error) {
	if !v.Admin {
		return nil, ErrForAdmins
	}
	if strings.TrimSpace(in.UploadID) == "" {
		return nil, errs.Field("upload_id", "Name the upload to attach (upload_id).")
	}
	if _, err := loadRow(ctx, s.db.Read, itemID, false); err != nil {
		return nil, wrap("read library item", err)
	}
	u, err := loadUpload(ctx, s.db.Read, in.UploadID)
	if err != nil {
		return nil, err
	}
	if u.received != u.size {
		return nil, errs.Errorf(errs.Conflict, "The upload is not finished: %d of %d bytes arrived.", u.received, u.size)
	}
	parts, err := s.parts(ctx, s.db.Read, u.id)
	if err != nil {
		return nil, err
	}
	var next int64
	for _, p := range parts {
		if p.start != next {
			return nil, fmt.Errorf("upload %s: part at %d, expected %d", u.id, p.start, next)
		}
		next += p.size
	}
	if next != u.size {
		return nil, fmt.Errorf("upload %s: parts hold %d of %d bytes", u.id, next, u.size)
	}
	head := make([]byte, SniffLen)
	pr := &partsReader{ctx: ctx, files: s.o.Files, parts: parts}
	n, err := io.ReadFull(pr, head)
	_ = pr.Close()
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("sniff upload: %w", err)
	}
	ct := Sniff(head[:n])
	if IsHTML(ct) {
		return nil, errs.Field("upload_id", "This file looks like a web page ("+ct+"); the library keeps recordings, documents and archives only.")
	}
	key := MediaPrefix + itemID + "/" + u.id
	pr = &partsReader{ctx: ctx, files: s.o.Files, parts: parts}
	err = s.o.Files.Put(ctx, key, pr, u.size, ct)
	_ = pr.Close()
	if err != nil {
		return nil, fmt.Errorf("assemble upload %s: %w", u.id, err)
	}
	var old sql.NullString
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT media_key FROM library_items WHERE id = $1`, itemID).Scan(&old); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return errNotFound
			}
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM library_uploads WHERE id = $1`, u.id)
		if err != nil {
			return err
		}
		if k, _ := res.RowsAffected(); k == 0 {
			return errNoUpload // attached by a request beside this one
		}
		_, err = tx.ExecContext(ctx, `UPDATE library_items SET media_key = $1, media_type = $2, media_size = $3, updated_at = $4 WHERE id = $5`,
			key, ct, u.size, store.At(s.o.Clock()), itemID)
		return err
	})
	if err != nil {
		_ = s.o.Files.Delete(ctx, key)
		return nil, wrap("attach upload", err)
	}
	if old.Valid && old.String != key {
		_ = s.o.Files.Delete(ctx, old.String)
	}
	s.removeParts(ctx, u.id)
	return s.Get(ctx, v, itemID)
}

// removeParts deletes every object of an upload's folder; what fails to go
// is swept later.
func (s *Service) removeParts(ctx context.Context, uploadID string) {
	var keys []string
	_ = s.o.Files.List(ctx, UploadPrefix+uploadID+"/", func(i storage.Info) error {
		keys = append(keys, i.Key)
		return nil
	})
	for _, k := range keys {
		_ = s.o.Files.Delete(ctx, k)
	}
}

// Sweep removes what nothing will use any more: uploads that received
// nothing for UploadTTL (with their parts), part objects of uploads that
// no longer exist, and item files no item names, once older than
// UploadTTL (left by a process that stopped between storing and
// recording); and it announces the replays whose publication time has
// come. It reports how many objects it deleted. Every instance may
// run it; deleting twice is harmless.
func (s *Service) Sweep(ctx context.Context) (int, error) {
	now := s.o.Clock()
	cutoff := store.At(now.Add(-UploadTTL))
	if _, err := s.db.Write.ExecContext(ctx, `DELETE FROM library_uploads WHERE updated_at < $1`, cutoff); err != nil {
		return 0, fmt.Errorf("sweep uploads: %w", err)
	}
	live := map[string]bool{}
	named := map[string]bool{}
	read := func(query string, into map[string]bool) error {
		rows, err := s.db.Read.QueryContext(ctx, query)
		if err != nil {
			return err
		}
		defer func() { _ = rows.Close() }()
		for rows.Next() {
			var k string
			if err := rows.Scan(&k); err != nil {
				return err
			}
			into[k] = true
		}
		return rows.Err()
	}
	var stale []string
	collect := func(prefix string, keep func(key string) bool) error {
		return s.o.Files.List(ctx, prefix, func(i storage.Info) error {
			if now.Sub(i.ModTime) > UploadTTL && !keep(i.Key) {
				stale = append(stale, i.Key)
			}
			return nil
		})
	}
	if err := errors.Join(
		read(`SELECT id FROM library_uploads`, live),
		read(`SELECT media_key FROM library_items WHERE media_key IS NOT NULL`, named),
	); err != nil {
		return 0, fmt.Errorf("sweep library files: %w", err)
	}
	// An upload's folder goes once its upload is gone, however young its
	// parts: nothing can attach them any more.
	if err := s.o.Files.List(ctx, UploadPrefix, func(i storage.Info) error {
		id, _, _ := strings.Cut(strings.TrimPrefix(i.Key, UploadPrefix), "/")
		if !live[id] {
			stale = append(stale, i.Key)
		}
		return nil
	}); err != nil {
		return 0, fmt.Errorf("list upload parts: %w", err)
	}
	if err := collect(MediaPrefix, func(k string) bool { return named[k] }); err != nil {
		return 0, fmt.Errorf("list library files: %w", err)
	}
	// A file may have been attached since the names were read.
	if err := read(`SELECT media_key FROM library_items WHERE media_key IS NOT NULL`, named); err != nil {
		return 0, err
	}
	n := 0
	for _, k := range stale {
		if named[k] {
			continue
		}
		if err := s.o.Files.Delete(ctx, k); err != nil {
			return n, err
		}
		n++
	}
	return n, errors.Join(s.announceDue(ctx), s.indexDue(ctx))
}

// indexDue puts into the knowledge base the transcripts of items whose
// publication time has come since their last change (an item published
// for later is indexed here, by the sweep).
func (s *Service) indexDue(ctx context.Context) error {
	if s.o.Index == nil {
		return nil
	}
	rows, err := s.db.Read.QueryContext(ctx, `SELECT id FROM library_items
		WHERE transcript IS NOT NULL AND min_level <= 1 AND published_at IS NOT NULL AND published_at <= $1`, store.At(s.o.Clock()))
	if err != nil {
		return fmt.Errorf("due transcripts: %w", err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			_ = rows.Close()
			return err
		}
		ids = append(ids, id)
	}
	_ = rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, id := range ids {
		has, err := s.o.Index.HasReplay(ctx, id)
		if err != nil || has {
			continue
		}
		r, err := loadRow(ctx, s.db.Read, id, true)
		if err != nil {
			continue // deleted since
		}
		s.reindex(ctx, r)
	}
	return nil
}

// announceDue tells of the replays whose publication time has come since
// their last change (an item published for later is announced here, by the
// sweep, rather than by the change that scheduled it).
func (s *Service) announceDue(ctx context.Context) error {
	if s.o.Notify == nil {
		return nil
	}
	rows, err := s.db.Read.QueryContext(ctx, `SELECT `+columns+` FROM library_items
		WHERE notified_at IS NULL AND session_id IS NOT NULL AND published_at IS NOT NULL AND published_at <= $1`,
		store.At(s.o.Clock()))
	if err != nil {
		return fmt.Errorf("due replays: %w", err)
	}
	var due []*row
	for rows.Next() {
		r, err := scanRow(rows, false)
		if err != nil {
			_ = rows.Close()
			return fmt.Errorf("due replays: %w", err)
		}
		due = append(due, r)
	}
	_ = rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("due replays: %w", err)
	}
	for _, r := range due {
		s.announce(ctx, r)
	}
	return nil
}

// OpenMedia opens an item's file for v, after the same check as the item
// itself: published, and not locked for v.
func (s *Service) OpenMedia(ctx context.Context, v access.Viewer, id string) (storage.Object, storage.Info, error) {
	r, err := s.openable(ctx, v, id)
	if err != nil {
		return nil, storage.Info{}, err
	}
	if !r.mediaKey.Valid {
		return nil, storage.Info{}, errNoMedia
	}
	obj, info, err := s.o.Files.Open(ctx, r.mediaKey.String)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, storage.Info{}, errNoMedia
	}
	if err != nil {
		return nil, storage.Info{}, err
	}
	info.ContentType = r.mediaType.String
	return obj, info, nil
}

// MediaURL is a presigned address of an item's file valid for expiry, for
// v after the same check as OpenMedia, or storage.ErrNoURL when the store
// gives none (then the caller streams OpenMedia).
func (s *Service) MediaURL(ctx context.Context, v access.Viewer, id string, expiry time.Duration) (string, error) {
	r, err := s.openable(ctx, v, id)
	if err != nil {
		return "", err
	}
	if !r.mediaKey.Valid {
		return "", errNoMedia
	}
	return s.o.Files.URL(ctx, r.mediaKey.String, expiry)
}
