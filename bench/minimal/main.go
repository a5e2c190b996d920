// Command minimal is the yardstick for serving a prerendered page: the same
// precompressed bytes written from memory by the smallest Go server, with no
// middleware. bench/static.sh runs it beside bin/tribe and nginx.
package main

import (
	"log"
	"net/http"
	"os"
)

func main() {
	page, err := os.ReadFile(os.Args[2]) // the page's .gz file
	if err != nil {
		log.Fatal(err)
	}
	log.Fatal(http.ListenAndServe(os.Args[1], http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write(page)
	})))
}
