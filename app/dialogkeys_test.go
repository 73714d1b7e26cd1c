package main

import (
	"errors"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/test"
)

// Every dialog answers Enter (confirm) and Esc (dismiss): an error, an
// information, a confirmation (Enter says yes, Esc no), a form and the
// Preferences (Enter saves, Esc closes), in a field of theirs too.
func TestDialogsAnswerEnterEsc(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	a := test.NewTempApp(t)
	ta := startApp(t, a, options{book: filepath.Join(dir, "b.c6book"), play: "j10 k10k11", flagSet: map[string]bool{}})
	wa := ta.wa
	defer wa.close()
	clearOverlays(wa.win)
	key := func(k fyne.KeyName) { wa.win.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: k}) }
	shown := func() bool { return wa.win.Canvas().Overlays().Top() != nil }
	line := func() int { _, cur := wa.wb.Cursor().Line(); return cur }

	for _, k := range []fyne.KeyName{fyne.KeyReturn, fyne.KeyEscape} {
		dialog.ShowError(errors.New("bad"), wa.win)
		dialog.ShowInformation("Info", "text", wa.win)
		key(k)
		key(k)
		if shown() {
			t.Fatalf("%s left an error or information shown", k)
		}
	}

	for _, c := range []struct {
		k    fyne.KeyName
		want bool
	}{{fyne.KeyReturn, true}, {fyne.KeyEscape, false}, {fyne.KeyEnter, true}} {
		got := -1
		dialog.ShowConfirm("Sure?", "text", func(ok bool) {
			got = 0
			if ok {
				got = 1
			}
		}, wa.win)
		key(fyne.KeyLeft) // (the workbench's: the dialog stays)
		if !shown() {
			t.Fatal("← closed a confirmation")
		}
		key(c.k)
		if shown() || got != map[bool]int{true: 1, false: 0}[c.want] {
			t.Fatalf("%s on a confirmation: answer %d, shown %v", c.k, got, shown())
		}
	}

	// The Preferences: Esc closes, Enter saves.
	p := wa.showPreferences()
	p.lambda.SetSelected("λ3")
	key(fyne.KeyEscape)
	if shown() || wa.wb.Lambda() != 2 {
		t.Fatalf("Esc on the Preferences: shown %v, λ%d", shown(), wa.wb.Lambda())
	}
	p = wa.showPreferences()
	p.lambda.SetSelected("λ3")
	key(fyne.KeyReturn)
	if shown() || wa.wb.Lambda() != 3 {
		t.Fatalf("Enter on the Preferences: shown %v, λ%d", shown(), wa.wb.Lambda())
	}
	// In a field: Esc closes, Enter saves.
	p = wa.showPreferences()
	p.jobs.SetText("4")
	wa.win.Canvas().Focus(p.jobs)
	p.jobs.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if shown() || wa.wb.AutoJobs() == 4 {
		t.Fatalf("Esc in a field of the Preferences: shown %v, %d jobs", shown(), wa.wb.AutoJobs())
	}
	p = wa.showPreferences()
	p.jobs.SetText("4")
	wa.win.Canvas().Focus(p.jobs)
	p.jobs.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if shown() || wa.wb.AutoJobs() != 4 {
		t.Fatalf("Enter in a field of the Preferences: shown %v, %d jobs", shown(), wa.wb.AutoJobs())
	}
	// With no dialog, the keys are the workbench's.
	before := line()
	key(fyne.KeyRight)
	if line() != before+1 {
		t.Fatalf("→ with no dialog: %d → %d", before, line())
	}
}
