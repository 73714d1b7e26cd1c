package bookfile

import (
	"bytes"
	"c6book/internal/booktest"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
	sgfpkg "c6book/engine/sgf"
)

// sgfTurns counts the turns of an SGF text written one stone per node:
// the move nodes whose parent is not a move node of the same colour (a
// turn's second stone follows its first).
func sgfTurns(t *testing.T, sgf string) int {
	t.Helper()
	roots, err := sgfpkg.ParseSGF(sgf)
	if err != nil {
		t.Fatalf("%v\n%s", err, sgf)
	}
	n := 0
	var walk func(nd *sgfpkg.SGFNode, parent string)
	walk = func(nd *sgfpkg.SGFNode, parent string) {
		c := ""
		for _, p := range nd.Props {
			if p.ID == "B" || p.ID == "W" {
				c = p.ID
			}
		}
		if c != "" && c != parent {
			n++
		}
		for _, k := range nd.Children {
			walk(k, c)
		}
	}
	for _, r := range roots {
		walk(r, "")
	}
	return n
}

// moveValue matches the value of a B or W property: one SGF point (two
// lower-case letters) or the null move's empty value.
var moveValue = regexp.MustCompile(`;([BW])\[([^\]]*)\]`)

// The game-tree export writes every move as SGF points, one stone per
// node (no turn notation such as B[j10] or W[j11k10]), its labels and
// marks in the same points, no proof line's null or seminull move; an
// import of it gives the same tree and notes (round trip), and so does an
// import of the export written the old way (turn notation), which earlier
// versions wrote.
func TestExportSGFPointsRoundTrip(t *testing.T) {
	ctx := context.Background()
	r := game.Connect6()
	bk := booktest.NewBook(t, r)
	if _, err := importPartial(ctx, bk, sampleSGF); err != nil {
		t.Fatal(err)
	}
	// A seminull proof line below the main line: not in a plain export.
	pl := booktest.Turns(t, r, "j10 j11k10 l11m9")
	pl = append(pl, game.NewMove(r.Sq(0, 0)))
	if _, err := bk.AddProofLine(ctx, pl); err != nil {
		t.Fatal(err)
	}
	root, _ := bk.Root(ctx)
	var out bytes.Buffer
	st, err := ExportSGF(ctx, bk, root, &out, ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sgf := out.String()
	for _, m := range moveValue.FindAllStringSubmatch(sgf, -1) {
		if len(m[2]) != 2 || m[2][0] < 'a' || m[2][0] > 's' || m[2][1] < 'a' || m[2][1] > 's' {
			t.Fatalf("move %s[%s] is not one SGF point:\n%s", m[1], m[2], sgf)
		}
	}
	if strings.Contains(sgf, "[aa]") || strings.Contains(sgf, "W[]") {
		t.Fatalf("a plain export holds a proof line's move:\n%s", sgf)
	}
	if !strings.Contains(sgf, ";B[jj]") || !regexp.MustCompile(`LB\[[a-s]{2}:A\]`).MatchString(sgf) {
		t.Fatalf("export lacks B[jj] or a label at an SGF point:\n%s", sgf)
	}
	// In the orientation of the user's line: j11k10 is W[kj];W[ji]
	// (stones in the board's order), the label A the sample put on k12 is
	// LB[kh:A] and the circle on m12 CR[mh] (row a at the top: row 12 is
	// 7 letters down, h).
	var user bytes.Buffer
	main0, _ := booktest.Locate(t, bk, "j10 j11k10 l11m9")
	if _, err := ExportSGF(ctx, bk, main0, &user, ExportOptions{Line: booktest.Turns(t, r, "j10 j11k10 l11m9")}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{";W[kj];W[ji];B[mk];B[li]C[the main line]", "LB[kh:A]", "CR[mh]"} {
		if !strings.Contains(user.String(), want) {
			t.Fatalf("export along the user's line lacks %s:\n%s", want, user.String())
		}
	}
	if got := sgfTurns(t, sgf); got != st.Nodes {
		t.Fatalf("%d turns written, the export says %d", got, st.Nodes)
	}
	fresh := booktest.NewBook(t, r)
	if _, err := ImportSGF(ctx, fresh, sgf); err != nil {
		t.Fatalf("a plain export does not import without Partial: %v\n%s", err, sgf)
	}
	// The same tree of full turns, the same notes, in the same frame.
	// (The sample without its proof line: the null move and below.)
	plain := strings.Replace(sampleSGF, "(;B[h8h9]TR[i9];W[];B[g7g8])", "(;B[h8h9]TR[i9])", 1)
	// (And its marks in the order the export writes them: shapes, then
	// labels.)
	plain = strings.Replace(plain, "LB[k12:A][l12:B]CR[m12]", "CR[m12]LB[k12:A][l12:B]", 1)
	if !strings.Contains(plain, "(;B[h8h9]TR[i9])") || !strings.Contains(plain, "CR[m12]LB") {
		t.Fatal("the sample changed: no proof line to leave out, or other marks")
	}
	full := booktest.NewBook(t, r)
	if _, err := ImportSGF(ctx, full, plain); err != nil {
		t.Fatal(err)
	}
	if a, b := treeState(t, full), treeState(t, fresh); a != b {
		t.Fatalf("the round trip changed the tree:\n%s\n---\n%s", a, b)
	}
	main, _ := booktest.Locate(t, fresh, "j10 j11k10 l11m9")
	p, err := fresh.Position(ctx, main)
	if err != nil {
		t.Fatal(err)
	}
	if p.Comment != "the main line" || p.Label != "joseki" || len(p.Marks) != 3 {
		t.Fatalf("round trip note: %+v", p)
	}
}

// A file in the format of the Connect6 editors (GM[511]; one stone per
// node; upper-case points, column A at the left, row A at the bottom; a
// variation repeating its turn's first stone or branching between a
// turn's two stones) imports as the same positions as its LittleGolem
// transcription; testdata/editor.sgf was written for this test from the
// convention (sgf.SGFStoneProps), not copied from a program's output.
func TestImportConnect6EditorSGF(t *testing.T) {
	ctx := context.Background()
	r := game.Connect6()
	data, err := os.ReadFile(filepath.Join("testdata", "editor.sgf"))
	if err != nil {
		t.Fatal(err)
	}
	bk := booktest.NewBook(t, r)
	st, err := ImportSGF(ctx, bk, string(data))
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	lg := booktest.NewBook(t, r)
	if _, err := ImportSGF(ctx, lg, `(;FF[4]SZ[19]
;B[j10]C[the first stone]
(;W[k11i11];B[j12l11]C[the first of two

a comment on the second stone];W[i12i10])
(;W[k11k10];B[l9l10])
(;W[i9i11];B[h10h8]))`); err != nil {
		t.Fatal(err)
	}
	if a, b := treeState(t, bk), treeState(t, lg); a != b {
		t.Fatalf("the editor's file and its LittleGolem transcription differ:\n%s\n---\n%s", a, b)
	}
	id, _ := booktest.Locate(t, bk, "j10 k11i11 j12l11")
	if p, _ := bk.Position(ctx, id); p.Comment != "the first of two\n\na comment on the second stone" {
		t.Fatalf("the comments of a turn's two nodes: %q", p.Comment)
	}
	if st.Positions == 0 {
		t.Fatal("nothing imported")
	}
}

// A turn written one stone per node that the game tree ends before
// completing is a short turn: refused without Partial (naming its first
// node), a seminull move with it.
func TestImportOneStoneShortTurn(t *testing.T) {
	ctx := context.Background()
	r := game.Connect6()
	bk := booktest.NewBook(t, r)
	const in = "(;FF[4]SZ[19];B[jj];W[kj];W[ki](;B[ll];B[mm])(;B[aa]))"
	before := bookState(t, bk)
	_, err := ImportSGF(ctx, bk, in)
	if err == nil || !strings.Contains(err.Error(), "node 7 (byte") || !strings.Contains(err.Error(), "1 of the 2 stones") {
		t.Fatalf("a lone stone at a tree's end: %v", err)
	}
	if bookState(t, bk) != before {
		t.Fatal("a refused import changed the book")
	}
	if _, err := importPartial(ctx, bk, in); err != nil {
		t.Fatal(err)
	}
	nb, err := board.ReplayText(r, "j10 k10k11")
	if err != nil {
		t.Fatal(err)
	}
	if err := nb.PlayPartial(game.NewMove(r.Sq(0, 18))); err != nil { // aa: row a at the top
		t.Fatal(err)
	}
	if _, _, err := bk.Locate(ctx, nb); err != nil {
		t.Fatalf("Black's seminull a19 not stored: %v", err)
	}
}

// An export written by earlier versions (turn notation in B and W, a
// seminull proof node W[e3] in the game tree, labels in SGF points) still
// imports, with Partial, as those versions meant it.
func TestImportEarlierExport(t *testing.T) {
	ctx := context.Background()
	r := game.Connect6()
	bk := booktest.NewBook(t, r)
	old := "(;FF[4]SZ[19]RU[19,19,6,2,1]AP[c6book];B[j10]C[centre]\n(;W[j11k10]LB[kh:A]XS[B:open:0];B[l11m9]GB[2])\n(;W[e3];B[k10k11]))\n"
	if _, err := importPartial(ctx, bk, old); err != nil {
		t.Fatal(err)
	}
	id, _ := booktest.Locate(t, bk, "j10 j11k10")
	p, err := bk.Position(ctx, id)
	if err != nil || len(p.Marks) != 1 || p.Marks[0].Text != "A" {
		t.Fatalf("the label: %+v %v", p, err)
	}
	b, _ := board.ReplayText(r, "j10")
	e3, _ := game.ParseMove(r, "e3")
	if err := b.PlayPartial(e3); err != nil {
		t.Fatal(err)
	}
	if err := b.Play(booktest.Turns(t, r, "k10k11")[0]); err != nil {
		t.Fatal(err)
	}
	if _, _, err := bk.Locate(ctx, b); err != nil {
		t.Fatalf("the seminull line: %v", err)
	}
}
