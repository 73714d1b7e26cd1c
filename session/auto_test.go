package session_test

import (
	"strings"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/session"
	"c6book/session/sessiontest"
)

// autoFixture is a book with Black's j10 and two open White replies below
// it (a1a2, b1b2), shown at j10, with the fake auto-pilot of the store.
func autoFixture(t *testing.T) *fixture {
	f := newFixture(t, nil, true)
	f.store.AutoStep = make(chan struct{})
	f.store.AutoRuns = make(chan *board.Board, 4)
	f.play("j10", "a1a2")
	f.s.Cursor().Back()
	f.play("b1b2")
	f.s.Cursor().Back()
	f.settle()
	for _, m := range []string{"a1a2", "b1b2"} {
		c := f.s.Cursor().Position().Clone()
		if err := c.Play(f.mv(m)); err != nil {
			t.Fatal(err)
		}
		f.store.Node(c, false).Proof[game.Black] = c6book.Proof{Attacker: game.Black, Status: c6book.StatusOpen, PN: 1, DN: 1}
	}
	f.s.Reload()
	f.settle()
	if f.line() != "j10" || len(f.s.Cursor().Children()) != 2 {
		t.Fatalf("fixture: line %q, %d replies", f.line(), len(f.s.Cursor().Children()))
	}
	return f
}

func (f *fixture) childStatus(name string) c6book.Status {
	for _, c := range f.s.Cursor().Children() {
		if c.Move == f.mv(name) {
			return c.Status
		}
	}
	f.t.Fatalf("no reply %s", name)
	return 0
}

// The auto-pilot runs as a job, reports its progress, and the replies
// shown change as its verdicts land, while the user keeps browsing; Stop
// ends it and what it stored stays.
func TestAutoProgressVerdictsAndStop(t *testing.T) {
	f := autoFixture(t)
	f.s.Prover().StartAuto(2, 0)
	if !f.s.Prover().AutoRunning() {
		t.Fatalf("not running (errors %v)", f.errs)
	}
	if b := <-f.store.AutoRuns; b.Hash() != f.s.Cursor().Position().Hash() {
		t.Fatal("the auto-pilot does not work below the shown position")
	}
	f.store.AutoStep <- struct{}{}
	f.pumpUntil("the first verdict shown", func() bool { return f.childStatus("a1a2") == c6book.StatusProved })
	if p := f.s.Prover().AutoProgress(); p.Calls != 1 || !strings.Contains(f.s.Prover().AutoText(), "1 call,") ||
		!strings.Contains(f.s.Prover().AutoText(), "1 in flight (moves 1/10)") {
		t.Fatalf("progress %+v, text %q", p, f.s.Prover().AutoText())
	}
	// The user browses meanwhile; the next verdict shows where they are.
	f.s.Cursor().Back()
	f.settle()
	f.s.Cursor().Forward()
	f.settle()
	f.store.AutoStep <- struct{}{}
	f.pumpUntil("the second verdict shown", func() bool { return f.childStatus("b1b2") == c6book.StatusProved })
	f.s.Prover().StopAuto()
	f.pumpUntil("the auto-pilot's end", func() bool { return !f.s.Prover().AutoRunning() })
	if !strings.Contains(f.s.Prover().AutoText(), "stopped after 2 calls, 2 positions proved") {
		t.Fatalf("after Stop: %q", f.s.Prover().AutoText())
	}
	f.settle()
	if f.childStatus("a1a2") != c6book.StatusProved || f.childStatus("b1b2") != c6book.StatusProved {
		t.Fatal("Stop lost the stored verdicts")
	}
	f.noErrors()
}

// "Leave to me" is stored, skipped by the auto-pilot and undoable.
func TestAutoLeaveToMe(t *testing.T) {
	f := autoFixture(t)
	f.play("a1a2")
	f.settle()
	f.s.History().ToggleHold()
	f.settle()
	if !f.s.Cursor().Info().Held || !strings.Contains(f.s.Cursor().HoldText(), "Left to you") {
		t.Fatalf("not held: %+v, %q", f.s.Cursor().Info(), f.s.Cursor().HoldText())
	}
	if f.s.History().CanUndo() != "leave to me" {
		t.Fatalf("undo offers %q", f.s.History().CanUndo())
	}
	f.s.Cursor().Back()
	f.settle()
	f.s.Prover().StartAuto(1, 0)
	<-f.store.AutoRuns
	f.store.AutoStep <- struct{}{}
	f.store.AutoStep <- struct{}{} // nothing left: stuck
	f.pumpUntil("the auto-pilot's end", func() bool { return !f.s.Prover().AutoRunning() })
	f.settle()
	if f.childStatus("a1a2") != c6book.StatusOpen || f.childStatus("b1b2") != c6book.StatusProved {
		t.Fatalf("held a1a2 %v, b1b2 %v", f.childStatus("a1a2"), f.childStatus("b1b2"))
	}
	if !strings.Contains(f.s.Prover().AutoText(), "stuck") {
		t.Fatalf("end: %q", f.s.Prover().AutoText())
	}
	f.s.History().Undo()
	f.settle()
	if f.line() != "j10 a1a2" || f.s.Cursor().Info().Held {
		t.Fatalf("after undo: line %q, held %v", f.line(), f.s.Cursor().Info().Held)
	}
	f.noErrors()
}

// Opening another book cancels the auto-pilot and waits for it.
func TestAutoBookSwitch(t *testing.T) {
	f := autoFixture(t)
	f.s.Prover().StartAuto(1, 0)
	<-f.store.AutoRuns
	job := f.s.Prover().AutoJob()
	other := sessiontest.NewStore(game.Connect6())
	if err := f.s.SetStore(other); err != nil {
		t.Fatal(err)
	}
	select {
	case f.store.AutoStep <- struct{}{}:
		t.Fatal("the auto-pilot still runs after the switch")
	default:
	}
	job.Wait() // returned already
	if f.s.Prover().AutoRunning() || f.s.Prover().AutoText() != "" {
		t.Fatalf("after the switch: running %v, %q", f.s.Prover().AutoRunning(), f.s.Prover().AutoText())
	}
	f.pumpUntil("the old job's end", func() bool { return len(f.s.Jobs()) == 0 })
	if f.s.Prover().AutoText() != "" {
		t.Fatalf("the new book shows the old run: %q", f.s.Prover().AutoText())
	}
	f.noErrors()
}

// Next says where the auto-pilot is stuck on its line.
func TestNextReportsStuck(t *testing.T) {
	f := autoFixture(t)
	f.s.History().ToggleHold() // j10
	f.settle()
	f.s.Cursor().Home()
	f.settle()
	f.s.Cursor().Next()
	f.settle()
	if f.line() != "j10 a1a2" {
		t.Fatalf("Next went to %q", f.line())
	}
	if txt := f.s.Cursor().HoldText(); !strings.Contains(txt, "stuck") || !strings.Contains(txt, "after 1. j10: left to the expert") {
		t.Fatalf("Next says %q", txt)
	}
	f.s.Cursor().Back()
	f.settle()
	if strings.Contains(f.s.Cursor().HoldText(), "Next") {
		t.Fatalf("the Next note stays: %q", f.s.Cursor().HoldText())
	}
	f.noErrors()
}

// Every auto-pilot run ends with a summary: how it ended, the counts
// before → after, and the replies that became proved, which GoToChange
// shows.
func TestAutoSummary(t *testing.T) {
	f := autoFixture(t)
	if _, ok := f.s.Prover().Summary(); ok {
		t.Fatal("a summary before any run")
	}
	f.s.Prover().SetLambda(2) // Verify's λ: the auto-pilot is λ3, as c6 book prove
	f.s.Prover().StartAuto(1, 0)
	<-f.store.AutoRuns
	f.store.AutoStep <- struct{}{}
	f.store.AutoStep <- struct{}{}
	f.store.AutoStep <- struct{}{} // nothing left: stuck
	f.pumpUntil("the auto-pilot's end", func() bool { return !f.s.Prover().AutoRunning() })
	sum, ok := f.s.Prover().Summary()
	if !ok {
		t.Fatal("no summary after the run")
	}
	if sum.Kind != "auto" || sum.Stop != "stuck" || sum.Calls != 2 || !sum.AfterRead || sum.Lambda != 3 {
		t.Fatalf("summary %+v", sum)
	}
	if sum.Before.Proved != 0 || sum.After.Proved != 2 || sum.After.Replies != 2 {
		t.Fatalf("before %+v after %+v", sum.Before, sum.After)
	}
	if len(sum.Changed) != 2 || sum.Changed[0].After != c6book.StatusProved || sum.Changed[0].Before != c6book.StatusOpen {
		t.Fatalf("changed %+v", sum.Changed)
	}
	text := summaryText(sum, game.Connect6())
	for _, want := range []string{"Auto-pilot", "1. j10", "stuck", "proved replies 0 → 2 of 2 replies", "2 verifier calls", "a1a2 open → proved"} {
		if !strings.Contains(text, want) {
			t.Fatalf("summary %q lacks %q", text, want)
		}
	}
	f.s.Prover().GoToChange(1)
	f.settle()
	if want := "j10 " + game.MoveName(game.Connect6(), sum.Changed[1].Move); f.line() != want {
		t.Fatalf("GoToChange went to %q, want %q", f.line(), want)
	}
	// A new run forgets the last one's summary until it ends; Stop ends
	// it as cancelled, with nothing changed.
	f.s.Cursor().Back()
	f.settle()
	f.s.Prover().StartAuto(1, 0)
	<-f.store.AutoRuns
	if _, ok := f.s.Prover().Summary(); ok {
		t.Fatal("the last run's summary shown while a new one runs")
	}
	f.s.Prover().StopAuto()
	f.pumpUntil("the auto-pilot's end", func() bool { return !f.s.Prover().AutoRunning() })
	if sum, ok := f.s.Prover().Summary(); !ok || sum.Stop != "cancelled" || len(sum.Changed) != 0 || !strings.Contains(summaryText(sum, game.Connect6()), "no reply changed") {
		t.Fatalf("after Stop: %+v", sum)
	}
	f.noErrors()
}

// The summary's text names at most 20 changed replies.
func TestSummaryTextBounded(t *testing.T) {
	r := game.Connect6()
	sum := session.RunSummary{Kind: "auto", Stop: "budget", AfterRead: true}
	for i := 0; i < 25; i++ {
		sum.Changed = append(sum.Changed, session.ReplyChange{Move: game.NewMove(r.Sq(i%19, i/19)), New: true})
	}
	text := summaryText(sum, r)
	if !strings.Contains(text, "and 5 more") || strings.Contains(text, game.MoveName(r, sum.Changed[20].Move)+" new") {
		t.Fatalf("text %q", text)
	}
	if !strings.Contains(text, "out of time") {
		t.Fatalf("a budget stop: %q", text)
	}
}

// A run that ends stuck names what is left to prove and where it is stuck
// (the expert's held position); GoToLeft shows it.
func TestAutoSummaryNamesWhereItStopped(t *testing.T) {
	f := autoFixture(t)
	f.play("a1a2")
	f.settle()
	f.s.History().ToggleHold()
	f.settle()
	f.s.Cursor().Back()
	f.settle()
	f.s.Prover().StartAuto(1, 0)
	<-f.store.AutoRuns
	f.store.AutoStep <- struct{}{}
	f.store.AutoStep <- struct{}{} // nothing left: stuck
	f.pumpUntil("the auto-pilot's end", func() bool { return !f.s.Prover().AutoRunning() })
	sum, ok := f.s.Prover().Summary()
	if !ok || sum.Stop != "stuck" || sum.Left == nil {
		t.Fatalf("summary %+v", sum)
	}
	text := summaryText(sum, game.Connect6())
	if !strings.Contains(text, "left to prove: 1. j10 2. a1a2 · stuck there: left to the expert") {
		t.Fatalf("summary %q", text)
	}
	f.s.Cursor().Home()
	f.settle()
	f.s.Prover().GoToLeft()
	f.settle()
	if f.line() != "j10 a1a2" {
		t.Fatalf("GoToLeft went to %q", f.line())
	}
	f.noErrors()
}

// summaryText is the run summary's text with the moves named in board
// order (the ui names them in the line's order).
func summaryText(sum session.RunSummary, r game.Rules) string {
	return sum.TextNamed(func(m game.Move) string { return game.MoveName(r, m) })
}
