package bookfile

import (
	"bytes"
	"c6book/internal/booktest"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	sgfpkg "c6book/engine/sgf"
	"c6book/proofbook"
)

const sampleSGF = `(;FF[4]GM[1]SZ[19]PB[alice]PW[bob]C[a LittleGolem game]
;B[j10]C[centre opening]
;W[j11k10]
(;B[l11m9]N[joseki]C[the main line]LB[k12:A][l12:B]CR[m12]
;W[k12l12])
(;B[h8h9]TR[i9];W[];B[g7g8]))
(;FF[4]SZ[19]
;B[jj];W[jiki];B[kkll]C[letter coordinates])
`

// importPartial imports SGF text holding proof lines (null and seminull
// moves, as sampleSGF and the exports of such books do).
func importPartial(ctx context.Context, bk *Book, data string) (ImportStats, error) {
	return ImportSGFReader(ctx, bk, strings.NewReader(data), SGFImportOptions{Partial: true})
}

// bookState is everything an import may change, for equality checks.
func bookState(t *testing.T, bk *Book) string {
	t.Helper()
	ctx := context.Background()
	var sb strings.Builder
	for _, q := range []string{
		"SELECT id, key, hex(stones), to_move FROM position ORDER BY id",
		"SELECT parent, move, child FROM edge ORDER BY parent, move",
		"SELECT pos, comment, label, marks, updated_at FROM note ORDER BY pos",
		"SELECT pos, attacker, status, ord, pn, dn FROM status ORDER BY pos, attacker",
		"SELECT source, ext_id, leaf, nturns, result, hex(turns), rebuilt FROM game ORDER BY source, ext_id",
		"SELECT id, games, bwins, wwins FROM position ORDER BY id",
		"SELECT pos, game FROM game_pos ORDER BY pos, game",
	} {
		rows, err := readDB(t, bk).QueryContext(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for _, v := range vals {
				switch x := v.(type) {
				case []byte:
					sb.Write(x)
				default:
					fmt.Fprint(&sb, x)
				}
				sb.WriteByte('|')
			}
			sb.WriteByte('\n')
		}
		rows.Close()
	}
	return sb.String()
}

func TestSGFImportExport(t *testing.T) {
	ctx := context.Background()
	bk := booktest.NewBook(t, game.Connect6())
	r := bk.Rules()
	st, err := importPartial(ctx, bk, sampleSGF)
	if err != nil {
		t.Fatal(err)
	}
	if st.Games != 2 {
		t.Fatalf("games %d", st.Games)
	}
	main, _ := booktest.Locate(t, bk, "j10 j11k10 l11m9")
	p, err := bk.Position(ctx, main)
	if err != nil {
		t.Fatal(err)
	}
	if p.Comment != "the main line" || p.Label != "joseki" || len(p.Marks) != 3 {
		t.Fatalf("main line note: %+v", p)
	}
	// Letter coordinates: jj is j10, ji/ki are j11/k11 (row a at the top).
	letters, _ := booktest.Locate(t, bk, "j10 j11k11 k9l8")
	if p, _ := bk.Position(ctx, letters); p.Comment != "letter coordinates" {
		t.Fatalf("letter-coordinate game: %+v", p)
	}
	// The null move of the variation is an edge.
	b, _ := board.ReplayText(r, "j10 j11k10 h8h9")
	if err := b.PlayPartial(game.Move{}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := bk.Locate(ctx, b); err != nil {
		t.Fatalf("null move not stored: %v", err)
	}
	booktest.MustCheck(t, bk)

	// Importing again changes nothing at all.
	before := bookState(t, bk)
	if _, err := importPartial(ctx, bk, sampleSGF); err != nil {
		t.Fatal(err)
	}
	if after := bookState(t, bk); after != before {
		t.Fatalf("re-import changed the book:\n%s\n---\n%s", before, after)
	}

	// Export from the root, import into a new book: the same tree and notes.
	// (A verdict without a certificate proves nothing: the status is open.)
	if _, err := bk.StoreVerdict(ctx, main, c6book.Verdict{Attacker: game.Black, Status: c6book.StatusProved, Order: 2, Lambda: 2}); err != nil {
		t.Fatal(err)
	}
	root, _ := bk.Root(ctx)
	var out bytes.Buffer
	// A plain export leaves the proof line's null move out.
	if _, err := ExportSGF(ctx, bk, root, &out, ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "W[]") {
		t.Fatalf("a plain export holds a proof line's null move:\n%s", out.String())
	}
	out.Reset()
	if _, err := ExportSGF(ctx, bk, root, &out, ExportOptions{ProofLines: true}); err != nil {
		t.Fatal(err)
	}
	sgf := out.String()
	for _, want := range []string{"C[the main line]", "N[joseki]", "XS[B:open:0]", "RU[19,19,6,2,1]", "W[]"} {
		if !strings.Contains(sgf, want) {
			t.Fatalf("export lacks %s:\n%s", want, sgf)
		}
	}
	bk2 := booktest.NewBook(t, game.Connect6())
	if _, err := importPartial(ctx, bk2, sgf); err != nil {
		t.Fatalf("re-import of the export: %v\n%s", err, sgf)
	}
	s1, _ := bk.Stats(ctx)
	s2, _ := bk2.Stats(ctx)
	if s1.Positions != s2.Positions || s1.Edges != s2.Edges || s1.Notes != s2.Notes {
		t.Fatalf("round trip: %+v vs %+v", s1, s2)
	}
	id2, _ := booktest.Locate(t, bk2, "j10 j11k10 l11m9")
	p2, err := bk2.Position(ctx, id2)
	if err != nil {
		t.Fatal(err)
	}
	if p2.Comment != p.Comment || p2.Label != p.Label || len(p2.Marks) != len(p.Marks) {
		t.Fatalf("round trip note: %+v vs %+v", p2, p)
	}
	// A subtree export starts with the line to it.
	out.Reset()
	if _, err := ExportSGF(ctx, bk, main, &out, ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	roots, err := sgfpkg.ParseSGF(out.String())
	if err != nil {
		t.Fatal(err)
	}
	_, line, err := sgfpkg.GameFromSGF(roots[0], r)
	if err != nil {
		t.Fatal(err)
	}
	// The main line reaches the exported position (in the frame of the
	// stored moves: the first replies to the symmetric j10 are stored as
	// one representative) and continues with its child.
	if len(line) != 4 {
		t.Fatalf("subtree export main line %q", game.FormatTurns(r, line))
	}
	eb, err := board.Replay(r, line[:3])
	if err != nil {
		t.Fatal(err)
	}
	if id, _, err := bk.Locate(ctx, eb); err != nil || id != main {
		t.Fatalf("subtree export line %q leads to %d (%v), want %d", game.FormatTurns(r, line), id, err, main)
	}
}

func TestSGFErrorsWriteNothing(t *testing.T) {
	ctx := context.Background()
	bk := booktest.NewBook(t, game.Connect6())
	if _, err := importPartial(ctx, bk, sampleSGF); err != nil {
		t.Fatal(err)
	}
	before := bookState(t, bk)
	for _, bad := range []string{
		"",
		"(;FF[4]SZ[19];B[j10];W[j11k10]",  // unterminated
		"(;FF[4]SZ[19];B[j10];W[j10k10])", // occupied
		"(;FF[4]SZ[19];B[j10];B[k10k11])", // wrong colour
		"(;FF[4]SZ[19];B[j10]C[new comment];W[k10k11];B[z99])",     // off the board, after good moves
		"(;FF[4]SZ[13];B[g7])",                                     // other rules
		"(;FF[4]SZ[19];B[j10]LB[zz:x])",                            // bad mark
		"(;FF[4]SZ[19];B[a1];W[b1c1])(;FF[4]SZ[19];B[j10];W[j10])", // second game bad
		"(;FF[4]SZ[19]AB[jj];W[j11k10])",                           // set-up stones
	} {
		if _, err := ImportSGF(ctx, bk, bad); err == nil {
			t.Fatalf("accepted %q", bad)
		}
		if after := bookState(t, bk); after != before {
			t.Fatalf("failed import of %q changed the book", bad)
		}
	}
}

// FuzzImportSGF: whatever the input, strict or as proof lines (Partial),
// the import gives a one-line error and leaves the book unchanged, or
// keeps the book sound (Check), never panics, and reads within the limits.
func FuzzImportSGF(f *testing.F) {
	for _, s := range []string{sampleSGF, "(;B[j10])", "(;FF[4]SZ[19];B[j10];W[j11k10](;B[a1b1])(;B[])", "(;SZ[7]RU[7,7,4,2,1];B[d4])", "((;))", "(;B[j10]LB[jj:x]CR[aa][bb])",
		"(;FF[4]SZ[19];B[];W[j11k10])", "(;FF[4]SZ[19];B[ ];W[j11k10])", "(;FF[4]SZ[19];B[j10];W[j11])", "(;FF[4]SZ[19];B[A1])",
		"(;FF[4]SZ[19]PB[a];B[j10];W[j11](;B[a1a2];W[])(;B[c3]))", "(;FF[4]SZ[19];B[j10];W[];B[k10k11];W[];B[])",
		"(;FF[4]RU[9,9,4,2,2]SZ[9];B[e5];W[];B[a1])", "(;FF[4]SZ[19];B[j10]C[x\n]N[y];W[j11k10]XT[1]GB[2]XS[B:open:0])"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	bk := booktest.NewBook(f, game.Connect6())
	lim := sgfpkg.SGFLimits{MaxBytes: 1 << 16, MaxNodeBytes: 1 << 12, MaxDepth: 64}
	f.Fuzz(func(t *testing.T, data string, partial bool) {
		ctx := context.Background()
		before := bookState(t, bk)
		if _, err := ImportSGFReader(ctx, bk, strings.NewReader(data), SGFImportOptions{Partial: partial, Limits: lim}); err != nil {
			if msg := err.Error(); strings.ContainsAny(msg, "\n\r") || len(msg) > 600 {
				t.Fatalf("error for %q is not one short line: %q", data, msg)
			}
			if after := bookState(t, bk); after != before {
				t.Fatalf("failed import of %q changed the book", data)
			}
			return
		}
		rep, err := bk.Check(ctx)
		if err != nil || !rep.OK() {
			t.Fatalf("after importing %q (partial %v): %v %v", data, partial, err, rep.Problems)
		}
	})
}

// An export given the user's line follows its orientation, the subtree
// included, whichever symmetric line was stored first.
func TestExportFollowsLine(t *testing.T) {
	ctx := context.Background()
	bk := booktest.NewBook(t, game.Connect6())
	r := bk.Rules()
	stored := booktest.Turns(t, r, "j10 k11k9 l10h12 m11m12")
	id := booktest.Add(t, bk, "j10 k11k9 l10h12")
	booktest.Add(t, bk, "j10 k11k9 l10h12 m11m12")
	for sym := 1; sym < 8; sym++ {
		var seen []game.Move
		for _, m := range stored {
			seen = append(seen, r.TransformMove(sym, m))
		}
		var out bytes.Buffer
		if _, err := ExportSGF(ctx, bk, id, &out, ExportOptions{Line: seen[:3]}); err != nil {
			t.Fatalf("symmetry %d: %v", sym, err)
		}
		roots, err := sgfpkg.ParseSGF(out.String())
		if err != nil {
			t.Fatal(err)
		}
		_, line, err := sgfpkg.GameFromSGF(roots[0], r)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := game.FormatTurns(r, line), game.FormatTurns(r, seen); got != want {
			t.Fatalf("symmetry %d: exported %q, want %q (the line as seen, then its child in the same frame)", sym, got, want)
		}
	}
	// A transposed line through positions not in the book still exports,
	// as given.
	deep := booktest.Add(t, bk, "j10 k11k9 l10h12 m11m12 n10n11")
	var out bytes.Buffer
	if _, err := ExportSGF(ctx, bk, deep, &out, ExportOptions{Line: booktest.Turns(t, r, "j10 m11m12 l10h12 k11k9 n10n11")}); err != nil {
		t.Fatalf("transposed line: %v", err)
	}
	roots, err := sgfpkg.ParseSGF(out.String())
	if err != nil {
		t.Fatal(err)
	}
	if _, line, err := sgfpkg.GameFromSGF(roots[0], r); err != nil || game.FormatTurns(r, line) != game.FormatTurns(r, booktest.Turns(t, r, "j10 m11m12 l10h12 k11k9 n10n11")) {
		t.Fatalf("transposed line not followed: %q %v", game.FormatTurns(r, line), err)
	}
	// A line to another position, or to a position not in the book.
	if _, err := ExportSGF(ctx, bk, id, io.Discard, ExportOptions{Line: stored[:2]}); err == nil {
		t.Fatal("a line to another position was accepted")
	}
	if _, err := ExportSGF(ctx, bk, id, io.Discard, ExportOptions{Line: booktest.Turns(t, r, "j10 a1a2")}); !errors.Is(err, proofbook.ErrNotFound) {
		t.Fatalf("a line not in the book: %v", err)
	}
}

// MaxNodes bounds an export (0: no limit, negative: an error); a cut export
// says so in its root's game comment, which an import does not take as a
// note.
func TestExportMaxNodes(t *testing.T) {
	ctx := context.Background()
	bk := booktest.NewBook(t, game.Connect6())
	if _, err := importPartial(ctx, bk, sampleSGF); err != nil {
		t.Fatal(err)
	}
	root, _ := bk.Root(ctx)
	all, err := bk.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	count := func(sgf string) int { return sgfTurns(t, sgf) }
	var out bytes.Buffer
	st, err := ExportSGF(ctx, bk, root, &out, ExportOptions{ProofLines: true})
	if err != nil || st.Truncated || int64(st.Nodes) != all.Edges || count(out.String()) != st.Nodes || strings.Contains(out.String(), "GC[") {
		t.Fatalf("unlimited export: %+v %v, %d moves in the book\n%s", st, err, all.Edges, out.String())
	}
	out.Reset()
	st, err = ExportSGF(ctx, bk, root, &out, ExportOptions{MaxNodes: 3, ProofLines: true})
	if err != nil || !st.Truncated || st.Nodes != 3 || count(out.String()) != 3 || !strings.Contains(out.String(), "GC[c6book: export truncated at 3 moves") {
		t.Fatalf("export of 3 nodes: %+v %v\n%s", st, err, out.String())
	}
	// Importing the cut export into the book changes nothing.
	before := bookState(t, bk)
	if _, err := importPartial(ctx, bk, out.String()); err != nil {
		t.Fatal(err)
	}
	if bookState(t, bk) != before {
		t.Fatal("re-importing a cut export changed the book")
	}
	out.Reset()
	st, err = ExportSGF(ctx, bk, root, &out, ExportOptions{MaxNodes: int(all.Edges), ProofLines: true})
	if err != nil || st.Truncated {
		t.Fatalf("export of exactly every move: %+v %v", st, err)
	}
	for _, o := range []ExportOptions{{MaxNodes: -1}, {MaxDepth: -1}} {
		out.Reset()
		if _, err := ExportSGF(ctx, bk, root, &out, o); err == nil || out.Len() != 0 {
			t.Fatalf("%+v: %v, wrote %d bytes", o, err, out.Len())
		}
	}
}
