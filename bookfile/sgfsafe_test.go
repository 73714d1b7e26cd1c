package bookfile

import (
	"bytes"
	"c6book/internal/booktest"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/sgf"
)

// What an SGF import must refuse whole (one error naming the node, the
// book unchanged), and what only a proof-line import (Partial) reads:
// passes, blank or non-canonical moves, short turns. Whatever is imported
// passes Check, and a game record with a short turn counts no game.
func TestSGFImportRefuses(t *testing.T) {
	ctx := context.Background()
	bk := booktest.NewBook(t, game.Connect6())
	if _, err := ImportSGF(ctx, bk, "(;FF[4]SZ[19];B[j10];W[j11k10])"); err != nil {
		t.Fatal(err)
	}
	before := bookState(t, bk)
	for _, c := range []struct {
		sgf, want, partialWant string // partialWant "": Partial imports it
	}{
		{"(;FF[4]SZ[19];B[];W[j11k10])", "node 2 (byte 13): B[]: 0 of the 1 stones", "a null move on the empty board"},
		{"(;FF[4]SZ[19];B[ ];W[j11k10])", "node 2 (byte 13): sgf: bad move B[ ]: a blank value", "a blank value"},
		{"(;FF[4]SZ[19];B[\n];W[j11k10])", "a blank value", "a blank value"},
		{"(;FF[4]SZ[19];B[pass];W[j11k10])", "a pass", "a pass"},
		{"(;FF[4]SZ[19];B[A1])", "node 2 (byte 13): sgf: bad move B[A1]", "lower case"},
		{"(;FF[4]SZ[19];B[j10];W[J11K10])", "node 3", "lower case"},
		{"(;FF[4]SZ[19];B[j10];W[j011k10])", "not written canonically", "not written canonically"},
		{"(;FF[4]SZ[19];B[j10];W[j11])", "node 3 (byte 20): W[j11]: 1 of the 2 stones the turn places", ""},
		{"(;FF[4]SZ[19];B[j10];W[j11k10](;B[a1])(;B[a2a3]))", "node 4 (byte 31): B[a1]: 1 of the 2 stones", ""},
		{"(;FF[4]SZ[19];B[j10];W[];B[a1a2])", "node 3 (byte 20): W[]: 0 of the 2 stones", ""},
	} {
		_, err := ImportSGF(ctx, bk, c.sgf)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line containing %q", c.sgf, err, c.want)
		}
		if bookState(t, bk) != before {
			t.Fatalf("%s: the refused import changed the book", c.sgf)
		}
		pb := booktest.NewBook(t, game.Connect6())
		pbefore := bookState(t, pb)
		_, err = importPartial(ctx, pb, c.sgf)
		switch {
		case c.partialWant == "" && err != nil:
			t.Errorf("%s with Partial: %v", c.sgf, err)
		case c.partialWant != "" && (err == nil || !strings.Contains(err.Error(), c.partialWant)):
			t.Errorf("%s with Partial: %v, want an error containing %q", c.sgf, err, c.partialWant)
		case err != nil && bookState(t, pb) != pbefore:
			t.Errorf("%s with Partial: the refused import changed the book", c.sgf)
		}
		booktest.MustCheck(t, pb)
	}
	// A game record whose main line holds a seminull move is a proof line,
	// not a game; one whose short turn is only in a variation is a game.
	for sgf, want := range map[string]int{
		"(;FF[4]SZ[19]PB[a]PW[b];B[j10];W[j11];B[a1a2])":                   0,
		"(;FF[4]SZ[19]RE[B+R];B[j10];W[j11k10](;B[a1a2])(;B[a1]))":         1,
		"(;FF[4]SZ[19]RE[B+R];B[j10];W[j11k10](;B[a1];W[b1b2])(;B[a1a2]))": 0,
	} {
		pb := booktest.NewBook(t, game.Connect6())
		st, err := importPartial(ctx, pb, sgf)
		if err != nil || st.Recorded != want {
			t.Errorf("%s: %+v %v, want %d game records", sgf, st, err, want)
		}
		if s, _ := pb.Stats(ctx); s.Games != int64(want) {
			t.Errorf("%s: %d games in the book, want %d", sgf, s.Games, want)
		}
		booktest.MustCheck(t, pb)
	}
	// A null move from the empty board cannot be stored by any path.
	if _, err := booktest.NewBook(t, game.Connect6()).AddProofLine(ctx, []game.Move{{}, booktest.Turns(t, game.Connect6(), "j10 j11k10")[1]}); err == nil {
		t.Fatal("AddProofLine stored a null move from the empty board")
	}
}

// endlessReader hands out prefix, then fill forever.
type endlessReader struct {
	prefix string
	fill   byte
	n      int64
}

func (e *endlessReader) Read(p []byte) (int, error) {
	k := copy(p, e.prefix)
	e.prefix = e.prefix[k:]
	for i := k; i < len(p); i++ {
		p[i] = e.fill
	}
	e.n += int64(len(p))
	return len(p), nil
}

// Inputs over the reader's limits are refused with the book unchanged,
// after reading about as much as the limit: endless zero bytes, an
// endless comment, endless nodes (after good moves), endless nesting.
func TestSGFImportLimits(t *testing.T) {
	ctx := context.Background()
	bk := booktest.NewBook(t, game.Connect6())
	if _, err := ImportSGF(ctx, bk, "(;FF[4]SZ[19];B[j10];W[j11k10])"); err != nil {
		t.Fatal(err)
	}
	before := bookState(t, bk)
	lim := sgf.SGFLimits{MaxBytes: 1 << 20, MaxNodeBytes: 64 << 10, MaxDepth: 100}
	for _, c := range []struct {
		in   *endlessReader
		want string
	}{
		{&endlessReader{fill: 0}, `byte 0: unexpected '\x00'`},
		{&endlessReader{prefix: "(;FF[4]SZ[19];B[j10]C[", fill: 'x'}, "game 1: sgf: node 2, byte 13: node longer than 65536 bytes"},
		{&endlessReader{prefix: "(;FF[4]SZ[19];B[k10];W[k11l10]", fill: ';'}, "larger than 1048576 bytes"},
		{&endlessReader{prefix: "(;FF[4]SZ[19];B[k10]" + strings.Repeat("(;", 200)}, "nested deeper than 100"},
	} {
		_, err := ImportSGFReader(ctx, bk, c.in, SGFImportOptions{Limits: lim, Partial: true})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.30q…: %v, want an error containing %q", c.in.prefix, err, c.want)
		}
		if c.in.n > lim.MaxBytes+1<<17 {
			t.Errorf("%.30q…: read %d bytes, the limit is %d", c.in.prefix, c.in.n, lim.MaxBytes)
		}
		if bookState(t, bk) != before {
			t.Fatalf("%.30q…: the refused import changed the book", c.in.prefix)
		}
	}
	// Marks covering the board again and again are stored once each.
	sgf := "(;FF[4]SZ[19];B[j10]CR" + strings.Repeat("[aa:ss]", 9000) + "LB" + strings.Repeat("[aa:x]", 9000) + ")"
	if _, err := ImportSGFReader(ctx, bk, strings.NewReader(sgf), SGFImportOptions{}); err != nil {
		t.Fatal(err)
	}
	id, _ := booktest.Locate(t, bk, "j10")
	if p, err := bk.Position(ctx, id); err != nil || len(p.Marks) != 19*19+1 {
		t.Fatalf("%d marks (%v), want a circle on every square and one label", len(p.Marks), err)
	}
}

// treeState is a book's tree in canonical terms (position keys, sides to
// move, edges between keys, notes), comparable between books.
func treeState(t *testing.T, bk *Book) string {
	t.Helper()
	ctx := context.Background()
	var out []string
	for _, q := range []string{
		"SELECT 'p', key, hex(stones), to_move, '' FROM position",
		"SELECT 'e', p.key, e.move, c.key, '' FROM edge e JOIN position p ON p.id = e.parent JOIN position c ON c.id = e.child",
		"SELECT 'n', p.key, n.comment, n.label, n.marks FROM note n JOIN position p ON p.id = n.pos",
	} {
		rows, err := readDB(t, bk).QueryContext(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var a, b, c, d, e any
			if err := rows.Scan(&a, &b, &c, &d, &e); err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("%s|%v|%s|%v|%s", a, b, c, d, e))
		}
		rows.Close()
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// A full export imported into a fresh book gives the same positions,
// moves and notes: games with transpositions and symmetric openings,
// proof lines with null and seminull moves, comments, labels and marks.
func TestSGFExportRoundTrip(t *testing.T) {
	ctx := context.Background()
	r := game.Connect6()
	bk := booktest.NewBook(t, r)
	rng := rand.New(rand.NewPCG(22, 4))
	near := func(b *board.Board) game.Square {
		for {
			s := r.Sq(5+rng.IntN(9), 5+rng.IntN(9))
			if b.At(s) == game.Empty {
				return s
			}
		}
	}
	for g := 0; g < 60; g++ {
		b := board.MustNewBoard(r)
		var line []game.Move
		proof := g%5 == 0
		for turn := 0; turn < 2+rng.IntN(7) && b.Winner() == game.Empty; turn++ {
			want := r.StonesForTurn(turn)
			if proof && turn > 0 && rng.IntN(4) == 0 {
				want = rng.IntN(want) // a null or seminull move
			}
			var sq []game.Square
			for len(sq) < want {
				s := near(b)
				b.Place(s, b.ToMove())
				sq = append(sq, s)
			}
			for _, s := range sq {
				b.Remove(s)
			}
			m := game.NewMove(sq...)
			if err := b.PlayPartial(m); err != nil {
				t.Fatal(err)
			}
			line = append(line, m)
		}
		add := bk.AddLine
		if proof {
			add = bk.AddProofLine
		}
		l, err := add(ctx, line)
		if err != nil {
			if proof {
				continue // a null move back to the position before it
			}
			t.Fatal(err)
		}
		// The same game turned and with its first turns swapped.
		if !proof {
			if _, err := bk.AddLine(ctx, []game.Move{r.TransformMove(3, line[0])}); err != nil {
				t.Fatal(err)
			}
		}
		if len(line) >= 4 && !proof {
			sw := append([]game.Move{line[0], line[3], line[2], line[1]}, line[4:]...)
			if _, err := bk.AddLine(ctx, sw); err != nil {
				t.Fatal(err)
			}
		}
		id := l.IDs[len(l.IDs)-1]
		switch g % 3 {
		case 0:
			if err := bk.SetComment(ctx, id, fmt.Sprintf("game %d ] \\ [ comment", g)); err != nil {
				t.Fatal(err)
			}
		case 1:
			if err := bk.SetLabel(ctx, id, fmt.Sprintf("L%d", g)); err != nil {
				t.Fatal(err)
			}
			if err := bk.SetMarks(ctx, id, []Mark{{Square: r.Sq(1, 2), Shape: "circle"}, {Square: r.Sq(3, 3), Text: "A"}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	booktest.MustCheck(t, bk)
	root, _ := bk.Root(ctx)
	var out bytes.Buffer
	st, err := ExportSGF(ctx, bk, root, &out, ExportOptions{ProofLines: true})
	if err != nil || st.Truncated {
		t.Fatal(st, err)
	}
	s, _ := bk.Stats(ctx)
	if int64(st.Nodes) != s.Edges {
		t.Fatalf("exported %d moves, the book holds %d", st.Nodes, s.Edges)
	}
	fresh := booktest.NewBook(t, r)
	if _, err := ImportSGF(ctx, fresh, out.String()); err == nil {
		t.Fatal("an export with null and seminull moves imported without Partial")
	}
	if _, err := importPartial(ctx, fresh, out.String()); err != nil {
		t.Fatalf("importing the export: %v", err)
	}
	if a, b := treeState(t, bk), treeState(t, fresh); a != b {
		t.Fatalf("the round trip changed the tree:\n%s\n---\n%s", a, b)
	}
	booktest.MustCheck(t, fresh)
	// A cut export is valid SGF too, and a subtree of the book.
	out.Reset()
	st, err = ExportSGF(ctx, bk, root, &out, ExportOptions{MaxNodes: 25, ProofLines: true})
	if err != nil || !st.Truncated || st.Nodes != 25 {
		t.Fatal(st, err)
	}
	cut := booktest.NewBook(t, r)
	if _, err := importPartial(ctx, cut, out.String()); err != nil {
		t.Fatal(err)
	}
	if cs, _ := cut.Stats(ctx); cs.Edges != 25 {
		t.Fatalf("a cut export of 25 moves imported as %d", cs.Edges)
	}
	// Writing to a failing writer is an error.
	if _, err := ExportSGF(ctx, bk, root, failWriter{}, ExportOptions{}); err == nil {
		t.Fatal("an export to a failing writer succeeded")
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }
