package kit

import (
	"archive/zip"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	kitfiles "tribe/content/kit"
	"tribe/internal/content"
	"tribe/internal/content/contenttest"
	"tribe/internal/kit/kittest"
)

// wantEntries is the archive's table of contents, in archive order.
var wantEntries = []string{
	"client-side-mcp-tools/README.md",
	"client-side-mcp-tools/example.ts",
	"client-side-mcp-tools/resources/about.json",
	"client-side-mcp-tools/resources/contact.json",
	"client-side-mcp-tools/resources/projects.json",
	"client-side-mcp-tools/resources/resources.json",
	"client-side-mcp-tools/resources/search-index.json",
	"client-side-mcp-tools/resources/services.json",
	"client-side-mcp-tools/resources/stack.json",
	"client-side-mcp-tools/src/mcpLocal.ts",
}

var day = time.Date(2025, 6, 18, 9, 30, 0, 0, time.UTC)

func loadSite(t *testing.T, dir string) *content.Site {
	t.Helper()
	site, err := content.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return site
}

func TestArchiveHoldsKitAndResources(t *testing.T) {
	site := loadSite(t, "")
	b, err := Build(site, day)
	if err != nil {
		t.Fatal(err)
	}
	names, files := kittest.Unpack(t, b)
	if !slices.Equal(names, wantEntries) {
		t.Fatalf("entries:\n%s\nwant:\n%s", strings.Join(names, "\n"), strings.Join(wantEntries, "\n"))
	}

	zr, _ := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	for _, f := range zr.File {
		if f.Method != zip.Deflate {
			t.Errorf("%s: method %d, want deflate", f.Name, f.Method)
		}
		if !f.Modified.Equal(time.Date(2025, 6, 18, 0, 0, 0, 0, time.UTC)) {
			t.Errorf("%s: modified %v, want the build day", f.Name, f.Modified)
		}
		if f.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v, want 0644", f.Name, f.Mode())
		}
	}

	for _, src := range []string{"README.md", "example.ts", "src/mcpLocal.ts"} {
		want, err := fs.ReadFile(kitfiles.FS(), src)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(files[Root+src], want) {
			t.Errorf("%s differs from content/kit/%s", Root+src, src)
		}
	}
	for _, name := range append(content.PublicFiles(), content.ResourcesFile) {
		raw, _ := site.Raw(name)
		entry := Root + "resources/" + name[strings.LastIndex(name, "/")+1:]
		if !bytes.Equal(files[entry], raw) {
			t.Errorf("%s differs from the loaded %s", entry, name)
		}
	}
	if !bytes.Equal(files[Root+"resources/search-index.json"], site.IndexJSON()) {
		t.Error("search-index.json differs from the site's index")
	}
	if !strings.Contains(string(files[Root+"README.md"]), "2025-06-18") {
		t.Error("README does not state the specification version 2025-06-18")
	}
}

func TestArchiveIsDeterministic(t *testing.T) {
	site := loadSite(t, "")
	a, err := Build(site, day)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(site, day.Add(12*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Error("two builds of the same content on the same day differ")
	}
}

func TestArchiveFollowsContent(t *testing.T) {
	dir := contenttest.Copy(t)
	edited := strings.Replace(readFile(t, dir, "services.json"), `"price": 299`, `"price": 311`, 1)
	writeFile(t, dir, "services.json", edited)
	site := loadSite(t, dir)
	b, err := Build(site, day)
	if err != nil {
		t.Fatal(err)
	}
	_, files := kittest.Unpack(t, b)
	if got := string(files[Root+"resources/services.json"]); got != edited {
		t.Error("services.json in the archive is not the edited file")
	}
	if !bytes.Contains(files[Root+"resources/search-index.json"], []byte("$311")) {
		t.Error("search index in the archive does not carry the edited price")
	}
}

func readFile(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t *testing.T, dir, name, data string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
