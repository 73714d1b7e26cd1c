package ui

import (
	"c6book/engine/game"
	"c6book/session/sessiontest"
)

// The in-memory book and verifier of package sessiontest.
type (
	fakeStore    = sessiontest.Store
	fakeVerifier = sessiontest.Verifier
)

func newFakeStore(r game.Rules) *fakeStore { return sessiontest.NewStore(r) }
