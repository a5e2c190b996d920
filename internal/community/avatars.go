package community

import (
	"context"
	"fmt"
	"io"
	"time"

	"tribe/internal/errs"
	"tribe/internal/ratelimit"
	"tribe/internal/storage"
	"tribe/internal/store"
)

// Per-account avatar uploads: a few at once (trying out pictures), then one
// every AvatarUploadEvery. Each costs a decode of up to MaxAvatarDecoded
// bytes, so one account must not keep the decoders busy.
const (
	AvatarUploadBurst = 5
	AvatarUploadEvery = 30 * time.Second
)

// AvatarUploadsMessage is the 429 answer when AllowUpload refuses.
const AvatarUploadsMessage = "Too many avatar uploads. Please wait a moment and try again."

// avatarSlotWait is how long an upload waits for a free decoder before the
// member is asked to try again; the waiting upload holds its bytes meanwhile.
const avatarSlotWait = 10 * time.Second

// ErrAvatarBusy: every decoder stayed busy for avatarSlotWait.
var ErrAvatarBusy = errs.New(errs.Unavailable, "The server is busy processing pictures. Please try again in a moment.")

// Avatars stores members' avatars in the site's file store and bounds how many
// uploads are decoded at once, each of which may take MaxAvatarDecoded
// bytes of memory and a core. The web layer builds one when the handler is
// built and shares it between requests; it is safe for concurrent use.
type Avatars struct {
	files   storage.Store
	slots   chan struct{}
	wait    time.Duration
	uploads *ratelimit.Limiter
}

// NewAvatars returns the avatar store over files (their keys start with
// "avatars/", the AvatarDir of a local data directory) that decodes at most
// decodes uploads at once (DefaultAvatarDecodes when decodes < 1).
func NewAvatars(files storage.Store, decodes int, opts ...ratelimit.Option) *Avatars {
	if decodes < 1 {
		decodes = DefaultAvatarDecodes
	}
	return &Avatars{
		files:   files,
		slots:   make(chan struct{}, decodes),
		wait:    avatarSlotWait,
		uploads: ratelimit.New(AvatarUploadBurst, AvatarUploadEvery, opts...),
	}
}

// Files is the store the avatar files live in.
func (a *Avatars) Files() storage.Store { return a.files }

// AllowUpload spends one upload of the account's allowance; when none is
// left it reports false and how long until the next (the caller answers 429
// with Retry-After before reading the body).
func (a *Avatars) AllowUpload(userID string) (bool, time.Duration) {
	return a.uploads.Allow(userID)
}

// Render reads and checks an upload like RenderAvatar, then decodes it when
// a decoder is free: it waits for one while ctx lasts, at most
// avatarSlotWait (then ErrAvatarBusy). The upload is read before waiting,
// so a slow client never holds a decoder, and a client that hangs up frees
// its decoder at the decoder's next read (decodeAvatar).
func (a *Avatars) Render(ctx context.Context, upload io.Reader) ([]byte, string, error) {
	raw, err := readAvatar(upload)
	if err != nil {
		return nil, "", err
	}
	t := time.NewTimer(a.wait)
	defer t.Stop()
	select {
	case a.slots <- struct{}{}:
	case <-t.C:
		return nil, "", ErrAvatarBusy
	case <-ctx.Done():
		return nil, "", fmt.Errorf("wait to decode avatar: %w", ctx.Err())
	}
	defer func() { <-a.slots }()
	return renderAvatar(ctx, raw)
}

// Set renders the upload (Render), stores it under a random name, points
// the profile at it and deletes the previous file.
func (a *Avatars) Set(ctx context.Context, db *store.DB, userID string, upload io.Reader) (*Profile, error) {
	data, ext, err := a.Render(ctx, upload)
	if err != nil {
		return nil, err
	}
	return storeAvatar(ctx, db, a.files, userID, data, ext)
}

// Remove clears the profile's avatar and deletes its file.
func (a *Avatars) Remove(ctx context.Context, db *store.DB, userID string) (*Profile, error) {
	return RemoveAvatar(ctx, db, a.files, userID)
}

// Open opens a stored avatar by its public name (OpenAvatar).
func (a *Avatars) Open(ctx context.Context, name string) (storage.Object, storage.Info, string, error) {
	return OpenAvatar(ctx, a.files, name)
}
