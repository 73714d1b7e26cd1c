package ui

import "c6book/session"

// The ui package never runs SQL: the workbench's model, session.Session,
// talks to the proof book and the verifier through the interfaces of
// package session. These aliases keep the ui's names for them.
type (
	Child         = session.Child
	Position      = session.Position
	Entry         = session.Entry
	BookStore     = session.BookStore
	ReadOnlyStore = session.ReadOnlyStore
	Progress      = session.Progress
	Verifier      = session.Verifier
	Candidate     = session.Candidate
	Suggester     = session.Suggester
	Player        = session.Player
	PlayAnswer    = session.PlayAnswer
	PlayProgress  = session.PlayProgress
	GameStats     = session.GameStats
	GameInfo      = session.GameInfo
	AutoProver    = session.AutoProver
	AutoOptions   = session.AutoOptions
	AutoProgress  = session.AutoProgress
	AutoResult    = session.AutoResult
	Holder        = session.Holder
	StuckAt       = session.StuckAt
)
