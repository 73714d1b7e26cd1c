package sessiontest

import (
	"testing"

	"c6book/engine"
	"c6book/session"
)

// The fake store passes the cases the proof book's store passes (app's
// TestBookStoreConformance).
func TestFakeConformance(t *testing.T) {
	Conformance(t, func(t *testing.T, r engine.Rules) session.BookStore { return NewStore(r) })
}
