package autopilot

import (
	"bufio"
	"c6book/internal/booktest"
	"c6book/internal/lambda3moves"
	"c6book/internal/lambda3oracle"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/jobsearch"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/proofbook"
)

// recordingVerifier is the local verifier that records the positions it
// was asked to verify (their canonical keys), in order.
type recordingVerifier struct {
	mu   sync.Mutex
	keys []uint64
}

func (v *recordingVerifier) Verify(ctx context.Context, b *board.Board, opts verify.VerifyOptions, progress func(verify.VerifyProgress)) (verify.Verdict, error) {
	k, _ := b.CanonicalKey()
	v.mu.Lock()
	v.keys = append(v.keys, k)
	v.mu.Unlock()
	return verify.Verify(ctx, b, opts, progress)
}

func (v *recordingVerifier) saw(k uint64) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return slices.Contains(v.keys, k)
}

func posKeyOf(t *testing.T, bk *proofbook.Book, id PosID) uint64 {
	t.Helper()
	b, err := bk.Board(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	k, _ := b.CanonicalKey()
	return k
}

func smallProve(a game.Color, lambda, calls int) ProveOptions {
	return ProveOptions{Attacker: a, MaxCalls: calls, Jobs: 1,
		Verify: verify.VerifyOptions{Lambda: lambda, Workers: 1, Limits: threat.Limits{MaxNodes: 3000}}}
}

// Every position the auto-pilot proves on small boards is a true win,
// played out against every defender reply by brute force, and the book
// passes check (proofcheck re-checks every stored proof).
func TestProveAgainstBruteForce(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	ctx := context.Background()
	cases := []struct {
		rules  game.Rules
		line   string
		a      game.Color
		lambda int
	}{
		{game.Rules{M: 8, N: 8, K: 5, P: 2, Q: 1}, "", game.Black, 2},
		{game.Rules{M: 8, N: 8, K: 5, P: 2, Q: 1}, "d4", game.Black, 3},
		{game.Rules{M: 7, N: 7, K: 4, P: 2, Q: 1}, "d4 c3e5", game.Black, 3},
		{game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}, "e5 d4f6", game.Black, 3},
		{game.Rules{M: 7, N: 7, K: 4, P: 2, Q: 1}, "", game.Black, 3},
	}
	rng := rand.New(rand.NewPCG(5, 15))
	for i := 0; i < 4; i++ {
		r := game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}
		ms := lambda3moves.RandomLine(rng, r, 4)
		b, err := board.Replay(r, ms)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, struct {
			rules  game.Rules
			line   string
			a      game.Color
			lambda int
		}{r, game.FormatTurns(r, ms), b.ToMove(), 2 + i%2})
	}
	provedAny, below := 0, 0
	for _, c := range cases {
		bk := booktest.NewBook(t, c.rules)
		id := booktest.Add(t, bk, c.line)
		res, err := Prove(ctx, bk, id, verify.LocalVerifier{}, smallProve(c.a, c.lambda, 40), nil)
		if err != nil {
			t.Fatalf("%v %q: %v", c.rules, c.line, err)
		}
		booktest.MustCheck(t, bk)
		proved := lambda3oracle.ProvedPositions(t, bk, c.a)
		for _, pos := range proved {
			cb := lambda3oracle.MustWin(ctx, t, bk, c.a, pos, fmt.Sprintf("%v %q, the auto-pilot's book", c.rules, c.line))
			if tol, _ := cb.DefenderDeficit(c.a); tol > 0 {
				below++
			}
		}
		if res.Status == "proved" {
			provedAny++
			if res.Proof.Status != c6book.StatusProved {
				t.Fatalf("%v %q: the search says proved, the book %s", c.rules, c.line, res.Proof.Status)
			}
		}
		t.Logf("%v %q λ%d: %s, %d calls, %d positions added, %d proved positions checked by brute force",
			c.rules, c.line, c.lambda, res.Status, res.Calls, res.Added, len(proved))
	}
	if provedAny == 0 {
		t.Fatal("the auto-pilot proved none of the targets")
	}
	t.Logf("%d proved positions below a seminull or null move (tolerance > 0)", below)
}

// The expert's word wins: a move stored by hand is verified before the
// engine's candidates, a move marked disproved is never worked on, and a
// position left to the expert is skipped (and named in the frontier).
func TestProveExpertOverrides(t *testing.T) {
	ctx := context.Background()
	r := game.Rules{M: 8, N: 8, K: 5, P: 2, Q: 1}

	// A hand-made move (a poor one, far from the centre) is tried first.
	bk := booktest.NewBook(t, r)
	root := booktest.Add(t, bk, "")
	hand := booktest.Add(t, bk, "b2")
	rv := &recordingVerifier{}
	if _, err := Prove(ctx, bk, root, rv, smallProve(game.Black, 2, 1), nil); err != nil {
		t.Fatal(err)
	}
	if len(rv.keys) != 1 || rv.keys[0] != posKeyOf(t, bk, hand) {
		t.Fatalf("the first verified position is not the hand-made move's (%d calls)", len(rv.keys))
	}
	auto, err := autoMoveTo(ctx, bk, root, hand)
	if err != nil || auto {
		t.Fatalf("the hand-made move counts as the auto-pilot's: %v %v", auto, err)
	}

	// Marked disproved, or held: never verified.
	bk = booktest.NewBook(t, r)
	root = booktest.Add(t, bk, "")
	dis := booktest.Add(t, bk, "b2")
	held := booktest.Add(t, bk, "c3")
	if err := bk.SetDisproved(ctx, dis, game.Black, true); err != nil {
		t.Fatal(err)
	}
	if err := bk.SetHold(ctx, held, game.Black, true); err != nil {
		t.Fatal(err)
	}
	rv = &recordingVerifier{}
	res, err := Prove(ctx, bk, root, rv, smallProve(game.Black, 2, 3), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rv.saw(posKeyOf(t, bk, dis)) || rv.saw(posKeyOf(t, bk, held)) {
		t.Fatal("the auto-pilot verified a position the expert disproved or kept")
	}
	// The budget of 3 calls is used, unless the root is proved before
	// (since the verifier maps the strategies of symmetric defender moves,
	// 2 calls prove it).
	if res.Calls != 3 && (res.Status != "proved" || res.Calls < 1 || res.Calls > 3) {
		t.Fatalf("%d calls, want 3 or the root proved within them (status %s)", res.Calls, res.Status)
	}
	if h, err := bk.Held(ctx, held, game.Black); err != nil || !h {
		t.Fatalf("hold not stored: %v %v", h, err)
	}

	// Below a held position nothing is worked on: the search is stuck there.
	bk = booktest.NewBook(t, r)
	id := booktest.Add(t, bk, "d4")
	if err := bk.SetHold(ctx, id, game.Black, true); err != nil {
		t.Fatal(err)
	}
	rv = &recordingVerifier{}
	res, err = Prove(ctx, bk, id, rv, smallProve(game.Black, 2, 10), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rv.keys) != 0 || res.Status != "stuck" || len(res.Frontier) != 1 || res.Frontier[0].Why != jobsearch.FrontierExcluded {
		t.Fatalf("held target: %d calls, status %s, frontier %+v", len(rv.keys), res.Status, res.Frontier)
	}
	if err := bk.SetHold(ctx, id, game.Black, false); err != nil {
		t.Fatal(err)
	}
	booktest.MustCheck(t, bk)
}

// Two jobs at once store what one job stores, position by position, and
// the book checks.
func TestProveTwoJobs(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	ctx := context.Background()
	r := game.Rules{M: 8, N: 8, K: 5, P: 2, Q: 1}
	bk := booktest.NewBook(t, r)
	root := booktest.Add(t, bk, "")
	o := smallProve(game.Black, 2, 60)
	o.Jobs = 2
	var mu sync.Mutex
	maxInFlight := 0
	res, err := Prove(ctx, bk, root, verify.LocalVerifier{}, o, func(p c6book.ProveProgress) {
		mu.Lock()
		maxInFlight = max(maxInFlight, len(p.InFlight))
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != "proved" {
		t.Fatalf("two jobs: %s after %d calls", res.Status, res.Calls)
	}
	booktest.MustCheck(t, bk)
	mu.Lock()
	defer mu.Unlock()
	t.Logf("two jobs: %d calls, at most %d in flight in the reports", res.Calls, maxInFlight)
}

const proverEnv = "C6BOOK_PROVER"

// TestHelperProver is the child process of TestProveKilled: it runs the
// auto-pilot on the book named by C6BOOK_PROVER to the end.
func TestHelperProver(t *testing.T) {
	path := os.Getenv(proverEnv)
	if path == "" {
		t.Skip("child process of TestProveKilled only")
	}
	ctx := context.Background()
	bk, err := proofbook.Open(ctx, path)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	_, err = Prove(ctx, bk, rootOf(t, bk), verify.LocalVerifier{}, smallProve(game.Black, 2, 0), func(p c6book.ProveProgress) {
		fmt.Println("calls", p.Calls)
	})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	fmt.Println("done")
	bk.Close()
	os.Exit(0)
}

// provedKeys are the canonical keys of the positions proved for a.
func provedKeys(t *testing.T, bk *proofbook.Book, a game.Color) []uint64 {
	t.Helper()
	var out []uint64
	for _, id := range lambda3oracle.ProvedPositions(t, bk, a) {
		out = append(out, posKeyOf(t, bk, id))
	}
	slices.Sort(out)
	return out
}

// kill -9 at varied moments of an auto-pilot run, then run it again: the
// book passes check after every kill, and the run that finishes leaves the
// same proof as an uninterrupted run (nothing stored is lost or redone
// differently).
func TestProveKilled(t *testing.T) {
	if os.Getenv(proverEnv) != "" {
		t.Skip("in the child")
	}
	if testing.Short() {
		t.Skip("long")
	}
	ctx := context.Background()
	r := game.Rules{M: 8, N: 8, K: 5, P: 2, Q: 1}
	// The uninterrupted run.
	ref := booktest.NewBook(t, r)
	res, err := Prove(ctx, ref, rootOf(t, ref), verify.LocalVerifier{}, smallProve(game.Black, 2, 0), nil)
	if err != nil || res.Status != "proved" {
		t.Fatalf("reference run: %s %v", res.Status, err)
	}
	want := provedKeys(t, ref, game.Black)

	rng := rand.New(rand.NewPCG(3, 9))
	kills, runs, books := 0, 0, 0
	// Ten kills; three under the race detector, where a run is ten times
	// slower (tools/killprove.sh kills the c6 command ten times).
	want10 := 10
	if raceOn {
		want10 = 3
	}
	path := ""
	// Books are proved one after the other, each killed as often as it
	// takes, until 10 kills happened and the last book is finished.
	for finished := true; kills < want10 || !finished; runs++ {
		if runs > 100 {
			t.Fatalf("%d kills in %d runs", kills, runs)
		}
		if finished {
			books++
			path = filepath.Join(t.TempDir(), "killed.c6book")
			bk, err := proofbook.Create(ctx, path, r)
			if err != nil {
				t.Fatal(err)
			}
			bk.Close()
			finished = false
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProver$")
		cmd.Env = append(os.Environ(), proverEnv+"="+path)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill after a random number of finished calls (0-3) plus 0-40 ms,
		// whatever the speed (-race or not); after the last kill the run
		// finishes.
		wait := rng.IntN(4)
		delay := time.Duration(rng.IntN(40)) * time.Millisecond
		lines := make(chan string, 100)
		go func() {
			defer close(lines)
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				lines <- sc.Text()
			}
		}()
		var killAt <-chan time.Time // nil: no kill planned
		if kills < want10 {
			if wait == 0 {
				killAt = time.After(delay)
			}
		}
		base := -1
	read:
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					break read
				}
				switch {
				case l == "done":
					finished = true
				case len(l) > 6 && l[:6] == "calls ":
					n, _ := strconv.Atoi(l[6:])
					if base < 0 {
						base = n
					}
					if kills < want10 && n-base >= wait && wait > 0 {
						wait = 0
						killAt = time.After(delay)
					}
				case len(l) > 5 && l[:5] == "error":
					t.Fatalf("child: %s", l)
				}
			case <-killAt:
				if cmd.Process.Signal(syscall.SIGKILL) == nil {
					kills++
				}
				killAt = nil
			}
		}
		cmd.Wait()
		bk, err := proofbook.Open(ctx, path)
		if err != nil {
			t.Fatalf("run %d: open after the kill: %v", runs, err)
		}
		booktest.MustCheck(t, bk)
		if finished {
			got := provedKeys(t, bk, game.Black)
			if p := proofOf(t, bk, rootOf(t, bk), game.Black); p.Status != c6book.StatusProved || !slices.Equal(got, want) {
				t.Fatalf("after %d kills: root %s, %d proved positions, the uninterrupted run %d", kills, p.Status, len(got), len(want))
			}
		}
		bk.Close()
	}
	t.Logf("%d kills in %d runs over %d books; every finished book equals the uninterrupted run's (%d proved positions)", kills, runs, books, len(want))
}

// BenchmarkProveJobs runs the auto-pilot with 1 and 2 jobs on the same
// small-board target to its proof (Connect(8,8,5,2,1), Black's first move;
// a fresh book each time, one solver worker per job) and reports the
// verifier calls it took and the calls per second: the speed-up of
// parallel jobs on this machine, and the extra calls they cost.
func BenchmarkProveJobs(b *testing.B) {
	r := game.Rules{M: 8, N: 8, K: 5, P: 2, Q: 1}
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("jobs=%d", jobs), func(b *testing.B) {
			ctx := context.Background()
			calls := 0
			var elapsed time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				bk, err := proofbook.Create(ctx, filepath.Join(b.TempDir(), "bench.c6book"), r)
				if err != nil {
					b.Fatal(err)
				}
				o := smallProve(game.Black, 2, 0)
				o.Jobs = jobs
				b.StartTimer()
				res, err := Prove(ctx, bk, rootOf(b, bk), verify.LocalVerifier{}, o, nil)
				if err != nil || res.Status != "proved" {
					b.Fatal(res.Status, err)
				}
				calls += res.Calls
				elapsed += res.Elapsed
				bk.Close()
			}
			b.ReportMetric(float64(calls)/elapsed.Seconds(), "calls/s")
			b.ReportMetric(float64(calls)/float64(b.N), "calls/op")
		})
	}
}
