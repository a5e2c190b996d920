package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// Local keeps the files in a directory of this machine (the data
// directory): the key "avatars/x.jpg" is the file avatars/x.jpg under it.
type Local struct {
	root string
}

// NewLocal returns the store over the directory root (created on first Put).
func NewLocal(root string) *Local { return &Local{root: root} }

// Root is the directory the files live in.
func (l *Local) Root() string { return l.root }

// Name says where the files are.
func (l *Local) Name() string { return "local directory " + l.root }

// Path is the file a key is stored in (ErrInvalidKey for a bad key).
func (l *Local) Path(key string) (string, error) {
	if !ValidKey(key) {
		return "", ErrInvalidKey
	}
	return filepath.Join(l.root, filepath.FromSlash(key)), nil
}

// Put writes r into a temporary file beside the target, then renames it
// into place: a reader sees the whole file or none.
func (l *Local) Put(ctx context.Context, key string, r io.Reader, size int64, _ string) error {
	p, err := l.Path(key)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
		return fmt.Errorf("store %s: %w", key, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), tempPrefix+"*")
	if err != nil {
		return fmt.Errorf("store %s: %w", key, err)
	}
	done := false
	defer func() {
		if !done {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	n, err := io.Copy(tmp, ctxReader{ctx: ctx, r: r})
	if err != nil {
		return fmt.Errorf("store %s: %w", key, err)
	}
	if size >= 0 && n != size {
		return fmt.Errorf("store %s: %w (%d of %d bytes)", key, ErrShortWrite, n, size)
	}
	if err := errors.Join(tmp.Sync(), tmp.Close()); err != nil {
		return fmt.Errorf("store %s: %w", key, err)
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		return fmt.Errorf("store %s: %w", key, err)
	}
	done = true
	return nil
}

// Open opens the file under key.
func (l *Local) Open(_ context.Context, key string) (Object, Info, error) {
	p, err := l.Path(key)
	if err != nil {
		return nil, Info{}, err
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, Info{}, notFoundOr(key, err)
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		_ = f.Close()
		return nil, Info{}, ErrNotFound
	}
	return f, localInfo(key, st), nil
}

// Stat describes the file under key.
func (l *Local) Stat(_ context.Context, key string) (Info, error) {
	p, err := l.Path(key)
	if err != nil {
		return Info{}, err
	}
	st, err := os.Stat(p)
	if err != nil {
		return Info{}, notFoundOr(key, err)
	}
	if !st.Mode().IsRegular() {
		return Info{}, ErrNotFound
	}
	return localInfo(key, st), nil
}

// Delete removes the file under key.
func (l *Local) Delete(_ context.Context, key string) error {
	p, err := l.Path(key)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("delete %s: %w", key, err)
	}
	return nil
}

// Move renames the file and stamps it with the time of the move.
func (l *Local) Move(_ context.Context, from, to string) error {
	src, err := l.Path(from)
	if err != nil {
		return err
	}
	dst, err := l.Path(to)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o750); err != nil {
		return fmt.Errorf("move %s: %w", from, err)
	}
	if err := os.Rename(src, dst); err != nil {
		return notFoundOr(from, err)
	}
	now := time.Now()
	_ = os.Chtimes(dst, now, now)
	return nil
}

// List walks the directory under prefix, in key order, skipping uploads in
// progress.
func (l *Local) List(ctx context.Context, prefix string, fn func(Info) error) error {
	if !validPrefix(prefix) {
		return ErrInvalidKey
	}
	// Walk from the deepest directory the prefix names whole.
	start := l.root
	if i := strings.LastIndex(prefix, "/"); i >= 0 {
		start = filepath.Join(l.root, filepath.FromSlash(prefix[:i]))
	}
	err := filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, rerr := filepath.Rel(l.root, p)
		if rerr != nil {
			return rerr
		}
		key := filepath.ToSlash(rel)
		if d.IsDir() {
			if p != start && !strings.HasPrefix(key+"/", prefix) && !strings.HasPrefix(prefix, key+"/") {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !strings.HasPrefix(key, prefix) || !ValidKey(key) {
			return nil
		}
		st, serr := d.Info()
		if serr != nil {
			return nil // removed meanwhile
		}
		return fn(localInfo(key, st))
	})
	if err != nil {
		return fmt.Errorf("list %s: %w", prefix, err)
	}
	return nil
}

// URL: a local file has no URL of its own; the site streams it.
func (l *Local) URL(context.Context, string, time.Duration) (string, error) {
	return "", ErrNoURL
}

func localInfo(key string, st fs.FileInfo) Info {
	ct := mime.TypeByExtension(path.Ext(key))
	if ct == "" {
		ct = "application/octet-stream"
	}
	return Info{Key: key, Size: st.Size(), ModTime: st.ModTime(), ContentType: ct}
}

func notFoundOr(key string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return ErrNotFound
	}
	return fmt.Errorf("open %s: %w", key, err)
}
