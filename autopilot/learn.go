package autopilot

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"sync"

	"c6book/engine/board"
	"c6book/engine/game"
	playerpkg "c6book/engine/player"
)

// The run learns from itself (issue 33, ALGORITHMS.md "What a proof wants
// at an OR node"): the local shape of an attacker move the verifier proved
// is worth trying first where the same shape can be made again. A
// ShapeTable counts, for each shape, the verifications of positions its
// move reached and how many of them proved; Expand puts the candidates
// whose shape proved before first, best rate first. It only orders
// candidates: every move is verified and re-checked like any other.

// shapeRadius is how far (Chebyshev) around a move's stones its shape
// looks: the stones, the move's own squares and the board's edges within
// it, up to symmetry and translation.
const shapeRadius = 2

// DefaultShapeTableSize bounds a ShapeTable (NewShapeTable(0)): shapes
// beyond it are not learned, so memory stays bounded whatever the run's
// length. A shape is a short string and two counts: 4,096 of them hold
// well under a megabyte.
const DefaultShapeTableSize = 4096

// ShapeTable is what runs of the auto-pilot learned about attacker moves:
// by local shape, how often a position a move of that shape reached was
// verified and how often it was proved. It is safe for concurrent use; one
// table may serve several runs (the rows of an atlas) so that each starts
// with what the earlier ones learned.
type ShapeTable struct {
	mu    sync.Mutex
	max   int
	stats map[string]shapeStat
}

type shapeStat struct{ tried, proved int }

// NewShapeTable is an empty table of at most max shapes (0:
// DefaultShapeTableSize).
func NewShapeTable(max int) *ShapeTable {
	if max <= 0 {
		max = DefaultShapeTableSize
	}
	return &ShapeTable{max: max, stats: map[string]shapeStat{}}
}

// Len is the number of shapes the table holds.
func (s *ShapeTable) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.stats)
}

// Proved is the number of shapes with at least one proof.
func (s *ShapeTable) Proved() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, st := range s.stats {
		if st.proved > 0 {
			n++
		}
	}
	return n
}

// record counts one verification of a position reached by a move of shape
// key, proved or not. A full table learns no new shape.
func (s *ShapeTable) record(key string, proved bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.stats[key]
	if !ok && len(s.stats) >= s.max {
		return
	}
	st.tried++
	if proved {
		st.proved++
	}
	s.stats[key] = st
}

// rate is shape key's proof rate, (proved + ½) / (tried + 1), and whether
// it ever proved.
func (s *ShapeTable) rate(key string) (float64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.stats[key]
	return (float64(st.proved) + 0.5) / (float64(st.tried) + 1), st.proved > 0
}

// promote returns cands with the moves whose shape (for attacker a on b)
// proved before first, the best rate first, the others after them in
// their order; and how many it put first.
func (s *ShapeTable) promote(b *board.Board, a game.Color, cands []playerpkg.ScoredMove) ([]playerpkg.ScoredMove, int) {
	type ranked struct {
		c    playerpkg.ScoredMove
		rate float64
		i    int
	}
	var first []ranked
	var rest []playerpkg.ScoredMove
	for i, c := range cands {
		if r, ok := s.rate(shapeKey(b, a, c.Move)); ok {
			first = append(first, ranked{c, r, i})
			continue
		}
		rest = append(rest, c)
	}
	if len(first) == 0 {
		return cands, 0
	}
	slices.SortStableFunc(first, func(x, y ranked) int { return cmp.Compare(y.rate, x.rate) })
	out := make([]playerpkg.ScoredMove, 0, len(cands))
	for _, f := range first {
		out = append(out, f.c)
	}
	return append(out, rest...), len(first)
}

// shapeCell is one square of a shape: its offset and what it holds.
type shapeCell struct {
	dx, dy int
	kind   byte // 'a' attacker stone, 'd' defender stone, 'm' the move's, '#' off the board
}

// shapeKey is the local shape of attacker a's move m on b (m not played):
// every square within shapeRadius of a stone of m that is not empty (a
// stone of either side, a square of m, or off the board), as offsets,
// canonical under the 8 symmetries and translation (the offsets are taken
// from the least square of m in each image, and the least encoding
// wins). Two moves have the same key exactly when their neighbourhoods
// look the same, the board's edges included.
func shapeKey(b *board.Board, a game.Color, m game.Move) string {
	r := b.Rules()
	if m.Len() == 0 {
		return ""
	}
	seen := map[[2]int]bool{}
	var cells []shapeCell
	for i := 0; i < m.Len(); i++ {
		x, y := r.XY(m.At(i))
		for dy := -shapeRadius; dy <= shapeRadius; dy++ {
			for dx := -shapeRadius; dx <= shapeRadius; dx++ {
				X, Y := x+dx, y+dy
				if seen[[2]int{X, Y}] {
					continue
				}
				seen[[2]int{X, Y}] = true
				var kind byte
				switch {
				case X < 0 || Y < 0 || X >= r.M || Y >= r.N:
					kind = '#'
				case m.Contains(r.Sq(X, Y)):
					kind = 'm'
				default:
					switch b.At(r.Sq(X, Y)) {
					case game.Empty:
						continue
					case a:
						kind = 'a'
					default:
						kind = 'd'
					}
				}
				cells = append(cells, shapeCell{X, Y, kind})
			}
		}
	}
	best := ""
	img := make([]shapeCell, len(cells))
	for sym := 0; sym < 8; sym++ {
		for i, c := range cells {
			x, y := c.dx, c.dy
			if sym&1 != 0 {
				x = -x
			}
			if sym&2 != 0 {
				y = -y
			}
			if sym&4 != 0 {
				x, y = y, x
			}
			img[i] = shapeCell{x, y, c.kind}
		}
		// The origin: the least of the move's squares in this image.
		ox, oy, have := 0, 0, false
		for _, c := range img {
			if c.kind == 'm' && (!have || c.dy < oy || c.dy == oy && c.dx < ox) {
				ox, oy, have = c.dx, c.dy, true
			}
		}
		for i := range img {
			img[i].dx -= ox
			img[i].dy -= oy
		}
		slices.SortFunc(img, func(p, q shapeCell) int {
			return cmp.Or(cmp.Compare(p.dy, q.dy), cmp.Compare(p.dx, q.dx))
		})
		var sb strings.Builder
		for _, c := range img {
			sb.WriteByte(byte(c.dx + 64))
			sb.WriteByte(byte(c.dy + 64))
			sb.WriteByte(c.kind)
		}
		if k := sb.String(); sym == 0 || k < best {
			best = k
		}
	}
	return best
}

// maxLearnParents bounds the parents learnFrom looks at.
const maxLearnParents = 4

// learnFrom records in the run's shape table the verification of
// position k (defender to move): proved or not, for the shape of each
// attacker move into it.
func (t *bookTree) learnFrom(ctx context.Context, k PosID, proved bool) {
	if t.shapes == nil {
		return
	}
	parents, err := t.bk.AutoParents(ctx, k)
	if err != nil {
		return // learning is a hint: a failed read teaches nothing
	}
	n := 0
	for _, e := range parents {
		if n == maxLearnParents {
			break
		}
		if e.ParentToMove != t.a {
			continue
		}
		n++
		b, err := t.bk.Board(ctx, e.Parent)
		if err != nil {
			continue
		}
		t.shapes.record(shapeKey(b, t.a, e.Move), proved)
	}
}
