package main

import (
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"c6book/service"
	"c6book/session"
)

// progressView is the body of the progress dialog of the app's long book
// work (background): a bar that is determinate once the work knows its
// total (Progress.Total > 0) and bounces until then, the work's line, and
// the time it has run. It shows what it is given, on the UI goroutine; the
// job's coalescer (session.Start) hands it the latest report only, so a
// flood of reports costs a few repaints, never a queue.
type progressView struct {
	start time.Time
	bar   *widget.ProgressBar
	spin  *widget.ProgressBarInfinite
	msg   *widget.Label
	box   *fyne.Container
	shown int // reports shown (tests)
}

func newProgressView(start time.Time) *progressView {
	v := &progressView{start: start, bar: widget.NewProgressBar(), spin: widget.NewProgressBarInfinite(), msg: widget.NewLabel("")}
	v.bar.Hide()
	v.box = container.NewVBox(v.spin, v.bar, v.msg)
	return v
}

// show puts the latest report on screen.
func (v *progressView) show(p session.Progress) {
	v.shown++
	if p.Total > 0 {
		if v.spin.Visible() {
			v.spin.Stop()
			v.spin.Hide()
			v.bar.Show()
		}
		v.bar.Max = float64(p.Total)
		v.bar.SetValue(float64(min(max(p.Done, 0), p.Total)))
	}
	elapsed := p.Elapsed
	if elapsed <= 0 {
		elapsed = time.Since(v.start)
	}
	text := p.Text
	if text != "" {
		text += "\n"
	}
	v.msg.SetText(text + formatElapsed(elapsed) + " elapsed")
}

// stop ends the bouncing bar's animation (the dialog closes).
func (v *progressView) stop() { v.spin.Stop() }

// formatElapsed is a running time as m:ss (h:mm:ss past an hour).
func formatElapsed(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// importGamesProgress is an import's report for the dialog: determinate
// over the file's games, with what committed transactions hold.
func importGamesProgress(p service.ImportProgress) session.Progress {
	if p.Total == 0 {
		return session.Progress{Text: "reading and checking the file…"}
	}
	return session.Progress{Done: p.Done, Total: p.Total,
		Text: importProgressText(p) + "\n" + fmt.Sprintf("%d new positions, %d new moves", p.Positions, p.Edges)}
}

// countingReader counts the bytes read through it and reports them as
// progress over total (the file's size): an SGF import is one
// transaction whose only known total is the input's length.
type countingReader struct {
	r      io.Reader
	n      atomic.Int64
	total  int64
	report func(session.Progress)
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if n > 0 {
		done := c.n.Add(int64(n))
		if c.total > 0 && c.report != nil {
			c.report(session.Progress{Done: int(min(done, c.total) >> 10), Total: int(max(c.total>>10, 1)),
				Text: fmt.Sprintf("%d of %d KiB read", done>>10, c.total>>10)})
		}
	}
	return n, err
}
