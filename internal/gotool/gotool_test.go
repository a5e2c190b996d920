package gotool

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestBinIsGOPATHsBinWhenGOBINIsEmpty(t *testing.T) {
	gopath := t.TempDir()
	t.Setenv("GOBIN", "")
	t.Setenv("GOPATH", gopath+string(os.PathListSeparator)+t.TempDir())
	got, err := Bin(context.Background())
	if err != nil || got != filepath.Join(gopath, "bin") {
		t.Fatalf("Bin() = %q, %v; want %q", got, err, filepath.Join(gopath, "bin"))
	}
	gobin := t.TempDir()
	t.Setenv("GOBIN", gobin)
	if got, err := Bin(context.Background()); err != nil || got != gobin {
		t.Fatalf("with GOBIN: Bin() = %q, %v; want %q", got, err, gobin)
	}
}

func TestFindLooksInGoBinWhenNotOnPath(t *testing.T) {
	gopath := t.TempDir()
	t.Setenv("GOBIN", "")
	t.Setenv("GOPATH", gopath)
	t.Setenv("PATH", filepath.Dir(goCommand(t))) // the go command only
	bin := filepath.Join(gopath, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Find(context.Background(), "some-test-server"); err == nil {
		t.Fatal("found a program that is not installed")
	}
	want := filepath.Join(bin, "some-test-server")
	if err := os.WriteFile(want, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := Find(context.Background(), "some-test-server"); err != nil || got != want {
		t.Fatalf("Find() = %q, %v; want %q", got, err, want)
	}
}

func goCommand(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	return p
}
