package httpx

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestStreamFramesHeartbeatsAndEndsOnShutdown(t *testing.T) {
	streams := NewStreams(50*time.Millisecond, 3*time.Second)
	opened := make(chan struct{})
	ended := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s, err := streams.Open(w, r)
		if err != nil {
			return
		}
		defer s.Close()
		_ = s.Send("ready", map[string]string{"topic": "x"})
		close(opened)
		for {
			select {
			case <-s.Done():
				close(ended)
				return
			case <-s.Heartbeat():
				if s.KeepAlive() != nil {
					return
				}
			}
		}
	}))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	<-opened
	sc := bufio.NewScanner(resp.Body)
	var lines []string
	for sc.Scan() && len(lines) < 6 {
		lines = append(lines, sc.Text())
	}
	got := strings.Join(lines, "\n")
	for _, want := range []string{"retry: 3000", "event: ready", `data: {"topic":"x"}`, ": keep-alive"} {
		if !strings.Contains(got, want) {
			t.Errorf("stream lacks %q:\n%s", want, got)
		}
	}

	// A shutdown of the server ends the open stream at once and refuses new ones.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	go func() { _ = srv.Config.Shutdown(ctx) }()
	select {
	case <-ended:
	case <-time.After(2 * time.Second):
		t.Fatal("the stream outlived the shutdown")
	}
}

// TestSendDataAndDone checks the OpenAI-compatible wire format: unnamed
// "data: {json}" events, each flushed as it is sent, then "data: [DONE]";
// without a retry hint when the streams have none.
func TestSendDataAndDone(t *testing.T) {
	next := make(chan struct{})
	streams := NewStreams(time.Hour, 0)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s, err := streams.Open(w, r)
		if err != nil {
			t.Error(err)
			return
		}
		defer s.Close()
		if err := s.SendData(map[string]string{"content": "Hel"}); err != nil {
			t.Error(err)
		}
		<-next // the first event must reach the client before the handler goes on
		if err := s.SendData(map[string]string{"content": "lo"}); err != nil {
			t.Error(err)
		}
		if err := s.SendData(func() {}); err == nil {
			t.Error("a value JSON cannot encode was sent")
		}
		if err := s.SendDone(); err != nil {
			t.Error(err)
		}
	}))
	defer srv.Close()

	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	rd := bufio.NewReader(resp.Body)
	first, err := rd.ReadString('\n')
	if err != nil || first != `data: {"content":"Hel"}`+"\n" {
		t.Fatalf("first line %q, %v (no retry line expected)", first, err)
	}
	close(next)
	rest, _ := io.ReadAll(rd)
	want := "\n" + `data: {"content":"lo"}` + "\n\n" + "data: [DONE]\n\n"
	if string(rest) != want {
		t.Fatalf("rest of the stream:\n%q\nwant\n%q", rest, want)
	}
}

// TestOpenSendsRetryHint keeps the live-update streams' reconnect hint.
func TestOpenSendsRetryHint(t *testing.T) {
	streams := NewStreams(time.Hour, 3*time.Second)
	rec := httptest.NewRecorder()
	s, err := streams.Open(rec, httptest.NewRequest("GET", "/", nil))
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if !strings.HasPrefix(rec.Body.String(), "retry: 3000\n\n") {
		t.Fatalf("body %q", rec.Body.String())
	}
}
