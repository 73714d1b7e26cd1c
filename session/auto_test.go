package session_test

import (
	"strings"
	"testing"

	"c6book"
	"c6book/engine"
	"c6book/session/sessiontest"
)

// autoFixture is a book with Black's j10 and two open White replies below
// it (a1a2, b1b2), shown at j10, with the fake auto-pilot of the store.
func autoFixture(t *testing.T) *fixture {
	f := newFixture(t, nil, true)
	f.store.AutoStep = make(chan struct{})
	f.store.AutoRuns = make(chan *engine.Board, 4)
	f.play("j10", "a1a2")
	f.s.Back()
	f.play("b1b2")
	f.s.Back()
	f.settle()
	for _, m := range []string{"a1a2", "b1b2"} {
		c := f.s.Position().Clone()
		if err := c.Play(f.mv(m)); err != nil {
			t.Fatal(err)
		}
		f.store.Node(c, false).Status[engine.Black] = c6book.StatusOpen
	}
	f.s.Reload()
	f.settle()
	if f.line() != "j10" || len(f.s.Children()) != 2 {
		t.Fatalf("fixture: line %q, %d replies", f.line(), len(f.s.Children()))
	}
	return f
}

func (f *fixture) childStatus(name string) c6book.Status {
	for _, c := range f.s.Children() {
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
	f.s.StartAuto(2, 0)
	if !f.s.AutoRunning() {
		t.Fatalf("not running (errors %v)", f.errs)
	}
	if b := <-f.store.AutoRuns; b.Hash() != f.s.Position().Hash() {
		t.Fatal("the auto-pilot does not work below the shown position")
	}
	f.store.AutoStep <- struct{}{}
	f.pumpUntil("the first verdict shown", func() bool { return f.childStatus("a1a2") == c6book.StatusProved })
	if p := f.s.AutoProgress(); p.Calls != 1 || !strings.Contains(f.s.AutoText(), "1 calls") {
		t.Fatalf("progress %+v, text %q", p, f.s.AutoText())
	}
	// The user browses meanwhile; the next verdict shows where they are.
	f.s.Back()
	f.settle()
	f.s.Forward()
	f.settle()
	f.store.AutoStep <- struct{}{}
	f.pumpUntil("the second verdict shown", func() bool { return f.childStatus("b1b2") == c6book.StatusProved })
	f.s.StopAuto()
	f.pumpUntil("the auto-pilot's end", func() bool { return !f.s.AutoRunning() })
	if !strings.Contains(f.s.AutoText(), "stopped after 2 calls") {
		t.Fatalf("after Stop: %q", f.s.AutoText())
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
	f.s.ToggleHold()
	f.settle()
	if !f.s.Info().Held || !strings.Contains(f.s.HoldText(), "Left to you") {
		t.Fatalf("not held: %+v, %q", f.s.Info(), f.s.HoldText())
	}
	if f.s.CanUndo() != "leave to me" {
		t.Fatalf("undo offers %q", f.s.CanUndo())
	}
	f.s.Back()
	f.settle()
	f.s.StartAuto(1, 0)
	<-f.store.AutoRuns
	f.store.AutoStep <- struct{}{}
	f.store.AutoStep <- struct{}{} // nothing left: stuck
	f.pumpUntil("the auto-pilot's end", func() bool { return !f.s.AutoRunning() })
	f.settle()
	if f.childStatus("a1a2") != c6book.StatusOpen || f.childStatus("b1b2") != c6book.StatusProved {
		t.Fatalf("held a1a2 %v, b1b2 %v", f.childStatus("a1a2"), f.childStatus("b1b2"))
	}
	if !strings.Contains(f.s.AutoText(), "stuck") {
		t.Fatalf("end: %q", f.s.AutoText())
	}
	f.s.Undo()
	f.settle()
	if f.line() != "j10 a1a2" || f.s.Info().Held {
		t.Fatalf("after undo: line %q, held %v", f.line(), f.s.Info().Held)
	}
	f.noErrors()
}

// Opening another book cancels the auto-pilot and waits for it.
func TestAutoBookSwitch(t *testing.T) {
	f := autoFixture(t)
	f.s.StartAuto(1, 0)
	<-f.store.AutoRuns
	job := f.s.AutoJob()
	other := sessiontest.NewStore(engine.Connect6())
	if err := f.s.SetStore(other); err != nil {
		t.Fatal(err)
	}
	select {
	case f.store.AutoStep <- struct{}{}:
		t.Fatal("the auto-pilot still runs after the switch")
	default:
	}
	job.Wait() // returned already
	if f.s.AutoRunning() || f.s.AutoText() != "" {
		t.Fatalf("after the switch: running %v, %q", f.s.AutoRunning(), f.s.AutoText())
	}
	f.pumpUntil("the old job's end", func() bool { return len(f.s.Jobs()) == 0 })
	if f.s.AutoText() != "" {
		t.Fatalf("the new book shows the old run: %q", f.s.AutoText())
	}
	f.noErrors()
}

// Next says where the auto-pilot is stuck on its line.
func TestNextReportsStuck(t *testing.T) {
	f := autoFixture(t)
	f.s.ToggleHold() // j10
	f.settle()
	f.s.Home()
	f.settle()
	f.s.Next()
	f.settle()
	if f.line() != "j10 a1a2" {
		t.Fatalf("Next went to %q", f.line())
	}
	if txt := f.s.HoldText(); !strings.Contains(txt, "stuck") || !strings.Contains(txt, "after j10: left to the expert") {
		t.Fatalf("Next says %q", txt)
	}
	f.s.Back()
	f.settle()
	if strings.Contains(f.s.HoldText(), "Next") {
		t.Fatalf("the Next note stays: %q", f.s.HoldText())
	}
	f.noErrors()
}
