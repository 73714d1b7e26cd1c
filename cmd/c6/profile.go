package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"time"
)

// startProfile writes a CPU profile of the whole run to path (the
// environment variable C6_CPUPROFILE; empty: none) and returns the function
// that finishes it. A profile that cannot be started is reported on stderr
// and the command runs without it.
func startProfile(path string, stderr io.Writer) func() {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(stderr, "c6: C6_CPUPROFILE: %v\n", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(stderr, "c6: C6_CPUPROFILE: %v\n", err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(stderr, "c6: C6_CPUPROFILE: %v\n", err)
		}
	}
}

// startHeapProfile writes a heap profile (in-use and allocated memory) to
// path (the environment variable C6_MEMPROFILE; empty: none) every minute
// of the run and at its end, so that a long run that is killed still
// leaves its latest one. It returns the function that writes the last.
func startHeapProfile(path string, stderr io.Writer) func() {
	if path == "" {
		return func() {}
	}
	write := func() {
		f, err := os.Create(path)
		if err != nil {
			fmt.Fprintf(stderr, "c6: C6_MEMPROFILE: %v\n", err)
			return
		}
		runtime.GC() // the in-use figures are those of the last collection
		if err := pprof.WriteHeapProfile(f); err != nil {
			fmt.Fprintf(stderr, "c6: C6_MEMPROFILE: %v\n", err)
		}
		if err := f.Close(); err != nil {
			fmt.Fprintf(stderr, "c6: C6_MEMPROFILE: %v\n", err)
		}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(time.Minute)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				write()
			}
		}
	}()
	return func() {
		close(done)
		<-finished
		write()
	}
}
