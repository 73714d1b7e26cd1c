package main

import (
	"os"
	"reflect"
	"runtime/debug"
	"testing"
)

// The commands that run the verifier get the collector target of
// verifierGCPercent; the others (imports, checks) keep Go's default.
// Every name listed is a command of the tables, of the kind expected.
func TestRunsVerifier(t *testing.T) {
	kinds := map[string]reflect.Type{
		"verify":      reflect.TypeOf(&VerifyCommand{}),
		"worker":      reflect.TypeOf(&WorkerCommand{}),
		"book prove":  reflect.TypeOf(&BookProveCommand{}),
		"book verify": reflect.TypeOf(&BookVerifyCommand{}),
	}
	found := 0
	for _, c := range commands(stdio{}) {
		if want, ok := kinds[c.name]; ok {
			found++
			if reflect.TypeOf(c.cmd) != want {
				t.Errorf("command %s is a %T", c.name, c.cmd)
			}
		}
		if got := runsVerifier([]string{c.name, "--book", "x"}); got != (kinds[c.name] != nil) {
			t.Errorf("runsVerifier(%s) = %v", c.name, got)
		}
	}
	for _, c := range bookCommands() {
		name := "book " + c.name
		if want, ok := kinds[name]; ok {
			found++
			if reflect.TypeOf(c.cmd) != want {
				t.Errorf("command %s is a %T", name, c.cmd)
			}
		}
		if got := runsVerifier([]string{"book", c.name, "--book", "x"}); got != (kinds[name] != nil) {
			t.Errorf("runsVerifier(%s) = %v", name, got)
		}
	}
	if found != len(kinds) {
		t.Errorf("%d of the %d verifier commands found in the tables", found, len(kinds))
	}
	for _, args := range [][]string{nil, {"book"}, {"solve"}, {"book", "--book", "x", "prove"}} {
		if runsVerifier(args) {
			t.Errorf("runsVerifier(%q) = true", args)
		}
	}
}

// A verifier command gets the soft memory limit (unless GOMEMLIMIT is
// set); the collector's settings are put back afterwards.
func TestVerifierMemoryLimit(t *testing.T) {
	if os.Getenv("GOMEMLIMIT") != "" || os.Getenv("GOGC") != "" {
		t.Skip("GOMEMLIMIT or GOGC set")
	}
	limit := debug.SetMemoryLimit(-1)
	pct := debug.SetGCPercent(100)
	debug.SetGCPercent(pct)
	defer func() {
		debug.SetMemoryLimit(limit)
		debug.SetGCPercent(pct)
	}()
	setVerifierGC([]string{"book", "import"})
	if got := debug.SetMemoryLimit(-1); got != limit {
		t.Fatalf("book import: memory limit %d, want it unchanged (%d)", got, limit)
	}
	setVerifierGC([]string{"book", "prove", "--book", "x"})
	if got := debug.SetMemoryLimit(-1); got != verifierMemoryLimit {
		t.Fatalf("book prove: memory limit %d, want %d", got, verifierMemoryLimit)
	}
}
