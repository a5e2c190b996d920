// Package storage keeps the files the site stores (avatars now; recordings
// and materials next) behind one interface with two backends: a directory
// on this machine (the data directory, the default) and an S3-compatible
// bucket, so that several instances can serve the same files.
//
// Keys are slash-separated paths such as "avatars/0123….jpg"; the local
// backend maps them onto the data directory unchanged, so existing data
// keeps working. A Put is atomic from the site's point of view: until it
// returns nil, no reader sees the key, and a failed or interrupted Put
// leaves nothing under it.
package storage

import (
	"context"
	"errors"
	"io"
	"strings"
	"time"
)

// MaxURLExpiry is the longest a presigned URL may stay valid.
const MaxURLExpiry = 15 * time.Minute

// Errors a backend answers with (test with errors.Is).
var (
	// ErrNotFound: no object under the key.
	ErrNotFound = errors.New("storage: no such object")
	// ErrInvalidKey: the key is not one this package stores (see ValidKey).
	ErrInvalidKey = errors.New("storage: invalid key")
	// ErrNoURL: the backend cannot hand out URLs (the local directory); the
	// caller streams the object instead.
	ErrNoURL = errors.New("storage: backend gives no URLs")
	// ErrShortWrite: the reader ended before the size Put was told.
	ErrShortWrite = errors.New("storage: upload ended before its announced size")
)

// Info describes a stored object.
type Info struct {
	Key         string
	Size        int64
	ModTime     time.Time
	ContentType string
}

// Object is an open stored object: it seeks, so http.ServeContent answers
// range requests from it.
type Object interface {
	io.ReadSeekCloser
}

// Store is where the site keeps its files. Every method is safe for
// concurrent use.
type Store interface {
	// Put stores everything r yields under key, streaming it (memory does
	// not grow with the size). size is the exact length when known, or -1.
	// Nothing is visible under key unless Put returns nil.
	Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) error
	// Open opens the object under key for reading (ErrNotFound when none).
	Open(ctx context.Context, key string) (Object, Info, error)
	// Stat describes the object under key (ErrNotFound when none).
	Stat(ctx context.Context, key string) (Info, error)
	// Delete removes the object under key; a missing one is not an error.
	Delete(ctx context.Context, key string) error
	// Move renames an object (server-side on S3); the moved object's
	// ModTime is the time of the move.
	Move(ctx context.Context, from, to string) error
	// List calls fn for every object whose key starts with prefix, until fn
	// returns an error (which List returns).
	List(ctx context.Context, prefix string, fn func(Info) error) error
	// URL returns a presigned GET URL valid for expiry (at most
	// MaxURLExpiry), or ErrNoURL when the backend has none.
	URL(ctx context.Context, key string, expiry time.Duration) (string, error)
	// Name says where the files are, for logs and commands ("local
	// directory /data", "s3://bucket at host").
	Name() string
}

// tempPrefix starts the name of a local upload in progress; no key may
// have a segment starting with it.
const tempPrefix = ".upload-"

// ValidKey reports whether key is a key the site may store: 1 to 512 bytes
// of printable characters without a backslash, made of non-empty
// slash-separated segments, none of them "." or "..", none naming an upload
// in progress. A key cannot leave the storage root on either backend.
func ValidKey(key string) bool {
	if key == "" || len(key) > 512 {
		return false
	}
	for _, r := range key {
		if r < 0x20 || r == 0x7f || r == '\\' || r == 0xfffd {
			return false
		}
	}
	for seg := range strings.SplitSeq(key, "/") {
		if seg == "" || seg == "." || seg == ".." || strings.HasPrefix(seg, tempPrefix) {
			return false
		}
	}
	return true
}

// validPrefix reports whether a List prefix is a key or the start of one.
func validPrefix(prefix string) bool {
	if prefix == "" {
		return true
	}
	return ValidKey(strings.TrimSuffix(prefix, "/")) || ValidKey(prefix+"x")
}

// checkExpiry bounds a presigned URL's life.
func checkExpiry(d time.Duration) time.Duration {
	if d <= 0 || d > MaxURLExpiry {
		return MaxURLExpiry
	}
	return d
}

// ReaderWithContext reads r until ctx ends, then fails: a copy through it
// (an upload whose request was cancelled, a backup stopped) ends at its
// next read.
func ReaderWithContext(ctx context.Context, r io.Reader) io.Reader {
	return ctxReader{ctx: ctx, r: r}
}

type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
