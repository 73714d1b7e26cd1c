package verify

import (
	"context"
	"encoding/json"
	"os"
	"runtime"
	"testing"

	"c6book/internal/testenv"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
)

// proofFixture is the format of testdata/connect623.json: Black's first
// turn, the verifier options, and a proof tree (for every defender move the
// root verdict leaves unsolved, the attacker's answer; none here, as the
// root verdict alone is a proof).
type proofFixture struct {
	Rules    string       `json:"rules"`
	Turns    string       `json:"turns"`
	Lambda   int          `json:"lambda"`
	MaxNodes int64        `json:"max_nodes"`
	Proved   bool         `json:"proved"`
	Calls    int          `json:"verifier_calls"`
	Root     *fixtureNode `json:"root"`
}

type fixtureNode struct {
	Move     string         `json:"move"`
	Status   string         `json:"status"`
	Unsolved []string       `json:"unsolved"`
	Replies  []fixtureReply `json:"replies"`
}

type fixtureReply struct {
	Move   string       `json:"move"`
	Answer *fixtureNode `json:"answer"`
}

func loadConnect623(tb testing.TB) (*board.Board, proofFixture, VerifyOptions) {
	tb.Helper()
	data, err := os.ReadFile("testdata/connect623.json")
	if err != nil {
		tb.Fatal(err)
	}
	var fx proofFixture
	if err := json.Unmarshal(data, &fx); err != nil {
		tb.Fatal(err)
	}
	r, err := game.ParseRules(fx.Rules)
	if err != nil {
		tb.Fatal(err)
	}
	if r != (game.Rules{M: 19, N: 19, K: 6, P: 2, Q: 3}) {
		tb.Fatalf("fixture rules %v", r)
	}
	b, err := board.ReplayText(r, fx.Turns)
	if err != nil {
		tb.Fatal(err)
	}
	if b.Turn() != 1 || b.Stones(game.Black) != 3 || b.ToMove() != game.White {
		tb.Fatalf("fixture position: turn %d, %d black stones, %s to move", b.Turn(), b.Stones(game.Black), b.ToMove())
	}
	return b, fx, VerifyOptions{Lambda: fx.Lambda, Limits: threat.Limits{MaxNodes: fx.MaxNodes}, Workers: runtime.NumCPU()}
}

// Connect(6,2,3), Black's three-stone first move wins: the proof in
// testdata/connect623.json (for i9k9j10 the root verdict alone is a
// proof) is re-verified in part here — the
// null move and every 64th seminull section of the root verification
// (the seminull move and every full defender move in its zone), each
// re-solved from scratch. BenchmarkConnect623Proof re-verifies all of it.
func TestConnect623Proof(t *testing.T) {
	testenv.Heavy(t)
	b, fx, vopts := loadConnect623(t)
	if !fx.Proved {
		t.Fatal("the fixture is not a proof")
	}
	ctx := context.Background()
	v := &verifier{ctx: ctx, opts: vopts, b: b.Clone(), d: game.White, a: game.Black}
	null := &job{tol: 2}
	v.solve(null)
	if null.err != nil || null.res.Outcome != threat.Win {
		t.Fatalf("the null move is not refuted by VCDT: %v %s", null.err, null.res.Reason)
	}
	open := map[game.Move]bool{} // the defender moves the fixture answers
	for _, rep := range fx.Root.Replies {
		m, err := game.ParseMove(b.Rules(), rep.Move)
		if err != nil {
			t.Fatal(err)
		}
		open[m] = true
	}
	var zone []game.Square
	for _, s := range null.res.Zone {
		if b.At(s) == game.Empty {
			zone = append(zone, s)
		}
	}
	sections, fulls := 0, 0
	for i := 0; i < len(zone); i += 64 {
		s := zone[i]
		sj := &job{def: game.NewMove(s), tol: 1, vcst: true}
		v.solve(sj)
		if sj.err != nil {
			t.Fatal(sj.err)
		}
		if sj.res.Outcome != threat.Win {
			t.Fatalf("seminull %s is not refuted (%s)", game.SquareName(b.Rules(), s), sj.res.Reason)
		}
		sections++
		for _, s2 := range sj.res.Zone {
			if s2 == s || b.At(s2) != game.Empty {
				continue
			}
			m := game.NewMove(s, s2)
			fj := &job{def: m, vcst: true}
			v.solve(fj)
			if fj.err != nil {
				t.Fatal(fj.err)
			}
			fulls++
			if fj.res.Outcome != threat.Win && !open[m] {
				t.Fatalf("defender move %s is not refuted (%s) and the proof has no answer to it", game.MoveName(b.Rules(), m), fj.res.Reason)
			}
		}
	}
	t.Logf("Connect(6,2,3) %s: null move zone %d; re-verified %d seminull sections of %d and %d full moves: %d solver calls",
		fx.Turns, len(zone), sections, len(zone), fulls, v.calls.Load())
}

// BenchmarkConnect623Proof re-verifies the whole Connect(6,2,3) proof:
// the root verdict recomputed by Verify must prove the position with no
// defender move unsolved (the fixture has no answers to any).
func BenchmarkConnect623Proof(bm *testing.B) {
	b, fx, vopts := loadConnect623(bm)
	vopts.ExpandSeminull = true
	for i := 0; i < bm.N; i++ {
		vd, err := Verify(context.Background(), b, vopts, nil)
		if err != nil {
			bm.Fatal(err)
		}
		if vd.Status != StatusProved || len(vd.Unsolved) > len(fx.Root.Replies) {
			bm.Fatalf("%s: %s with %d moves unsolved, not a proof", fx.Turns, vd.Status, len(vd.Unsolved))
		}
		bm.ReportMetric(float64(vd.Calls), "solver-calls")
	}
}
