package enginetest

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
)

// randomSolverPosition places nA attacker and nD defender stones at random
// in a central box (so that threats occur), attacker to move, with nobody
// having won and the defender having at most p threats.
func RandomSolverPosition(rng *rand.Rand, r game.Rules, nA, nD int) *board.Board {
	return RandomSolverPositionOpt(rng, r, nA, nD, false)
}

// randomSolverPositionOpt is randomSolverPosition; with defThreats the
// defender may hold threat windows (at most p threats).
func RandomSolverPositionOpt(rng *rand.Rand, r game.Rules, nA, nD int, defThreats bool) *board.Board {
	for {
		b := board.MustNewBoard(r)
		a, d := game.Black, game.White
		if rng.IntN(2) == 0 {
			a, d = game.White, game.Black
		}
		place := func(c game.Color, n int) {
			for i := 0; i < n; {
				s := game.Square(rng.IntN(r.Squares()))
				if b.At(s) == game.Empty {
					b.Place(s, c)
					i++
				}
			}
		}
		place(a, nA)
		place(d, nD)
		if b.Winner() != game.Empty || b.Threats(d) > r.P || b.HasThreat(a) || (b.HasThreat(d) && !defThreats) {
			continue
		}
		b.SetToMove(a)
		b.MarkSetUp()
		return b
	}
}

type SolverCase struct {
	Rules  game.Rules
	NA, ND int
}

// bruteWin reports whether the attacker (to move) wins within depth moves
// when every attacker move must block the defender's threat windows and
// leave at least minT threats (or make k in a row), trying every attacker
// move and every defender reply, all of them. minT = 2 is the VCDT class,
// minT = 1 the VCST class.
func BruteWin(b *board.Board, a game.Color, depth, minT int) bool {
	if b.Full(a) || b.HasThreat(a) {
		return true
	}
	if depth == 0 {
		return false
	}
	d := a.Opp()
	empt := b.StoneList(game.Empty)
	p := b.Rules().P
	win := false
	ForEachCombo(empt, p, func(am []game.Square) bool {
		for _, s := range am {
			b.Place(s, a)
		}
		ok := false
		if b.Full(a) {
			ok = true
		} else if t := b.Threats(a); !b.HasThreat(d) && t >= minT {
			ok = true
			if t <= p && depth == 1 {
				// The defender blocks every threat window with a
				// critical defence and the attacker has no move left.
				ok = false
			} else if t <= p {
				ForEachCombo(b.StoneList(game.Empty), p, func(dm []game.Square) bool {
					for _, s := range dm {
						b.Place(s, d)
					}
					if b.Full(d) || !BruteWin(b, a, depth-1, minT) {
						ok = false
					}
					for i := len(dm) - 1; i >= 0; i-- {
						b.Remove(dm[i])
					}
					return ok
				})
			}
		}
		for i := len(am) - 1; i >= 0; i-- {
			b.Remove(am[i])
		}
		win = ok
		return !ok
	})
	return win
}

// forEachCombo calls f with every n-subset of sq until f returns false.
func ForEachCombo(sq []game.Square, n int, f func([]game.Square) bool) {
	if n > len(sq) {
		n = len(sq)
	}
	buf := make([]game.Square, n)
	var rec func(start, k int) bool
	rec = func(start, k int) bool {
		if k == n {
			return f(buf)
		}
		for i := start; i < len(sq); i++ {
			buf[k] = sq[i]
			if !rec(i+1, k+1) {
				return false
			}
		}
		return true
	}
	rec(0, 0)
}

// randomThreatenedPosition is like randomSolverPosition, but the defender
// has at least one threat window (1..p threats) for the attacker to block:
// k-p defender stones are planted in a random window first.
func RandomThreatenedPosition(rng *rand.Rand, r game.Rules, nA, nD int) *board.Board {
	for {
		b := board.MustNewBoard(r)
		a, d := game.Black, game.White
		if rng.IntN(2) == 0 {
			a, d = game.White, game.Black
		}
		w := int32(rng.IntN(len(b.Windows())))
		sq := append([]game.Square(nil), b.WindowSquares(w)...)
		rng.Shuffle(len(sq), func(i, j int) { sq[i], sq[j] = sq[j], sq[i] })
		for _, s := range sq[:r.K-r.P] {
			b.Place(s, d)
		}
		for _, pl := range []struct {
			c game.Color
			n int
		}{{a, nA}, {d, nD}} {
			for i := 0; i < pl.n; {
				if s := game.Square(rng.IntN(r.Squares())); b.At(s) == game.Empty {
					b.Place(s, pl.c)
					i++
				}
			}
		}
		if b.Winner() != game.Empty || b.Threats(d) > r.P || b.HasThreat(a) || !b.HasThreat(d) {
			continue
		}
		b.SetToMove(a)
		b.MarkSetUp()
		return b
	}
}

// publicPositions reads the public LittleGolem positions (attacker to move).
// The file lives outside the repository; benchmarks skip without it.
func PublicPositions(tb testing.TB) []*board.Board {
	tb.Helper()
	f, err := os.Open(findShared("positions/littlegolem-public.tsv"))
	if err != nil {
		tb.Skip("public positions not available:", err)
	}
	defer f.Close()
	var out []*board.Board
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) < 4 {
			continue
		}
		b, err := board.ReplayText(game.Connect6(), cols[3])
		if err != nil {
			tb.Fatalf("position %s: %v", cols[0], err)
		}
		out = append(out, b)
	}
	return out
}

func MustReplay(t *testing.T, turns string) *board.Board {
	t.Helper()
	b, err := board.ReplayText(game.Connect6(), turns)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// SharedDataFile finds a file of the shared read-only data (../shared from the
// repository root) by walking up from the test's working directory. The data
// is part of the repository's environment: a missing file fails the test.
func SharedDataFile(t testing.TB, rel string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		p := filepath.Join(dir, "shared", rel)
		if _, err := os.Stat(p); err == nil {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("shared/%s not found in any parent of the working directory (expected ../shared/%s from the repository root)", rel, rel)
		}
		dir = parent
	}
}

// loadLGGames reads the LittleGolem games {gid: [turns]}, sorted by gid.
func LoadLGGames(t testing.TB) (gids []string, games map[string][]string) {
	t.Helper()
	f, err := os.Open(SharedDataFile(t, "data/littlegolem-connect6-games.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.NewDecoder(zr).Decode(&games); err != nil {
		t.Fatal(err)
	}
	for g := range games {
		gids = append(gids, g)
	}
	sort.Strings(gids)
	return gids, games
}

// findShared is the path of a file of the shared read-only data (../shared
// from the repository root), found by walking up from the working
// directory, or the path relative to the repository root's parent when no
// parent holds it (opening it then fails).
func findShared(rel string) string {
	dir, err := os.Getwd()
	if err != nil {
		return filepath.Join("..", "shared", rel)
	}
	for {
		p := filepath.Join(dir, "shared", rel)
		if _, err := os.Stat(p); err == nil {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return filepath.Join("..", "shared", rel)
		}
		dir = parent
	}
}

// refPassOrder is b's windows in direction, row, column order of their
// first squares (the window numbering before the lines), found by their
// direction and first square.
func RefPassOrder(b *board.Board) []int32 {
	r := b.Rules()
	number := map[[2]int]int32{} // direction, first square
	for w := int32(0); w < int32(len(b.Windows())); w++ {
		sq := b.WindowSquares(w)
		x0, y0 := r.XY(sq[0])
		x1, y1 := r.XY(sq[1])
		d := slices.Index(refDirs[:], [2]int{x1 - x0, y1 - y0})
		number[[2]int{d, int(sq[0])}] = w
	}
	var order []int32
	for d, dv := range refDirs {
		for y := 0; y < r.N; y++ {
			for x := 0; x < r.M; x++ {
				if r.OnBoard(x+dv[0]*(r.K-1), y+dv[1]*(r.K-1)) {
					order = append(order, number[[2]int{d, int(r.Sq(x, y))}])
				}
			}
		}
	}
	return order
}

// refDirs are the four line directions in the board's order: horizontal,
// vertical, diagonal, anti-diagonal.
var refDirs = [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}}

// refWalkSquare picks an empty square: often the next square along a line
// from the last stone (so windows fill up), often near a stone, else
// anywhere.
func RefWalkSquare(rng *rand.Rand, b *board.Board, placed []game.Square) game.Square {
	r := b.Rules()
	for {
		s := game.Square(rng.IntN(r.Squares()))
		if len(placed) > 0 && rng.IntN(4) > 0 {
			x, y := r.XY(placed[len(placed)-1])
			if rng.IntN(2) == 0 {
				d := refDirs[rng.IntN(4)]
				x, y = x+d[0], y+d[1]
			} else {
				x, y = r.XY(placed[rng.IntN(len(placed))])
				x, y = x+rng.IntN(5)-2, y+rng.IntN(5)-2
			}
			if !r.OnBoard(x, y) {
				continue
			}
			s = r.Sq(x, y)
		}
		if b.At(s) == game.Empty {
			return s
		}
	}
}

// stuckCallback returns a progress callback that never returns from its
// first call (until the test ends), and a channel closed once it is in it.
func StuckCallback[T any](t *testing.T) (func(T), <-chan struct{}, func() int) {
	entered, release := make(chan struct{}), make(chan struct{})
	t.Cleanup(func() { close(release) })
	var mu sync.Mutex
	calls := 0
	var once sync.Once
	fn := func(T) {
		mu.Lock()
		calls++
		mu.Unlock()
		once.Do(func() { close(entered) })
		<-release
	}
	return fn, entered, func() int { mu.Lock(); defer mu.Unlock(); return calls }
}
