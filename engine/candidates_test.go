package engine

import (
	"context"
	"encoding/json"
	"os"
	"runtime"
	"testing"

	"c6book/internal/testenv"
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

func loadConnect623(tb testing.TB) (*Board, proofFixture, VerifyOptions) {
	tb.Helper()
	data, err := os.ReadFile("testdata/connect623.json")
	if err != nil {
		tb.Fatal(err)
	}
	var fx proofFixture
	if err := json.Unmarshal(data, &fx); err != nil {
		tb.Fatal(err)
	}
	r, err := ParseRules(fx.Rules)
	if err != nil {
		tb.Fatal(err)
	}
	if r != (Rules{19, 19, 6, 2, 3}) {
		tb.Fatalf("fixture rules %v", r)
	}
	b, err := ReplayText(r, fx.Turns)
	if err != nil {
		tb.Fatal(err)
	}
	if b.Turn() != 1 || b.Stones(Black) != 3 || b.ToMove() != White {
		tb.Fatalf("fixture position: turn %d, %d black stones, %s to move", b.Turn(), b.Stones(Black), b.ToMove())
	}
	return b, fx, VerifyOptions{Lambda: fx.Lambda, Limits: Limits{MaxNodes: fx.MaxNodes}, Workers: runtime.NumCPU()}
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
	v := &verifier{ctx: ctx, opts: vopts, b: b.Clone(), d: White, a: Black}
	null := &job{tol: 2}
	v.solve(null)
	if null.err != nil || null.res.Outcome != Win {
		t.Fatalf("the null move is not refuted by VCDT: %v %s", null.err, null.res.Reason)
	}
	open := map[Move]bool{} // the defender moves the fixture answers
	for _, rep := range fx.Root.Replies {
		m, err := ParseMove(b.rules, rep.Move)
		if err != nil {
			t.Fatal(err)
		}
		open[m] = true
	}
	var zone []Square
	for _, s := range null.res.Zone {
		if b.At(s) == Empty {
			zone = append(zone, s)
		}
	}
	sections, fulls := 0, 0
	for i := 0; i < len(zone); i += 64 {
		s := zone[i]
		sj := &job{def: NewMove(s), tol: 1, vcst: true}
		v.solve(sj)
		if sj.err != nil {
			t.Fatal(sj.err)
		}
		if sj.res.Outcome != Win {
			t.Fatalf("seminull %s is not refuted (%s)", SquareName(b.rules, s), sj.res.Reason)
		}
		sections++
		for _, s2 := range sj.res.Zone {
			if s2 == s || b.At(s2) != Empty {
				continue
			}
			m := NewMove(s, s2)
			fj := &job{def: m, vcst: true}
			v.solve(fj)
			if fj.err != nil {
				t.Fatal(fj.err)
			}
			fulls++
			if fj.res.Outcome != Win && !open[m] {
				t.Fatalf("defender move %s is not refuted (%s) and the proof has no answer to it", MoveName(b.rules, m), fj.res.Reason)
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

// The first-turn shapes of Connect(6,2,3): one per symmetry class, and the
// straight ones (all three stones on one line, found here by brute force
// over the lines of the board) after every other shape.
func TestOpeningCandidatesLinesLast(t *testing.T) {
	r := Rules{M: 19, N: 19, K: 6, P: 2, Q: 3}
	b := MustNewBoard(r)
	cs := openingCandidates(b, Black, 1000)
	onLine := func(m Move) bool {
		for y := 0; y < r.N; y++ {
			for x := 0; x < r.M; x++ {
				for _, d := range [][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
					in := 0
					for i := 0; i < r.M; i++ {
						if px, py := x+i*d[0], y+i*d[1]; r.OnBoard(px, py) && m.Contains(r.Sq(px, py)) {
							in++
						}
					}
					if in == m.Len() {
						return true
					}
				}
			}
		}
		return false
	}
	keys := map[uint64]bool{}
	lines, seenLine := 0, false
	for _, m := range cs {
		nb := b.Clone()
		for i := 0; i < m.Len(); i++ {
			nb.Place(m.At(i), Black)
		}
		k, _ := nb.CanonicalKey()
		if keys[k] {
			t.Fatalf("%s: a symmetry class twice", MoveName(r, m))
		}
		keys[k] = true
		l := onLine(m)
		if l != collinear(r, []Square{m.At(0), m.At(1), m.At(2)}) {
			t.Fatalf("%s: collinear says %v", MoveName(r, m), !l)
		}
		if seenLine && !l {
			t.Fatalf("%s comes after a straight shape", MoveName(r, m))
		}
		if l {
			lines++
			seenLine = true
		}
	}
	if len(cs) != 16 || lines != 3 {
		t.Fatalf("%d shapes, %d straight; want 16 and 3 (the 3×3 box up to symmetry)", len(cs), lines)
	}
}

// Among the shapes not on one line, the ones a mirror through the centre's
// row or column maps onto themselves come first (checked square by square
// against the mirror images), led by the two triangles of Connect(6,2,3)
// that one verifier call proves (`make bench-c623`, docs/BENCHMARKS.md).
func TestOpeningCandidatesMirrorShapesFirst(t *testing.T) {
	r := Rules{M: 19, N: 19, K: 6, P: 2, Q: 3}
	b := MustNewBoard(r)
	cs := openingCandidates(b, Black, 1000)
	cx, cy := r.M/2, r.N/2
	mirrored := func(m Move) bool {
		for _, flip := range []func(x, y int) (int, int){
			func(x, y int) (int, int) { return 2*cx - x, y },
			func(x, y int) (int, int) { return x, 2*cy - y },
		} {
			same := true
			for i := 0; i < m.Len(); i++ {
				x, y := r.XY(m.At(i))
				fx, fy := flip(x, y)
				same = same && m.Contains(r.Sq(fx, fy))
			}
			if same {
				return true
			}
		}
		return false
	}
	classOf := func(turn string) uint64 {
		nb, err := ReplayText(r, turn)
		if err != nil {
			t.Fatal(err)
		}
		k, _ := nb.CanonicalKey()
		return k
	}
	mirrors, seenPlain := 0, false
	for i, m := range cs {
		if collinear(r, []Square{m.At(0), m.At(1), m.At(2)}) {
			continue
		}
		// The shapes are listed in the frame they were drawn in; a mirror
		// class may be drawn off its axis: test every image.
		nb := b.Clone()
		for j := 0; j < m.Len(); j++ {
			nb.Place(m.At(j), Black)
		}
		mir := false
		for sym := 0; sym < r.SymmetryCount(); sym++ {
			mir = mir || mirrored(r.TransformMove(sym, m))
		}
		if mir && seenPlain {
			t.Fatalf("%s (a mirror shape) comes after a shape without a mirror", MoveName(r, m))
		}
		if !mir {
			seenPlain = true
		} else {
			mirrors++
		}
		if i < 2 {
			nb.SetToMove(White)
			k, _ := nb.CanonicalKey()
			if k != classOf("i9k9j10") && k != classOf("j9i10k10") {
				t.Fatalf("shape %d is %s, want the triangles i9k9j10 and j9i10k10 first", i, MoveName(r, m))
			}
		}
	}
	if mirrors != 3 {
		t.Fatalf("%d mirror shapes off a line, want 3 (the two triangles and i9k9j11)", mirrors)
	}
}
