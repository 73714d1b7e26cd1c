// Command c6 is c6book's headless command line: threat counts, the
// threat-space solvers, the verifier and the proof book. It builds without
// X11 or OpenGL so that servers and batch jobs can run it.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// command is one subcommand: it parses its own flags from args.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

func commands() map[string]command {
	return map[string]command{
		"threats": {"threat counts, windows and critical defences of a position", cmdThreats},
		"solve":   {"VCDT/VCST threat-space solver for the side to move", cmdSolve},
		"verify":  {"NCTU6-style verifier: list every defender move still unsolved", cmdVerify},
		"play":    {"the move for the side to move (player: threat space, then a selective search); --loop for match tools", cmdPlay},
		"book":    {"the proof book: init, import, export, stats, show, verify, next, check", cmdBook},
		"worker":  {"run verifier jobs from a NATS queue (c6 server, or a book's embedded queue)", cmdWorker},
		"server":  {"a verifier queue: NATS server with JetStream storage, for workers on other machines", cmdServer},
	}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: c6 <command> [flags]")
	fmt.Fprintln(w, "commands:")
	cmds := commands()
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintln(w, "run 'c6 <command> -h' for a command's flags")
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// errUsage is returned after a usage message was printed (flag errors).
var errUsage = errors.New("usage")

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	cmd, ok := commands()[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "c6: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	if err := cmd.run(args[1:], stdout, stderr); err != nil {
		if errors.Is(err, errUsage) {
			return 2
		}
		// One line: the error names what is wrong.
		fmt.Fprintf(stderr, "c6 %s: %s\n", args[0], strings.ReplaceAll(err.Error(), "\n", " "))
		return 1
	}
	return 0
}
