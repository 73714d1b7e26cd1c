package board

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"c6book/engine/game"
)

// boardState is everything a Board maintains, in a form that compares with
// ==/slices.Equal regardless of the order of the window lists.
type boardState struct {
	cells    []game.Color
	cnt      [3][]uint8
	cw       []uint16 // the count words as stored
	hash     uint64
	chk      uint64
	count    [3]int
	full     [3]int
	thr, hot [3][]int32
	toMove   game.Color
	turn     int
	hist     []game.Move
}

func boardSnapshot(b *Board) boardState {
	st := boardState{
		cells:  slices.Clone(b.cells),
		hash:   b.hash,
		chk:    b.chk,
		count:  b.count,
		full:   b.full,
		toMove: b.toMove,
		turn:   b.turn,
		hist:   slices.Clone(b.hist),
		cw:     slices.Clone(b.cw),
	}
	for c := game.Black; c <= game.White; c++ {
		st.cnt[c] = make([]uint8, b.g.nwin)
		for w := range st.cnt[c] {
			st.cnt[c][w] = b.WindowStones(c, int32(w))
		}
		st.thr[c] = slices.Sorted(slices.Values(b.thr[c].list))
		st.hot[c] = slices.Sorted(slices.Values(b.hot[c].list))
	}
	return st
}

func (a boardState) diff(b boardState) string {
	switch {
	case !slices.Equal(a.cells, b.cells):
		return "cells differ"
	case a.hash != b.hash:
		return fmt.Sprintf("hash %x vs %x", a.hash, b.hash)
	case a.chk != b.chk:
		return fmt.Sprintf("check hash %x vs %x", a.chk, b.chk)
	case a.count != b.count:
		return fmt.Sprintf("stone counts %v vs %v", a.count, b.count)
	case a.full != b.full:
		return fmt.Sprintf("full windows %v vs %v", a.full, b.full)
	case a.toMove != b.toMove || a.turn != b.turn:
		return fmt.Sprintf("to move %s turn %d vs %s turn %d", a.toMove, a.turn, b.toMove, b.turn)
	case !slices.Equal(a.hist, b.hist):
		return "history differs"
	case !slices.Equal(a.cw, b.cw):
		return "count words differ"
	}
	for c := game.Black; c <= game.White; c++ {
		switch {
		case !slices.Equal(a.cnt[c], b.cnt[c]):
			return fmt.Sprintf("%s window counts differ", c)
		case !slices.Equal(a.thr[c], b.thr[c]):
			return fmt.Sprintf("%s threat windows %v vs %v", c, a.thr[c], b.thr[c])
		case !slices.Equal(a.hot[c], b.hot[c]):
			return fmt.Sprintf("%s hot windows %v vs %v", c, a.hot[c], b.hot[c])
		}
	}
	return ""
}

// rebuiltState computes from the cells alone, window by window, what the
// incremental bookkeeping should hold; the Zobrist hash comes from the
// exported key function, not the board's table.
func rebuiltState(b *Board) boardState {
	r := b.rules
	st := boardState{cells: slices.Clone(b.cells), toMove: b.toMove, turn: b.turn, hist: slices.Clone(b.hist)}
	for s, c := range b.cells {
		if c != game.Empty {
			x, y := r.XY(game.Square(s))
			st.hash ^= ZobristKey(c, x, y)
			st.chk ^= splitmix64(ZobristKey(c, x, y) ^ checkSeed)
			st.count[c]++
		}
	}
	tl, hl := r.K-r.P, max(r.K-2*r.P, 1)
	for c := game.Black; c <= game.White; c++ {
		st.cnt[c] = make([]uint8, b.g.nwin)
	}
	st.cw = make([]uint16, b.g.nwin)
	i := 0 // windows in direction, row, column order: geometry.scan
	for d, dv := range dirs {
		for y := 0; y < r.N; y++ {
			for x := 0; x < r.M; x++ {
				if !r.OnBoard(x+dv[0]*(r.K-1), y+dv[1]*(r.K-1)) {
					continue
				}
				w := b.g.scan[i]
				i++
				if int(b.g.winDir[w]) != d || b.g.winSq[int(w)*r.K] != r.Sq(x, y) {
					panic("window numbering changed")
				}
				var n [3]int
				for i := 0; i < r.K; i++ {
					n[b.cells[r.Sq(x+dv[0]*i, y+dv[1]*i)]]++
				}
				// Black's count in the low five bits, White's above.
				st.cw[w] = uint16(n[game.Black]) | uint16(n[game.White])<<5
				for c := game.Black; c <= game.White; c++ {
					st.cnt[c][w] = uint8(n[c])
					if n[c.Opp()] == 0 {
						if n[c] >= hl {
							st.hot[c] = append(st.hot[c], w)
						}
						if n[c] >= tl {
							st.thr[c] = append(st.thr[c], w)
						}
						if n[c] == r.K {
							st.full[c]++
						}
					}
				}
			}
		}
	}
	if i != b.g.nwin {
		panic("window numbering changed")
	}
	for c := game.Black; c <= game.White; c++ {
		slices.Sort(st.thr[c])
		slices.Sort(st.hot[c])
	}
	return st
}

// checkWinSets verifies the internal consistency of the O(1) window sets.
func checkWinSets(b *Board) error {
	for c := game.Black; c <= game.White; c++ {
		for name, ws := range map[string]*winSet{"thr": &b.thr[c], "hot": &b.hot[c]} {
			n := 0
			for w, p := range ws.pos {
				if p == 0 {
					continue
				}
				n++
				if int(p) > len(ws.list) || ws.list[p-1] != int32(w) {
					return fmt.Errorf("%s %s: pos[%d]=%d does not point back", c, name, w, p)
				}
			}
			if n != len(ws.list) {
				return fmt.Errorf("%s %s: %d positions for %d listed windows", c, name, n, len(ws.list))
			}
		}
	}
	return nil
}

func checkAgainstRebuild(t *testing.T, b *Board, where string) {
	t.Helper()
	if d := boardSnapshot(b).diff(rebuiltState(b)); d != "" {
		t.Fatalf("%s: incremental state differs from a rebuild: %s\n%s", where, d, b.Diagram())
	}
	if err := checkWinSets(b); err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	// A board built afresh from the same stones agrees on every query.
	fresh := MustNewBoard(b.rules)
	for s, c := range b.cells {
		if c != game.Empty {
			fresh.Place(game.Square(s), c)
		}
	}
	if fresh.Hash() != b.Hash() || fresh.chk != b.chk || fresh.Winner() != b.Winner() {
		t.Fatalf("%s: fresh board hash/winner differ", where)
	}
	for _, c := range []game.Color{game.Black, game.White} {
		if fresh.Threats(c) != b.Threats(c) {
			t.Fatalf("%s: %s threats %d, fresh board %d", where, c, b.Threats(c), fresh.Threats(c))
		}
	}
}

// Random Place/Remove walks: after every step the incremental counts, window
// sets, winner and hash equal a from-scratch rebuild; removing everything in
// any order gives the empty board back.
func TestIncrementalMatchesRebuild(t *testing.T) {
	for ri, r := range []game.Rules{game.Connect6(), {M: 7, N: 7, K: 4, P: 2, Q: 1}, {M: 9, N: 9, K: 5, P: 2, Q: 1}, {M: 8, N: 8, K: 4, P: 1, Q: 1}, {M: 11, N: 11, K: 6, P: 2, Q: 1}, {M: 25, N: 25, K: 6, P: 2, Q: 1}, {M: 9, N: 6, K: 5, P: 3, Q: 2}, {M: 5, N: 5, K: 2, P: 1, Q: 1}, {M: 6, N: 6, K: 5, P: 4, Q: 1}} {
		t.Run(r.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(ri), 99))
			b := MustNewBoard(r)
			empty := boardSnapshot(b)
			var placed []game.Square
			for step := 0; step < 1000; step++ {
				if len(placed) > 0 && (rng.IntN(3) == 0 || b.Empties() == 0) {
					i := rng.IntN(len(placed))
					s := placed[i]
					placed = slices.Delete(placed, i, i+1)
					b.Remove(s)
				} else {
					// Mostly near the last stones, so windows fill up.
					var s game.Square
					for {
						s = game.Square(rng.IntN(r.Squares()))
						if len(placed) > 0 && rng.IntN(4) > 0 {
							x, y := r.XY(placed[rng.IntN(len(placed))])
							x, y = x+rng.IntN(5)-2, y+rng.IntN(5)-2
							if !r.OnBoard(x, y) {
								continue
							}
							s = r.Sq(x, y)
						}
						if b.At(s) == game.Empty {
							break
						}
					}
					b.Place(s, game.Color(1+rng.IntN(2)))
					placed = append(placed, s)
				}
				if step%5 == 0 {
					checkAgainstRebuild(t, b, fmt.Sprintf("step %d", step))
				}
			}
			rng.Shuffle(len(placed), func(i, j int) { placed[i], placed[j] = placed[j], placed[i] })
			for _, s := range placed {
				b.Remove(s)
			}
			if d := boardSnapshot(b).diff(empty); d != "" {
				t.Fatalf("after removing every stone: %s", d)
			}
			if b.Hash() != 0 || b.chk != 0 {
				t.Fatalf("empty board hash %x, check %x, want 0", b.Hash(), b.chk)
			}
		})
	}
}

// Play/Undo over random legal games: Undo restores the exact state, and the
// key includes the side to move.
func TestPlayUndoRestores(t *testing.T) {
	for ri, r := range []game.Rules{game.Connect6(), {M: 7, N: 7, K: 4, P: 2, Q: 1}, {M: 8, N: 8, K: 4, P: 1, Q: 1}, {M: 9, N: 7, K: 5, P: 3, Q: 2}} {
		rng := rand.New(rand.NewPCG(uint64(ri), 5))
		for gi := 0; gi < 40; gi++ {
			b := MustNewBoard(r)
			var states []boardState
			for b.Winner() == game.Empty && b.Empties() > 0 {
				n := min(r.StonesForTurn(b.Turn()), b.Empties())
				var sq []game.Square
				for len(sq) < n {
					s := game.Square(rng.IntN(r.Squares()))
					if b.At(s) == game.Empty && !slices.Contains(sq, s) {
						sq = append(sq, s)
					}
				}
				states = append(states, boardSnapshot(b))
				before := b.Key()
				mover := b.ToMove()
				if err := b.Play(game.NewMove(sq...)); err != nil {
					t.Fatalf("%s game %d: legal move refused: %v", r, gi, err)
				}
				if b.Key() == before {
					t.Fatalf("key unchanged by a move")
				}
				if b.ToMove() == mover {
					t.Fatalf("side to move unchanged")
				}
				if want := b.Hash(); b.ToMove() == game.White && b.Key() != want^sideKey || b.ToMove() == game.Black && b.Key() != want {
					t.Fatalf("Key is not Hash with the side-to-move key")
				}
			}
			checkAgainstRebuild(t, b, "end of game")
			for i := len(states) - 1; i >= 0; i-- {
				if err := b.Undo(); err != nil {
					t.Fatal(err)
				}
				if d := boardSnapshot(b).diff(states[i]); d != "" {
					t.Fatalf("%s game %d: undo of turn %d: %s", r, gi, i+1, d)
				}
			}
			if err := b.Undo(); err != ErrNoHistory {
				t.Fatalf("undo on the empty history: %v, want ErrNoHistory", err)
			}
		}
	}
}

// Clone is independent of the original.
func TestCloneIndependent(t *testing.T) {
	b, err := ReplayText(game.Connect6(), "j10 j11k10 l9k11 i9l11")
	if err != nil {
		t.Fatal(err)
	}
	before := boardSnapshot(b)
	c := b.Clone()
	if err := c.Play(parseMoveT(t, c.Rules(), "a1a2")); err != nil {
		t.Fatal(err)
	}
	c.Place(parseSquareT(t, c.Rules(), "s19"), game.White)
	if d := boardSnapshot(b).diff(before); d != "" {
		t.Fatalf("playing on a clone changed the original: %s", d)
	}
	checkAgainstRebuild(t, c, "clone")
}

func parseMoveT(t *testing.T, r game.Rules, s string) game.Move {
	t.Helper()
	m, err := game.ParseMove(r, s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func parseSquareT(t *testing.T, r game.Rules, s string) game.Square {
	t.Helper()
	sq, err := game.ParseSquare(r, s)
	if err != nil {
		t.Fatal(err)
	}
	return sq
}

// NewMove keeps at most MaxPerTurn squares (documented); MakeMove, the
// checked constructor, refuses more and otherwise builds the same move.
func TestMakeMove(t *testing.T) {
	five := []game.Square{9, 3, 7, 1, 5}
	if m := game.NewMove(five...); m.Len() != game.MaxPerTurn || m != game.NewMove(9, 3, 7, 1) {
		t.Fatalf("NewMove of 5 squares: %v", m.Squares())
	}
	if _, err := game.MakeMove(five...); !errors.Is(err, game.ErrTooManyStones) {
		t.Fatalf("MakeMove of 5 squares: err %v, want ErrTooManyStones", err)
	}
	for _, sq := range [][]game.Square{nil, {4}, {8, 2}, {9, 3, 7, 1}} {
		m, err := game.MakeMove(sq...)
		if err != nil || m != game.NewMove(sq...) {
			t.Fatalf("MakeMove(%v) = %v, %v; want NewMove's move", sq, m.Squares(), err)
		}
	}
}

// eachLiveWindow visits exactly the windows without an opponent stone and
// with at least minCount stones of c, each once, on the hot-list path and
// on the scan path alike.
func TestEachLiveWindow(t *testing.T) {
	for ri, r := range []game.Rules{game.Connect6(), {M: 9, N: 9, K: 5, P: 2, Q: 1}, {M: 8, N: 8, K: 4, P: 1, Q: 1}, {M: 9, N: 6, K: 5, P: 3, Q: 2}} {
		rng := rand.New(rand.NewPCG(uint64(ri), 7))
		b := MustNewBoard(r)
		for step := 0; step < 60 && b.Empties() > 0; step++ {
			s := game.Square(rng.IntN(r.Squares()))
			if b.At(s) != game.Empty {
				continue
			}
			b.Place(s, game.Color(1+rng.IntN(2)))
			for _, c := range []game.Color{game.Black, game.White} {
				for minCount := 0; minCount <= r.K; minCount++ {
					got := map[int32]int{}
					b.eachLiveWindow(c, minCount, func(w int32) { got[w]++ })
					n := 0
					for w := int32(0); w < int32(b.g.nwin); w++ {
						want := b.WindowStones(c.Opp(), w) == 0 && int(b.WindowStones(c, w)) >= minCount
						if want {
							n++
						}
						if want && got[w] != 1 || !want && got[w] != 0 {
							t.Fatalf("%s step %d, %v, minCount %d: window %d visited %d times, want %v", r, step, c, minCount, w, got[w], want)
						}
					}
					if len(got) != n {
						t.Fatalf("%s: %d windows visited, want %d", r, len(got), n)
					}
				}
			}
		}
	}
}
