package bookfile

import (
	"c6book/internal/booktest"
	"context"
	"strings"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
)

// corpusGame is an SGF game tree and the lines (LittleGolem notation, from
// the empty board) it must store exactly.
type corpusGame struct {
	sgf   string
	lines []string
}

// The games of the SGF corpus: lists of points, compressed point lists,
// LittleGolem notation, letter pairs, variations, marks.
var corpusGames = []corpusGame{
	{"(;GM[1]SZ[19];B[jj];W[aa][ab];B[jk][jl])", []string{"j10 a19a18 j9j8"}},
	{"(;GM[1]SZ[19];B[jj];W[ss:sr](;B[jk:jl]C[compressed])(;B[j9][k9]))", []string{"j10 s1s2 j9j8", "j10 s1s2 j9k9"}},
	{"(;FF[4]SZ[19];B[j10];W[a19][s1];B[cc][d16]CR[aa:bb]TR[j10])", []string{"j10 a19s1 c17d16"}},
}

// wantExact asserts that the book holds exactly the corpus lines given
// (and nothing else): every position along them, and no other.
func wantExact(t *testing.T, bk *Book, games []corpusGame) {
	t.Helper()
	ctx := context.Background()
	r := bk.Rules()
	positions := map[uint64]bool{}
	for _, g := range games {
		for _, l := range g.lines {
			b := board.MustNewBoard(r)
			k, _ := b.CanonicalKey()
			positions[k] = true
			for _, m := range booktest.Turns(t, r, l) {
				if err := b.Play(m); err != nil {
					t.Fatalf("corpus line %q: %v", l, err)
				}
				if _, _, err := bk.Locate(ctx, b); err != nil {
					t.Fatalf("line %q: %s not stored exactly: %v", l, game.MoveName(r, m), err)
				}
				k, _ := b.CanonicalKey()
				positions[k] = true
			}
		}
	}
	st, err := bk.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Positions != int64(len(positions)) {
		t.Fatalf("the book holds %d positions, the lines %d", st.Positions, len(positions))
	}
	booktest.MustCheck(t, bk)
}

// Every input of the corpus is either imported exactly or refused with the
// book unchanged: the good games, set-up properties, moves that cannot be
// placed exactly, and every truncation of a collection.
func TestSGFCorpus(t *testing.T) {
	ctx := context.Background()
	for _, g := range corpusGames {
		bk := booktest.NewBook(t, game.Connect6())
		if _, err := ImportSGF(ctx, bk, g.sgf); err != nil {
			t.Fatalf("%s: %v", g.sgf, err)
		}
		wantExact(t, bk, []corpusGame{g})
	}
	// Marks: a compressed point list is every point of its rectangle.
	bk := booktest.NewBook(t, game.Connect6())
	if _, err := ImportSGF(ctx, bk, corpusGames[2].sgf); err != nil {
		t.Fatal(err)
	}
	b, _ := board.ReplayText(bk.Rules(), corpusGames[2].lines[0])
	id, _, err := bk.Locate(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	if p, err := bk.Position(ctx, id); err != nil || len(p.Marks) != 5 {
		t.Fatalf("marks CR[aa:bb]TR[j10]: %+v %v", p.Marks, err)
	}

	// Refusals leave the book as it was.
	bk = booktest.NewBook(t, game.Connect6())
	if _, err := ImportSGF(ctx, bk, corpusGames[0].sgf); err != nil {
		t.Fatal(err)
	}
	before := bookState(t, bk)
	for bad, why := range map[string]string{
		"(;SZ[19]AB[jj];W[aa][ab])":                 "set-up stones (AB)",
		"(;SZ[19];B[jj];AW[aa][ab];B[jk][jl])":      "set-up stones (AW)",
		"(;SZ[19];B[jj](;W[aa][ab])(;AE[jj]W[ac]))": "set-up stones (AE)",
		"(;SZ[19];B[jj];W[aa][])":                   "empty point",
		"(;SZ[19];B[jj];W[aa][ab][ac])":             "wrong number of stones",
		"(;SZ[19];B[jj];W[aa][aa])":                 "twice",
		"(;SZ[19];B[jj];W[aa:ac])":                  "wrong number of stones",
		"(;SZ[19];B[jj];W[aa:zz])":                  "off the board",
		"(;SZ[19];B[jj];W[aa]B[ab])":                "both a B and a W",
		"(;SZ[19];B[jj];W[aa]W[ab])":                "twice in one node",
		"(;SZ[19];B[jj];W[aa][pass])":               "list of points",
		"(;SZ[19];B[jj]CR[aa:zz])":                  "off the board",
	} {
		_, err := ImportSGF(ctx, bk, bad)
		if err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("%s: %v, want an error containing %q", bad, err, why)
		}
		if after := bookState(t, bk); after != before {
			t.Fatalf("refused %s changed the book", bad)
		}
	}

	// Every truncation of a collection: a prefix that is not whole SGF is
	// refused with the book unchanged; one that is (it ends after a game)
	// imports exactly the whole games it holds.
	var coll strings.Builder
	var ends []int // where each game's tree ends
	for _, g := range corpusGames {
		coll.WriteString(g.sgf)
		ends = append(ends, coll.Len())
		coll.WriteString("\n")
	}
	full := coll.String()
	bk = booktest.NewBook(t, game.Connect6())
	empty := bookState(t, bk)
	accepted := 0
	for n := 0; n <= len(full); n++ {
		prefix := full[:n]
		_, err := ImportSGF(ctx, bk, prefix)
		if err != nil {
			if after := bookState(t, bk); after != empty {
				t.Fatalf("refused prefix %q changed the book", prefix)
			}
			continue
		}
		whole := 0
		for whole < len(ends) && ends[whole] <= n {
			whole++
		}
		if whole == 0 || n > ends[whole-1]+1 {
			t.Fatalf("accepted the truncated collection %q", prefix)
		}
		wantExact(t, bk, corpusGames[:whole])
		accepted++
		bk = booktest.NewBook(t, game.Connect6())
	}
	// Each game's end, with or without the newline after it.
	if accepted != 2*len(corpusGames) {
		t.Fatalf("%d prefixes accepted, want the %d that end after a game", accepted, 2*len(corpusGames))
	}
}
