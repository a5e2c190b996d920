package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// S3Options locate a bucket of an S3-compatible service.
type S3Options struct {
	Bucket string
	// Endpoint is host[:port], without a scheme; Secure says https.
	Endpoint string
	Secure   bool
	Region   string
	// PathStyle addresses the bucket in the path (host/bucket/key), as
	// most self-hosted servers need, instead of as a subdomain.
	PathStyle       bool
	AccessKeyID     string
	SecretAccessKey string
	// Transport replaces the default HTTP transport (tests).
	Transport http.RoundTripper
}

// partSize is the part of a multipart upload of unknown length: the most
// one upload holds in memory (the client's default for an unknown length
// is ~550 MB).
const partSize = 16 << 20

// S3 keeps the files in a private bucket of an S3-compatible service.
type S3 struct {
	c      *minio.Client
	bucket string
	name   string
}

// NewS3 returns the store over the bucket; it makes no request.
func NewS3(o S3Options) (*S3, error) {
	lookup := minio.BucketLookupDNS
	if o.PathStyle {
		lookup = minio.BucketLookupPath
	}
	c, err := minio.New(o.Endpoint, &minio.Options{
		Creds:        credentials.NewStaticV4(o.AccessKeyID, o.SecretAccessKey, ""),
		Secure:       o.Secure,
		Region:       o.Region,
		BucketLookup: lookup,
		Transport:    o.Transport,
	})
	if err != nil {
		return nil, fmt.Errorf("S3 endpoint %q: %w", o.Endpoint, err)
	}
	return &S3{c: c, bucket: o.Bucket, name: "s3://" + o.Bucket + " at " + o.Endpoint}, nil
}

// Name says where the files are.
func (s *S3) Name() string { return s.name }

// Check proves the bucket exists and the keys may read it.
func (s *S3) Check(ctx context.Context) error {
	ok, err := s.c.BucketExists(ctx, s.bucket)
	if err != nil {
		return fmt.Errorf("%s: %w", s.name, err)
	}
	if !ok {
		return fmt.Errorf("%s: the bucket does not exist; create it (private) first", s.name)
	}
	return nil
}

// Put uploads r. S3 makes an object visible only once its upload is
// complete, so an interrupted upload leaves nothing under key; the parts of
// an interrupted multipart upload are removed here (and by the bucket's
// lifecycle rule if this process dies first, see docs/operations.md).
func (s *S3) Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) error {
	if !ValidKey(key) {
		return ErrInvalidKey
	}
	if contentType == "" {
		contentType = "application/octet-stream"
	}
	cr := &countingReader{r: ctxReader{ctx: ctx, r: r}}
	_, err := s.c.PutObject(ctx, s.bucket, key, cr, size, minio.PutObjectOptions{
		ContentType:    contentType,
		PartSize:       partSize,
		SendContentMd5: false,
	})
	if err != nil {
		cleanup, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		_ = s.c.RemoveIncompleteUpload(cleanup, s.bucket, key)
		if size >= 0 && cr.n < size && ctx.Err() == nil {
			return fmt.Errorf("store %s: %w (%d of %d bytes): %v", key, ErrShortWrite, cr.n, size, err)
		}
		return fmt.Errorf("store %s: %w", key, err)
	}
	return nil
}

// Open opens the object; it reads lazily and seeks with ranged requests.
func (s *S3) Open(ctx context.Context, key string) (Object, Info, error) {
	if !ValidKey(key) {
		return nil, Info{}, ErrInvalidKey
	}
	obj, err := s.c.GetObject(ctx, s.bucket, key, minio.GetObjectOptions{})
	if err != nil {
		return nil, Info{}, s.fail(key, err)
	}
	st, err := obj.Stat()
	if err != nil {
		_ = obj.Close()
		return nil, Info{}, s.fail(key, err)
	}
	return obj, s3Info(st), nil
}

// Stat describes the object.
func (s *S3) Stat(ctx context.Context, key string) (Info, error) {
	if !ValidKey(key) {
		return Info{}, ErrInvalidKey
	}
	st, err := s.c.StatObject(ctx, s.bucket, key, minio.StatObjectOptions{})
	if err != nil {
		return Info{}, s.fail(key, err)
	}
	return s3Info(st), nil
}

// Delete removes the object (S3 answers a missing key with success).
func (s *S3) Delete(ctx context.Context, key string) error {
	if !ValidKey(key) {
		return ErrInvalidKey
	}
	if err := s.c.RemoveObject(ctx, s.bucket, key, minio.RemoveObjectOptions{}); err != nil {
		if errors.Is(s.fail(key, err), ErrNotFound) {
			return nil
		}
		return fmt.Errorf("delete %s: %w", key, err)
	}
	return nil
}

// Move copies the object on the server, then deletes the original.
func (s *S3) Move(ctx context.Context, from, to string) error {
	if !ValidKey(from) || !ValidKey(to) {
		return ErrInvalidKey
	}
	_, err := s.c.CopyObject(ctx,
		minio.CopyDestOptions{Bucket: s.bucket, Object: to},
		minio.CopySrcOptions{Bucket: s.bucket, Object: from})
	if err != nil {
		return s.fail(from, err)
	}
	return s.Delete(ctx, from)
}

// List lists the objects under prefix, in key order.
func (s *S3) List(ctx context.Context, prefix string, fn func(Info) error) error {
	if !validPrefix(prefix) {
		return ErrInvalidKey
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // stops the listing when fn ends it early
	for o := range s.c.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Prefix: prefix, Recursive: true}) {
		if o.Err != nil {
			return fmt.Errorf("list %s: %w", prefix, o.Err)
		}
		if err := fn(s3Info(o)); err != nil {
			return err
		}
	}
	return nil
}

// URL presigns a GET of the object for expiry (at most MaxURLExpiry). It
// does not check that the object exists.
func (s *S3) URL(ctx context.Context, key string, expiry time.Duration) (string, error) {
	if !ValidKey(key) {
		return "", ErrInvalidKey
	}
	u, err := s.c.PresignedGetObject(ctx, s.bucket, key, checkExpiry(expiry), nil)
	if err != nil {
		return "", fmt.Errorf("presign %s: %w", key, err)
	}
	return u.String(), nil
}

func (s *S3) fail(key string, err error) error {
	switch minio.ToErrorResponse(err).Code {
	case minio.NoSuchKey, "NotFound":
		return ErrNotFound
	}
	return fmt.Errorf("%s %s: %w", s.name, key, err)
}

func s3Info(o minio.ObjectInfo) Info {
	return Info{Key: o.Key, Size: o.Size, ModTime: o.LastModified, ContentType: o.ContentType}
}

// countingReader counts what the upload read, to tell a short body, and
// wraps every read error but io.EOF: the S3 client takes a bare
// io.ErrUnexpectedEOF (what a multipart request body says when its client
// hangs up) for the end of the data, and would store the truncated upload
// as a whole object.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("read upload: %w", err)
	}
	return n, err
}
