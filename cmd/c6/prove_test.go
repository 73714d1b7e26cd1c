package main

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"c6book"
	"c6book/autopilot"
	"c6book/engine/game"
	"c6book/internal/testenv"
	"c6book/jobqueue"
)

// c6 book prove proves a small board's first move on its own, the book
// checks, a second run has nothing to do, and a held position is named.
func TestBookProve(t *testing.T) {
	testenv.Heavy(t)
	book := filepath.Join(t.TempDir(), "p.c6book")
	runBook(t, false, "init", "--book", book, "--rules", "8,8,5,2,1")
	runBook(t, true, "prove", "--book", book, "--jobs", "0")
	runBook(t, true, "prove", "--book", book, "--lambda", "4")
	out, _ := runBook(t, false, "prove", "--book", book, "--turns", "d4", "--attacker", "B", "--lambda", "3",
		"--max-nodes", "3000", "--workers", "1", "--jobs", "2", "--json")
	var res struct {
		Result   string `json:"result"`
		Status   string `json:"status"`
		Calls    int    `json:"calls"`
		Added    int    `json:"added"`
		Frontier []any  `json:"frontier"`
		Queue    struct {
			Where    string `json:"where"`
			Workers  int    `json:"workers"`
			DoneRun  int    `json:"done_run"`
			Accepted int    `json:"accepted"`
			Rejected int    `json:"rejected"`
		} `json:"queue"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Result != "proved" || res.Status != "proved" || res.Calls == 0 || len(res.Frontier) != 0 {
		t.Fatalf("prove: %s", out)
	}
	// Every call went through the embedded queue beside the book. With two
	// jobs, one may still be in flight when the root is proved: it is
	// cancelled and the queue counts it done, with no result taken; or its
	// result came in before the cancel did, and the queue accepted it
	// though the finished search no longer counts it as a call.
	if q := res.Queue; q.Where != "embedded" || q.Workers != 1 || q.DoneRun < res.Calls || q.DoneRun > res.Calls+1 ||
		q.Accepted < res.Calls || q.Accepted > q.DoneRun || q.Rejected != 0 {
		t.Fatalf("prove's queue: %+v, want the embedded one with %d results", q, res.Calls)
	}
	if _, err := os.Stat(book + ".jobs"); err != nil {
		t.Fatalf("no queue beside the book: %v", err)
	}
	out, _ = runBook(t, false, "check", "--book", book)
	if !strings.Contains(out, "ok") {
		t.Fatalf("check: %s", out)
	}
	out, _ = runBook(t, false, "prove", "--book", book, "--turns", "d4", "--attacker", "B", "--max-nodes", "3000")
	if !strings.Contains(out, "proved") || !strings.Contains(out, "0 verifier calls") {
		t.Fatalf("second run: %s", out)
	}
	// Held: the auto-pilot skips it and says so; next names it.
	runBook(t, false, "annotate", "--book", book, "--turns", "b2", "--attacker", "B", "--hold")
	out, _ = runBook(t, false, "prove", "--book", book, "--turns", "b2", "--attacker", "B", "--max-nodes", "3000")
	if !strings.Contains(out, "stuck") || !strings.Contains(out, "left to the expert") {
		t.Fatalf("held: %s", out)
	}
	out, _ = runBook(t, false, "next", "--book", book, "--turns", "b2", "--attacker", "B")
	if !strings.Contains(out, "left to the expert") {
		t.Fatalf("next at a held position: %s", out)
	}
	runBook(t, true, "annotate", "--book", book, "--turns", "b2", "--hold", "--unhold")
}

// --nats sends prove's jobs to an external queue (here a server with one
// worker of its own); the flags that do not go together are refused.
func TestBookProveNATS(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "p.c6book")
	runBook(t, false, "init", "--book", book, "--rules", "8,8,5,2,1")
	q, err := jobqueue.StartEmbedded(context.Background(), jobqueue.EmbeddedConfig{
		Server: jobqueue.ServerConfig{Dir: filepath.Join(dir, "server"), Listen: "127.0.0.1:0", OpenLoopback: true}, Workers: 1, Solvers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	out, _ := runBook(t, false, "prove", "--book", book, "--turns", "d4", "--attacker", "B", "--lambda", "2",
		"--max-nodes", "3000", "--workers", "1", "--max-calls", "3", "--nats", q.URL(), "--json")
	var res struct {
		Calls int `json:"calls"`
		Queue struct {
			Where    string `json:"where"`
			Workers  int    `json:"workers"`
			Accepted int    `json:"accepted"`
		} `json:"queue"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Calls == 0 || res.Queue.Where != "nats" || res.Queue.Workers != 1 || res.Queue.Accepted != res.Calls {
		t.Fatalf("prove --nats: %s", out)
	}
	if _, err := os.Stat(book + ".jobs"); !os.IsNotExist(err) {
		t.Errorf("prove --nats made a queue beside the book: %v", err)
	}
	// --no-queue: in this process, no folder beside the book.
	out, _ = runBook(t, false, "prove", "--book", book, "--turns", "d4", "--attacker", "B", "--lambda", "2",
		"--max-nodes", "3000", "--workers", "1", "--max-calls", "1", "--no-queue", "--json")
	if !strings.Contains(out, `"where":"local"`) {
		t.Errorf("prove --no-queue: %s", out)
	}
	if _, err := os.Stat(book + ".jobs"); !os.IsNotExist(err) {
		t.Errorf("prove --nats or --no-queue made a queue beside the book: %v", err)
	}
	for _, args := range [][]string{
		{"--no-queue", "--nats", q.URL()},
		{"--nats", q.URL(), "--listen", "127.0.0.1:0"},
		{"--creds", filepath.Join(dir, "c.creds")},
		{"--local-jobs", "2"},
	} {
		runBook(t, true, append([]string{"prove", "--book", book, "--turns", "d4"}, args...)...)
	}
}

// prove --listen without --creds is refused at once, before the book's
// queue folder is made, on a loopback address too (every local user
// reaches it); a bad address likewise. One line on stderr each.
func TestBookProveListenNeedsCreds(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "p.c6book")
	runBook(t, false, "init", "--book", book, "--rules", "8,8,5,2,1")
	for _, c := range []struct{ listen, want string }{
		{"0.0.0.0:4333", "--listen 0.0.0.0:4333 needs credentials"},
		{"127.0.0.1:0", "--listen 127.0.0.1:0 needs credentials"},
		{"localhost", "listen address"},
	} {
		_, stderr := runBook(t, true, "prove", "--book", book, "--turns", "d4", "--attacker", "B", "--lambda", "2",
			"--max-nodes", "3000", "--workers", "1", "--max-calls", "3", "--listen", c.listen)
		if !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("prove --listen %s: stderr %q, want one line with %q", c.listen, stderr, c.want)
		}
		if _, err := os.Stat(book + ".jobs"); !os.IsNotExist(err) {
			t.Fatalf("prove --listen %s without --creds made the queue folder (%v)", c.listen, err)
		}
	}
}

// On the empty board nobody has moved: prove's default attacker is the
// side to move, Black (the side that "just moved" would be White, for
// whom the empty board proves nothing), and its first call is a verifier
// call on one of Black's first moves.
func TestBookProveEmptyBoardAttacker(t *testing.T) {
	book := filepath.Join(t.TempDir(), "e.c6book")
	runBook(t, false, "init", "--book", book, "--rules", "7,7,4,2,1")
	out, _ := runBook(t, false, "prove", "--book", book, "--max-calls", "1", "--max-nodes", "2000", "--workers", "1", "--no-queue", "--json")
	var res struct {
		Attacker string `json:"attacker"`
		Calls    int    `json:"calls"`
		Added    int    `json:"added"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Attacker != "B" || res.Calls != 1 || res.Added == 0 {
		t.Fatalf("prove on the empty board: attacker %s, %d calls, %d positions added; want B, 1 call and Black's first moves added", res.Attacker, res.Calls, res.Added)
	}
	// Off a terminal, progress lines only with --progress-every.
	_, quiet := runBook(t, false, "prove", "--book", book, "--max-calls", "2", "--max-nodes", "2000", "--workers", "1", "--no-queue")
	_, logged := runBook(t, false, "prove", "--book", book, "--max-calls", "2", "--max-nodes", "2000", "--workers", "1", "--no-queue", "--progress-every", "1ns")
	if strings.Contains(quiet, "  calls ") || !strings.Contains(logged, "  calls ") || strings.Contains(logged, "\r") {
		t.Fatalf("progress lines: without --progress-every %q, with it %q; want none, then plain lines", quiet, logged)
	}
	if _, errOut := runBook(t, true, "prove", "--book", book, "--progress-every", "-1s"); !strings.Contains(errOut, "--progress-every") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Fatalf("--progress-every -1s: want a one-line error naming the flag, got %q", errOut)
	}
	// --attacker W is still obeyed.
	out, _ = runBook(t, false, "prove", "--book", book, "--attacker", "W", "--max-calls", "1", "--max-nodes", "2000", "--workers", "1", "--no-queue", "--json")
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Attacker != "W" {
		t.Fatalf("--attacker W: attacker %s", res.Attacker)
	}
}

// The player's flags of prove: bad values are refused with a one-line
// error naming the flag; good ones reach the auto-pilot's options and a
// proof runs with them.
func TestBookProvePlayerFlags(t *testing.T) {
	book := filepath.Join(t.TempDir(), "p.c6book")
	runBook(t, false, "init", "--book", book, "--rules", "8,8,5,2,1")
	for _, bad := range [][]string{
		{"--player-nodes", "0"}, {"--player-nodes", "-5"}, {"--player-nodes", "x"},
		{"--game-lcb", "-0.1"}, {"--game-lcb", "NaN"}, {"--game-lcb", "+Inf"},
		{"--game-z", "0"}, {"--game-z", "-1"}, {"--game-z", "NaN"},
	} {
		_, errOut := runBook(t, true, append([]string{"prove", "--book", book, "--turns", "d4", "--attacker", "B"}, bad...)...)
		if !strings.Contains(errOut, strings.TrimLeft(bad[0], "-")) {
			t.Errorf("%v: the error does not name the flag: %q", bad, errOut)
		}
		if lines := strings.Count(strings.TrimSpace(errOut), "\n"); lines != 0 {
			t.Errorf("%v: want a one-line error, got %q", bad, errOut)
		}
	}
	o := proveOpts{jobs: 1, candidates: 4, verifyLimits: verifyLimits{lambda: 3}, playerNodes: 1234, gameLCB: 0.7, gameZ: 2.5}
	if p := o.options(game.Black, 1); p.PlayerNodes != 1234 || p.GameLCB != 0.7 || p.GameZ != 2.5 {
		t.Errorf("options: %+v", p)
	}
	if p := o.options(game.Black, 1); p.NoLearn || p.Postpone {
		t.Errorf("learning off or the postponed player on by default: %+v", p)
	}
	o.noLearn, o.postpone = true, true
	if p := o.options(game.Black, 1); !p.NoLearn || !p.Postpone {
		t.Errorf("--no-learn --postpone do not reach the options: %+v", p)
	}
	o.gameLCB = 0 // every imported move first: a bound below every bound
	if p := o.options(game.Black, 1); p.GameLCB >= 0 {
		t.Errorf("--game-lcb 0 gives GameLCB %v, which Prove reads as its default", p.GameLCB)
	}
	testenv.Heavy(t)
	out, _ := runBook(t, false, "prove", "--book", book, "--turns", "d4", "--attacker", "B", "--lambda", "3",
		"--max-nodes", "3000", "--workers", "1", "--player-nodes", "500", "--game-lcb", "0", "--game-z", "2")
	if !strings.Contains(out, "proved") {
		t.Fatalf("prove with the player's flags: %s", out)
	}
}

// The node budget schedule of prove: --first-nodes below 0 is refused with
// a one-line error naming it; the flag reaches ProveOptions.FirstNodes
// (default 0: every call at --max-nodes), and --widen to Widen (below 1
// refused); the JSON reports the schedule (--first-nodes, ×4, up
// to --max-nodes) with the calls at each budget, and the calls add up.
func TestBookProveBudgetSchedule(t *testing.T) {
	book := filepath.Join(t.TempDir(), "p.c6book")
	runBook(t, false, "init", "--book", book, "--rules", "8,8,5,2,1")
	for _, bad := range []string{"-1", "x"} {
		_, errOut := runBook(t, true, "prove", "--book", book, "--turns", "d4", "--attacker", "B", "--first-nodes", bad)
		if !strings.Contains(errOut, "first-nodes") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("--first-nodes %s: want a one-line error naming the flag, got %q", bad, errOut)
		}
	}
	var c BookProveCommand
	fs := flag.NewFlagSet("prove", flag.ContinueOnError)
	c.flags(fs)
	if err := fs.Parse(nil); err != nil {
		t.Fatal(err)
	}
	if p := c.o.options(game.Black, 1); p.FirstNodes != 0 || p.Verify.Limits.MaxNodes != 200000 {
		t.Errorf("defaults: first %d, most %d; want 0, 200000", p.FirstNodes, p.Verify.Limits.MaxNodes)
	}
	if p := c.o.options(game.Black, 1); p.Widen != autopilot.DefaultWiden {
		t.Errorf("default --widen gives Widen %d, want %d", p.Widen, autopilot.DefaultWiden)
	}
	if err := fs.Parse([]string{"--widen", "3"}); err != nil {
		t.Fatal(err)
	}
	if p := c.o.options(game.Black, 1); p.Widen != 3 {
		t.Errorf("--widen 3 gives Widen %d", p.Widen)
	}
	if p := c.o.options(game.Black, 1); p.Verify.SeminullItemFrom != autopilot.DefaultSeminullItemFrom {
		t.Errorf("default --seminull-item-from gives %d, want %d", p.Verify.SeminullItemFrom, autopilot.DefaultSeminullItemFrom)
	}
	if err := fs.Parse([]string{"--seminull-item-from", "5"}); err != nil {
		t.Fatal(err)
	}
	if p := c.o.options(game.Black, 1); p.Verify.SeminullItemFrom != 5 {
		t.Errorf("--seminull-item-from 5 gives %d", p.Verify.SeminullItemFrom)
	}
	if p := c.o.options(game.Black, 1); p.Finish > 0 {
		t.Errorf("default --finish gives Finish %d, want never (0 or below)", p.Finish)
	}
	if err := fs.Parse([]string{"--finish", "0"}); err != nil {
		t.Fatal(err)
	}
	if p := c.o.options(game.Black, 1); p.Finish >= 0 {
		t.Errorf("--finish 0 gives Finish %d, want below 0 (never)", p.Finish)
	}
	if err := fs.Parse([]string{"--finish", "3"}); err != nil {
		t.Fatal(err)
	}
	if p := c.o.options(game.Black, 1); p.Finish != 3 {
		t.Errorf("--finish 3 gives Finish %d", p.Finish)
	}
	if p := c.o.options(game.Black, 1); p.SeminullWeight != autopilot.DefaultSeminullWeight {
		t.Errorf("default --seminull-weight gives %d, want %d", p.SeminullWeight, autopilot.DefaultSeminullWeight)
	}
	for _, w := range []struct {
		flag string
		want int
	}{{"0", -1}, {"3", 3}} {
		if err := fs.Parse([]string{"--seminull-weight", w.flag}); err != nil {
			t.Fatal(err)
		}
		if p := c.o.options(game.Black, 1); p.SeminullWeight != w.want {
			t.Errorf("--seminull-weight %s gives %d, want %d", w.flag, p.SeminullWeight, w.want)
		}
	}
	_, errOut := runBook(t, true, "prove", "--book", book, "--turns", "d4", "--attacker", "B", "--seminull-weight", "-1")
	if !strings.Contains(errOut, "--seminull-weight -1: want 0 (none) or more") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Errorf("--seminull-weight -1: want a one-line error naming the flag, got %q", errOut)
	}
	_, errOut = runBook(t, true, "prove", "--book", book, "--turns", "d4", "--attacker", "B", "--finish", "-1")
	if !strings.Contains(errOut, "--finish -1: want 0 (never) or more") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Errorf("--finish -1: want a one-line error naming the flag, got %q", errOut)
	}
	_, errOut = runBook(t, true, "prove", "--book", book, "--turns", "d4", "--attacker", "B", "--seminull-item-from", "-1")
	if !strings.Contains(errOut, "--seminull-item-from -1: want 0 (never) or more") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Errorf("--seminull-item-from -1: want a one-line error naming the flag, got %q", errOut)
	}
	for _, bad := range []string{"0", "-2"} {
		_, errOut := runBook(t, true, "prove", "--book", book, "--turns", "d4", "--attacker", "B", "--widen", bad)
		if !strings.Contains(errOut, "--widen "+bad+": want 1 or more") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("--widen %s: want a one-line error naming the flag, got %q", bad, errOut)
		}
	}
	out, _ := runBook(t, false, "prove", "--book", book, "--turns", "d4", "--attacker", "B", "--lambda", "3",
		"--max-nodes", "3000", "--first-nodes", "100", "--max-calls", "6", "--workers", "1", "--no-queue", "--json")
	var res bookProveJSON
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	want := []int64{100, 400, 1600, 3000}
	calls := 0
	for i, b := range res.Schedule {
		if i >= len(want) || b.Nodes != want[i] {
			t.Fatalf("schedule %+v, want the budgets %v", res.Schedule, want)
		}
		calls += b.Calls
	}
	if len(res.Schedule) != len(want) || calls != res.Calls || res.Calls == 0 || res.Schedule[0].Calls == 0 {
		t.Fatalf("schedule %+v for %d calls: want %v, the calls adding up, the first budget used", res.Schedule, res.Calls, want)
	}
}

// The progress line names each position in flight, with how far its
// verifier call is when the run says so.
func TestInFlightText(t *testing.T) {
	cases := []struct {
		p    c6book.ProveProgress
		want string
	}{
		{c6book.ProveProgress{}, "[]"},
		{c6book.ProveProgress{InFlight: []int64{42}}, "[42]"},
		{c6book.ProveProgress{InFlight: []int64{42, 44}, Working: []c6book.VerifyWork{
			{ID: 44, Phase: "seminull", Done: 3, Total: 80},
			{ID: 42, Phase: "moves", Done: 1200, Total: 3552, Unsolved: 12}}},
			"[42 (moves 1200/3552, 12 unsolved) 44 (seminull 3/80)]"},
		{c6book.ProveProgress{InFlight: []int64{7}, Working: []c6book.VerifyWork{{ID: 7, Finished: 2, Verifies: 11}}}, "[7 (2/11 calls done; starting)]"},
		{c6book.ProveProgress{InFlight: []int64{7}, Working: []c6book.VerifyWork{{ID: 8, Phase: "null", Total: 1}}}, "[7]"},
	}
	for _, c := range cases {
		if got := inFlightText(c.p); got != c.want {
			t.Errorf("%+v: %q, want %q", c.p, got, c.want)
		}
	}
}
