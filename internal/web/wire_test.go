package web

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestEveryNilablePointerSaysWhatItSends: tygo makes every pointer field
// optional in TypeScript, but encoding/json writes a nil pointer as null
// unless the field has omitempty. So a pointer field of a generated type
// must either be omitempty or say its TypeScript type with tstype
// ("T | null,required" when the server always writes it, "T,required" when
// it is never nil, "T | null" in a request body); left alone, the web app
// would be told the field can be missing when it is in fact null.
func TestEveryNilablePointerSaysWhatItSends(t *testing.T) {
	t.Parallel()
	files := generatedFiles(t)
	if len(files) < 6 {
		t.Fatalf("tygo.yaml names only %v", files)
	}
	for _, file := range files {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			spec, ok := n.(*ast.TypeSpec)
			if !ok || !spec.Name.IsExported() {
				return true
			}
			st, ok := spec.Type.(*ast.StructType)
			if !ok {
				return true
			}
			for _, field := range st.Fields.List {
				if _, ptr := field.Type.(*ast.StarExpr); !ptr || len(field.Names) == 0 || !field.Names[0].IsExported() {
					continue
				}
				tag := reflect.StructTag("")
				if field.Tag != nil {
					s, _ := strconv.Unquote(field.Tag.Value)
					tag = reflect.StructTag(s)
				}
				name, opts, _ := strings.Cut(tag.Get("json"), ",")
				if name == "-" || strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero") {
					continue
				}
				if _, ok := tag.Lookup("tstype"); !ok {
					t.Errorf("%s: %s.%s is a pointer encoding/json writes as null: say so with `tstype:\"T | null,required\"` (\"T | null\" in a request)",
						filepath.Base(file), spec.Name.Name, field.Names[0].Name)
				}
			}
			return false
		})
	}
}

// generatedFiles reads tygo.yaml's packages and their include_files.
func generatedFiles(t *testing.T) []string {
	t.Helper()
	conf, err := os.ReadFile("../../tygo.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	dir := ""
	for line := range strings.Lines(string(conf)) {
		line = strings.TrimSpace(line)
		if p, ok := strings.CutPrefix(line, "- path: tribe/"); ok {
			dir = "../../" + p
		}
		if list, ok := strings.CutPrefix(line, "include_files: ["); ok {
			for name := range strings.SplitSeq(strings.TrimSuffix(list, "]"), ",") {
				files = append(files, filepath.Join(dir, strings.TrimSpace(name)))
			}
		}
	}
	return files
}
