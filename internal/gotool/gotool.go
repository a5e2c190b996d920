// Package gotool finds what the go command installed: the test servers
// (stripe-mock, versitygw) that the tests start are `go install`ed, and a
// clean machine need not have Go's bin directory on PATH.
package gotool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Bin returns the directory go install writes to: GOBIN, or else the bin
// directory of GOPATH's first entry.
func Bin(ctx context.Context) (string, error) {
	// JSON, not the plain listing: with GOBIN empty the plain one begins with
	// an empty line, and trimming it shifted GOPATH into GOBIN's place.
	out, err := exec.CommandContext(ctx, "go", "env", "-json", "GOBIN", "GOPATH").Output()
	if err != nil {
		return "", fmt.Errorf("go env: %w", err)
	}
	var env struct{ GOBIN, GOPATH string }
	if err := json.Unmarshal(out, &env); err != nil {
		return "", fmt.Errorf("read go env: %w", err)
	}
	if env.GOBIN != "" {
		return env.GOBIN, nil
	}
	first := strings.Split(env.GOPATH, string(os.PathListSeparator))[0]
	if first == "" {
		return "", errors.New("go env printed neither GOBIN nor GOPATH")
	}
	return filepath.Join(first, "bin"), nil
}

// Find returns the path of an installed program: on PATH, or in Bin.
func Find(ctx context.Context, name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	bin, err := Bin(ctx)
	if err != nil {
		return "", err
	}
	p := filepath.Join(bin, name)
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("%s is neither on PATH nor in %s: %w", name, bin, err)
	}
	return p, nil
}
