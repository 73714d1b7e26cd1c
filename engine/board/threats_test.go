package board

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"c6book/internal/testenv"

	"c6book/engine/game"
)

// The oracle below knows nothing of the board's incremental bookkeeping: it
// reads the cells, scans every window of the board from scratch and finds
// hitting sets by trying every set of squares.

// naiveWindow is a window found by scanning the board.
type naiveWindow struct {
	dir     int
	squares []game.Square
	empties []game.Square // sorted
}

// naiveThreatWindows scans every window (every start square, every
// direction) and keeps those with no stone of c's opponent and at least k-p
// stones of c.
func naiveThreatWindows(b *Board, c game.Color) []naiveWindow {
	r := b.rules
	var out []naiveWindow
	for y := 0; y < r.N; y++ {
		for x := 0; x < r.M; x++ {
			for d, dv := range [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
				if !r.OnBoard(x+dv[0]*(r.K-1), y+dv[1]*(r.K-1)) {
					continue
				}
				own, opp := 0, 0
				for i := 0; i < r.K; i++ {
					switch b.At(r.Sq(x+dv[0]*i, y+dv[1]*i)) {
					case c:
						own++
					case game.Empty:
					default:
						opp++
					}
				}
				if opp == 0 && own >= r.K-r.P {
					w := naiveWindow{dir: d}
					for i := 0; i < r.K; i++ {
						s := r.Sq(x+dv[0]*i, y+dv[1]*i)
						w.squares = append(w.squares, s)
						if b.At(s) == game.Empty {
							w.empties = append(w.empties, s)
						}
					}
					slices.Sort(w.empties)
					out = append(out, w)
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].squares[0] != out[j].squares[0] {
			return out[i].squares[0] < out[j].squares[0]
		}
		return out[i].dir < out[j].dir
	})
	return out
}

// naiveHasRow reports whether c has k or more in a row, by scanning.
func naiveHasRow(b *Board, c game.Color) bool {
	r := b.rules
	for y := 0; y < r.N; y++ {
		for x := 0; x < r.M; x++ {
			for _, dv := range [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
				n := 0
				for n < r.K && r.OnBoard(x+dv[0]*n, y+dv[1]*n) && b.At(r.Sq(x+dv[0]*n, y+dv[1]*n)) == c {
					n++
				}
				if n == r.K {
					return true
				}
			}
		}
	}
	return false
}

// naiveHitsAll reports whether set meets the empties of every window.
func naiveHitsAll(ws []naiveWindow, set []game.Square) bool {
	for _, w := range ws {
		hit := false
		for _, e := range w.empties {
			if slices.Contains(set, e) {
				hit = true
				break
			}
		}
		if !hit {
			return false
		}
	}
	return true
}

// naiveSubsets calls f for every subset of cand of exactly n elements (in
// increasing order of cand index); f returns false to stop.
func naiveSubsets(cand []game.Square, n int, f func([]game.Square) bool) {
	set := make([]game.Square, n)
	var rec func(start, i int) bool
	rec = func(start, i int) bool {
		if i == n {
			return f(set)
		}
		for j := start; j <= len(cand)-(n-i); j++ {
			set[i] = cand[j]
			if !rec(j+1, i+1) {
				return false
			}
		}
		return true
	}
	rec(0, 0)
}

// naiveCandidates is the set of squares the oracle tries. When there are
// few enough subsets it is every empty square of the board (the oracle
// assumes nothing about which squares can matter); otherwise (361 squares,
// or p = 3 on 100) trying every set for thousands of positions is too slow,
// so it is every empty square on the four lines through an empty square of a
// threat window, up to k-1 away (a superset of the squares that can belong to
// a minimal hitting set).
func naiveCandidates(b *Board, ws []naiveWindow) []game.Square {
	r := b.rules
	var out []game.Square
	for s := 0; s < r.Squares(); s++ {
		if b.At(game.Square(s)) == game.Empty {
			out = append(out, game.Square(s))
		}
	}
	if naiveBinomial(len(out), r.P) <= 20000 {
		return out
	}
	out = out[:0]
	seen := map[game.Square]bool{}
	for _, w := range ws {
		for _, e := range w.empties {
			// Every empty square on the four lines through e, up to k-1 away.
			x0, y0 := r.XY(e)
			for _, dv := range [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
				for i := -(r.K - 1); i < r.K; i++ {
					x, y := x0+dv[0]*i, y0+dv[1]*i
					if r.OnBoard(x, y) && b.At(r.Sq(x, y)) == game.Empty {
						seen[r.Sq(x, y)] = true
					}
				}
			}
		}
	}
	for s := range seen {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

func naiveBinomial(n, k int) int {
	c := 1
	for i := 0; i < k; i++ {
		c = c * (n - i) / (i + 1)
	}
	return c
}

// naiveThreats is the least number of squares meeting every threat window
// of c, found by trying every set of 0, 1, ..., p candidate squares; p+1
// when no set of at most p squares does.
func naiveThreats(b *Board, ws []naiveWindow) int {
	cand := naiveCandidates(b, ws)
	for n := 0; n <= b.rules.P; n++ {
		found := false
		naiveSubsets(cand, n, func(set []game.Square) bool {
			if naiveHitsAll(ws, set) {
				found = true
				return false
			}
			return true
		})
		if found {
			return n
		}
	}
	return b.rules.P + 1
}

// naiveCriticalDefences lists every set of at most p candidate squares that
// meets all threat windows of c and none of whose proper subsets does:
// normal when its size is the threat count t (as found by naiveThreats),
// relaxed when larger. Nothing when c has no threat or more than p.
func naiveCriticalDefences(b *Board, ws []naiveWindow, t int) (normal, relaxed [][]game.Square) {
	if t == 0 || t > b.rules.P {
		return nil, nil
	}
	cand := naiveCandidates(b, ws)
	for n := 1; n <= b.rules.P; n++ {
		naiveSubsets(cand, n, func(set []game.Square) bool {
			if !naiveHitsAll(ws, set) {
				return true
			}
			// Minimal: no proper subset (of any size) hits every window.
			minimal := true
			for m := 0; m < n && minimal; m++ {
				naiveSubsets(set, m, func(sub []game.Square) bool {
					if naiveHitsAll(ws, sub) {
						minimal = false
						return false
					}
					return true
				})
			}
			if !minimal {
				return true
			}
			cp := slices.Clone(set)
			if n == t {
				normal = append(normal, cp)
			} else {
				relaxed = append(relaxed, cp)
			}
			return true
		})
	}
	return normal, relaxed
}

// oracleRules are the rule sets the oracle tests run on, with how many
// random positions each gets.
var oracleRules = []struct {
	r         game.Rules
	positions int
}{
	{game.Connect6(), 450},
	{game.Rules{M: 7, N: 7, K: 4, P: 2, Q: 1}, 1200},
	{game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}, 1000},
	{game.Rules{M: 8, N: 8, K: 4, P: 1, Q: 1}, 1500},
	{game.Rules{M: 11, N: 11, K: 6, P: 2, Q: 1}, 800},
	{game.Rules{M: 25, N: 25, K: 6, P: 2, Q: 1}, 150},
	{game.Rules{M: 9, N: 7, K: 5, P: 2, Q: 2}, 800},
	{game.Rules{M: 8, N: 8, K: 6, P: 3, Q: 1}, 200},
	{game.Rules{M: 10, N: 10, K: 7, P: 3, Q: 2}, 100},
	{game.Rules{M: 6, N: 6, K: 5, P: 4, Q: 1}, 40},
	{game.Rules{M: 5, N: 5, K: 3, P: 1, Q: 1}, 500},
	{game.Rules{M: 6, N: 9, K: 4, P: 2, Q: 1}, 500},
}

// randomThreatBoard builds a position rich in threat windows: stones are
// dropped in a random box, partly uniformly and partly along random line
// segments so that near-complete windows are frequent. Positions where a
// player already has k in a row occur too (rarely) and are kept: the threat
// count must then be p+1.
//
// b is cleared and reused (building the geometry of a board costs more than
// the position).
func randomThreatBoard(rng *rand.Rand, b *Board) *Board {
	r := b.rules
	for s := range b.cells {
		if b.cells[s] != game.Empty {
			b.Remove(game.Square(s))
		}
	}
	bw := r.M
	if bw > 10 && rng.IntN(3) > 0 {
		bw = 7 + rng.IntN(6)
	}
	bh := r.N
	if bh > 10 && rng.IntN(3) > 0 {
		bh = 7 + rng.IntN(6)
	}
	if bw > r.M {
		bw = r.M
	}
	if bh > r.N {
		bh = r.N
	}
	x0, y0 := rng.IntN(r.M-bw+1), rng.IntN(r.N-bh+1)
	area := bw * bh
	target := rng.IntN(area*2/3 + 1)
	if r.K <= 3 {
		target = rng.IntN(area/3 + 1) // short rows: sparser, or everybody has won
	}
	put := func(x, y int, c game.Color) {
		if x < x0 || y < y0 || x >= x0+bw || y >= y0+bh {
			return
		}
		if s := r.Sq(x, y); b.At(s) == game.Empty {
			b.Place(s, c)
		}
	}
	for tries := 0; b.Stones(game.Black)+b.Stones(game.White) < target && tries < 4*area; tries++ {
		c := game.Color(1 + rng.IntN(2))
		x, y := x0+rng.IntN(bw), y0+rng.IntN(bh)
		if rng.IntN(3) == 0 {
			// A run along a line with gaps.
			dv := dirs[rng.IntN(4)]
			n := 2 + rng.IntN(r.K)
			for i := 0; i < n; i++ {
				if rng.IntN(4) > 0 {
					put(x+dv[0]*i, y+dv[1]*i, c)
				}
			}
			continue
		}
		put(x, y, c)
	}
	if (naiveHasRow(b, game.Black) || naiveHasRow(b, game.White)) && rng.IntN(4) > 0 {
		return randomThreatBoard(rng, b) // keep finished games rare
	}
	b.SetToMove(game.Color(1 + rng.IntN(2)))
	return b
}

func squareNamesT(r game.Rules, sq []game.Square) []string {
	out := make([]string, len(sq))
	for i, s := range sq {
		out[i] = game.SquareName(r, s)
	}
	return out
}

// TestThreatsAgainstOracle compares Threats, ThreatWindows, HasThreat,
// WinningMove and CriticalDefences with the brute-force oracle on thousands
// of random positions of many rule sets.
func TestThreatsAgainstOracle(t *testing.T) {
	testenv.Heavy(t)
	for ri, tc := range oracleRules {
		t.Run(tc.r.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(ri)+100, 7))
			hist := map[int]int{}
			withNormal, withRelaxed := 0, 0
			b := MustNewBoard(tc.r)
			for i := 0; i < tc.positions; i++ {
				randomThreatBoard(rng, b)
				for _, c := range []game.Color{game.Black, game.White} {
					if err := compareWithOracle(b, c); err != nil {
						t.Fatalf("position %d, %s: %v\n%s", i, c, err, b.Diagram())
					}
					hist[b.Threats(c)]++
					n, r := b.CriticalDefences(c)
					if len(n) > 0 {
						withNormal++
					}
					if len(r) > 0 {
						withRelaxed++
					}
				}
			}
			// The generator must actually produce every threat count, or the
			// comparison proves little.
			for n := 0; n <= tc.r.P+1; n++ {
				if hist[n] == 0 {
					t.Errorf("no position with %d threats (histogram %v)", n, hist)
				}
			}
			if withNormal == 0 || tc.r.P > 1 && withRelaxed == 0 {
				t.Errorf("critical defences: %d positions with normal ones, %d with relaxed ones", withNormal, withRelaxed)
			}
			t.Logf("threat histogram %v; %d with normal, %d with relaxed defences", hist, withNormal, withRelaxed)
		})
	}
}

// compareWithOracle checks every threat query for c on b.
func compareWithOracle(b *Board, c game.Color) error {
	r := b.rules
	ws := naiveThreatWindows(b, c)
	want := naiveThreats(b, ws)
	if got := b.Threats(c); got != want {
		return fmt.Errorf("Threats = %d, oracle %d (%d windows)", got, want, len(ws))
	}
	if got := b.HasThreat(c); got != (len(ws) > 0) {
		return fmt.Errorf("HasThreat = %v with %d threat windows", got, len(ws))
	}
	got := b.ThreatWindows(c)
	if len(got) != len(ws) {
		return fmt.Errorf("ThreatWindows: %d windows, oracle %d", len(got), len(ws))
	}
	for i := range ws {
		g, w := got[i], ws[i]
		if g.Dir != w.dir || !slices.Equal(g.Squares, w.squares) || !slices.Equal(g.Empties, w.empties) {
			return fmt.Errorf("ThreatWindows[%d] = dir %d %v empties %v, oracle dir %d %v empties %v", i,
				g.Dir, squareNamesT(r, g.Squares), squareNamesT(r, g.Empties),
				w.dir, squareNamesT(r, w.squares), squareNamesT(r, w.empties))
		}
	}
	// WinningMove: fills a threat window with at most p empties (every
	// threat window has at most p), and makes k in a row.
	mv, ok := b.WinningMove(c)
	if ok != (len(ws) > 0) {
		return fmt.Errorf("WinningMove ok = %v with %d threat windows", ok, len(ws))
	}
	if ok {
		if mv.Len() > r.P {
			return fmt.Errorf("WinningMove %s has more than p stones", game.MoveName(r, mv))
		}
		cl := b.Clone()
		for i := 0; i < mv.Len(); i++ {
			if cl.At(mv.At(i)) != game.Empty {
				return fmt.Errorf("WinningMove %s plays on a stone", game.MoveName(r, mv))
			}
			cl.Place(mv.At(i), c)
		}
		if !naiveHasRow(cl, c) {
			return fmt.Errorf("WinningMove %s does not win", game.MoveName(r, mv))
		}
	}
	wn, wr := naiveCriticalDefences(b, ws, want)
	gn, gr := b.CriticalDefences(c)
	if err := sameMoveSets("normal", r, gn, wn); err != nil {
		return err
	}
	if err := sameMoveSets("relaxed", r, gr, wr); err != nil {
		return err
	}
	return nil
}

func sameMoveSets(kind string, r game.Rules, got []game.Move, want [][]game.Square) error {
	gs := make([]string, len(got))
	for i, m := range got {
		gs[i] = game.MoveName(r, m)
		if i > 0 && !game.MoveLess(got[i-1], m) {
			return fmt.Errorf("%s critical defences not in increasing order: %s then %s", kind, gs[i-1], gs[i])
		}
	}
	ws := make([]string, len(want))
	for i, sq := range want {
		ws[i] = game.MoveName(r, game.NewMove(sq...))
	}
	a, b := slices.Clone(gs), slices.Clone(ws)
	slices.Sort(a)
	slices.Sort(b)
	if !slices.Equal(a, b) {
		return fmt.Errorf("%s critical defences %v, oracle %v", kind, gs, ws)
	}
	return nil
}
