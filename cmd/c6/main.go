// Command c6 is c6book's headless command line: threat counts, the
// threat-space solvers, the verifier and the proof book. It builds without
// X11 or OpenGL so that servers and batch jobs can run it.
//
// Every command, and every book subcommand, is a type in a file of its own
// with Run(ctx, args): main builds the one context (cancelled by Ctrl-C or
// SIGTERM), and dispatch finds the command by name in a table.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

// Command is one command or book subcommand: it parses its own flags from
// args and runs until done or until ctx is cancelled.
type Command interface {
	Run(ctx context.Context, args []string) error
}

// namedCommand is one row of a command table.
type namedCommand struct {
	name    string
	summary string
	cmd     Command
}

// stdio is where a command reads and writes.
type stdio struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// commands is the table of c6's commands, in the order usage lists them.
func commands(s stdio) []namedCommand {
	return []namedCommand{
		{"book", "the proof book: init, import, export, stats, show, verify, next, check", &BookCommand{s}},
		{"play", "the move for the side to move (player: threat space, then a selective search); --loop for match tools", &PlayCommand{s}},
		{"server", "a verifier queue: NATS server with JetStream storage, for workers on other machines", &ServerCommand{s}},
		{"solve", "VCDT/VCST threat-space solver for the side to move", &SolveCommand{s}},
		{"threats", "threat counts, windows and critical defences of a position", &ThreatsCommand{s}},
		{"verify", "NCTU6-style verifier: list every defender move still unsolved", &VerifyCommand{s}},
		{"worker", "run verifier jobs from a NATS queue (c6 server, or a book's embedded queue)", &WorkerCommand{s}},
	}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: c6 <command> [flags]")
	fmt.Fprintln(w, "commands:")
	for _, c := range commands(stdio{}) {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "run 'c6 <command> -h' for a command's flags")
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	setVerifierGC(os.Args[1:])
	endProfile := startProfile(os.Getenv("C6_CPUPROFILE"), os.Stderr)
	endHeap := startHeapProfile(os.Getenv("C6_MEMPROFILE"), os.Stderr)
	code := runContext(ctx, os.Args[1:], stdio{os.Stdin, os.Stdout, os.Stderr})
	endHeap()
	endProfile()
	stop()
	os.Exit(code)
}

// errUsage is returned after a usage message was printed (flag errors).
var errUsage = errors.New("usage")

// unknownError is dispatch's error for a name not in the table.
type unknownError struct{ name string }

func (e unknownError) Error() string { return fmt.Sprintf("unknown command %q", e.name) }

// dispatch runs the command args[0] of table with the rest of args. With
// no args it prints the usage and returns errUsage; with -h, --help or
// help it prints the usage and returns nil.
func dispatch(ctx context.Context, table []namedCommand, args []string, usage func(io.Writer), stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return errUsage
		}
		return nil
	}
	for _, c := range table {
		if c.name == args[0] {
			return c.cmd.Run(ctx, args[1:])
		}
	}
	return unknownError{args[0]}
}

// run is c6 with stdin from the process, for the tests: no signal
// cancels it.
func run(args []string, stdout, stderr io.Writer) int {
	return runContext(context.Background(), args, stdio{os.Stdin, stdout, stderr})
}

// runContext runs c6 with args and returns the exit code: 0 done, 1 an
// error (printed on one line), 2 a usage error.
func runContext(ctx context.Context, args []string, s stdio) int {
	err := dispatch(ctx, commands(s), args, usage, s.stderr)
	var unknown unknownError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errUsage):
		return 2
	case errors.As(err, &unknown):
		fmt.Fprintf(s.stderr, "c6: unknown command %q\n", unknown.name)
		usage(s.stderr)
		return 2
	}
	// One line: the error names what is wrong.
	fmt.Fprintf(s.stderr, "c6 %s: %s\n", args[0], strings.ReplaceAll(err.Error(), "\n", " "))
	return 1
}
