package sessiontest

import (
	"testing"

	"c6book/engine/game"
	"c6book/session"
)

// The fake store passes the cases the proof book's store passes (app's
// TestBookStoreConformance).
func TestFakeConformance(t *testing.T) {
	Conformance(t, func(t *testing.T, r game.Rules) session.BookStore { return NewStore(r) })
}
