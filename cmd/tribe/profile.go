package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// cpuProfileEnv names the file `serve` writes a CPU profile to, from start
// until it stops. bench/pgo.sh records the build's profile (default.pgo,
// which go build uses for profile-guided optimisation) this way under the
// load mix; an operator can profile a live server the same way.
const cpuProfileEnv = "TRIBE_CPU_PROFILE"

// profileCPU starts the CPU profile getenv(cpuProfileEnv) asks for, if
// any, and returns what finishes it.
func profileCPU(getenv func(string) string) (stop func(), err error) {
	path := getenv(cpuProfileEnv)
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cpuProfileEnv, err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("%s: start the CPU profile: %w", cpuProfileEnv, err)
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}, nil
}
