package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/player"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/proofbook"
)

func TestWorkers(t *testing.T) {
	for _, tc := range []struct{ cpus, jobs, want int }{
		{8, 1, 8}, {8, 2, 4}, {8, 3, 2}, {2, 2, 1}, {2, 4, 1}, {1, 1, 1}, {4, 0, 4},
	} {
		if got := workersOf(tc.cpus, tc.jobs); got != tc.want {
			t.Errorf("workersOf(%d cpus, %d jobs) = %d, want %d", tc.cpus, tc.jobs, got, tc.want)
		}
	}
	if Workers(1) < 1 || QueueSlots() < 2 {
		t.Fatalf("Workers(1) %d, QueueSlots %d", Workers(1), QueueSlots())
	}
}

// The prove defaults are valid, each bad setting is named (the CLI's
// words: --name value: want ...), and the defaults' store options are the
// store's own defaults (the workbench left them zero before).
func TestProveSettingsValidate(t *testing.T) {
	if err := ProveDefaults().Validate(); err != nil {
		t.Fatal(err)
	}
	if err := DefaultVerify().Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		set  func(*ProveSettings)
		name string
		msg  string
	}{
		{func(s *ProveSettings) { s.Verify.Lambda = 4 }, "lambda", "--lambda 4: want 2 or 3"},
		{func(s *ProveSettings) { s.Verify.MaxNodes = 0 }, "max-nodes", "--max-nodes 0: want a positive number"},
		{func(s *ProveSettings) { s.Verify.Workers = -1 }, "workers", "--workers -1: want 0 (all cores) or more"},
		{func(s *ProveSettings) { s.Jobs = 0 }, "jobs", "--jobs 0: want 1 or more"},
		{func(s *ProveSettings) { s.MaxCalls = -1 }, "max-calls", "--max-calls -1: want 0 (no limit) or more"},
		{func(s *ProveSettings) { s.FirstNodes = -1 }, "first-nodes", ""},
		{func(s *ProveSettings) { s.Candidates = 0 }, "candidates", ""},
		{func(s *ProveSettings) { s.PlayerNodes = 0 }, "player-nodes", ""},
		{func(s *ProveSettings) { s.GameLCB = math.NaN() }, "game-lcb", ""},
		{func(s *ProveSettings) { s.GameZ = 0 }, "game-z", "--game-z 0: want a positive number of standard deviations, e.g. 1.645"},
		{func(s *ProveSettings) { s.Widen = 0 }, "widen", "--widen 0: want 1 or more"},
		{func(s *ProveSettings) { s.Finish = -1 }, "finish", "--finish -1: want 0 (never) or more"},
		{func(s *ProveSettings) { s.SeminullItemFrom = -1 }, "seminull-item-from", "--seminull-item-from -1: want 0 (never) or more"},
		{func(s *ProveSettings) { s.SeminullWeight = -1 }, "seminull-weight", "--seminull-weight -1: want 0 (none) or more"},
	} {
		s := ProveDefaults()
		tc.set(&s)
		err := s.Validate()
		var se *SettingError
		if !errors.As(err, &se) || se.Setting != tc.name {
			t.Errorf("%s: error %v", tc.name, err)
			continue
		}
		if tc.msg != "" && err.Error() != tc.msg {
			t.Errorf("%s: %q, want %q", tc.name, err, tc.msg)
		}
	}
	o := ProveDefaults().Options(game.Black)
	if o.Candidates != 4 || o.MaxCandidates != 32 || o.PlayerNodes != player.DefaultCandidateNodes || o.GameLCB != 0.5 ||
		o.GameZ != player.GameZ || o.Verify.Lambda != 3 || o.Verify.Limits.MaxNodes != DefaultVerifyNodes || o.Verify.Workers != Workers(1) {
		t.Fatalf("default prove options %+v", o)
	}
	zero := ProveDefaults()
	zero.GameLCB = 0 // every imported move: passed as -1 (0 is the store's default)
	if zero.Options(game.Black).GameLCB >= 0 {
		t.Fatal("--game-lcb 0 is passed as the store's default")
	}
}

// verdictBytes is a verdict's JSON without its wall-clock time.
func verdictBytes(t *testing.T, v c6book.Verdict) string {
	t.Helper()
	v.Millis = 0
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// Verify gives the same verdict (node counts included) whatever the
// orientation the position is given in, the verdict mapped back into it,
// and the same as the book's own Verify (the auto-pilot's and c6 book
// verify's path) stores.
func TestVerifyIsFrameFree(t *testing.T) {
	ctx := context.Background()
	r := game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}
	b, err := board.ReplayText(r, "e5 e4e6 d5d4")
	if err != nil {
		t.Fatal(err)
	}
	opts := verify.VerifyOptions{Lambda: 2, Workers: 2, Limits: threat.Limits{MaxNodes: 5000}}
	var first string
	for sym := range r.SymmetryCount() {
		tb := b.Transformed(sym)
		res, err := Verify(ctx, nil, tb, opts, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := verdictBytes(t, res.Canonical)
		if sym == 0 {
			first = got
			if res.Verdict.Calls == 0 || len(res.Verdict.Unsolved) == 0 {
				t.Fatalf("want an open verdict with solver calls: %+v", res.Verdict)
			}
		} else if got != first {
			t.Fatalf("symmetry %d: verdict\n%s\nwant\n%s", sym, got, first)
		}
		// The caller's frame: every item a legal reply on tb.
		for _, u := range res.Verdict.Unsolved {
			if err := tb.Check(u.Move, false); err != nil {
				t.Fatalf("symmetry %d: item %s is not a move on the board given: %v", sym, game.MoveName(r, u.Move), err)
			}
		}
		_, csym := tb.CanonicalKey()
		if back := verdictBytes(t, res.Verdict.Transform(r, csym)); back != first {
			t.Fatalf("symmetry %d: the verdict in the caller's frame does not map onto the canonical one", sym)
		}
	}
	bk, err := proofbook.Create(ctx, filepath.Join(t.TempDir(), "v.c6book"), r)
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	l, err := bk.AddLine(ctx, b.History())
	if err != nil {
		t.Fatal(err)
	}
	st, err := bk.Verify(ctx, l.IDs[len(l.IDs)-1], nil, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := verdictBytes(t, st.Verdict); got != first {
		t.Fatalf("proofbook.Book.Verify stored\n%s\nservice.Verify found\n%s", got, first)
	}
	// VerifyAndStore (the workbench's and c6 book verify's) on a mirror
	// image stores that verdict too.
	other, err := Create(ctx, filepath.Join(t.TempDir(), "w.c6book"), r)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := other.AddLine(ctx, b.History()); err != nil {
		t.Fatal(err)
	}
	vs, err := other.VerifyAndStore(ctx, nil, b.Transformed(3), opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := other.Proofbook().Position(ctx, vs.ID)
	if err != nil || p.Verdict == nil {
		t.Fatalf("nothing stored: %v", err)
	}
	if got := verdictBytes(t, *p.Verdict); got != first || verdictBytes(t, vs.InBook) != first {
		t.Fatalf("VerifyAndStore stored\n%s\nwant\n%s", got, first)
	}
}

// gamesFile is a games file of n distinct games.
func gamesFile(n int) string {
	var sb strings.Builder
	sb.WriteString("{")
	cols := "abcdefghijklmnopqrs"
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteString(", ")
		}
		x, y := cols[i%19], 1+(i/19)%19
		fmt.Fprintf(&sb, `"%d": ["j10", "%c%d%c%d"]`, i+1, x, y, cols[(i/361+i+3)%19], 1+(i/19+5)%19)
	}
	sb.WriteString("}")
	return sb.String()
}

// An import cancelled midway (after its first committed transaction)
// returns the context's error, says it was cancelled, and the book holds
// exactly the games Kept says; importing the file again adds the rest.
func TestImportGamesCancelledKeepsWhatItSays(t *testing.T) {
	ctx := context.Background()
	bk, err := Create(ctx, filepath.Join(t.TempDir(), "g.c6book"), game.Connect6())
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	const n = 60
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	commits := 0
	res, err := bk.ImportGames(cctx, strings.NewReader(gamesFile(n)), ImportGamesOptions{Batch: 10, OnCommit: func([]string) {
		commits++
		cancel() // after the first transaction
	}})
	if !errors.Is(err, context.Canceled) || !res.Cancelled {
		t.Fatalf("cancelled import: %v, cancelled %v", err, res.Cancelled)
	}
	st, err := bk.Proofbook().Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	k := res.Kept
	if k.Total != n || k.Stored == 0 || k.Stored >= n || k.Nothing() {
		t.Fatalf("kept %+v after %d commits: want part of the %d games", k, commits, n)
	}
	if st.Games != int64(k.Stored) || res.Games != k.Stored {
		t.Fatalf("the book holds %d games, the result says %d kept (stats %d)", st.Games, k.Stored, res.Games)
	}
	again, err := bk.ImportGames(ctx, strings.NewReader(gamesFile(n)), ImportGamesOptions{Batch: 10})
	if err != nil || again.Cancelled {
		t.Fatal(err)
	}
	if again.Games != n-k.Stored || again.Already != k.Stored {
		t.Fatalf("again: %d stored, %d already; want %d and %d", again.Games, again.Already, n-k.Stored, k.Stored)
	}
}
