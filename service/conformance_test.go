package service

import (
	"context"
	"path/filepath"
	"testing"

	"c6book/engine/game"
	"c6book/proofbook"
	"c6book/session"
	"c6book/session/sessiontest"
)

// The workbench's store over the proof book passes the cases the fake
// store of the session's tests passes (sessiontest.Conformance).
func TestBookStoreConformance(t *testing.T) {
	sessiontest.Conformance(t, func(t *testing.T, r game.Rules) session.BookStore {
		bk, err := proofbook.Create(context.Background(), filepath.Join(t.TempDir(), "c.c6book"), r)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { bk.Close() })
		return Wrap(bk).Store(StoreOptions{})
	})
}
