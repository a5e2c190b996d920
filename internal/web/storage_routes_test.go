package web

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"tribe/internal/storage"
	"tribe/internal/storage/storagetest"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// eachFileStore runs f with the members' environment over each file store:
// the data directory, and a bucket of a real S3 server (versitygw; the S3
// run skips locally without it and fails under CI=true).
func eachFileStore(t *testing.T, f func(t *testing.T, env map[string]string)) {
	t.Run("local", func(t *testing.T) { f(t, membersEnv()) })
	t.Run("s3", func(t *testing.T) { f(t, s3Env(t, storagetest.StartT(t))) })
}

// s3Env is the members' environment keeping files in a new bucket of srv.
func s3Env(t *testing.T, srv *storagetest.Server) map[string]string {
	t.Helper()
	bucket, err := srv.NewBucket(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	env := membersEnv()
	env["TRIBE_STORAGE_URL"] = "s3://" + bucket + "?endpoint=http://" + srv.Endpoint + "&region=" + storagetest.Region + "&path_style=1"
	env["TRIBE_S3_ACCESS_KEY_ID"] = storagetest.AccessKeyID
	env["TRIBE_S3_SECRET_ACCESS_KEY"] = storagetest.SecretAccessKey
	return env
}

// TestAvatarThroughEitherStore: an avatar is stored, served with its caching
// headers and ranges, and taken out of service the same way on the data
// directory and on S3; and with S3, one uploaded through one instance is
// served by another instance on the same database and bucket (with the
// data directory each instance has its own, so it is not).
func TestAvatarThroughEitherStore(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		eachFileStore(t, func(t *testing.T, env map[string]string) {
			env["TRIBE_DATA_DIR"] = t.TempDir()
			one := newTestSite(t, db, env)
			env["TRIBE_DATA_DIR"] = t.TempDir()
			two := newTestSite(t, db, env)
			u := one.user(t.Name()[strings.LastIndex(t.Name(), "/")+1:] + "@example.com")
			r := one.call(u, "POST", "/api/profile/avatar", avatarUpload(t, "avatar", "me.png", testPNG(t, 300, 200)))
			if r.status != 200 {
				t.Fatalf("upload: %d %s", r.status, r.body)
			}
			url := r.json["profile"].(map[string]any)["avatar_url"].(string)
			key := "avatars/" + strings.TrimPrefix(url, "/avatars/")
			info, err := one.s.Services.Files.Stat(context.Background(), key)
			if err != nil || info.Size < 100 {
				t.Fatalf("stored object %s: %+v %v", key, info, err)
			}

			shared := env["TRIBE_STORAGE_URL"] != ""
			img := two.call(testUser{}, "GET", url, nil)
			if shared != (img.status == 200) {
				t.Fatalf("served by the other instance: %d (files shared: %v)", img.status, shared)
			}
			img = one.call(testUser{}, "GET", url, nil)
			if img.status != 200 || img.header.Get("Content-Type") != "image/jpeg" || img.header.Get("X-Content-Type-Options") != "nosniff" ||
				img.header.Get("Cache-Control") != "public, max-age=31536000, immutable" || img.header.Get("Last-Modified") == "" ||
				int64(len(img.body)) != info.Size {
				t.Fatalf("served: %d %v (%d bytes, stored %d)", img.status, img.header, len(img.body), info.Size)
			}
			req, _ := http.NewRequest("GET", one.srv.URL+url, nil)
			req.Header.Set("Range", "bytes=2-9")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			part := replyOf(resp)
			if part.status != http.StatusPartialContent || part.body != img.body[2:10] {
				t.Errorf("range: %d, %q", part.status, part.body)
			}
			req, _ = http.NewRequest("GET", one.srv.URL+url, nil)
			req.Header.Set("If-Modified-Since", img.header.Get("Last-Modified"))
			if resp, err := http.DefaultClient.Do(req); err != nil || replyOf(resp).status != http.StatusNotModified {
				t.Errorf("conditional GET: %v %v", resp, err)
			}

			// Replacing takes the old picture out of service at once.
			r = one.call(u, "POST", "/api/profile/avatar", avatarUpload(t, "avatar", "me.png", testPNG(t, 64, 64)))
			if r.status != 200 {
				t.Fatalf("replace: %d %s", r.status, r.body)
			}
			if got := one.call(testUser{}, "GET", url, nil); got.status != 404 {
				t.Errorf("replaced avatar served: %d", got.status)
			}
			if _, err := one.s.Services.Files.Stat(context.Background(), key); !errors.Is(err, storage.ErrNotFound) {
				t.Errorf("replaced object still under its key: %v", err)
			}
			if r := one.call(u, "DELETE", "/api/profile/avatar", nil); r.status != 200 {
				t.Fatalf("delete: %d %s", r.status, r.body)
			}
			for _, p := range []string{"/avatars/" + strings.TrimPrefix(key, "avatars/"), "/avatars/..%2ftribe.db", "/avatars/.replaced", "/avatars/0123456789abcdef0123456789abcdef.jpg"} {
				if got := two.call(testUser{}, "GET", p, nil); got.status != 404 {
					t.Errorf("%s: %d, want 404", p, got.status)
				}
			}
		})
	})
}

// TestSignInLockoutIsSharedBetweenInstances: with PostgreSQL, failed
// sign-ins alternating between two instances meet the back-off at the fifth
// failure, as on one instance (each instance counting its own would let
// ten through).
func TestSignInLockoutIsSharedBetweenInstances(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t, storetest.NewPostgresSchema(t), t.TempDir())
	one, two := newTestSite(t, db, nil), newTestSite(t, db, nil)
	sites := []*browser{newBrowser(t, one.srv), newBrowser(t, two.srv)}
	sites[0].signUp("Ada", "ada@example.com", "analytical")
	for i := range 5 {
		if r := sites[i%2].signIn("ada@example.com", "guess"); r.status != 401 {
			t.Fatalf("failure %d through instance %d: %d %s", i+1, i%2+1, r.status, r.body)
		}
	}
	for i, b := range sites {
		if r := b.signIn("ada@example.com", "analytical"); r.status != http.StatusTooManyRequests {
			t.Fatalf("after five failures, instance %d answered %d %s; want 429", i+1, r.status, r.body)
		}
	}
}

// TestServeMediaRedirectsOrStreams: a large file is answered, after the
// route's access check, with a presigned link of at most 15 minutes on S3
// (which fetches the file without any cookie, while the bare object URL is
// refused: the bucket is private), or streamed with ranges from the data
// directory; neither answer may be kept by a shared cache.
func TestServeMediaRedirectsOrStreams(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, files storage.Store) {
		ctx := context.Background()
		body := strings.Repeat("recording ", 1000)
		if err := files.Put(ctx, "media/talk.mp4", strings.NewReader(body), int64(len(body)), "video/mp4"); err != nil {
			t.Fatal(err)
		}
		h := handlerFunc(func(w http.ResponseWriter, r *http.Request) error {
			return serveMedia(w, r, files, r.URL.Query().Get("key"), "video/mp4", errNoMedia)
		})
		srv := httptest.NewServer(h)
		defer srv.Close()
		for _, key := range []string{"media/none.mp4", "../tribe.db", ""} {
			resp, err := noRedirects.Get(srv.URL + "/?key=" + url.QueryEscape(key))
			if err != nil {
				t.Fatal(err)
			}
			if r := replyOf(resp); r.status != 404 {
				t.Errorf("key %q: %d, want 404", key, r.status)
			}
		}
		req, _ := http.NewRequest("GET", srv.URL+"/?key=media/talk.mp4", nil)
		req.Header.Set("Range", "bytes=10-18")
		resp, err := noRedirects.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		r := replyOf(resp)
		if r.header.Get("Cache-Control") != "private, no-store" {
			t.Errorf("Cache-Control %q", r.header.Get("Cache-Control"))
		}
		switch files.(type) {
		case *storage.Local:
			if r.status != http.StatusPartialContent || r.body != body[10:19] {
				t.Errorf("streamed range: %d %q", r.status, r.body)
			}
		default:
			loc := r.header.Get("Location")
			if r.status != http.StatusFound || !strings.Contains(loc, "X-Amz-Expires=600") {
				t.Fatalf("redirect: %d %q", r.status, loc)
			}
			got, err := http.Get(loc)
			if err != nil {
				t.Fatal(err)
			}
			if g := replyOf(got); g.status != 200 || g.body != body {
				t.Errorf("presigned link: %d (%d bytes)", g.status, len(g.body))
			}
			bare, err := http.Get(loc[:strings.Index(loc, "?")])
			if err != nil {
				t.Fatal(err)
			}
			if b := replyOf(bare); b.status == 200 {
				t.Error("the bucket answered without a signature")
			}
		}
	})
}
