package main

import (
	"fmt"
	"image"
	"image/color"
	"io"
	"math/rand/v2"
	"os"
	"runtime/pprof"
	"slices"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
)

// keyBench measures key → repaint in the real window (--bench-keys N): it
// types ← and → alternately into the window as the driver dispatches a
// real key press after GLFW's event (typeKey: the focused widget's
// TypedKey, else the canvas's handler) and times, for each key,
//
//   - work:    the UI goroutine's time in the key handler and in rendering
//     the session's answers (the rest is the book call off the UI
//     goroutine, the wait in the UI queue, and painting);
//   - settled: until the session's last book answer for it has been
//     rendered (the widgets updated; nothing painted yet);
//   - first:   until the first frame painted after the key has been
//     swapped to the screen (the board shows the new position with what
//     the session had cached);
//   - full:    until the first frame painted after "settled" has been
//     swapped (the whole answer on the screen);
//   - paint:   the painting of that frame, from its first object to its
//     last (a second probe first in the window), before the swap.
//
// A frame is detected with a 1×1 canvas.Raster in the window's corner
// (a probe): the key and the settling refresh it, so the GL painter calls
// its generator while it paints the next frame; the generator posts a
// function to the UI queue, which the driver's loop runs once that frame
// is painted and swapped. The driver paints at most 60 times a second, so
// a time includes the wait for the next tick (up to 16.7 ms; each key is
// typed at a random moment of that cycle).
//
// Every field is used on the UI goroutine only, except results.
type keyBench struct {
	wa         *workbenchApp
	probe      *canvas.Raster // last in the window: the frame is painted
	startProbe *canvas.Raster // first in the window: the frame's painting starts
	paintStart time.Time

	running bool      // a key is being measured
	start   time.Time // when the key was typed
	work    time.Duration
	settled time.Duration
	first   time.Duration
	done    bool // settled: the next painted frame is the full one

	results chan keyTimes
}

type keyTimes struct{ work, settled, first, full, paint time.Duration }

func newKeyBench() *keyBench {
	kb := &keyBench{results: make(chan keyTimes, 1)}
	pixel := image.NewNRGBA(image.Rect(0, 0, 1, 1))
	pixel.SetNRGBA(0, 0, color.NRGBA{A: 0})
	kb.probe = canvas.NewRaster(func(int, int) image.Image {
		full, paint := kb.done, time.Since(kb.paintStart) // read in the paint (UI goroutine)
		fyne.Do(func() { kb.painted(full, paint) })
		return pixel
	})
	kb.startProbe = canvas.NewRaster(func(int, int) image.Image {
		kb.paintStart = time.Now()
		return pixel
	})
	kb.probe.Resize(fyne.NewSize(1, 1))
	kb.startProbe.Resize(fyne.NewSize(1, 1))
	return kb
}

// do delivers the session's results (its Config.Do) and notices when the
// last one for the key has been rendered.
func (kb *keyBench) do(f func()) {
	fyne.Do(func() {
		t := time.Now()
		f()
		if kb.running && !kb.done {
			kb.work += time.Since(t)
		}
		kb.checkSettled()
	})
}

// wrap lays the probe over the window's content.
func (kb *keyBench) wrap(content fyne.CanvasObject) fyne.CanvasObject {
	return container.NewStack(container.NewWithoutLayout(kb.startProbe), content, container.NewWithoutLayout(kb.probe))
}

func (kb *keyBench) checkSettled() {
	if !kb.running || kb.done || kb.wa.wb.Session().Busy() > 0 {
		return
	}
	kb.settled = time.Since(kb.start)
	kb.done = true
	kb.refreshProbes()
}

func (kb *keyBench) refreshProbes() {
	kb.startProbe.Refresh()
	kb.probe.Refresh()
}

func (kb *keyBench) painted(full bool, paint time.Duration) {
	if !kb.running {
		return
	}
	d := time.Since(kb.start)
	if kb.first == 0 {
		kb.first = d
	}
	if full {
		kb.running = false
		kb.results <- keyTimes{work: kb.work, settled: kb.settled, first: kb.first, full: d, paint: paint}
	}
}

// run (on its own goroutine) waits for the window, then measures n keys
// after a few unmeasured ones and prints the times to out; with a profile
// path, it writes a CPU profile of the measured keys there.
func (kb *keyBench) run(n int, wait time.Duration, profile string, out io.Writer) (err error) {
	time.Sleep(wait)
	const warm = 4
	var ts []keyTimes
	for i := 0; i < warm+n; i++ {
		if i == warm && profile != "" {
			f, err := os.Create(profile)
			if err != nil {
				return fmt.Errorf("bench-keys: %w", err)
			}
			if err := pprof.StartCPUProfile(f); err != nil {
				f.Close()
				return fmt.Errorf("bench-keys: %w", err)
			}
			defer func() {
				pprof.StopCPUProfile()
				if cerr := f.Close(); err == nil && cerr != nil {
					err = fmt.Errorf("bench-keys: %w", cerr)
				}
			}()
		}
		// A key comes at any moment of the driver's 60 Hz cycle, not just
		// after a frame was swapped (where the last key's measure ends).
		time.Sleep(rand.N(time.Second / 60))
		fyne.DoAndWait(func() {
			kb.start, kb.first, kb.settled, kb.done, kb.running = time.Now(), 0, 0, false, true
			name := fyne.KeyLeft
			if i%2 == 1 {
				name = fyne.KeyRight
			}
			typeKey(kb.wa.win.Canvas(), &fyne.KeyEvent{Name: name})
			kb.work = time.Since(kb.start)
			kb.refreshProbes()
			kb.checkSettled()
		})
		select {
		case t := <-kb.results:
			if i >= warm {
				ts = append(ts, t)
			}
		case <-time.After(time.Minute):
			return fmt.Errorf("bench-keys: key %d was not painted within a minute", i)
		}
	}
	var replies int
	fyne.DoAndWait(func() { replies = len(kb.wa.wb.Cursor().Children()) })
	fmt.Fprintf(out, "bench-keys: %d keys (← and → alternately; %d replies at the last position) on %s\n",
		len(ts), replies, kb.wa.bk.Path())
	for _, c := range []struct {
		name string
		get  func(keyTimes) time.Duration
	}{
		{"UI goroutine work (key + answers)", func(t keyTimes) time.Duration { return t.work }},
		{"key → book answer rendered (settled)", func(t keyTimes) time.Duration { return t.settled }},
		{"painting the full frame (before swap)", func(t keyTimes) time.Duration { return t.paint }},
		{"key → first frame on screen", func(t keyTimes) time.Duration { return t.first }},
		{"key → full frame on screen (repaint)", func(t keyTimes) time.Duration { return t.full }},
	} {
		ds := make([]time.Duration, len(ts))
		for i, t := range ts {
			ds[i] = c.get(t)
		}
		slices.Sort(ds)
		fmt.Fprintf(out, "  %-38s median %6.1f ms  p90 %6.1f ms  max %6.1f ms\n", c.name,
			ms(quantile(ds, 0.5)), ms(quantile(ds, 0.9)), ms(ds[len(ds)-1]))
	}
	return nil
}

func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[int(q*float64(len(sorted)-1)+0.5)]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// typeKey delivers a key press as Fyne's desktop driver does once no
// shortcut has taken it (internal/driver/glfw, processKeyPressed): to the
// focused widget, else to the canvas's OnTypedKey.
func typeKey(c fyne.Canvas, ev *fyne.KeyEvent) {
	if f := c.Focused(); f != nil {
		f.TypedKey(ev)
		return
	}
	if key := c.OnTypedKey(); key != nil {
		key(ev)
	}
}
