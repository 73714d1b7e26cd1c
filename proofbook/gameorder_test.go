package proofbook

import (
	"context"
	"strings"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
)

// A game keeps each turn's stones in the order its record wrote them
// ("h12k11", not the board's k11h12), through the book, a symmetric
// orientation and a merge; the positions stay canonical; a game stored
// with its turns sorted (before the book kept the order) reads back sorted.
func TestGameKeepsRecordOrder(t *testing.T) {
	ctx := context.Background()
	r := game.Connect6()
	bk := newBook(t, r)
	line := "j10 h12k11 j11j12"
	if _, err := bk.importMap(ctx, map[string][]string{"1": strings.Fields(line)}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	gid := mustFindGame(t, bk, "1")
	g, err := bk.Game(ctx, gid)
	if err != nil {
		t.Fatal(err)
	}
	if got := WrittenText(r, g.Written); got != line {
		t.Fatalf("the game's turns: %q, want %q", got, line)
	}
	if got, want := game.FormatTurns(r, g.Moves), game.FormatTurns(r, turns(t, r, line)); got != want || got == line {
		t.Fatalf("the game's moves: %q, want %q (board order)", got, want)
	}
	// The same game seen from its mirror image (a↔s): the order stays.
	mirror, err := board.ReplayText(r, "j10 l12i11")
	if err != nil {
		t.Fatal(err)
	}
	w, ok := OrientWritten(r, g.Written, mirror)
	if !ok || WrittenText(r, w) != "j10 l12i11 j11j12" {
		t.Fatalf("oriented on the mirror: %q %v", WrittenText(r, w), ok)
	}
	if ms, ok := OrientTurns(r, g.Moves, mirror); !ok || game.FormatTurns(r, ms) != game.FormatTurns(r, turns(t, r, "j10 l12i11 j11j12")) {
		t.Fatalf("OrientTurns on the mirror: %v", ok)
	}

	// (A merge carries the order: bookmerge's TestMergeKeepsGameRecordOrder.)

	// Stored sorted (as books did before): read back sorted.
	if _, err := bk.w.ExecContext(ctx, "UPDATE game SET turns = ? WHERE id = ?", encodeTurns(g.Moves), gid); err != nil {
		t.Fatal(err)
	}
	old, err := bk.Game(ctx, gid)
	if err != nil || WrittenText(r, old.Written) != game.FormatTurns(r, g.Moves) {
		t.Fatalf("a game stored sorted: %q %v", WrittenText(r, old.Written), err)
	}
	mustCheck(t, bk)

	// A stored turn that is not a move is an error, not a crash.
	if _, err := decodeWritten([]byte{0x0f}); err == nil {
		t.Fatal("a 7-stone turn was read")
	}
}
