package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/proofbook"
	"c6book/service"
)

// browseBook is a temporary Connect6 book with four games: j10 j9k9 l10l11
// twice (one of them longer), the same opening in another orientation (a
// transposition of the first by symmetry) and j10 k11k12 once.
func browseBook(t *testing.T) (*testApp, []game.Move) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	ta := startApp(t, test.NewTempApp(t), options{book: filepath.Join(dir, "b.c6book")})
	r := ta.wa.bk.Rules()
	main, _ := game.ParseTurns(r, "j10 j9k9 l10l11 a1a2")
	other := symTurns(r, 3, main)
	games := fmt.Sprintf(`{"1": ["j10", "j9k9", "l10l11"], "2": ["j10", "j9k9", "l10l11", "a1a2"], "3": [%s], "4": ["j10", "k11k12"]}`,
		quoted(r, other))
	path := filepath.Join(dir, "games.json")
	if err := os.WriteFile(path, []byte(games), 0o644); err != nil {
		t.Fatal(err)
	}
	ta.wa.importGamesFile(path)
	ta.pumpUntil("the import", func() bool { return ta.wa.busy() == 0 })
	clearOverlays(ta.wa.win)
	return ta, other
}

func symTurns(r game.Rules, sym int, ms []game.Move) []game.Move {
	out := make([]game.Move, len(ms))
	for i, m := range ms {
		out[i] = r.TransformMove(sym, m)
	}
	return out
}

func quoted(r game.Rules, ms []game.Move) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = `"` + game.MoveName(r, m) + `"`
	}
	return strings.Join(parts, ", ")
}

// Replies are listed most played first with their games and Black's win
// rate, and → follows the most played one.
func TestRepliesMostPlayedFirst(t *testing.T) {
	ta, _ := browseBook(t)
	wb := ta.wa.wb
	r := ta.wa.bk.Rules()
	ta.tap("j10")
	kids := wb.Cursor().Children()
	if len(kids) != 2 {
		t.Fatalf("%d replies to j10, want 2", len(kids))
	}
	if kids[0].Games.Games != 3 || kids[1].Games.Games != 1 {
		t.Fatalf("replies %+v, want the 3-game reply first", kids)
	}
	// Its row: letter A, the move, 3 games, none won by six in a row (no
	// rate: none decided).
	if got := findLabel(wb.Content(), "A  "+game.MoveName(r, kids[0].Move)+" "); !strings.Contains(got, "     3    0    0      unknown") {
		t.Fatalf("replies row %q, want its 3 games by result", got)
	}
	// The stats line: the games through the position by result (the
	// store's counts).
	if got, want := findLabel(wb.Content(), "This position: "), "This position: 4 games · B 0 · W 0 · 4 undecided\n"; got != want {
		t.Fatalf("stats line %q, want %q", got, want)
	}
	wb.Cursor().Forward()
	if k, _ := wb.Cursor().Position().CanonicalKey(); true {
		b, _ := board.Replay(r, mustC6(t, "j10 j9k9"))
		if want, _ := b.CanonicalKey(); k != want {
			t.Fatalf("→ went to %s, not the most played reply", ta.line())
		}
	}
}

func mustC6(t *testing.T, text string) []game.Move {
	t.Helper()
	ms, err := game.ParseTurns(game.Connect6(), text)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

// The games through a position, and one of them opened in the orientation
// of the user's line, continuing it.
func TestGamesOpenInLineOrientation(t *testing.T) {
	ta, other := browseBook(t)
	wb := ta.wa.wb
	r := ta.wa.bk.Rules()
	wb.Cursor().GoToLine(other[:2]) // the opening as game 3 played it
	var games []c6book.GameInfo
	var total int64
	wb.Session().Cursor().LoadGames(0, 10, func(gs []c6book.GameInfo, n int64) { games, total = gs, n })
	if total != 3 || len(games) != 3 {
		t.Fatalf("%d games (total %d) through j10 j9k9, want 3", len(games), total)
	}
	gid, err := ta.wa.bk.Proofbook().FindGame(context.Background(), "littlegolem", "2")
	if err != nil {
		t.Fatal(err)
	}
	wb.Session().Cursor().OpenGame(gid)
	line, cur := wb.Cursor().Line()
	if cur != 2 || game.FormatTurns(r, line) != game.FormatTurns(r, other) {
		t.Fatalf("game 2 opened as %s (cursor %d), want %s in the user's orientation",
			game.FormatTurns(r, line), cur, game.FormatTurns(r, other))
	}
	wb.Cursor().End()
	if wb.Cursor().Position().Stones(game.Black)+wb.Cursor().Position().Stones(game.White) != 7 {
		t.Fatal("cannot step to the game's end")
	}
}

// Search hits and Next open in the user's orientation when the user's line
// meets them, else in the stable one, with the short line and the status.
func TestEntriesOpenInRightOrientation(t *testing.T) {
	ta, other := browseBook(t)
	wb := ta.wa.wb
	bk := ta.wa.bk.Proofbook()
	r := bk.Rules()
	ctx := context.Background()
	b, _ := board.Replay(r, mustC6(t, "j10 j9k9 l10l11"))
	id, _, err := bk.Locate(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	if err := bk.SetComment(ctx, id, "the key idea"); err != nil {
		t.Fatal(err)
	}
	if err := bk.SetDisproved(ctx, id, game.Black, true); err != nil {
		t.Fatal(err)
	}
	wb.Search("key")
	es := wb.SearchResults()
	if len(es) != 1 {
		t.Fatalf("%d hits", len(es))
	}
	if es[0].Status != c6book.StatusDisproved || !strings.HasPrefix(es[0].Short, "1. j10 2. j9k9 3. l10l11") {
		t.Fatalf("hit %+v: want disproved, short line from the root", es[0])
	}
	// From the root: the stable orientation (game 1's).
	wb.Cursor().OpenEntry(es[0])
	if got := ta.line(); got != "j10 j9k9 l10l11" {
		t.Fatalf("opened from the root as %q", got)
	}
	if wb.Cursor().Info().Status != c6book.StatusDisproved {
		t.Fatalf("status %v", wb.Cursor().Info().Status)
	}
	// From the other orientation's line: that orientation.
	wb.Cursor().GoToLine(other[:2])
	wb.Cursor().OpenEntry(es[0])
	if got, want := ta.line(), game.FormatTurns(r, other[:3]); got != want {
		t.Fatalf("opened from the mirrored line as %q, want %q", got, want)
	}

	// Next works below the shown position and keeps its orientation.
	if err := bk.SetDisproved(ctx, id, game.Black, false); err != nil {
		t.Fatal(err)
	}
	wb.Cursor().GoToLine(other[:2])
	wb.Cursor().Next()
	if got, want := ta.line(), game.FormatTurns(r, other[:3]); got != want {
		t.Fatalf("Next from %s went to %q, want %q", game.FormatTurns(r, other[:2]), got, want)
	}
}

// A cancelled import says how many games it stored, and that is what the
// book holds.
func TestImportCancelReportsStored(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	ta := startApp(t, test.NewTempApp(t), options{book: filepath.Join(dir, "b.c6book")})
	path := filepath.Join(dir, "games.json")
	if err := os.WriteFile(path, []byte(gamesJSON(3000)), 0o644); err != nil {
		t.Fatal(err)
	}
	ta.wa.importGamesFile(path)
	jobs := ta.wa.wb.Session().Jobs()
	if len(jobs) != 1 {
		t.Fatalf("%d jobs", len(jobs))
	}
	// Cancel once the file is checked and the import writes (its first
	// report), not while it reads the file.
	ta.pumpUntil("the import's first report", func() bool {
		return strings.Contains(jobs[0].Progress().Text, "games committed") || ta.wa.busy() == 0
	})
	jobs[0].Cancel()
	ta.pumpUntil("the import", func() bool { return ta.wa.busy() == 0 })
	st, err := ta.wa.bk.Proofbook().Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	top := ta.wa.win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("no report after the cancelled import")
	}
	got := findLabel(top, "Import")
	cancelled := fmt.Sprintf("Import cancelled: %d of the file's", st.Games)
	finished := fmt.Sprintf("Imported %d games", st.Games)
	if !strings.HasPrefix(got, cancelled) && !strings.HasPrefix(got, finished) {
		t.Fatalf("report %q; the book holds %d games", got, st.Games)
	}
	t.Logf("%s", got)
}

// gamesJSON is a LittleGolem games file of n two-turn Connect6 games.
func gamesJSON(n int) string {
	var sb strings.Builder
	sb.WriteString("{")
	cols := "abcdefghijklmnopqrs"
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteString(", ")
		}
		x, y := cols[i%19], 1+(i/19)%19
		fmt.Fprintf(&sb, `"%d": ["j10", "%c%d%c%d"]`, i+1, x, y, cols[(i/361+i+3)%19], 1+(i/19+5)%19)
	}
	sb.WriteString("}")
	return sb.String()
}

func TestImportProgressText(t *testing.T) {
	p := proofbook.ImportProgress{Total: 37336, Done: 1200, Stored: 1100, Already: 90, Skipped: 10}
	if got := importProgressText(p); got != "1200 / 37336 games committed: 1100 stored, 90 already in the book, 10 skipped" {
		t.Fatal(got)
	}
	if got := importCancelledText(service.Kept{Total: p.Total, Stored: p.Stored, Already: p.Already, Skipped: p.Skipped}); !strings.HasPrefix(got, "Import cancelled: 1100 of the file's 37336 games were stored") {
		t.Fatal(got)
	}
	if got := importCancelledText(service.Kept{}); got != "Import cancelled while the file was read: nothing was stored." {
		t.Fatal(got)
	}
}

// A game opened from the games through a position keeps its record's
// stone order: imported as "h12k11", its line prints h12k11 (the board
// order is k11h12), also where the user's line is its mirror image; the
// Replies list names the game's next move as the line does.
func TestGameOpensInRecordOrder(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	ta := startApp(t, test.NewTempApp(t), options{book: filepath.Join(dir, "b.c6book")})
	path := filepath.Join(dir, "games.json")
	if err := os.WriteFile(path, []byte(`{"1": ["j10", "h12k11", "j12j11"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ta.wa.importGamesFile(path)
	ta.pumpUntil("the import", func() bool { return ta.wa.busy() == 0 })
	clearOverlays(ta.wa.win)
	wb := ta.wa.wb
	gid, err := ta.wa.bk.Proofbook().FindGame(context.Background(), "littlegolem", "1")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ at, want string }{
		{"j10", "h12k11"},
		{"j10 l12i11", "l12i11"}, // the mirror image, a↔s
	} {
		wb.Cursor().Home()
		wb.Cursor().GoToLine(mustC6(t, c.at))
		ta.pumpUntil("the position", func() bool { return ta.wa.busy() == 0 })
		wb.Session().Cursor().OpenGame(gid)
		ta.pumpUntil("the game", func() bool { return ta.wa.busy() == 0 })
		line, _ := wb.Cursor().Line()
		if len(line) != 3 || wb.Cursor().LineMoveText(1) != c.want || wb.Cursor().LineMoveText(2) != "j12j11" {
			t.Fatalf("from %s the game opened as %s", c.at, ta.line())
		}
		if got := findLabel(wb.Content(), "2. W "); !strings.HasPrefix(got, "2. W "+c.want) {
			t.Fatalf("from %s the Line row %q, want 2. W %s", c.at, got, c.want)
		}
		// The Replies row of the game's third move names it so too (j12j11,
		// its own mirror image; board order j11j12).
		wb.Cursor().GoToPly(2)
		ta.pumpUntil("the position", func() bool { return ta.wa.busy() == 0 })
		if got := findLabel(wb.Content(), "A  "); !strings.HasPrefix(got, "A  j12j11 ") {
			t.Fatalf("from %s the Replies row %q, want A  j12j11", c.at, got)
		}
	}
}
