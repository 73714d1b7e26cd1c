package board

import (
	"testing"

	"c6book/engine/game"
)

// The atlas has one row per class of White's second move, the classes
// counted here by brute force with a symmetry code of the test's own: the
// eight maps of the square that fix the centre, on offsets from it.
func TestAtlasClassesByBruteForce(t *testing.T) {
	r := game.Connect6()
	for _, tc := range []struct{ d, classes int }{{1, 0}, {2, 44}, {3, 162}} {
		// The pairs within distance d of the centre, as offsets.
		type off struct{ dx, dy int }
		var sqs []off
		for dy := -tc.d; dy <= tc.d; dy++ {
			for dx := -tc.d; dx <= tc.d; dx++ {
				if dx != 0 || dy != 0 {
					sqs = append(sqs, off{dx, dy})
				}
			}
		}
		maps := []func(o off) off{
			func(o off) off { return o },
			func(o off) off { return off{-o.dx, o.dy} },
			func(o off) off { return off{o.dx, -o.dy} },
			func(o off) off { return off{-o.dx, -o.dy} },
			func(o off) off { return off{o.dy, o.dx} },
			func(o off) off { return off{-o.dy, o.dx} },
			func(o off) off { return off{o.dy, -o.dx} },
			func(o off) off { return off{-o.dy, -o.dx} },
		}
		type pair struct{ a, b off }
		norm := func(p pair) pair {
			if p.b.dy < p.a.dy || p.b.dy == p.a.dy && p.b.dx < p.a.dx {
				p.a, p.b = p.b, p.a
			}
			return p
		}
		// class: each pair to the smallest of its images (union of orbits).
		class := map[pair]pair{}
		less := func(p, q pair) bool {
			return [4]int{p.a.dy, p.a.dx, p.b.dy, p.b.dx} != [4]int{q.a.dy, q.a.dx, q.b.dy, q.b.dx} &&
				(p.a.dy < q.a.dy || p.a.dy == q.a.dy && (p.a.dx < q.a.dx || p.a.dx == q.a.dx && (p.b.dy < q.b.dy || p.b.dy == q.b.dy && p.b.dx < q.b.dx)))
		}
		pairs := 0
		for i, a := range sqs {
			for _, b := range sqs[i+1:] {
				pairs++
				p := norm(pair{a, b})
				min := p
				for _, f := range maps {
					if im := norm(pair{f(a), f(b)}); less(im, min) {
						min = im
					}
				}
				class[p] = min
			}
		}
		classes := map[pair]int{}
		for _, c := range class {
			classes[c]++
		}
		if tc.classes != 0 && len(classes) != tc.classes {
			t.Fatalf("d=%d: brute force finds %d classes, the issue says %d", tc.d, len(classes), tc.classes)
		}
		rows, err := Atlas(r, tc.d)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != len(classes)+1 {
			t.Fatalf("d=%d: %d rows, want %d classes and the pass row", tc.d, len(rows), len(classes))
		}
		cx, cy := r.M/2, r.N/2
		got := map[pair]int{}
		sizes := 0
		for i, row := range rows {
			if row.Pass != (i == len(rows)-1) {
				t.Fatalf("d=%d: row %d (%s) pass %v: the pass row is the last one", tc.d, i, row.Name(r), row.Pass)
			}
			if row.Pass {
				if game.MoveName(r, row.Move) != "a1s19" || row.Name(r) != "pass" {
					t.Fatalf("pass row %s %s, want a1s19", row.Name(r), game.MoveName(r, row.Move))
				}
				continue
			}
			if row.Move.Len() != 2 {
				t.Fatalf("row %d: %d stones", i, row.Move.Len())
			}
			var o [2]off
			for k := 0; k < 2; k++ {
				x, y := r.XY(row.Move.At(k))
				o[k] = off{x - cx, y - cy}
			}
			p := norm(pair{o[0], o[1]})
			c, ok := class[p]
			if !ok {
				t.Fatalf("d=%d: row %s is not a pair within distance %d", tc.d, row.Name(r), tc.d)
			}
			got[c]++
			sizes += row.Size
			if row.Size != classes[c] {
				t.Errorf("row %s: size %d, its class has %d moves", row.Name(r), row.Size, classes[c])
			}
			if i > 0 && !rows[i-1].Pass && rows[i-1].Far > row.Far {
				t.Errorf("row %s (far %d) after %s (far %d): not nearest first", row.Name(r), row.Far, rows[i-1].Name(r), rows[i-1].Far)
			}
		}
		for c, n := range got {
			if n != 1 {
				t.Errorf("d=%d: class of %v has %d rows", tc.d, c, n)
			}
		}
		if sizes != pairs {
			t.Errorf("d=%d: the rows stand for %d moves, there are %d", tc.d, sizes, pairs)
		}
	}
}

// Rules without a centre, or without a one-stone first turn, have no
// atlas; nor a distance that reaches the corners.
func TestAtlasRefused(t *testing.T) {
	for _, tc := range []struct {
		r game.Rules
		d int
	}{{game.Rules{M: 8, N: 8, K: 5, P: 2, Q: 1}, 1}, {game.Rules{M: 19, N: 19, K: 6, P: 2, Q: 2}, 2}, {game.Connect6(), 0}, {game.Connect6(), 9}, {game.Rules{M: 7, N: 7, K: 4, P: 2, Q: 1}, 3}} {
		if _, err := Atlas(tc.r, tc.d); err == nil {
			t.Errorf("%s d=%d: an atlas", tc.r, tc.d)
		}
	}
	if _, err := Atlas(game.Connect6(), 8); err != nil {
		t.Errorf("d=8: %v", err)
	}
}
