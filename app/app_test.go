package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"c6book"
	"c6book/autopilot"
	"c6book/bookfile"
	"c6book/engine/board"
	"c6book/engine/game"
	sgfpkg "c6book/engine/sgf"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/internal/testenv"
	"c6book/proofbook"
	"c6book/service"
	"c6book/session"
	"c6book/ui"
)

// small is the rule set of the whole-window test: the verifier answers in
// milliseconds there.
var small = game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}

// testApp starts the real application wiring (proof book, engine verifier,
// menus, preferences) on the headless test driver. Background results come
// back through a queue the test drains.
type testApp struct {
	t     *testing.T
	wa    *workbenchApp
	queue chan func()
}

func startApp(t *testing.T, a fyne.App, o options) *testApp {
	t.Helper()
	o.localVerifier = true // fast: no verifier queue (queue_test.go tests it)
	return startAppQueue(t, a, o)
}

// startAppQueue is startApp with the verifier queue unless o says otherwise.
func startAppQueue(t *testing.T, a fyne.App, o options) *testApp {
	t.Helper()
	if o.attacker == "" {
		o.attacker = "B"
	}
	if o.lambda == 0 {
		o.lambda = 2
	}
	ta := &testApp{t: t, queue: make(chan func(), 1000)}
	o.do = func(f func()) { ta.queue <- f }
	o.inline = true
	wa, err := newWorkbenchApp(context.Background(), a, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(wa.close)
	ta.wa = wa
	wa.win.Resize(fyne.NewSize(1280, 860))
	return ta
}

func (ta *testApp) tap(names ...string) {
	b := ta.wa.wb.BoardWidget()
	for _, n := range names {
		s, err := game.ParseSquare(ta.wa.bk.Rules(), n)
		if err != nil {
			ta.t.Fatal(err)
		}
		test.TapAt(b, b.PointOf(s))
	}
}

// pumpUntil runs queued calls until cond holds (what names it).
func (ta *testApp) pumpUntil(what string, cond func() bool) {
	ta.t.Helper()
	for !cond() { // however long it takes: go test's -timeout is the guard
		(<-ta.queue)()
	}
}

func (ta *testApp) line() string {
	line, cur := ta.wa.wb.Cursor().Line()
	return game.FormatTurns(ta.wa.bk.Rules(), line[:cur])
}

func moveNames(r game.Rules, ms []game.Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = game.MoveName(r, m)
	}
	sort.Strings(out)
	return out
}

// The whole window on a real, temporary book: play an opening by taps, run
// the verifier, see the verdict and the unsolved defender moves appear as
// stored children, navigate to one; reopen the book and find it all there.
func TestWholeWindowRealBook(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir) // the test app's storage root
	path := filepath.Join(dir, "small.c6book")
	bk, err := proofbook.Create(context.Background(), path, small)
	if err != nil {
		t.Fatal(err)
	}
	bk.Close()

	a := test.NewTempApp(t)
	ta := startApp(t, a, options{book: path})
	wb := ta.wa.wb
	ta.tap("e4", "c5", "g5")
	// The engine proposes attacker moves (Black to move here).
	wb.Prover().Suggest()
	ta.pumpUntil("candidates", func() bool { return !wb.Prover().Suggesting() })
	if len(candidates(wb)) == 0 {
		t.Fatal("no candidates")
	}
	for _, c := range candidates(wb) {
		if err := wb.Cursor().Position().Check(c.Move, false); err != nil {
			t.Fatalf("candidate %s: %v", game.MoveName(small, c.Move), err)
		}
	}
	ta.tap("d3", "g4")
	if got := ta.line(); got != "e4 c5g5 d3g4" {
		t.Fatalf("opening: %q", got)
	}

	// What the verifier says on its own, for comparison.
	b, _ := board.ReplayText(small, "e4 c5g5 d3g4")
	want, err := verify.Verify(context.Background(), b, verify.VerifyOptions{Lambda: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want.Status != verify.StatusOpen || len(want.Unsolved) == 0 {
		t.Fatalf("test position should be open with unsolved moves: %s, %d", want.Status, len(want.Unsolved))
	}
	var wantMoves []game.Move
	for _, u := range want.Unsolved {
		wantMoves = append(wantMoves, u.Move)
	}

	wb.Prover().Verify()
	if !wb.Prover().Running() {
		t.Fatal("verify did not start")
	}
	ta.pumpUntil("the verdict", func() bool { return !wb.Prover().Running() })
	v := wb.Cursor().Verdict()
	if v == nil || v.Proved() {
		t.Fatalf("verdict %+v", v)
	}
	if got, exp := moveNames(small, v.Items()), moveNames(small, wantMoves); len(got) != len(exp) || got[0] != exp[0] || got[len(got)-1] != exp[len(exp)-1] {
		t.Fatalf("unsolved %v, verifier says %v", got, exp)
	}
	if wb.Cursor().Info().Status != c6book.StatusOpen {
		t.Fatalf("status of the verified position: %v", wb.Cursor().Info().Status)
	}
	var kids []game.Move
	for _, c := range wb.Cursor().Children() {
		kids = append(kids, c.Move)
	}
	if got, exp := moveNames(small, kids), moveNames(small, wantMoves); len(got) != len(exp) {
		t.Fatalf("children %v, unsolved %v", got, exp)
	} else {
		for i := range got {
			if got[i] != exp[i] {
				t.Fatalf("children %v, unsolved %v", got, exp)
			}
		}
	}
	if len(wb.BoardWidget().View().Unsolved) != len(wantMoves) {
		t.Fatal("the board does not mark the unsolved moves")
	}

	// Navigate to one unsolved move.
	target := v.Unsolved[len(v.Unsolved)-1].Move
	wb.Cursor().PlayMove(target)
	if got := ta.line(); got != "e4 c5g5 d3g4 "+game.MoveName(small, target) {
		t.Fatalf("after choosing an unsolved move: %q", got)
	}
	if !wb.Cursor().Info().Found {
		t.Fatal("the unsolved move's position is not in the book")
	}
	// The title follows the position.
	if title := ta.wa.win.Title(); !strings.Contains(title, "small.c6book") || !strings.Contains(title, ta.line()) {
		t.Fatalf("title %q", title)
	}

	// The mirror image of the line is the same book position: its verdict
	// and children come back mirrored, and labels put there show on the
	// mirrored squares of the original line.
	mirror := mustTurns(t, "e4 c5g5 c4f3")
	wb.Cursor().GoToLine(mirror)
	if !wb.Cursor().Info().Found || wb.Cursor().Verdict() == nil {
		t.Fatal("the mirrored position is not found in the book")
	}
	var mirrored []game.Move
	for _, m := range v.Items() {
		mirrored = append(mirrored, mirrorMove(m))
	}
	if got, exp := moveNames(small, wb.Cursor().Verdict().Items()), moveNames(small, mirrored); strings.Join(got, " ") != strings.Join(exp, " ") {
		t.Fatalf("mirrored unsolved %v, want %v", got, exp)
	}
	wb.SetMarking(true)
	ta.tap("b8", "h2")
	wb.SetMarking(false)
	wb.Cursor().GoToLine(mustTurns(t, "e4 c5g5 d3g4"))
	marks := wb.BoardWidget().View().Marks
	if len(marks) != 2 || marks[sq(t, "h8")] != "A" || marks[sq(t, "b2")] != "B" {
		t.Fatalf("marks seen from the original line: %v", marks)
	}
	// Undo of a new move removes it from the book.
	n := len(wb.Cursor().Children())
	ta.tap("a9", "i9")
	if wb.History().CanUndo() != "add a9i9" {
		t.Fatalf("CanUndo %q", wb.History().CanUndo())
	}
	wb.History().Undo()
	if got := ta.line(); got != "e4 c5g5 d3g4" || len(wb.Cursor().Children()) != n {
		t.Fatalf("after undo: line %q, %d children (want %d)", got, len(wb.Cursor().Children()), n)
	}
	// The expert's disproof is stored and shown.
	wb.History().ToggleDisproved()
	if wb.Cursor().Info().Status != c6book.StatusDisproved {
		t.Fatalf("status after marking disproved: %v", wb.Cursor().Info().Status)
	}
	wb.History().ToggleDisproved()
	if wb.Cursor().Info().Status != 1 /* open again */ {
		t.Fatalf("status after clearing disproved: %v", wb.Cursor().Info().Status)
	}

	// Reopen the book from disk: the verdict and the children are there.
	ta.wa.close()
	bk2, err := proofbook.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer bk2.Close()
	id, _, err := bk2.Locate(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	p, err := bk2.Position(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if p.Verdict == nil || len(p.Verdict.Unsolved) != len(wantMoves) {
		t.Fatalf("stored verdict %+v", p.Verdict)
	}
	ch, err := bk2.Children(context.Background(), id)
	if err != nil || len(ch) != len(wantMoves) {
		t.Fatalf("stored children: %d, %v", len(ch), err)
	}
}

// Start-up: the default book is created on first start, the last book is
// reopened next time, and a file that is not a book is refused with a
// dialog while the open book stays.
func TestStartupBooks(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	a := test.NewTempApp(t)

	ta := startApp(t, a, options{})
	def := filepath.Join(dir, defaultName)
	if ta.wa.bk.Path() != def {
		t.Fatalf("first start opened %s, want the default %s", ta.wa.bk.Path(), def)
	}
	if _, err := os.Stat(def); err != nil {
		t.Fatalf("default book not created: %v", err)
	}
	if ta.wa.bk.Rules() != game.Connect6() {
		t.Fatalf("default book rules %v", ta.wa.bk.Rules())
	}
	ta.wa.close()

	other := filepath.Join(dir, "other.c6book")
	ta = startApp(t, a, options{book: other})
	ta.tap("j10")
	ta.wa.close()

	ta = startApp(t, a, options{}) // no --book: the last one
	if ta.wa.bk.Path() != other {
		t.Fatalf("second start opened %s, want the last book %s", ta.wa.bk.Path(), other)
	}
	if got := len(ta.wa.wb.Cursor().Children()); got != 1 {
		t.Fatalf("the last book has %d moves at the root, want 1", got)
	}
	if r := a.Preferences().StringList(prefRecent); len(r) != 2 || r[0] != other || r[1] != def {
		t.Fatalf("recent books %v", r)
	}

	// A foreign file: an error dialog, nothing changed.
	junk := filepath.Join(dir, "junk.c6book")
	if err := os.WriteFile(junk, []byte("this is not a database, just text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ta.wa.openPath(junk)
	if ta.wa.bk.Path() != other {
		t.Fatalf("after a failed open the book is %s", ta.wa.bk.Path())
	}
	if ta.wa.win.Canvas().Overlays().Top() == nil {
		t.Fatal("no error dialog for a foreign file")
	}
	data, _ := os.ReadFile(junk)
	if string(data) != "this is not a database, just text\n" {
		t.Fatal("the foreign file was modified")
	}
	// The menu offers the recent books.
	menu := ta.wa.win.MainMenu()
	if menu == nil || len(menu.Items) == 0 || menu.Items[0].Label != "File" {
		t.Fatal("no File menu")
	}
	var recent *fyne.MenuItem
	for _, it := range menu.Items[0].Items {
		if it.Label == "Recent books" {
			recent = it
		}
	}
	if recent == nil || recent.ChildMenu == nil || len(recent.ChildMenu.Items) != 2 {
		t.Fatal("Recent books menu missing or wrong")
	}
}

func TestParseFlags(t *testing.T) {
	o, err := parseFlags([]string{"--book", "x.c6book", "--screenshot", "s.png", "--quit-after", "--lambda", "3"}, os.Stderr)
	if err != nil || o.book != "x.c6book" || o.screenshot != "s.png" || !o.quitAfter || o.lambda != 3 {
		t.Fatalf("%+v %v", o, err)
	}
	if o, err := parseFlags([]string{"--bench-keys", "10", "--bench-profile", "p.out"}, os.Stderr); err != nil || o.benchKeys != 10 || o.benchProf != "p.out" {
		t.Fatalf("bench flags: %+v %v", o, err)
	}
	for _, bad := range [][]string{{"--lambda", "4"}, {"--attacker", "X"}, {"stray"}, {"--replies", "games:3"}, {"--replies", "some"}, {"--bench-profile", "p.out"}} {
		if _, err := parseFlags(bad, &nopWriter{}); err == nil {
			t.Fatalf("%v accepted", bad)
		}
	}
}

type nopWriter struct{}

func (*nopWriter) Write(p []byte) (int, error) { return len(p), nil }

func sq(t *testing.T, name string) game.Square {
	t.Helper()
	s, err := game.ParseSquare(small, name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustTurns(t *testing.T, text string) []game.Move {
	t.Helper()
	ms, err := game.ParseTurns(small, text)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

// mirrorMove reflects a move of the small board left to right.
func mirrorMove(m game.Move) game.Move {
	var sqs []game.Square
	for i := 0; i < m.Len(); i++ {
		x, y := small.XY(m.At(i))
		sqs = append(sqs, small.Sq(small.M-1-x, y))
	}
	return game.NewMove(sqs...)
}

// The board exports as a PNG drawn offscreen at a fixed size.
func TestExportBoardPNG(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	a := test.NewTempApp(t)
	ta := startApp(t, a, options{book: filepath.Join(dir, "b.c6book"), play: "j10 k10k11 i9l12"})
	var buf bytes.Buffer
	if err := ta.wa.writeBoardPNG(&buf, true); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != exportSide || img.Bounds().Dy() != exportSide {
		t.Fatalf("exported %v", img.Bounds())
	}
	if blank(img) {
		t.Fatal("exported image is blank")
	}
	// The stone on j10 is black, k10 white (centre pixels).
	r := ta.wa.bk.Rules()
	v := ta.wa.wb.BoardWidget().View()
	board := ui.NewBoard(v.Pos)
	board.Resize(fyne.NewSize(exportSide, exportSide))
	for name, dark := range map[string]bool{"j10": true, "k10": false, "a1": false} {
		s, _ := game.ParseSquare(r, name)
		p := board.PointOf(s)
		cr, cg, cb, _ := img.At(int(p.X)+6, int(p.Y)+14).RGBA() // off the grid lines and the move number
		if lum := (cr + cg + cb) / 3 >> 8; (lum < 80) != dark {
			t.Errorf("%s: luminance %d, want dark=%v", name, lum, dark)
		}
	}
}

// Imports run off the UI goroutine and reload the shown line; a bad file
// shows an error and changes nothing.
func TestImports(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	a := test.NewTempApp(t)
	ta := startApp(t, a, options{book: filepath.Join(dir, "b.c6book")})
	wb := ta.wa.wb
	r := ta.wa.bk.Rules()

	games := filepath.Join(dir, "games.json")
	if err := os.WriteFile(games, []byte(`{"7": ["j10", "i9k11", "j11j12"], "8": ["j10", "h8h9"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ta.tap("j10")
	ta.wa.importGamesFile(games)
	ta.pumpUntil("the games import", func() bool { return ta.wa.busy() == 0 })
	if got := ta.line(); got != "j10" {
		t.Fatalf("the import lost the line: %q", got)
	}
	if n := len(wb.Cursor().Children()); n != 2 {
		t.Fatalf("after importing games: %d replies to j10, want 2", n)
	}
	if ta.wa.win.Canvas().Overlays().Top() == nil {
		t.Fatal("no report after the import")
	}
	clearOverlays(ta.wa.win)

	turns, _ := game.ParseTurns(r, "j10 l12m13 k9k8")
	ta.wa.importSGFData([]byte(sgfpkg.GameToSGF(r, turns)), false)
	ta.pumpUntil("the SGF import", func() bool { return ta.wa.busy() == 0 })
	if n := len(wb.Cursor().Children()); n != 3 {
		t.Fatalf("after importing an SGF: %d replies to j10, want 3", n)
	}

	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"1": ["j10", "j10j11"`), 0o644); err != nil {
		t.Fatal(err)
	}
	clearOverlays(ta.wa.win)
	ta.wa.importGamesFile(bad)
	ta.pumpUntil("the bad import", func() bool { return ta.wa.busy() == 0 })
	if n := len(wb.Cursor().Children()); n != 3 {
		t.Fatalf("a bad file changed the book: %d replies", n)
	}
	if ta.wa.win.Canvas().Overlays().Top() == nil {
		t.Fatal("no error dialog for a bad games file")
	}
	// A good game followed by data after the object: the file is refused
	// whole, the game is not stored (the app shares the CLI's checks).
	if err := os.WriteFile(bad, []byte(`{"2": ["j10", "a1b1"]} {"3": ["j10"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	clearOverlays(ta.wa.win)
	ta.wa.importGamesFile(bad)
	ta.pumpUntil("the refused import", func() bool { return ta.wa.busy() == 0 })
	if n := len(wb.Cursor().Children()); n != 3 {
		t.Fatalf("a refused file changed the book: %d replies", n)
	}
	if ta.wa.win.Canvas().Overlays().Top() == nil {
		t.Fatal("no error dialog for a refused games file")
	}

	// A proof line with a null move (W[]) is refused by Import SGF and
	// read by Import SGF with proof lines (as c6 book import --partial).
	line := "(;FF[4]SZ[19];B[j10];W[];B[a1a2])"
	clearOverlays(ta.wa.win)
	ta.wa.importSGFData([]byte(line), false)
	ta.pumpUntil("the strict SGF import", func() bool { return ta.wa.busy() == 0 })
	if n := len(wb.Cursor().Children()); n != 3 {
		t.Fatalf("a refused proof line changed the book: %d replies to j10, want 3", n)
	}
	if ta.wa.win.Canvas().Overlays().Top() == nil {
		t.Fatal("no error dialog for a proof line imported as games")
	}
	clearOverlays(ta.wa.win)
	ta.wa.importSGFData([]byte(line), true)
	ta.pumpUntil("the proof-line import", func() bool { return ta.wa.busy() == 0 })
	if n := len(wb.Cursor().Children()); n != 4 {
		t.Fatalf("after importing a proof line: %d replies to j10, want 4 (the null move)", n)
	}
}

// File → Check book re-checks the proofs off the UI goroutine and reports;
// a tampered proof is reported as an error naming the broken line.
func TestCheckBookMenu(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	a := test.NewTempApp(t)
	ta := startApp(t, a, options{book: filepath.Join(dir, "b.c6book")})
	games := filepath.Join(dir, "games.json")
	// A game that ends in a six: its last positions are proved.
	if err := os.WriteFile(games, []byte(`{"7": ["j10", "a1b1", "j11j12", "a2b2", "j13j14", "a3b3", "j15j16"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ta.wa.importGamesFile(games)
	ta.pumpUntil("the games import", func() bool { return ta.wa.busy() == 0 })
	clearOverlays(ta.wa.win)
	report := func() string {
		var texts []string
		for _, o := range ta.wa.win.Canvas().Overlays().List() {
			for _, l := range test.LaidOutObjects(o) {
				switch w := l.(type) {
				case *widget.Label:
					texts = append(texts, w.Text)
				case *widget.RichText:
					texts = append(texts, w.String())
				}
			}
		}
		return strings.Join(texts, "\n")
	}
	ta.wa.checkBook()
	ta.pumpUntil("the check", func() bool { return ta.wa.busy() == 0 })
	if got := report(); !strings.Contains(got, "proofs re-checked") || !strings.Contains(got, "sound") {
		t.Fatalf("check report: %q", got)
	}
	clearOverlays(ta.wa.win)
	// Forge a zone: the check must say where the proof breaks.
	db, err := sql.Open("sqlite3", "file:"+ta.wa.bk.Path()+"?_busy_timeout=10000")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if res, err := db.Exec("UPDATE status SET zone = x'' WHERE status = 2 AND how = 'move'"); err != nil {
		t.Fatal(err)
	} else if n, _ := res.RowsAffected(); n == 0 {
		t.Fatal("no proof by a move to forge")
	}
	ta.wa.checkBook()
	ta.pumpUntil("the second check", func() bool { return ta.wa.busy() == 0 })
	if got := report(); !strings.Contains(got, "problems; the first: position") || !strings.Contains(got, "zone") {
		t.Fatalf("check report on a forged proof: %q", got)
	}
}

func clearOverlays(w fyne.Window) {
	for o := w.Canvas().Overlays().Top(); o != nil; o = w.Canvas().Overlays().Top() {
		w.Canvas().Overlays().Remove(o)
	}
}

// Save a copy gives a book that opens with the same content; the SGF export
// of a position reads back as a game through it.
func TestSaveCopyAndExportSGF(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	a := test.NewTempApp(t)
	ta := startApp(t, a, options{book: filepath.Join(dir, "b.c6book"), play: "j10 k10k11 i9l12"})
	ta.wa.wb.Notes().Save("a comment to keep", "joseki")

	cp := filepath.Join(dir, "copy.c6book")
	ta.wa.saveCopyTo(cp)
	ta.pumpUntil("the copy", func() bool { return ta.wa.busy() == 0 })
	bk, err := proofbook.Open(context.Background(), cp)
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	hits, err := bk.Search(context.Background(), "keep", 10)
	if err != nil || len(hits) != 1 || hits[0].Label != "joseki" {
		t.Fatalf("copy: search %v, %v", hits, err)
	}

	line, cur := ta.wa.wb.Cursor().Line()
	data, _, err := exportSGFData(context.Background(), ta.wa.bk, ta.wa.wb.Cursor().Position(), line[:cur], func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	roots, err := sgfpkg.ParseSGF(string(data))
	if err != nil || len(roots) != 1 {
		t.Fatalf("exported SGF does not parse: %v", err)
	}
	_, turns, err := sgfpkg.GameFromSGF(roots[0], game.Connect6())
	if err != nil {
		t.Fatal(err)
	}
	// The export follows the line on the board, not the book's frame.
	if got := game.FormatTurns(game.Connect6(), turns); got != "j10 k10k11 i9l12" {
		t.Fatalf("exported main line %q, want the shown line j10 k10k11 i9l12", got)
	}
}

// The Solved browser lists real proofs, not the game ends an import marks
// proved, and opens them.
func TestSolvedBrowser(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	a := test.NewTempApp(t)
	ta := startApp(t, a, options{book: filepath.Join(dir, "b.c6book")})
	wb := ta.wa.wb
	games := filepath.Join(dir, "games.json")
	if err := os.WriteFile(games, []byte(`{"1": ["j10", "a1a2", "j11j12", "a4a5", "j13j14", "a7a8", "j15k15"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ta.wa.importGamesFile(games)
	ta.pumpUntil("the import", func() bool { return ta.wa.busy() == 0 })
	wb.LoadSolved()
	if es := wb.Solved(); len(es) != 0 {
		t.Fatalf("game ends listed as solved: %+v", es)
	}
	// Order 0 asked for: the win at once and the game's end.
	wb.SetSolvedMinOrder(0)
	ta.pumpUntil("the order-0 list", func() bool { return len(wb.Solved()) == 2 })
	wb.SetSolvedMinOrder(1)
	ta.pumpUntil("the default list", func() bool { return len(wb.Solved()) == 0 })
	line := "j10 a1a3 j11j12 a5a7 j13k13"
	turns, _ := game.ParseTurns(game.Connect6(), line)
	wb.Cursor().GoToLine(turns)
	if !wb.Cursor().Info().Found {
		// not stored yet: play it in
		wb.Cursor().Home()
		for _, m := range turns {
			wb.Cursor().PlayMove(m)
		}
	}
	wb.Prover().Verify()
	ta.pumpUntil("the verdict", func() bool { return !wb.Prover().Running() })
	if v := wb.Cursor().Verdict(); v == nil || !v.Proved() {
		t.Fatalf("verdict %+v", wb.Cursor().Verdict())
	}
	wb.LoadSolved()
	es := wb.Solved()
	if len(es) == 0 {
		t.Fatal("the proved position is not listed")
	}
	want, _ := wb.Cursor().Position().CanonicalKey()
	wb.Cursor().Home()
	found := false
	for _, e := range es {
		wb.Cursor().OpenEntry(e)
		if k, _ := wb.Cursor().Position().CanonicalKey(); k == want {
			found = true
		}
		if wb.Cursor().Info().Status != c6book.StatusProved {
			t.Fatalf("listed position %v is %v", e, wb.Cursor().Info().Status)
		}
	}
	if !found {
		t.Fatalf("the verified position is not among %d solved entries", len(es))
	}
}

// findLabel returns the text of the first label under root that starts
// with prefix ("" when none).
func findLabel(root fyne.CanvasObject, prefix string) string {
	var found string
	walkObjects(root, func(o fyne.CanvasObject) bool {
		if l, ok := o.(*widget.Label); ok && strings.HasPrefix(l.Text, prefix) {
			found = l.Text
		}
		return found == ""
	})
	return found
}

// walkObjects visits root and the objects under it (containers' and
// widgets' rendered objects), depth first, while visit returns true.
func walkObjects(root fyne.CanvasObject, visit func(fyne.CanvasObject) bool) {
	more := true
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if !more {
			return
		}
		if more = visit(o); !more {
			return
		}
		switch c := o.(type) {
		case *fyne.Container:
			for _, k := range c.Objects {
				walk(k)
			}
		case fyne.Widget:
			for _, k := range test.WidgetRenderer(c).Objects() {
				walk(k)
			}
		}
	}
	walk(root)
}

// A read-only book: "read-only" in the title and the status bar, imports
// and editing disabled, moves played on the board not stored, and the file
// left as it was. (Opened with the read-only option, which is what a
// read-only file or folder gives, so that the test means something as
// root, where permission bits do not apply.)
func TestReadOnlyBookWindow(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	path := filepath.Join(dir, "ro.c6book")
	bk, err := proofbook.Create(ctx, path, small)
	if err != nil {
		t.Fatal(err)
	}
	l, err := bk.AddLine(ctx, mustTurns(t, "e5 d4f6"))
	if err != nil {
		t.Fatal(err)
	}
	if err := bk.SetComment(ctx, l.IDs[1], "stored"); err != nil {
		t.Fatal(err)
	}
	bk.Close()
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	a := test.NewTempApp(t)
	ta := startApp(t, a, options{book: filepath.Join(dir, "other.c6book")})
	ro, err := proofbook.OpenWith(ctx, path, proofbook.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	ta.wa.switchTo(service.Wrap(ro))
	wb := ta.wa.wb
	if title := ta.wa.win.Title(); !strings.Contains(title, "ro.c6book") || !strings.Contains(title, "read-only") {
		t.Fatalf("title %q", title)
	}
	if st := findLabel(wb.Content(), "Read-only"); !strings.Contains(st, "opened read-only") {
		t.Fatalf("status bar %q", st)
	}
	for _, it := range ta.wa.win.MainMenu().Items[0].Items {
		if strings.HasPrefix(it.Label, "Import") && !it.Disabled {
			t.Fatalf("menu item %q enabled on a read-only book", it.Label)
		}
	}
	// Browsing works: the stored line and its comment.
	ta.tap("e5")
	if wb.Cursor().Info().Comment != "stored" {
		t.Fatalf("comment %q", wb.Cursor().Info().Comment)
	}
	// A new move is shown, not stored; editing is refused with a dialog.
	ta.tap("a1", "b1")
	if ta.line() != "e5 a1b1" || wb.Cursor().Info().Found {
		t.Fatalf("line %q, found %v", ta.line(), wb.Cursor().Info().Found)
	}
	clearOverlays(ta.wa.win)
	wb.Cursor().GoToLine(mustTurns(t, "e5"))
	wb.Notes().Save("changed", "label")
	wb.History().ToggleDisproved()
	wb.Prover().Verify()
	if wb.Prover().Running() {
		t.Fatal("Verify started on a read-only book")
	}
	if ta.wa.win.Canvas().Overlays().Top() == nil {
		t.Fatal("no dialog for an edit of a read-only book")
	}
	ta.wa.close()
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Fatal("the read-only book's file changed")
	}
	if _, err := os.Stat(path + "-wal"); err == nil {
		t.Fatal("a WAL file was created beside the read-only book")
	}
}

// The workbench shows what a stored verdict still leaves to prove (the
// book's open items), and says when a verdict has no certificate.
func TestStoredVerdictShowsOpenItems(t *testing.T) {
	ctx := context.Background()
	r, _ := game.ParseRules("9,9,5,2,1")
	bk, err := proofbook.Create(ctx, filepath.Join(t.TempDir(), "v.c6book"), r)
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	st := newStore(bk, threat.Limits{})
	turns, _ := game.ParseTurns(r, "e5 e4e6 d5d4")
	l, err := bk.AddLine(ctx, turns)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := board.Replay(r, turns)
	v, err := verify.Verify(ctx, b, verify.VerifyOptions{Lambda: 2, Workers: 1, Limits: threat.Limits{MaxNodes: 20000}}, nil)
	if err != nil || v.Status != verify.StatusOpen || len(v.Unsolved) == 0 {
		t.Fatalf("want an open verdict: %s %v", v.Status, err)
	}
	_, sym := b.CanonicalKey()
	id := l.IDs[len(l.IDs)-1]
	if _, err := bk.StoreVerdict(ctx, id, c6book.FromEngine(r, sym, v, 2)); err != nil {
		t.Fatal(err)
	}
	items, err := bk.Items(ctx, id, game.Black)
	if err != nil {
		t.Fatal(err)
	}
	p, err := st.Position(ctx, b, game.Black)
	if err != nil || p.Verdict == nil {
		t.Fatalf("position: %+v %v", p, err)
	}
	if len(p.Verdict.Unsolved)+len(p.Verdict.OpenSeminull) != len(items) || len(items) == 0 {
		t.Fatalf("shown %d unsolved + %d seminull, the book has %d open items", len(p.Verdict.Unsolved), len(p.Verdict.OpenSeminull), len(items))
	}
	for _, m := range p.Verdict.Items() {
		if err := b.Check(m, m.Len() < r.P); err != nil {
			t.Fatalf("shown item %s is not a legal move of the shown board: %v", game.MoveName(r, m), err)
		}
	}
	// A verdict stored without a certificate says so.
	if _, err := bk.StoreVerdict(ctx, id, c6book.Verdict{Attacker: game.Black, Status: c6book.StatusOpen, Lambda: 2, AllUnsolved: true}); err != nil {
		t.Fatal(err)
	}
	p, err = st.Position(ctx, b, game.Black)
	if err != nil || p.Verdict == nil || !strings.Contains(p.Verdict.Note, "re-verify") {
		t.Fatalf("a verdict without a certificate: %+v %v", p.Verdict, err)
	}
}

// The workbench's verifier runs in one frame: a position and its images
// under every symmetry give the same verdict, mapped.
func TestVerifierOrientationIndependent(t *testing.T) {
	r, _ := game.ParseRules("9,9,5,2,1")
	b, err := board.ReplayText(r, "e5 e4e6 d5d4")
	if err != nil {
		t.Fatal(err)
	}
	ev := engineVerifier{limits: threat.Limits{MaxNodes: 20000}, workers: 1}
	key := func(v c6book.Verdict, sym int) string {
		var out []string
		for _, m := range v.Items() {
			out = append(out, game.MoveName(r, r.TransformMove(game.InverseSymmetry(sym), m)))
		}
		sort.Strings(out)
		return fmt.Sprint(v.Proved(), v.AllUnsolved, out)
	}
	var want string
	for sym := 0; sym < r.SymmetryCount(); sym++ {
		v, err := ev.Verify(context.Background(), b.Transformed(sym), 2, func(session.Progress) {})
		if err != nil {
			t.Fatal(err)
		}
		got := key(v, sym)
		if sym == 0 {
			if len(v.Unsolved) == 0 {
				t.Fatal("the sample verdict has no unsolved moves")
			}
			want = got
		} else if got != want {
			t.Fatalf("symmetry %d: %s, the original %s", sym, got, want)
		}
	}
}

// File → Export SGF runs as a job: progress in a dialog with Cancel, the
// board usable meanwhile; then the save dialog. Cancel stops it without an
// error.
func TestExportSGFJob(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	path := filepath.Join(dir, "wide.c6book")
	bk, err := proofbook.Create(context.Background(), path, game.Connect6())
	if err != nil {
		t.Fatal(err)
	}
	// 1500 replies to j10: enough for progress reports (every 1000 moves).
	r := game.Connect6()
	var sgf strings.Builder
	first := r.Sq(2, 5) // no symmetry keeps it: every reply is a position of its own
	fmt.Fprintf(&sgf, "(;FF[4]SZ[19];B[%s]", sgfpkg.SGFMoveValue(r, game.NewMove(first)))
	n := 0
	for _, off := range [][2]int{{7, 3}, {1, 2}, {3, 1}, {5, 5}, {2, 7}} {
		for q := 0; q < r.Squares() && n < 1500; q++ {
			a, c := r.XY(game.Square(q))
			x, y := game.Square(q), r.Sq((a+off[0])%19, (c+off[1])%19)
			if x == y || x == first || y == first {
				continue
			}
			fmt.Fprintf(&sgf, "(;W[%s])", sgfpkg.SGFMoveValue(r, game.NewMove(x, y)))
			n++
		}
	}
	sgf.WriteString(")")
	if _, err := bookfile.ImportSGF(context.Background(), bk, sgf.String()); err != nil {
		t.Fatal(err)
	}
	bk.Close()

	a := test.NewTempApp(t)
	ta := startApp(t, a, options{book: path})
	texts := func() string {
		var out []string
		for _, o := range ta.wa.win.Canvas().Overlays().List() {
			for _, l := range test.LaidOutObjects(o) {
				if w, ok := l.(*widget.Label); ok {
					out = append(out, w.Text)
				}
			}
		}
		return strings.Join(out, "\n")
	}

	ta.wa.exportSGF()
	if ta.wa.busy() != 1 || ta.wa.win.Canvas().Overlays().Top() == nil {
		t.Fatal("the export did not start as a job with a progress dialog")
	}
	// The board stays usable while the export runs.
	ta.wa.win.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyRight})
	if _, cur := ta.wa.wb.Cursor().Line(); cur != 1 || len(ta.wa.wb.Cursor().Children()) != n {
		t.Fatalf("navigation during the export: line %q, %d replies", ta.line(), len(ta.wa.wb.Cursor().Children()))
	}
	sawProgress := false
	ta.pumpUntil("the export", func() bool {
		sawProgress = sawProgress || strings.Contains(texts(), "1000 moves exported")
		return ta.wa.busy() == 0
	})
	if !sawProgress {
		t.Fatal("no progress shown")
	}
	if ta.wa.win.Canvas().Overlays().Top() == nil {
		t.Fatal("no save dialog after the export")
	}
	clearOverlays(ta.wa.win)

	// Cancel: the job stops, nothing is reported as an error.
	ta.wa.wb.Cursor().Home()
	ta.wa.exportSGF()
	for _, j := range ta.wa.wb.Session().Jobs() {
		j.Cancel()
	}
	ta.pumpUntil("the cancelled export", func() bool { return ta.wa.busy() == 0 })
	if got := texts(); strings.Contains(got, "context canceled") {
		t.Fatalf("a cancelled export reports %q", got)
	}
}

// After the book's proofs were changed outside the program the workbench's
// store says so (the status bar's warning) and shows no proof as proved:
// the position, its replies, the Solved list; check makes them proved
// again.
func TestStoreShowsUncheckedProofs(t *testing.T) {
	testenv.Heavy(t)
	ctx := context.Background()
	bk, st, path := smallBook(t, "u.c6book")
	r := bk.Rules()
	d4, _ := board.ReplayText(r, "d4")
	turns, _ := game.ParseTurns(r, "d4")
	l, err := bk.AddLine(ctx, turns)
	if err != nil {
		t.Fatal(err)
	}
	id, root := l.IDs[1], board.MustNewBoard(r)
	res, err := autopilot.Prove(ctx, bk, id, verify.LocalVerifier{}, autopilot.ProveOptions{Attacker: game.Black, Jobs: 1,
		Verify: verify.VerifyOptions{Lambda: 3, Workers: 1, Limits: threat.Limits{MaxNodes: 3000}}}, nil)
	if err != nil || res.Status != "proved" {
		t.Fatalf("prove: %s %v", res.Status, err)
	}
	shown := func() (session.Position, []session.Child, []session.Entry) {
		t.Helper()
		p, err := st.Position(ctx, d4, game.Black)
		if err != nil {
			t.Fatal(err)
		}
		kids, err := st.Children(ctx, root, game.Black)
		if err != nil {
			t.Fatal(err)
		}
		solved, err := st.Proved(ctx, game.Black, 1, 100)
		if err != nil {
			t.Fatal(err)
		}
		return p, kids, solved
	}
	p, kids, solved := shown()
	if p.Warning != "" || p.Status != c6book.StatusProved || len(kids) != 1 || kids[0].Status != c6book.StatusProved || len(solved) == 0 {
		t.Fatalf("before: %+v %+v %d solved", p, kids, len(solved))
	}
	db, err := sql.Open("sqlite3", "file:"+path+"?_busy_timeout=10000")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("UPDATE verdict SET engine = engine || ' (by hand)' WHERE pos = ?", int64(id)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	p, kids, solved = shown()
	if p.Warning != proofbook.UncheckedNote || p.Status != c6book.StatusUnchecked || kids[0].Status != c6book.StatusUnchecked {
		t.Fatalf("after an outside change: %+v %+v", p, kids)
	}
	for _, e := range solved {
		if e.Status != c6book.StatusUnchecked {
			t.Fatalf("Solved list entry %+v", e)
		}
	}
	if rep, err := bk.Check(ctx); err != nil || !rep.OK() || !rep.Recorded {
		t.Fatalf("check: %+v %v", rep, err)
	}
	if p, kids, _ = shown(); p.Warning != "" || p.Status != c6book.StatusProved || kids[0].Status != c6book.StatusProved {
		t.Fatalf("after check: %+v %+v", p, kids)
	}
}

// candidates are the engine's proposals for the shown position (none when
// none were asked for it).
func candidates(wb *ui.Workbench) []session.Candidate {
	cs, _ := wb.Prover().Candidates()
	return cs
}
