package board

import (
	"c6book/engine/game"
)

// Dirs are the four line directions: horizontal, vertical, diagonal, anti-diagonal.
var dirs = [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}}

// geometry holds the immutable tables derived from (M,N,K): the windows
// (segments of K squares on a line) and, for each square, the windows through
// it. Boards of the same rules share nothing mutable; geometry is read-only
// once built.
type geometry struct {
	rules  game.Rules
	nwin   int
	winSq  []game.Square // window w: winSq[w*K : w*K+K]
	winDir []uint8
	sqWins [][]int32   // windows through each square
	sqRuns [][4]winRun // the same windows as four runs, one per direction (runs)
	scan   []int32     // every window, in direction, row, column order of its first square (see newGeometry)
	zpair  []zpair     // a stone's two Zobrist keys side by side (zob): its hash key and its independent check-hash key (see Board.chk)
	syms   []symmetry

	// evPlace[c-1][v] is the event (below) of a window whose count word
	// (see Board.cw) is v after a stone of c was placed in it: which window
	// sets and full counts change; evRemove[c-1][v] likewise with v the
	// word after c's stone was removed (the event of the word before). Most
	// updates change nothing, so Place and Remove read one table entry per
	// window instead of branching on the counts. Both read the word they
	// store, which the compiler keeps in one register.
	evPlace, evRemove [2][evSize]uint8
}

// Events: a set of flags, each one change of a window set or full count,
// for the colour c that places (removes) a stone and its opponent o. Place
// adds to c's sets and removes from o's; Remove does the reverse. evHot
// alone is the common event, handled inline. The flags of o come last: an
// event with one of them has evOHot (the threat level is at least the hot
// level) and none of c's (the window holds stones of both).
const (
	evNone = 0
	evHot  = 1 << (iota - 1) // c's hot set
	evThr                    // c's threat set
	evFull                   // c's count of full windows
	evOHot                   // o's hot set
	evOThr                   // o's threat set
)

// evSize covers every count word: counts 0..31 of both colours (K <=
// MaxSide < 32).
const evSize = 1 << (2 * cntBits)

// buildEvents fills the event tables for threat level tl and hot level hl.
func (g *geometry) buildEvents(tl, hl uint8) {
	k := uint8(g.rules.K)
	for c := game.Black; c <= game.White; c++ {
		for n := uint8(0); n <= k; n++ {
			for m := uint8(0); m+n <= k; m++ {
				code := uint8(evNone)
				switch {
				case m == 0:
					if n == hl {
						code |= evHot
					}
					if n == tl {
						code |= evThr
					}
					if n == k {
						code |= evFull
					}
				case n == 1:
					// The window dies (Place) or revives (Remove) for the
					// other colour, which matters when it held hl or more
					// of them.
					if m >= hl {
						code |= evOHot
					}
					if m >= tl {
						code |= evOThr
					}
				}
				if n == 0 {
					continue // no event; and no stone of c to remove
				}
				v := cntWord(c, n) | cntWord(c.Opp(), m)
				g.evPlace[c-1][v] = code
				g.evRemove[c-1][v-cntWord(c, 1)] = code
			}
		}
	}
}

// zpair is a stone's two Zobrist keys: the hash's and the check hash's.
type zpair struct{ key, chk uint64 }

// zob is the keys of a stone of colour c (Black or White) on square s.
func (g *geometry) zob(c game.Color, s game.Square) *zpair { return &g.zpair[2*int(s)+int(c)-1] }

type symmetry struct {
	id   int           // 0..7, see symNames
	map_ []game.Square // square -> image
}

// winRun is a run of consecutive window numbers, first to end-1: the
// windows through a square on one line.
type winRun struct{ first, end uint32 }

// runs is the windows through s, one run per direction (empty where no
// window fits): the windows of sqWins[s], in the same order.
func (g *geometry) runs(s game.Square) *[4]winRun { return &g.sqRuns[s] }

// lineKey numbers the lines of direction d: the windows of one line share
// it.
func lineKey(d, x, y int) int {
	switch d {
	case 0:
		return y
	case 1:
		return x
	case 2:
		return x - y
	}
	return x + y
}

func newGeometry(r game.Rules) *geometry {
	g := &geometry{rules: r}
	nsq := r.Squares()
	// The windows are numbered line by line: by direction, then line, then
	// along the line in the order of their first square's row and column.
	// The windows through a square on one line are then consecutive, so
	// Place and Remove update them as one slice of count words (runs). The
	// windows through each square keep the order of the single pass in
	// direction, row, column order (the numbering before the lines), which
	// the window lists of Place and Remove depend on; scan keeps the order
	// of that pass over all windows, for the scans whose results depend on
	// their order (float sums, first-seen squares).
	type win struct{ d, key, x, y int }
	var byPass []win
	for d, dv := range dirs {
		for y := 0; y < r.N; y++ {
			for x := 0; x < r.M; x++ {
				if r.OnBoard(x+dv[0]*(r.K-1), y+dv[1]*(r.K-1)) {
					byPass = append(byPass, win{d, lineKey(d, x, y), x, y})
				}
			}
		}
	}
	g.nwin = len(byPass)
	// A counting sort by direction and line, stable: along a line, the
	// pass order is the order of the first squares. order[w] is the pass
	// index of window w.
	lines := r.M + r.N // line keys of a direction: -(N-1) .. M+N-2
	bucket := func(v win) int { return v.d*2*lines + v.key + r.N - 1 }
	start := make([]int32, 4*2*lines+1)
	for _, v := range byPass {
		start[bucket(v)+1]++
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	order := make([]int32, g.nwin)
	g.scan = make([]int32, g.nwin)
	for i, v := range byPass {
		w := start[bucket(v)]
		start[bucket(v)]++
		order[w] = int32(i)
		g.scan[i] = w
	}
	// Two passes over the windows: count the windows through each square,
	// then fill flat arrays, so that the geometry takes a few allocations
	// instead of several per square.
	off := make([]int32, nsq+1)
	for _, v := range byPass {
		for i := 0; i < r.K; i++ {
			off[r.Sq(v.x+dirs[v.d][0]*i, v.y+dirs[v.d][1]*i)+1]++
		}
	}
	for s := 0; s < nsq; s++ {
		off[s+1] += off[s]
	}
	total := g.nwin * r.K
	wins := make([]int32, total)
	next := append([]int32(nil), off[:nsq]...)
	g.winSq = make([]game.Square, 0, total)
	g.winDir = make([]uint8, 0, g.nwin)
	g.sqRuns = make([][4]winRun, nsq)
	for w, i := range order {
		v := byPass[i]
		g.winDir = append(g.winDir, uint8(v.d))
		for j := 0; j < r.K; j++ {
			s := r.Sq(v.x+dirs[v.d][0]*j, v.y+dirs[v.d][1]*j)
			g.winSq = append(g.winSq, s)
			wins[next[s]] = int32(w)
			next[s]++
			run := &g.sqRuns[s][v.d]
			if run.end == 0 {
				run.first = uint32(w)
			}
			run.end = uint32(w) + 1
		}
	}
	g.buildEvents(uint8(r.K-r.P), uint8(max(r.K-2*r.P, 1)))
	g.sqWins = make([][]int32, nsq)
	for s := 0; s < nsq; s++ {
		lo, hi := off[s], off[s+1]
		g.sqWins[s] = wins[lo:hi:hi]
	}
	g.zpair = make([]zpair, 2*nsq)
	for c := game.Black; c <= game.White; c++ {
		for s := 0; s < nsq; s++ {
			x, y := r.XY(game.Square(s))
			k := zobristKey(c, x, y)
			*g.zob(c, game.Square(s)) = zpair{k, splitmix64(k ^ checkSeed)}
		}
	}
	for id := 0; id < 8; id++ {
		if id >= 4 && r.M != r.N {
			break // the transposing symmetries only exist on square boards
		}
		m := make([]game.Square, nsq)
		for s := 0; s < nsq; s++ {
			m[s] = r.Transform(id, game.Square(s))
		}
		g.syms = append(g.syms, symmetry{id: id, map_: m})
	}
	return g
}

// window squares.
func (g *geometry) win(w int32) []game.Square {
	k := g.rules.K
	return g.winSq[int(w)*k : int(w)*k+k]
}
