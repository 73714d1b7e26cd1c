package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// autoPanel is the Prove tab's auto-pilot row: the Auto toggle with its
// jobs and time budget, Stop, its live progress, and the expert's "Leave
// to me" for the shown position with what Next found stuck on its line.
type autoPanel struct {
	wb      *Workbench
	row     *fyne.Container // the controls (a fixed row of the Prove tab)
	box     *fyne.Container // the texts (in the Prove tab's report area)
	check   *keyCheck       // Auto
	jobsE   *widget.Entry
	timeE   *widget.Entry
	stopB   *widget.Button
	holdC   *keyCheck     // Leave to me
	textL   *widget.Label // progress, how the last run ended
	holdL   *widget.Label // held, dead end, Next's stuck positions
	filling bool          // the checks are set from the session
}

func newAutoPanel(wb *Workbench) *autoPanel {
	a := &autoPanel{wb: wb}
	a.check = wb.newCheck("Auto", func(on bool) {
		if a.filling {
			return
		}
		if on {
			wb.StartAuto()
		} else {
			wb.Prover().StopAuto()
		}
		a.show()
	})
	a.jobsE = widget.NewEntry()
	a.jobsE.SetText("2")
	a.jobsE.SetPlaceHolder("jobs")
	a.timeE = widget.NewEntry()
	a.timeE.SetPlaceHolder("time: 10m")
	a.stopB = widget.NewButtonWithIcon("Stop", theme.MediaStopIcon(), wb.Prover().StopAuto)
	a.stopB.Disable()
	a.holdC = wb.newCheck("Leave to me", func(on bool) {
		if !a.filling && on != wb.s.Cursor().Info().Held {
			wb.History().ToggleHold()
		}
	})
	a.textL = widget.NewLabel("")
	a.textL.Wrapping = fyne.TextWrapWord
	a.holdL = widget.NewLabel("")
	a.holdL.Wrapping = fyne.TextWrapWord
	a.textL.Hide()
	a.holdL.Hide()
	a.row = container.NewHBox(a.check, widget.NewLabel("jobs"), sized(a.jobsE, 50), sized(a.timeE, 100), a.stopB, a.holdC)
	a.box = container.NewVBox(a.textL, a.holdL)
	return a
}

// sized gives an entry a fixed width in a row.
func sized(e *widget.Entry, w float32) fyne.CanvasObject {
	return container.NewGridWrap(fyne.NewSize(w, e.MinSize().Height), e)
}

// options reads the jobs and time entries (bad ones: an error).
func (a *autoPanel) options() (jobs int, budget time.Duration, err error) {
	jobs = 2
	if t := strings.TrimSpace(a.jobsE.Text); t != "" {
		if jobs, err = strconv.Atoi(t); err != nil || jobs < 1 || jobs > 256 {
			return 0, 0, fmt.Errorf("auto-pilot jobs %q: want a number from 1 to 256", t)
		}
	}
	if t := strings.TrimSpace(a.timeE.Text); t != "" {
		if budget, err = time.ParseDuration(t); err != nil || budget < 0 {
			return 0, 0, fmt.Errorf("auto-pilot time %q: want a duration such as 90s, 10m or 2h", t)
		}
	}
	return jobs, budget, nil
}

// show renders the auto-pilot's state and the shown position's hold.
func (a *autoPanel) show() {
	s := a.wb.s
	running := s.Prover().AutoRunning()
	a.filling = true
	a.check.SetChecked(running)
	a.holdC.SetChecked(s.Cursor().Info().Held)
	a.filling = false
	enable(a.check, running || s.Prover().CanAuto())
	enable(a.stopB, running)
	enable(a.jobsE, !running)
	enable(a.timeE, !running)
	enable(a.holdC, s.History().CanHold() && s.Cursor().Loaded() && s.Cursor().Info().Found)
	a.setText(a.textL, s.Prover().AutoText())
	a.setText(a.holdL, s.Cursor().HoldText())
}

func (a *autoPanel) setText(l *widget.Label, text string) {
	if l.Text != text {
		l.SetText(text)
	}
	if (text != "") != l.Visible() {
		if text != "" {
			l.Show()
		} else {
			l.Hide()
		}
		a.box.Refresh()
		if u := a.wb.ui; u != nil && u.proveHead != nil {
			u.proveHead.Refresh()
		}
	}
}

func enable(w fyne.Disableable, on bool) {
	if on && w.Disabled() {
		w.Enable()
	} else if !on && !w.Disabled() {
		w.Disable()
	}
}

// StartAuto runs the auto-pilot below the shown position for the attacker
// and λ chosen, with the jobs and time budget of the Prove tab.
func (wb *Workbench) StartAuto() {
	jobs, budget, err := wb.ui.auto.options()
	if err != nil {
		wb.s.OnError(err)
		return
	}
	wb.s.Prover().StartAuto(jobs, budget)
}

// SetAutoTime sets the auto-pilot's time budget in the Prove tab (0:
// none), for the next run.
func (wb *Workbench) SetAutoTime(d time.Duration) {
	text := ""
	if d > 0 {
		text = d.String()
	}
	wb.ui.auto.timeE.SetText(text)
}
