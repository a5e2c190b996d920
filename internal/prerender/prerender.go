// Package prerender renders the web app's prerendered pages again from the
// content the server loaded. The build writes each public page from the
// content in the repository; a site owner who points TRIBE_CONTENT_DIR at
// other files would otherwise be served pages whose HTML carries the
// build's prices, names and links until JavaScript replaced them. The
// renderer runs the app's own server renderer (web/src/entry-rerender.tsx,
// built into the app as server/render.js) in goja, a JavaScript engine
// written in Go, so the pages are the app's markup exactly: the same
// components, the same formatting, and hydration in the browser finds what
// it would render itself.
package prerender

import (
	_ "embed"
	"errors"
	"fmt"
	"strings"

	"github.com/dop251/goja"
)

// BundlePath is where the build puts the renderer among the app's files.
const BundlePath = "server/render.js"

// maxPasses bounds the renders of one page: each pass lets the lazily
// loaded parts that suspended the previous one arrive. Every page needs two
// today; the bound leaves room for nested lazy parts.
const maxPasses = 6

//go:embed prelude.js
var prelude string

// Renderer renders pages from content. It holds one JavaScript engine and
// is not safe for concurrent use.
type Renderer struct {
	vm       *goja.Runtime
	render   goja.Callable
	template string
	logs     []string
}

// New loads the renderer bundle (server/render.js of the built app) with
// the page template every page is written into (the build's shell.html).
func New(bundle []byte, template string) (*Renderer, error) {
	r := &Renderer{vm: goja.New(), template: template}
	if err := r.vm.Set("__tribeLog", func(level, msg string) {
		if len(r.logs) < 20 {
			r.logs = append(r.logs, level+": "+msg)
		}
	}); err != nil {
		return nil, fmt.Errorf("renderer: %w", err)
	}
	if _, err := r.vm.RunScript("prelude.js", prelude); err != nil {
		return nil, fmt.Errorf("renderer prelude: %w", err)
	}
	if _, err := r.vm.RunScript(BundlePath, string(bundle)); err != nil {
		return nil, fmt.Errorf("load %s: %w", BundlePath, err)
	}
	mod := r.vm.Get("TribeRender")
	if mod == nil || goja.IsUndefined(mod) {
		return nil, fmt.Errorf("%s does not define TribeRender", BundlePath)
	}
	render, ok := goja.AssertFunction(mod.ToObject(r.vm).Get("renderPage"))
	if !ok {
		return nil, fmt.Errorf("%s has no renderPage function", BundlePath)
	}
	r.render = render
	return r, nil
}

// Page renders the whole HTML document of route ("" for the 404 page, at
// its placeholder path) from content: every content file by name without
// ".json", as the server embeds them in pages (a JSON object).
func (r *Renderer) Page(route string, content []byte) (string, error) {
	r.logs = r.logs[:0]
	routeArg := goja.Null()
	if route != "" {
		routeArg = r.vm.ToValue(route)
	}
	name := route
	if name == "" {
		name = "the 404 page"
	}
	for range maxPasses {
		// Each call returns to Go, and goja runs the jobs the call left
		// (the lazily loaded modules resolving) before the next one.
		v, err := r.render(goja.Undefined(), routeArg, r.vm.ToValue(r.template), r.vm.ToValue(string(content)))
		if err != nil {
			return "", fmt.Errorf("render %s: %w%s", name, err, r.logged())
		}
		if !goja.IsNull(v) && !goja.IsUndefined(v) {
			return v.String(), nil
		}
	}
	return "", errors.New("render " + name + ": a part of the page was still loading after " +
		fmt.Sprint(maxPasses) + " passes, or failed to render" + r.logged())
}

// logged is what the app wrote to its console during the last render.
func (r *Renderer) logged() string {
	if len(r.logs) == 0 {
		return ""
	}
	return " (console: " + strings.Join(r.logs, "; ") + ")"
}
