// Package kitfiles embeds the source files of the client-side MCP tools starter
// kit, so the download is built from the same files that are type-checked here.
package kitfiles

import (
	"embed"
	"io/fs"
)

//go:embed README.md example.ts src/*.ts
var files embed.FS

// FS returns the kit's files, named as they are in this directory
// (README.md, example.ts, src/mcpLocal.ts).
func FS() fs.FS { return files }
