// Package webapp holds the built web app (web/dist, copied here by make build)
// embedded in the binary.
package webapp

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var files embed.FS

// FS returns the built app; it holds only .gitkeep until make build ran.
func FS() fs.FS {
	sub, err := fs.Sub(files, "dist")
	if err != nil {
		panic(err) // cannot happen: "dist" is a valid, embedded path
	}
	return sub
}
