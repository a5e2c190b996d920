package storage

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"strings"
)

// Migrated counts what Migrate did.
type Migrated struct {
	Copied  int   // objects written to the destination
	Present int   // objects already there, same size and checksum
	Bytes   int64 // bytes copied
}

// Migrate copies every object of src under prefix, except those skip
// names, to dst, unless dst already holds it with the same size and
// SHA-256, so a second run copies nothing. Each copy is read back and
// checked (size and checksum) before it counts; a mismatch stops the run
// with an error. note, when not nil, is told each key and what was done.
func Migrate(ctx context.Context, src, dst Store, prefix string, skip func(key string) bool, note func(key, what string)) (Migrated, error) {
	var m Migrated
	var keys []Info
	if err := src.List(ctx, prefix, func(i Info) error {
		if skip == nil || !skip(i.Key) {
			keys = append(keys, i)
		}
		return nil
	}); err != nil {
		return m, err
	}
	for _, in := range keys {
		sum, size, err := checksum(ctx, src, in.Key)
		if err != nil {
			return m, err
		}
		if dsum, dsize, err := checksum(ctx, dst, in.Key); err == nil && dsize == size && bytes.Equal(dsum, sum) {
			m.Present++
			tell(note, in.Key, "already there")
			continue
		}
		f, _, err := src.Open(ctx, in.Key)
		if err != nil {
			return m, err
		}
		err = dst.Put(ctx, in.Key, f, size, in.ContentType)
		_ = f.Close()
		if err != nil {
			return m, err
		}
		dsum, dsize, err := checksum(ctx, dst, in.Key)
		if err != nil {
			return m, fmt.Errorf("verify %s: %w", in.Key, err)
		}
		if dsize != size || !bytes.Equal(dsum, sum) {
			return m, fmt.Errorf("verify %s: the copy has %d bytes, checksum %x; the original %d bytes, checksum %x", in.Key, dsize, dsum, size, sum)
		}
		m.Copied++
		m.Bytes += size
		tell(note, in.Key, fmt.Sprintf("copied, %d bytes, sha256 %x", size, sum[:8]))
	}
	return m, nil
}

func tell(note func(key, what string), key, what string) {
	if note != nil {
		note(key, what)
	}
}

// checksum reads the object under key whole: its SHA-256 and size.
func checksum(ctx context.Context, s Store, key string) ([]byte, int64, error) {
	f, _, err := s.Open(ctx, key)
	if err != nil {
		return nil, 0, err
	}
	defer func() { _ = f.Close() }()
	h := sha256.New()
	n, err := io.Copy(h, ctxReader{ctx: ctx, r: f})
	if err != nil {
		return nil, 0, fmt.Errorf("read %s: %w", key, err)
	}
	return h.Sum(nil), n, nil
}

// InFolder reports whether key lies in a folder whose name starts with a
// dot (such as avatars/.replaced/): files out of service.
func InFolder(key string) bool {
	segs := strings.Split(key, "/")
	for _, s := range segs[:len(segs)-1] {
		if strings.HasPrefix(s, ".") {
			return true
		}
	}
	return false
}
