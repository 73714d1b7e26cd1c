package player

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"c6book/internal/testenv"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/internal/enginetest"
)

// testCanon is the position's form up to symmetry, computed here from the
// rules' square maps alone (not CanonicalKey's hashes): the least, over
// the symmetries, of the sorted stones, with the side to move.
func testCanon(b *board.Board) string {
	r := b.Rules()
	var stones []uint32
	for _, c := range []game.Color{game.Black, game.White} {
		for _, s := range b.StoneList(c) {
			stones = append(stones, uint32(s)<<2|uint32(c))
		}
	}
	best := ""
	img := make([]uint32, len(stones))
	for id := 0; id < r.SymmetryCount(); id++ {
		for i, v := range stones {
			img[i] = uint32(r.Transform(id, game.Square(v>>2)))<<2 | v&3
		}
		slices.Sort(img)
		var sb strings.Builder
		for _, v := range img {
			sb.WriteString(strconv.FormatUint(uint64(v), 36))
			sb.WriteByte(',')
		}
		sb.WriteString(b.ToMove().String())
		if k := sb.String(); id == 0 || k < best {
			best = k
		}
	}
	return best
}

func mustMove(t testing.TB, text string) game.Move {
	t.Helper()
	m, err := game.ParseMove(game.Connect6(), text)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The builder counts games up to symmetry: a game entered mirrored counts
// for the same position and the same move, moves symmetric to one another
// at a symmetric position are one entry, the thresholds drop rare
// positions and moves, the order of the games does not change the bytes,
// and the decoded table gives each move in the asking board's orientation.
func TestGameBookBuilder(t *testing.T) {
	r := game.Connect6()
	// Mickey Mouse (j10 i9k9) is symmetric under the mirror through
	// column j: i7j9 and its image k7j9 are one move there.
	games := []struct {
		line   string
		winner game.Color
	}{
		{"j10 i9k9 i7j9 a1a2", game.Black},
		{"j10 i9k9 k7j9 a1a2", game.Black},
		{"j10 i9k9 k7j9 a1a2", game.White},
		{"j10 i9k9 j8j9 a1a2", game.White},
		{"j10 i9k9 j8j9 a1a2", game.White},
		{"j10 j9j11 h10l10", game.White}, // a position in one game only
	}
	build := func(order []int) *GameBookBuilder {
		gb := NewGameBookBuilder(2, 2, 2)
		for _, i := range order {
			turns, err := game.ParseTurns(r, games[i].line)
			if err != nil {
				t.Fatal(err)
			}
			// Enter every other game rotated by 90 degrees: the same games.
			if i%2 == 1 {
				for j := range turns {
					turns[j] = r.TransformMove(1, turns[j])
				}
			}
			if err := gb.Add(turns, games[i].winner); err != nil {
				t.Fatal(err)
			}
		}
		return gb
	}
	gb := build([]int{0, 1, 2, 3, 4, 5})
	data := gb.Encode()
	if again := build([]int{5, 3, 1, 0, 4, 2}).Encode(); string(again) != string(data) {
		t.Fatal("the games in another order encode differently")
	}
	table, err := DecodeGameBook(string(data))
	if err != nil {
		t.Fatal(err)
	}
	// j10 (6 games; White's i9k9 5 times, j9j11 once: below 2) and
	// j10 i9k9 (5 games); turn 3 is past the 2 turns kept.
	if len(table) != 2 || gb.Positions() != 2 {
		t.Fatalf("%d positions decoded, %d kept, want 2", len(table), gb.Positions())
	}
	for _, orient := range []int{0, 3, 6} {
		b := enginetest.MustReplay(t, "j10 i9k9").Transformed(orient)
		key, sym := b.CanonicalKey()
		stored := table[key]
		if len(stored) != 2 {
			t.Fatalf("orientation %d: %d moves stored, want 2 (i7j9 = k7j9, j8j9)", orient, len(stored))
		}
		got := map[string][2]int{}
		for _, g := range stored {
			m := r.TransformMove(game.InverseSymmetry(sym), g.Move)
			if err := b.Check(m, false); err != nil {
				t.Fatalf("orientation %d: stored move %s: %v", orient, game.MoveName(r, m), err)
			}
			// Name the move in the orientation of the line: map it back.
			got[testCanonAfter(t, b, m)] = [2]int{g.Games, g.Wins}
		}
		base := enginetest.MustReplay(t, "j10 i9k9")
		want := map[string][2]int{
			testCanonAfter(t, base, mustMove(t, "i7j9")): {3, 2},
			testCanonAfter(t, base, mustMove(t, "j8j9")): {2, 0},
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("orientation %d: records %v, want %v", orient, got, want)
		}
	}
	// A malformed table is an error, not a panic.
	for _, bad := range []string{string(data[:len(data)-1]), string(data[:5]), string(data) + string(data[:12])} {
		if _, err := DecodeGameBook(bad); err == nil {
			t.Errorf("DecodeGameBook of %d bytes: no error", len(bad))
		}
	}
	if err := NewGameBookBuilder(2, 2, 2).Add(nil, game.Empty); err == nil {
		t.Error("a game without a winner: no error")
	}
}

// testCanonAfter is testCanon of b after m.
func testCanonAfter(t testing.TB, b *board.Board, m game.Move) string {
	t.Helper()
	c := b.Clone()
	if err := c.Play(m); err != nil {
		t.Fatal(err)
	}
	return testCanon(c)
}

// The embedded table (gamebook_gen.go) is the games' record: at every
// position of the first turns of every LittleGolem game, GameMoves gives
// exactly the moves played there in at least 5 of the decided games (when
// the position was reached by at least 20), legal and in the board's
// orientation, with the games and wins counted here independently (up to
// symmetry by testCanon, not by the table's hashes), best lower bound
// first.
func TestGameMovesMatchGames(t *testing.T) {
	testenv.Heavy(t)
	const turns, minGames, minMove = 10, 20, 5 // tools/train's defaults
	r := game.Connect6()
	gids, raw := enginetest.LoadLGGames(t)
	type rec struct{ games, wins int }
	count := map[string]map[string]*rec{}
	// eachPosition replays the decided games' first turns: f gets the
	// position before each turn, its line, the turn and the game's winner.
	eachPosition := func(f func(b *board.Board, line []game.Move, m game.Move, winner game.Color)) {
		empty := board.MustNewBoard(r) // cloned: a new board builds its geometry
		for _, gid := range gids {
			ms, err := game.ParseTurns(r, strings.Join(raw[gid], " "))
			if err != nil {
				continue
			}
			full := empty.Clone()
			for _, m := range ms {
				if full.Play(m) != nil {
					break
				}
			}
			if full.Winner() == game.Empty {
				continue // only the decided games count
			}
			b := empty.Clone()
			for i, m := range ms {
				if i > turns {
					break
				}
				if i > 0 {
					f(b, ms[:i], m, full.Winner())
				}
				if err := b.Play(m); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	eachPosition(func(b *board.Board, _ []game.Move, m game.Move, winner game.Color) {
		k := testCanon(b)
		if count[k] == nil {
			count[k] = map[string]*rec{}
		}
		child := testCanonAfter(t, b, m)
		if count[k][child] == nil {
			count[k][child] = &rec{}
		}
		count[k][child].games++
		if winner == b.ToMove() {
			count[k][child].wins++
		}
	})
	inTable, checked := 0, 0
	visited := map[string]bool{}
	eachPosition(func(b *board.Board, line []game.Move, _ game.Move, _ game.Color) {
		k := testCanon(b)
		if visited[k] {
			return
		}
		visited[k] = true
		checked++
		total := 0
		want := map[string]rec{}
		for child, rc := range count[k] {
			total += rc.games
			if rc.games >= minMove {
				want[child] = *rc
			}
		}
		if total < minGames {
			want = map[string]rec{}
		}
		got := map[string]rec{}
		gm := GameMoves(b)
		for i, g := range gm {
			if err := b.Check(g.Move, false); err != nil {
				t.Fatalf("%s: games' move %s: %v", game.FormatTurns(r, line), game.MoveName(r, g.Move), err)
			}
			if i > 0 && g.LCB() > gm[i-1].LCB() {
				t.Fatalf("%s: %s (lcb %.3f) after %s (lcb %.3f)", game.FormatTurns(r, line), game.MoveName(r, g.Move), g.LCB(), game.MoveName(r, gm[i-1].Move), gm[i-1].LCB())
			}
			child := testCanonAfter(t, b, g.Move)
			if _, dup := got[child]; dup {
				t.Fatalf("%s: two moves to one position up to symmetry (%s)", game.FormatTurns(r, line), game.MoveName(r, g.Move))
			}
			got[child] = rec{g.Games, g.Wins}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s: table %v, games %v", game.FormatTurns(r, line), got, want)
		}
		if len(got) > 0 {
			inTable++
		}
	})
	if inTable < 100 {
		t.Fatalf("only %d positions of the games are in the table", inTable)
	}
	t.Logf("%d positions of the decided games' first %d turns checked, %d in the table", checked, turns, inTable)
}

// Play tries the games' moves with a good record first: on Mickey Mouse
// it plays one of them, best record first, says so, and lists them first
// with their records; without the games it plays the search's move.
func TestPlayGamesFirst(t *testing.T) {
	r := game.Connect6()
	b := enginetest.MustReplay(t, "j10 i9k9")
	gm := GameMoves(b)
	var good []GameMove
	for _, g := range gm {
		if g.LCB() >= GameBookLCB {
			good = append(good, g)
		}
	}
	if len(good) == 0 {
		t.Fatal("no games' move with a good record on Mickey Mouse")
	}
	res, err := Play(context.Background(), b, PlayOptions{MaxNodes: 20000})
	if err != nil {
		t.Fatal(err)
	}
	if res.Reason != PlayGames {
		t.Fatalf("reason %q, move %s", res.Reason, game.MoveName(r, res.Move))
	}
	for i, g := range good {
		c := res.Candidates[i]
		if c.Move != g.Move || c.Games != g.Games || c.Wins != g.Wins || c.Loses {
			t.Fatalf("candidate %d: %s (%d of %d, loses %v), want %s (%d of %d)", i, game.MoveName(r, c.Move), c.Wins, c.Games, c.Loses, game.MoveName(r, g.Move), g.Wins, g.Games)
		}
		if math.IsInf(c.Prior, 0) || len(c.PV) == 0 || c.PV[0] != c.Move {
			t.Fatalf("candidate %d %s: prior %v, line %v", i, game.MoveName(r, c.Move), c.Prior, c.PV)
		}
	}
	if res.Move != good[0].Move {
		t.Fatalf("played %s, want %s", game.MoveName(r, res.Move), game.MoveName(r, good[0].Move))
	}
	alone, err := Play(context.Background(), b, PlayOptions{MaxNodes: 20000, NoGames: true})
	if err != nil {
		t.Fatal(err)
	}
	if alone.Reason != PlaySearch {
		t.Fatalf("NoGames: reason %q", alone.Reason)
	}
	for _, c := range alone.Candidates {
		if c.Games != 0 {
			t.Fatalf("NoGames: candidate %s has a record", game.MoveName(r, c.Move))
		}
	}
	// Rules the games were not played under have no games' moves.
	small := board.MustNewBoard(game.Rules{M: 19, N: 19, K: 5, P: 2, Q: 1})
	for _, m := range []string{"j10", "i9k9"} {
		if err := small.Play(mustMove(t, m)); err != nil {
			t.Fatal(err)
		}
	}
	if gm := GameMoves(small); gm != nil {
		t.Fatalf("k=5: %d games' moves", len(gm))
	}
}

// gamesFirst orders the candidates: the games' moves first in their
// order, then the rest in theirs; a win the search found stays first and
// a move it found lost is not moved up.
func TestGamesFirst(t *testing.T) {
	mv := func(s game.Square) game.Move { return game.NewMove(s, s+1) }
	first := []ScoredMove{{mv(10), 0}, {mv(20), 0}}
	cases := []struct {
		name   string
		scores map[game.Square]float64 // candidates in the search's order
		order  []game.Square
		want   []game.Square
	}{
		{"games first", map[game.Square]float64{1: 2, 20: 1, 3: 0.5, 10: 0.2}, []game.Square{1, 20, 3, 10}, []game.Square{10, 20, 1, 3}},
		{"a win stays first", map[game.Square]float64{1: WinScore - 3, 20: 1, 10: 0.2}, []game.Square{1, 20, 10}, []game.Square{1, 20, 10}},
		{"a lost games' move is not moved up", map[game.Square]float64{1: 2, 20: 1, 10: -WinScore + 2}, []game.Square{1, 20, 10}, []game.Square{20, 1, 10}},
		{"no games' move among them", map[game.Square]float64{1: 2, 3: 1}, []game.Square{1, 3}, []game.Square{1, 3}},
	}
	for _, c := range cases {
		var cands []PlayCandidate
		for _, s := range c.order {
			cands = append(cands, PlayCandidate{Move: mv(s), Score: c.scores[s]})
		}
		gamesFirst(cands, first)
		var got []game.Square
		for _, cd := range cands {
			got = append(got, cd.Move.At(0))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// The Wilson lower bound: known values, and 0 without games.
func TestWilsonLower(t *testing.T) {
	for _, c := range []struct {
		wins, n int64
		z, want float64
	}{
		{50, 100, 1.96, 0.4038},
		{9, 10, 1.96, 0.5958},
		{0, 0, 1.96, 0},
		{1, 1, 1.645, 0.2698},
	} {
		if got := WilsonLower(c.wins, c.n, c.z); math.Abs(got-c.want) > 5e-4 {
			t.Errorf("WilsonLower(%d, %d, %v) = %.4f, want %.4f", c.wins, c.n, c.z, got, c.want)
		}
	}
}

// A games' move that leaves the opponent a threat is not tried first: it
// would lose at once (the games' records come from positions up to
// symmetry, and only moves legal there are listed, but a record alone
// does not answer a threat).
func TestFirstGameMovesAnswerThreats(t *testing.T) {
	b := enginetest.MustReplay(t, "j10 a1a2 j11j12 a3a4") // White threatens a1-a6
	pl := &player{w: LearnedWeights()}
	blocks, ignores := mustMove(t, "a5k10"), mustMove(t, "k10l10")
	games := []GameMove{{Move: ignores, Games: 100, Wins: 100}, {Move: blocks, Games: 100, Wins: 90}}
	got := pl.firstGameMoves(b, games, 2)
	if len(got) != 1 || got[0].Move != blocks {
		t.Fatalf("first games' moves %v, want only %s", got, game.MoveName(b.Rules(), blocks))
	}
	if b.Key() != enginetest.MustReplay(t, "j10 a1a2 j11j12 a3a4").Key() {
		t.Fatal("the board changed")
	}
}
