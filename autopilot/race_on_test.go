//go:build race

package autopilot

// raceOn: the tests run under the race detector (slow: fewer repetitions).
const raceOn = true
