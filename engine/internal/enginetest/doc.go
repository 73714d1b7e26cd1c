// Package enginetest holds the test fixtures the engine packages' tests
// share: random solver positions, a brute-force win search, the public
// positions and LittleGolem games of the shared data. Tests only.
//
// It imports the standard library, engine/game and engine/board only.
package enginetest
