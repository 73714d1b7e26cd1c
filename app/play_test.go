package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/player"
	"c6book/proofbook"
	"c6book/session"
	"c6book/ui"
)

// lostLine leaves Black to move against three open fours of White: more
// threats than one turn (two stones) blocks.
const lostLine = "s1 c3d3 a19c19 e3f3 e19g19 c7d7 i19k19 e7f7 m19o19 c11d11 q19s19 e11f11"

// The real player on a lost position: it says every move loses, and its
// threat is White's win after Black's best try.
func TestEnginePlayerLostThreat(t *testing.T) {
	b, err := board.ReplayText(game.Connect6(), lostLine)
	if err != nil {
		t.Fatal(err)
	}
	a, err := engineVerifier{playNodes: 20000}.Play(context.Background(), b, 0, func(session.PlayProgress) {})
	if err != nil {
		t.Fatal(err)
	}
	if !a.Lost || len(a.Threat) == 0 || len(a.Ranked) == 0 {
		t.Fatalf("lost %v, threat %v, %d ranked (reason %q, score %v)", a.Lost, a.Threat, len(a.Ranked), a.Reason, a.Score)
	}
	after := b.Clone()
	if err := after.Play(a.Move); err != nil {
		t.Fatalf("best try %s: %v", game.MoveName(b.Rules(), a.Move), err)
	}
	for _, m := range a.Threat {
		if err := after.Play(m); err != nil {
			t.Fatalf("threat %s: %v", game.MoveName(b.Rules(), m), err)
		}
	}
	if after.Winner() != game.White {
		t.Fatalf("after the best try and the threat %v, winner %v", a.Threat, after.Winner())
	}
}

// In the window, on a real book: Suggest lists the player's ranked moves
// with their lines; on the lost position it says Black loses and shows the
// threat; Play engine move goes on by a legal move, stored, and Undo takes
// it back.
func TestEnginePlayerWindow(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	path := filepath.Join(dir, "play.c6book")
	bk, err := proofbook.Create(context.Background(), path, game.Connect6())
	if err != nil {
		t.Fatal(err)
	}
	bk.Close()
	ta := startApp(t, test.NewTempApp(t), options{book: path, play: "j10 i9k9", playNodes: 20000})
	wb := ta.wa.wb
	wb.Prover().Suggest()
	ta.pumpUntil("suggest", func() bool { return !wb.Prover().Suggesting() })
	cs := candidates(wb)
	if len(cs) < 2 {
		t.Fatalf("%d ranked moves", len(cs))
	}
	for i, c := range cs {
		if err := wb.Cursor().Position().Check(c.Move, false); err != nil || len(c.PV) == 0 || c.PV[0] != c.Move {
			t.Fatalf("ranked move %d %s: %v, line %v", i, game.MoveName(game.Connect6(), c.Move), err, c.PV)
		}
		// The games' moves with a good record come first (player.GameMoves),
		// then the rest by the search's score.
		if i > 0 && c.Score > cs[i-1].Score && !cs[i-1].Loses && cs[i-1].Games == 0 {
			t.Fatalf("ranked move %d scores %v above %v", i, c.Score, cs[i-1].Score)
		}
		if i > 0 && c.Games > 0 && cs[i-1].Games == 0 && player.WilsonLower(int64(c.Wins), int64(c.Games), player.GameZ) >= player.GameBookLCB {
			t.Fatalf("ranked move %d (games: %d of %d won) after a move not from the games", i, c.Wins, c.Games)
		}
	}
	// Mickey Mouse is in the games: Black's first choice is a games' move,
	// and the list says its record.
	if cs[0].Games == 0 || !strings.Contains(cs[0].Note, fmt.Sprintf("games: %d of %d won", cs[0].Wins, cs[0].Games)) {
		t.Fatalf("first ranked move %s: games %d, note %q", game.MoveName(game.Connect6(), cs[0].Move), cs[0].Games, cs[0].Note)
	}
	if text := wb.Prover().PlayText(); !strings.HasPrefix(text, "Best "+game.MoveName(game.Connect6(), cs[0].Move)) ||
		!strings.Contains(text, "the best record in the games") {
		t.Fatalf("summary %q", text)
	}

	// Play engine move is in the Engine menu with its shortcut shown.
	var item *fyne.MenuItem
	for _, m := range ta.wa.win.MainMenu().Items {
		for _, it := range m.Items {
			if m.Label == "Engine" && it.Label == "Play engine move" {
				item = it
			}
		}
	}
	if item == nil || item.Shortcut == nil || item.Shortcut.ShortcutName() != ui.EngineMoveShortcut().ShortcutName() {
		t.Fatalf("Engine menu item %+v", item)
	}
	item.Action()
	ta.pumpUntil("engine move", func() bool { return !wb.Prover().Suggesting() })
	line, cur := wb.Cursor().Line()
	if cur != 3 || len(line) != 3 {
		t.Fatalf("after Play engine move: %q", ta.line())
	}
	b, _ := board.ReplayText(game.Connect6(), "j10 i9k9")
	if err := b.Check(line[2], false); err != nil {
		t.Fatalf("engine move %s: %v", game.MoveName(game.Connect6(), line[2]), err)
	}
	wb.History().Undo()
	ta.pumpUntil("undo", func() bool { return ta.line() == "j10 i9k9" })
	if kids := wb.Cursor().Children(); len(kids) != 0 {
		t.Fatalf("Undo left %d replies", len(kids))
	}

	turns, err := game.ParseTurns(game.Connect6(), lostLine)
	if err != nil {
		t.Fatal(err)
	}
	wb.Cursor().GoToLine(turns)
	wb.Prover().Suggest()
	ta.pumpUntil("suggest on the lost position", func() bool { return !wb.Prover().Suggesting() })
	if text := wb.Prover().PlayText(); !strings.Contains(text, "Black loses: White wins whatever Black plays") || !strings.Contains(text, "The threat: after ") {
		t.Fatalf("on the lost position: %q", text)
	}
}
