// Package contentfiles embeds the site's default content: the JSON files the
// pages, the console and the MCP tools read. TRIBE_CONTENT_DIR replaces them
// with the site owner's own copies; internal/content loads and validates both.
package contentfiles

import (
	"embed"
	"io/fs"
)

//go:embed *.json mcp/*.json
var files embed.FS

// FS returns the embedded content files, named as they are in this directory
// (about.json, mcp/resources.json, ...).
func FS() fs.FS { return files }
