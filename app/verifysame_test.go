package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"fyne.io/fyne/v2/test"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
)

// buildC6 builds the c6 command into dir (the test's own build of the CLI
// at this commit) and returns its path.
func buildC6(t *testing.T, dir string) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	bin := filepath.Join(dir, "c6")
	cmd := exec.Command(goBin, "build", "-o", bin, "c6book/cmd/c6")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build c6: %v\n%s", err, out)
	}
	return bin
}

// sameVerdictJSON is a verdict's JSON with its wall-clock time taken out
// (the one field two runs may not share).
func sameVerdictJSON(t *testing.T, v c6book.Verdict) []byte {
	t.Helper()
	v.Millis = 0
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// The workbench's Verify (the window's button, headless: the session, the
// app's verifier and store, with the Preferences' node budget) and `c6
// verify` with the same budget give the same verdict on the same
// positions, byte for byte (node counts, calls, items, certificate), and
// the workbench stores exactly that verdict (in the book's frame). Before
// the service layer the window's default budget was 1,000,000 nodes a
// call and c6 verify's 200,000: their verdicts differed.
func TestWorkbenchVerifyIsC6Verify(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	c6 := buildC6(t, dir)
	r := game.Connect6()
	type verifyCase struct {
		line   string
		lambda int
		nodes  int64 // 0: the defaults of both (no budget set)
	}
	cases := []verifyCase{
		{"j10 a1b1 j11j12 a19b19 j13c3 s1s2 d3e3 s19r19 f3p15", 2, 0}, // proved
		{"j10 j9a1 j11j12 a3a5 j13k13", 3, 3000},                      // open, seminull items
		{"j10 j11a19 j9j8 a17a15 j7k7", 3, 3000},                      // the same, mirrored
		{"j10 j9a1 j11j12 a3a5 j13k13", 2, 0},                         // the defaults of both
		{"j10 i9k9 i7j9", 3, 5000},                                    // the position (its null move unrefuted at this budget)
	}
	if line := os.Getenv("C6BOOK_VERIFY_LINE"); line != "" {
		// A measurement on a position of one's own at λ3 with both
		// defaults, e.g. the "j10 i9k9 i7j9" (minutes).
		cases = []verifyCase{{line, 3, 0}}
	}
	for i, tc := range cases {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			a := test.NewTempApp(t)
			ta := startApp(t, a, options{book: filepath.Join(dir, fmt.Sprintf("b%d.c6book", i)), play: tc.line, lambda: tc.lambda})
			args := []string{"verify", "--turns", tc.line, "--lambda", strconv.Itoa(tc.lambda), "--json"}
			if tc.nodes > 0 {
				ta.wa.budget.set(threat.Limits{MaxNodes: tc.nodes}) // the Preferences' solver nodes
				args = append(args, "--max-nodes", strconv.FormatInt(tc.nodes, 10))
			}
			wb := ta.wa.wb
			ta.pumpUntil("the line", func() bool { return ta.wa.busy() == 0 && wb.Cursor().Loaded() })
			b, err := board.ReplayText(r, tc.line)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := ta.line(), game.FormatTurns(r, b.History()); got != want {
				t.Fatalf("line %q, want %q", got, want)
			}
			wb.Prover().Verify()
			ta.pumpUntil("the verdict", func() bool { return !wb.Prover().Running() })
			pb := ta.wa.bk.Proofbook()
			id, sym, err := pb.Locate(context.Background(), b)
			if err != nil {
				t.Fatal(err)
			}
			p, err := pb.Position(context.Background(), id)
			if err != nil || p.Verdict == nil {
				t.Fatalf("the workbench stored no verdict: %v", err)
			}
			gui := *p.Verdict // the book's frame

			cmd := exec.Command(c6, args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("c6 %v: %v\n%s", args, err, stderr.String())
			}
			var out struct {
				MaxNodes int64          `json:"max_nodes"`
				Verdict  c6book.Verdict `json:"verdict"`
			}
			if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
				t.Fatal(err)
			}
			// The same budget a solver call, chosen or by default.
			if got := ta.wa.budget.get().MaxNodes; got != out.MaxNodes {
				t.Fatalf("the workbench's solver nodes %d, c6 verify's %d", got, out.MaxNodes)
			}
			cli := out.Verdict.Transform(r, sym) // the frame entered -> the book's
			g, c := sameVerdictJSON(t, gui), sameVerdictJSON(t, cli)
			if !bytes.Equal(g, c) {
				t.Fatalf("the workbench's verdict (%s, %d calls, %d nodes, %d unsolved) is not c6 verify's (%s, %d calls, %d nodes, %d unsolved)",
					gui.Status, gui.Calls, gui.Nodes, len(gui.Unsolved), cli.Status, cli.Calls, cli.Nodes, len(cli.Unsolved))
			}
			t.Logf("%s λ%d: %s, %d calls, %d nodes, %d unsolved, %d open seminull (workbench %d ms, c6 verify %d ms)", tc.line, tc.lambda,
				gui.Status, gui.Calls, gui.Nodes, len(gui.Unsolved), len(gui.OpenSeminull), p.Verdict.Millis, out.Verdict.Millis)
		})
	}
}
