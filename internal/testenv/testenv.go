// Package testenv holds the test helpers every package shares.
package testenv

import "testing"

// Heavy skips t under -short. make test runs the whole suite twice: first
// without the race detector, where every test runs in full, then with
// -race and -short, where the compute-bound samples and proofs that call
// Heavy would cost the race detector's 5-10x slowdown for code paths (and
// goroutines) that the lighter tests of the race pass already run.
func Heavy(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("compute-bound: run in full by make test's pass without -race")
	}
}
