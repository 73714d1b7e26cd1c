//go:build !race

package proofbook

// raceOn: the tests run under the race detector (slow: fewer repetitions).
const raceOn = false
