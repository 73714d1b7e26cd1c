package proofbook

import (
	"context"
	"sort"
	"strings"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
)

func TestImportGames(t *testing.T) {
	ctx := context.Background()
	bk := newBook(t, game.Connect6())
	_, games := synthGames(3, 300, 25)
	games["1"] = []string{"j10", "j11k10", "j10a1"}                                    // occupied square
	games["2"] = []string{"j10", "j11k10", "zz9"}                                      // unreadable move
	games["3"] = []string{"j10", "j11"}                                                // White places one stone
	games["4"] = []string{"j10", "a1b1", "j11j12", "a2b2", "j13j14", "a3b3", "j15j16"} // Black wins
	var commits [][]string
	st, err := bk.importMap(ctx, games, ImportOptions{Batch: 50, OnCommit: func(ids []string) { commits = append(commits, ids) }})
	if err != nil {
		t.Fatal(err)
	}
	if st.Games != 301 || len(st.Skipped) != 3 {
		t.Fatalf("stored %d games, skipped %v", st.Games, st.Skipped)
	}
	reasons := map[string]SkipReason{"1": "plays on an occupied square", "2": "unreadable turn", "3": "wrong number of stones in a turn"}
	for _, e := range st.Skipped {
		if e.ID != "1" && e.ID != "2" && e.ID != "3" {
			t.Fatalf("skipped the good game %s: %v", e.ID, e.Err)
		}
		if !strings.Contains(e.Error(), "game "+e.ID) {
			t.Fatalf("error %q does not name the game", e)
		}
		if e.Reason() != reasons[e.ID] {
			t.Fatalf("game %s skipped for %q, want %q", e.ID, e.Reason(), reasons[e.ID])
		}
	}
	n := 0
	for _, c := range commits {
		n += len(c)
	}
	if n != 301 || len(commits) < 6 {
		t.Fatalf("%d commits reporting %d games", len(commits), n)
	}
	// The winning game's end is proved for Black.
	win, _ := locate(t, bk, strings.Join(games["4"], " "))
	wantProof(t, bk, "game 4's end", win, game.Black, c6book.StatusProved, 0, c6book.Infinite)
	mustCheck(t, bk)

	// Importing again (plain JSON this time) changes nothing.
	before := bookState(t, bk)
	st, err = bk.importMap(ctx, games, ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Games != 0 || st.Already != 301 {
		t.Fatalf("re-import: %+v", st)
	}
	if after := bookState(t, bk); after != before {
		t.Fatal("re-importing the games changed the book")
	}
	// Under another source name the games are recorded but the tree is the same.
	st, err = bk.importMap(ctx, games, ImportOptions{Source: "mirror"})
	if err != nil || st.Positions != 0 || st.Edges != 0 || st.Games != 301 {
		t.Fatalf("same games from another source: %+v %v", st, err)
	}
	// A game that goes on after a six is skipped for it.
	over := map[string][]string{"7": append(append([]string(nil), games["4"]...), "a5a6", "k1k2")}
	st, err = bk.importMap(ctx, over, ImportOptions{})
	if err != nil || st.Games != 0 || len(st.Skipped) != 1 || st.Skipped[0].Reason() != "continues after the game ended" {
		t.Fatalf("a game after its end: %+v %v", st, err)
	}
	// (A file that is not a games file: bookfile's TestImportGamesNotAGamesFile.)
}

func TestQueries(t *testing.T) {
	ctx := context.Background()
	bk := newBook(t, game.Connect6())
	_, games := synthGames(5, 200, 20)
	if _, err := bk.importGames(ctx, sortedIDs(games), games, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	root, _ := bk.Root(ctx)
	kids, err := bk.Children(ctx, root)
	if err != nil || len(kids) == 0 {
		t.Fatalf("root children %v %v", kids, err)
	}
	// Every stored child is reached by its move, and every path from the
	// root replays to the position.
	for _, k := range kids[:1] {
		grand, err := bk.Children(ctx, k.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range grand {
			paths, err := bk.PathsFromRoot(ctx, g.ID, 5)
			if err != nil || len(paths) == 0 {
				t.Fatalf("paths to %d: %v %v", g.ID, paths, err)
			}
			for _, p := range paths {
				b, err := board.Replay(bk.Rules(), p.Turns)
				if err != nil {
					t.Fatal(err)
				}
				if id, _, err := bk.Locate(ctx, b); err != nil || id != g.ID {
					t.Fatalf("path %s: %d %v, want %d", game.FormatTurns(bk.Rules(), p.Turns), id, err, g.ID)
				}
			}
		}
	}
	// Comments, labels, marks and search.
	id := kids[0].ID
	if err := bk.SetComment(ctx, id, "Zhang's opening, see the 2009 paper"); err != nil {
		t.Fatal(err)
	}
	if err := bk.SetLabel(ctx, id, "joseki"); err != nil {
		t.Fatal(err)
	}
	if err := bk.SetMarks(ctx, id, []Mark{{Square: 10, Text: "A"}, {Square: 11, Shape: "circle"}}); err != nil {
		t.Fatal(err)
	}
	if err := bk.SetMarks(ctx, id, []Mark{{Square: 9999}}); err == nil {
		t.Fatal("mark off the board accepted")
	}
	for q, want := range map[string]int{"zhang": 1, "ZHANG paper": 1, "pap": 1, "paper 2010": 0, "\"; DROP": 0, "": 0} {
		hits, err := bk.Search(ctx, q, 10)
		if err != nil {
			t.Fatalf("search %q: %v", q, err)
		}
		if len(hits) != want {
			t.Fatalf("search %q: %d hits, want %d", q, len(hits), want)
		}
	}
	if err := bk.SetComment(ctx, id, "changed"); err != nil {
		t.Fatal(err)
	}
	if hits, _ := bk.Search(ctx, "zhang", 10); len(hits) != 0 {
		t.Fatal("search finds a replaced comment")
	}
	if hits, _ := bk.Labeled(ctx, "joseki", 10); len(hits) != 1 || hits[0].ID != id {
		t.Fatalf("labeled: %v", hits)
	}
	p, err := bk.Position(ctx, id)
	if err != nil || len(p.Marks) != 2 || p.Label != "joseki" || p.Comment != "changed" {
		t.Fatalf("position note: %+v %v", p, err)
	}
	mustCheck(t, bk)
}

func sortedIDs(games map[string][]string) []string {
	ids := make([]string, 0, len(games))
	for id := range games {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Readers see committed states while a long import writes (WAL, one
// writer, a read pool): no "database is locked", no error.
func TestReadWhileImporting(t *testing.T) {
	ctx := context.Background()
	bk := newBook(t, game.Connect6())
	ids, games := synthGames(11, 400, 20)
	done := make(chan error, 1)
	go func() {
		_, err := bk.importGames(ctx, ids, games, ImportOptions{Batch: 20})
		done <- err
	}()
	root, _ := bk.Root(ctx)
	reads := 0
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			if reads == 0 {
				t.Fatal("no read overlapped the import")
			}
			st, _ := bk.Stats(ctx)
			if st.Games != 400 {
				t.Fatalf("%d games", st.Games)
			}
			return
		default:
		}
		kids, err := bk.Children(ctx, root)
		if err != nil {
			t.Fatalf("read during import: %v", err)
		}
		for _, k := range kids {
			if _, err := bk.Position(ctx, k.ID); err != nil {
				t.Fatalf("read during import: %v", err)
			}
		}
		if _, err := bk.Stats(ctx); err != nil {
			t.Fatalf("read during import: %v", err)
		}
		reads++
	}
}

// A failing read of the stored games stops the import with its error (it
// used to be dropped: every game was then replayed as if new).
func TestImportGamesReadError(t *testing.T) {
	ctx := context.Background()
	bk := newBook(t, game.Connect6())
	if err := bk.r.Close(); err != nil { // the read pool; the writer still works
		t.Fatal(err)
	}
	_, games := synthGames(3, 5, 25)
	st, err := bk.importMap(ctx, games, ImportOptions{})
	if err == nil || !strings.Contains(err.Error(), "reading the stored games") {
		t.Fatalf("import with a broken read pool: %+v, err %v", st, err)
	}
	if st.Games != 0 {
		t.Fatalf("stored %d games after the read failed", st.Games)
	}
}
