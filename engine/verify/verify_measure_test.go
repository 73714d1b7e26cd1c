package verify

import (
	"context"
	"os"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
)

// TestMeasureVerifyReuse is a measurement for issue 24, not a test: with
// C6_REUSE_ANALYSIS="j10 i9k9 j8h9" (and C6_REUSE_NODES, default 20000) it
// verifies the position at λ3 with the old job set (full moves with an open
// seminull stone solved too; C6_REUSE_NEW=1: without them) and logs what reuse between the solver calls
// could save: failing calls an earlier failing call could answer exactly
// (a lower bound of each call's read set), wins an earlier proof's zone
// covers, and OR positions shared between calls; with C6_REUSE_REPLAY=1
// also whether the strategy of a refuted seminull move s still wins the
// full moves (s, x) (CheckStrategy).
func TestMeasureVerifyReuse(t *testing.T) {
	turns := os.Getenv("C6_REUSE_ANALYSIS")
	if turns == "" {
		t.Skip("measurement only")
	}
	budget, _ := strconv.ParseInt(os.Getenv("C6_REUSE_NODES"), 10, 64)
	if budget == 0 {
		budget = 20000
	}
	r := game.Connect6()
	b0, err := board.ReplayText(r, turns)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := b0.Canonical()
	type rec struct {
		seq  int
		def  game.Move
		tol  int
		res  threat.Result
		keys []uint64
		live *game.SqSet // squares of live windows with >= k-2p attacker stones at an expanded OR node
		one  *game.SqSet // own defender stones alone in a window with >= k-2p attacker stones
	}
	type pend struct {
		m         map[uint64]bool
		live, one *game.SqSet
	}
	var mu sync.Mutex
	var recs []*rec
	pending := map[game.Move]*pend{}
	a := b.ToMove().Opp()
	tr := &verifyTrace{
		start: func(def game.Move, tol int) (func(uint64), func(*board.Board)) {
			pd := &pend{m: map[uint64]bool{}, live: new(game.SqSet), one: new(game.SqSet)}
			mu.Lock()
			pending[def] = pd
			mu.Unlock()
			hl := r.K - 2*r.P
			return func(k uint64) { pd.m[k] = true }, func(bb *board.Board) {
				for _, w := range bb.Windows() { // the hot windows of a: hot level max(k-2p, 1)
					if int(bb.WindowStones(a, w)) >= max(hl, 1) && bb.WindowStones(a.Opp(), w) == 0 {
						for _, q := range bb.WindowSquares(w) {
							pd.live.Add(q)
						}
					}
				}
				for i := 0; i < def.Len(); i++ {
					x := def.At(i)
					for _, w := range bb.WindowsThrough(x) {
						if int(bb.WindowStones(a, w)) >= hl && bb.WindowStones(a.Opp(), w) == 1 {
							pd.one.Add(x)
						}
					}
				}
			}
		},
		done: func(def game.Move, tol int, res threat.Result) {
			mu.Lock()
			defer mu.Unlock()
			pd := pending[def]
			m := pd.m
			delete(pending, def)
			ks := make([]uint64, 0, len(m))
			for k := range m {
				ks = append(ks, k)
			}
			recs = append(recs, &rec{seq: len(recs), def: def, tol: tol, res: res, keys: ks, live: pd.live, one: pd.one})
		},
	}
	tol, _ := b.DefenderDeficit(a)
	vd, err := verifyFrame(context.Background(), b, VerifyOptions{Lambda: 3, Limits: threat.Limits{MaxNodes: budget}, Workers: 2, Tolerance: tol, trace: tr, solveOpenSeminullMoves: os.Getenv("C6_REUSE_NEW") == ""}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("verdict %s unsolved %d openSemi %d calls %d nodes %d", vd.Status, len(vd.Unsolved), len(vd.OpenSeminull), vd.Calls, vd.Nodes)
	d := a.Opp()
	open := map[game.Square]bool{}
	for _, u := range vd.OpenSeminull {
		open[u.Move.At(0)] = true
	}
	// Classes.
	var failFull, failFullNodes, failOpen, failOpenNodes, winFull, winFullNodes int64
	for _, x := range recs {
		full := x.def.Len() == 2
		if !full {
			continue
		}
		if x.res.Outcome == threat.Win {
			winFull++
			winFullNodes += x.res.Nodes
			continue
		}
		failFull++
		failFullNodes += x.res.Nodes
		if open[x.def.At(0)] || open[x.def.At(1)] {
			failOpen++
			failOpenNodes += x.res.Nodes
		}
	}
	t.Logf("full wins %d (%d nodes); full failures %d (%d nodes), of which with an open-seminull stone %d (%d nodes)", winFull, winFullNodes, failFull, failFullNodes, failOpen, failOpenNodes)
	var winOpen int
	var winOpenNodes []int64
	for _, x := range recs {
		if x.def.Len() == 2 && x.res.Outcome == threat.Win && (open[x.def.At(0)] || open[x.def.At(1)]) {
			winOpen++
			winOpenNodes = append(winOpenNodes, x.res.Nodes)
		}
	}
	sort.Slice(winOpenNodes, func(i, j int) bool { return winOpenNodes[i] < winOpenNodes[j] })
	t.Logf("nodes of those wins: %v", winOpenNodes)
	t.Logf("full wins with an open-seminull stone: %d", winOpen)

	// Exact failure reuse, lower bound of the read set: a square x where two
	// defender stone sets differ, lying in a window with >= k-2p attacker
	// stones and no other defender stone, is read by move generation.
	inDef := func(m game.Move, q game.Square) bool { return m.Contains(q) }
	read := func(q game.Square, common game.Move) bool {
		for _, w := range b.WindowsThrough(q) {
			if int(b.WindowStones(a, w)) < r.K-2*r.P || b.WindowStones(d, w) > 0 {
				continue
			}
			other := false
			for _, s := range b.WindowSquares(w) {
				if s != q && inDef(common, s) {
					other = true
				}
			}
			if !other {
				return true
			}
		}
		return false
	}
	var reusable, reusableNodes int64
	var fails []*rec
	for _, x := range recs {
		if x.res.Outcome != threat.Win {
			fails = append(fails, x)
		}
	}
	sort.Slice(fails, func(i, j int) bool { return fails[i].seq < fails[j].seq })
	for j, y := range fails {
		for _, x := range fails[:j] {
			if x.tol != y.tol {
				continue
			}
			var common, diff []game.Square
			for i := 0; i < x.def.Len(); i++ {
				if y.def.Contains(x.def.At(i)) {
					common = append(common, x.def.At(i))
				} else {
					diff = append(diff, x.def.At(i))
				}
			}
			for i := 0; i < y.def.Len(); i++ {
				if !x.def.Contains(y.def.At(i)) {
					diff = append(diff, y.def.At(i))
				}
			}
			var cm game.Move
			if len(common) > 0 {
				cm = game.NewMove(common...)
			}
			ok := true
			for _, q := range diff {
				if read(q, cm) || (y.def.Contains(q) && x.live.Has(q)) || (x.def.Contains(q) && x.one.Has(q)) {
					ok = false
					break
				}
			}
			if ok {
				reusable++
				reusableNodes += y.res.Nodes
				break
			}
		}
	}
	t.Logf("failing calls %d; exact reuse possible at most (lower-bound read set) %d (%d nodes)", len(fails), reusable, reusableNodes)

	// Wins through zones: D_j = D_i + E, E outside Z_i, |E| <= tol_i.
	var zoneReuse int
	for _, y := range recs {
		if y.def.Len() != 2 {
			continue
		}
		for _, x := range recs {
			if x == y || x.res.Outcome != threat.Win {
				continue
			}
			var extra []game.Square
			sub := true
			for i := 0; i < x.def.Len(); i++ {
				if !y.def.Contains(x.def.At(i)) {
					sub = false
				}
			}
			if !sub {
				continue
			}
			for i := 0; i < y.def.Len(); i++ {
				if !x.def.Contains(y.def.At(i)) {
					extra = append(extra, y.def.At(i))
				}
			}
			if len(extra) > x.tol-y.tol {
				continue
			}
			out := true
			for _, q := range extra {
				if squareIn(x.res.Zone, q) {
					out = false
				}
			}
			if out {
				zoneReuse++
				break
			}
		}
	}
	t.Logf("full-move calls a proof's zone covers (already covered rule): %d", zoneReuse)

	// Strategy replay: would the seminull strategy T(s) (or T(x)) still
	// win the full move (s, x)? CheckStrategy tries every defender reply.
	if os.Getenv("C6_REUSE_REPLAY") != "" {
		semi := map[game.Square]*threat.Strategy{}
		for _, x := range recs {
			if x.def.Len() == 1 && x.res.Outcome == threat.Win {
				semi[x.def.At(0)] = x.res.Tree
			}
		}
		var tried, pass, failWin, passFail int
		var checkTime, searchTime time.Duration
		var passNodes int64
		for _, y := range recs {
			if y.def.Len() != 2 {
				continue
			}
			bb := b.Clone()
			bb.Place(y.def.At(0), d)
			bb.Place(y.def.At(1), d)
			bb.SetToMove(a)
			ok := false
			for i := 0; i < 2 && !ok; i++ {
				st := semi[y.def.At(i)]
				if st == nil {
					continue
				}
				tried++
				t0 := time.Now()
				err := threat.CheckStrategy(context.Background(), bb, st, 100000)
				checkTime += time.Since(t0)
				ok = err == nil
			}
			searchTime += y.res.Elapsed
			switch {
			case ok && y.res.Outcome == threat.Win:
				pass++
				passNodes += y.res.Nodes
			case ok:
				passFail++
			case y.res.Outcome == threat.Win:
				failWin++
			}
		}
		t.Logf("replay of seminull strategies on full moves: %d checks (%v; the searches of all full moves took %v); wins replayed %d (their search nodes %d), wins not replayed %d, failures replayed (a win the search missed) %d", tried, checkTime, searchTime, pass, passNodes, failWin, passFail)
	}

	// Transpositions between calls.
	owner := map[uint64]int32{}
	multi := map[uint64]bool{}
	for _, x := range recs {
		for _, k := range x.keys {
			if o, ok := owner[k]; ok && o != int32(x.seq) {
				multi[k] = true
			} else if !ok {
				owner[k] = int32(x.seq)
			}
		}
	}
	var keysFail, sharedFail, keysAll int64
	for _, x := range recs {
		keysAll += int64(len(x.keys))
		if x.res.Outcome == threat.Win {
			continue
		}
		keysFail += int64(len(x.keys))
		for _, k := range x.keys {
			if multi[k] {
				sharedFail++
			}
		}
	}
	t.Logf("distinct OR positions: all calls %d (unique overall %d); failing calls %d, of which seen in another call %d (%.2f%%)", keysAll, len(owner), keysFail, sharedFail, 100*float64(sharedFail)/float64(max(1, keysFail)))
}
