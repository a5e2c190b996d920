package web

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"tribe/internal/content"
	"tribe/internal/kit/kittest"
)

func getBody(t *testing.T, url string) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, b)
	}
	return resp, b
}

// unzipAll opens the archive and reads every entry fully, so archive/zip
// checks each entry's CRC-32 and size.
func unzipAll(t *testing.T, b []byte) map[string][]byte {
	t.Helper()
	_, files := kittest.Unpack(t, b)
	return files
}

func TestKitDownloadHeaders(t *testing.T) {
	t.Parallel()
	srv := newPublicServer(t, nil)
	resp, body := getBody(t, srv.URL+kitPath)
	for header, want := range map[string]string{
		"Content-Type":        "application/zip",
		"Content-Disposition": `attachment; filename="client-side-mcp-tools.zip"`,
		"Cache-Control":       "public, max-age=300",
		"Content-Length":      strconv.Itoa(len(body)),
	} {
		if got := resp.Header.Get(header); got != want {
			t.Errorf("%s = %q, want %q", header, got, want)
		}
	}
	etag := resp.Header.Get("ETag")
	if !strings.HasPrefix(etag, `"`) || etag != etagOf(body) {
		t.Fatalf("ETag = %q, want the strong tag of the body %q", etag, etagOf(body))
	}

	req, _ := http.NewRequest(http.MethodGet, srv.URL+kitPath, nil)
	req.Header.Set("If-None-Match", etag)
	cached, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	cached.Body.Close()
	if cached.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match with the ETag: %d, want 304", cached.StatusCode)
	}

	head, err := http.Head(srv.URL + kitPath)
	if err != nil {
		t.Fatal(err)
	}
	head.Body.Close()
	if head.StatusCode != http.StatusOK || head.Header.Get("Content-Type") != "application/zip" {
		t.Errorf("HEAD: %d %q", head.StatusCode, head.Header.Get("Content-Type"))
	}

	_, again := getBody(t, srv.URL+kitPath)
	if !bytes.Equal(body, again) {
		t.Error("two downloads differ; the archive should be built once")
	}
}

func TestKitArchiveMatchesServedDocuments(t *testing.T) {
	t.Parallel()
	srv := newPublicServer(t, nil)
	_, body := getBody(t, srv.URL+kitPath)
	files := unzipAll(t, body)

	// The full table of contents is internal/kit's test; here every resource
	// entry must be present and equal the bytes the site serves.
	served := map[string]string{
		"resources/resources.json":    content.ResourcesPath,
		"resources/search-index.json": content.SearchIndexPath,
	}
	for _, name := range content.PublicFiles() {
		served["resources/"+name] = content.ContentPrefix + name
	}
	for entry, path := range served {
		_, doc := getBody(t, srv.URL+path)
		if !bytes.Equal(files["client-side-mcp-tools/"+entry], doc) {
			t.Errorf("%s in the archive is not byte-identical to %s", entry, path)
		}
	}
	if !strings.Contains(string(files["client-side-mcp-tools/src/mcpLocal.ts"]), "export async function callTool") {
		t.Error("src/mcpLocal.ts does not hold the tools")
	}
}

func TestKitArchiveIsNeverStale(t *testing.T) {
	t.Parallel()
	dir := contentCopy(t, content.ServicesFile, func(s string) string {
		return strings.Replace(s, `"price": 299`, `"price": 311`, 1)
	})
	srv := newPublicServer(t, map[string]string{"TRIBE_CONTENT_DIR": dir})
	_, body := getBody(t, srv.URL+kitPath)
	files := unzipAll(t, body)
	services := files["client-side-mcp-tools/resources/services.json"]
	if !bytes.Contains(services, []byte(`"price": 311`)) || bytes.Contains(services, []byte(`"price": 299`)) {
		t.Error("services.json in the archive does not carry the owner's edited price")
	}
	if !bytes.Contains(files["client-side-mcp-tools/resources/search-index.json"], []byte("$311")) {
		t.Error("search-index.json in the archive does not carry the edited price")
	}

	_, defaults := getBody(t, newPublicServer(t, nil).URL+kitPath)
	if bytes.Equal(body, defaults) {
		t.Error("the archive for edited content equals the default one")
	}
}

// TestKitArchivePassesUnzip checks the served bytes with Info-ZIP, the tool
// most users will open the download with, not only with Go's reader.
func TestKitArchivePassesUnzip(t *testing.T) {
	t.Parallel()
	unzip, err := exec.LookPath("unzip")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("unzip is not installed; CI must run this check (apt-get install -y unzip)")
		}
		t.Skip("unzip is not installed")
	}
	srv := newPublicServer(t, nil)
	_, body := getBody(t, srv.URL+kitPath)
	file := filepath.Join(t.TempDir(), "client-side-mcp-tools.zip")
	if err := os.WriteFile(file, body, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(unzip, "-t", file).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "No errors detected") {
		t.Fatalf("unzip -t: %v\n%s", err, out)
	}
}
