package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"fyne.io/fyne/v2"
)

// The app's end. Whatever ends it (the window closed, File → Quit,
// SIGTERM or SIGINT), the running work is cancelled first, from whatever
// goroutine noticed, without waiting for the UI goroutine: an import rolls
// back its open transaction and keeps the committed ones, a verification
// stops and stores nothing. From then on nothing more is delivered to the
// UI goroutine (deliveries are dropped), and close waits for the work to
// return before the book closes. After a signal the app's loop must still
// take its turn to quit, and a window repainted in software can keep it
// busy for seconds: if the app has not ended quitGrace after the signal,
// or on a second signal, it exits at once. SQLite keeps the book
// consistent (its journal rolls back what was not committed; the import's
// committed batches stay).

// beginQuit cancels the session's work and stops deliveries to the UI
// goroutine. Any goroutine; more than once is harmless.
func (wa *workbenchApp) beginQuit() {
	wa.quitting.Store(true)
	if wa.wb != nil {
		wa.saveLayout(wa.app.Preferences())
		wa.wb.Session().Abort()
	}
}

// quit is File → Quit and the window's close: cancel the work, then end
// the app's loop (UI goroutine).
func (wa *workbenchApp) quit() {
	wa.beginQuit()
	wa.endLoop()
}

// endLoop ends the app's loop (UI goroutine) and watches that it does:
// in fyne 2.7.1 a lifecycle event in flight when the loop stops can leave
// ShowAndRun waiting for ever (Run's WaitForEvents queues behind an event
// delivered, with wait, to a loop that has ended; seen once in make
// smoke, the window gone and the process idle). If main has not got past
// ShowAndRun within quitGrace, the watch closes the book (close runs once,
// whoever calls it; at most quitGrace more) and exits with main's code.
func (wa *workbenchApp) endLoop() {
	wa.app.Quit()
	wa.watchLoopEnd()
}

func (wa *workbenchApp) watchLoopEnd() {
	if !wa.watchLoop {
		return // a test's app: no loop of main's to watch
	}
	wa.watchOnce.Do(func() {
		go func() {
			select {
			case <-wa.loopDone:
				return
			case <-time.After(quitGrace):
			}
			fmt.Fprintf(os.Stderr, "c6book: the window's loop did not end within %v: closing the book and exiting\n", quitGrace)
			closed := make(chan struct{})
			go func() {
				wa.close()
				close(closed)
			}()
			select {
			case <-closed:
			case <-time.After(quitGrace):
				fmt.Fprintln(os.Stderr, "c6book: the book did not close in time: exiting (SQLite keeps it consistent)")
			}
			os.Exit(wa.exitCode())
		}()
	})
}

// setShotErr records how a scripted run (--screenshot, --bench-keys)
// ended, for the exit code. Any goroutine.
func (wa *workbenchApp) setShotErr(err error) {
	wa.shotMu.Lock()
	wa.shotErr = err
	wa.shotMu.Unlock()
}

// shotError is what setShotErr recorded.
func (wa *workbenchApp) shotError() error {
	wa.shotMu.Lock()
	defer wa.shotMu.Unlock()
	return wa.shotErr
}

// exitCode is the process's exit code: 1 after a failed scripted run
// (printed), else 0.
func (wa *workbenchApp) exitCode() int {
	if err := wa.shotError(); err != nil {
		fmt.Fprintln(os.Stderr, "c6book:", err)
		return 1
	}
	return 0
}

// guardDo wraps the UI goroutine's Do so that nothing is delivered once
// the app is quitting: after Fyne's loop has stopped, fyne.Do runs its
// function on the caller's goroutine, which would race with close.
func (wa *workbenchApp) guardDo(do func(func())) func(func()) {
	return func(f func()) {
		if wa.quitting.Load() {
			return
		}
		do(func() {
			if !wa.quitting.Load() {
				f()
			}
		})
	}
}

// quitGrace is how long the app may take to end after a signal before it
// exits without waiting for its loop.
const quitGrace = 3 * time.Second

// catchSignals ends the app on SIGINT or SIGTERM (beginQuit, then the
// app's loop ends); a second signal, or quitGrace without the returned
// function being called, exits at once. The returned function stops
// listening (main calls it once close has returned).
func (wa *workbenchApp) catchSignals() (stop func()) {
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		var sig os.Signal
		select {
		case <-done:
			return
		case sig = <-ch:
		}
		wa.beginQuit()
		fyne.Do(wa.app.Quit)
		select {
		case <-done:
		case again := <-ch:
			fmt.Fprintf(os.Stderr, "c6book: %v again: exiting now\n", again)
			os.Exit(130)
		case <-time.After(quitGrace):
			fmt.Fprintf(os.Stderr, "c6book: %v: the window did not close within %v: exiting now\n", sig, quitGrace)
			os.Exit(130)
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}

// quitItem is File → Quit (Fyne's own would end the loop without
// cancelling the work first).
func quitItem(quit func()) *fyne.MenuItem {
	it := fyne.NewMenuItem("Quit", quit)
	it.IsQuit = true
	return it
}
