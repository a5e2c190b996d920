package content

import (
	"encoding/json"
	"errors"
	"io/fs"
	"testing"
	"testing/fstest"

	contentfiles "tribe/content"
)

// contentFiles are the files LoadFS reads, in the order the fuzzer picks them.
var contentFiles = []string{AboutFile, ServicesFile, ProjectsFile, StackFile, ContactFile, ResourcesFile}

// FuzzLoadFS replaces one content file of the defaults with arbitrary bytes.
// Whatever the owner writes, loading must not panic, and must either load a
// site whose search index is JSON or report problems that each name the file.
func FuzzLoadFS(f *testing.F) {
	defaults := map[string][]byte{}
	for _, name := range contentFiles {
		b, err := fs.ReadFile(contentfiles.FS(), name)
		if err != nil {
			f.Fatal(err)
		}
		defaults[name] = b
	}
	for i, name := range contentFiles {
		f.Add(uint8(i), defaults[name])
	}
	for _, seed := range []string{
		``, `null`, `[]`, `{}`, `{"sessions": [{"price": "299"}]}`, `{"sessions": [1, {"price": -1}]}`,
		`{"a": {"b": [[[`, `{"name": "\u0000"}`, "\xff\xfe", `{"projects": [{"links": {"github": "javascript:x"}}]}`,
		`{"resources": [{"uri": "https://x", "path": "../../etc/passwd"}]}`, `{"x": 1e400}`, `]`, `{"a":1}}`,
	} {
		f.Add(uint8(1), []byte(seed))
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		fsys := fstest.MapFS{}
		for name, b := range defaults {
			fsys[name] = &fstest.MapFile{Data: b}
		}
		name := contentFiles[int(which)%len(contentFiles)]
		fsys[name] = &fstest.MapFile{Data: data}
		site, err := LoadFS(fsys, "content")
		if err != nil {
			var probs Problems
			if site != nil || !errors.As(err, &probs) || len(probs) == 0 {
				t.Fatalf("LoadFS: site %v, error %#v; want nil and Problems", site != nil, err)
			}
			for _, p := range probs {
				if p.File == "" || p.Message == "" || p.Error() == "" {
					t.Fatalf("a problem that does not say where or what: %#v", p)
				}
			}
			return
		}
		if !json.Valid(site.IndexJSON()) {
			t.Fatalf("search index is not JSON: %q", site.IndexJSON())
		}
		if raw, ok := site.Raw(name); !ok || string(raw) != string(data) {
			t.Fatal("the served bytes must be the owner's file as written")
		}
	})
}
