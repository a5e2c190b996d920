// Command minimal is the yardstick for serving a prerendered page: the same
// precompressed bytes written from memory by the smallest Go server, with no
// middleware. bench/static.sh runs it beside bin/tribe and nginx, once bare
// and once sending the same response headers as bin/tribe (an optional third
// argument: a file of "Name: value" lines), which separates the server's own
// per-request work from the cost of the headers it sends. A fourth argument,
// "limits", serves with bin/tribe's own server settings too (httpx.NewServer
// on an httpx.LimitListener: read timeouts and the connection cap): the
// same job as bin/tribe, done by a handler that only writes the bytes.
package main

import (
	"bufio"
	"log"
	"net"
	"net/http"
	"os"
	"strings"

	"tribe/internal/httpx"
)

func main() {
	page, err := os.ReadFile(os.Args[2]) // the page's .gz file
	if err != nil {
		log.Fatal(err)
	}
	header := http.Header{
		"Content-Type":     {"text/html; charset=utf-8"},
		"Content-Encoding": {"gzip"},
	}
	if len(os.Args) > 3 {
		if header, err = readHeader(os.Args[3]); err != nil {
			log.Fatal(err)
		}
	}
	handler := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		h := w.Header()
		for k, v := range header {
			h[k] = v
		}
		_, _ = w.Write(page)
	})
	if len(os.Args) > 4 && os.Args[4] == "limits" {
		ln, err := net.Listen("tcp", os.Args[1])
		if err != nil {
			log.Fatal(err)
		}
		log.Fatal(httpx.NewServer(handler, nil).Serve(httpx.LimitListener(ln, httpx.SiteConnLimits(nil))))
	}
	log.Fatal(http.ListenAndServe(os.Args[1], handler))
}

// readHeader reads "Name: value" lines, leaving out Date, which the server
// writes itself. Content-Length is kept: without it net/http would send a
// body larger than its 2 KB buffer chunked, which is not what bin/tribe
// sends.
func readHeader(path string) (http.Header, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := http.Header{}
	s := bufio.NewScanner(f)
	for s.Scan() {
		name, value, ok := strings.Cut(strings.TrimSpace(s.Text()), ": ")
		if !ok || name == "Date" {
			continue
		}
		h.Add(name, value)
	}
	return h, s.Err()
}
