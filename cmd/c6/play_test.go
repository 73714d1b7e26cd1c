package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/player"
)

// c6 play --json answers with the move in turn notation, a legal one, its
// score, PV and nodes and the ranked candidates; a node budget makes it
// machine-independent.
func TestPlayJSON(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"play", "--turns", "j10 i9k9", "--time", "0", "--nodes", "3000", "--json"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	var got playJSON
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v: %q", err, out.String())
	}
	r := game.Connect6()
	b, err := board.ReplayText(r, "j10 i9k9")
	if err != nil {
		t.Fatal(err)
	}
	m, err := game.ParseMove(r, got.Move)
	if err != nil || b.Check(m, false) != nil {
		t.Fatalf("move %q is not a legal move (%v)", got.Move, err)
	}
	if got.ToMove != "B" || got.Nodes <= 0 || len(got.PV) == 0 || got.PV[0] != got.Move || len(got.Candidates) < 2 || got.Candidates[0].Move != got.Move {
		t.Errorf("incomplete answer: %+v", got)
	}
	// Mickey Mouse is in the games' table: the move is the games' move
	// with the best record, listed with it; --no-games: the search's.
	first := player.GameMoves(b)[0]
	if got.Reason != player.PlayGames || got.Move != game.MoveName(r, first.Move) ||
		got.Candidates[0].Games == nil || *got.Candidates[0].Games != (gameRecordJSON{Decided: first.Games, Wins: first.Wins}) {
		t.Errorf("Mickey Mouse: %s (%s), first candidate's record %+v; want %s with %d of %d", got.Move, got.Reason, got.Candidates[0].Games,
			game.MoveName(r, first.Move), first.Wins, first.Games)
	}
	if !strings.Contains(string(out.Bytes()), `"games":{"decided":`) {
		t.Errorf("no games record in %s", out.String())
	}
	out.Reset()
	if code := run([]string{"play", "--turns", "j10 i9k9", "--time", "0", "--nodes", "3000", "--no-games", "--json"}, &out, &errb); code != 0 {
		t.Fatalf("--no-games: exit %d, stderr %q", code, errb.String())
	}
	got = playJSON{}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Reason != player.PlaySearch || strings.Contains(out.String(), `"games"`) {
		t.Errorf("--no-games: reason %q, %s", got.Reason, out.String())
	}
	out.Reset()
	if code := run([]string{"play", "--turns", "j10 i9k9", "--time", "0", "--nodes", "3000"}, &out, &errb); code != 0 ||
		!strings.Contains(out.String(), fmt.Sprintf("games: %d of %d decided won", first.Wins, first.Games)) {
		t.Errorf("text: exit %d, %q", code, out.String())
	}
	// A six at once is played: Black has five in a row.
	out.Reset()
	turns := "j10 a1a2 k10l10 a4a5 m10n10 a7a8"
	code = run([]string{"play", "--turns", turns, "--nodes", "1000", "--json"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	got = playJSON{}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	b, err = board.ReplayText(r, turns+" "+got.Move)
	if err != nil || b.Winner() != game.Black || got.Reason != "six" {
		t.Errorf("Black makes six at once: got %q (%s), %v", got.Move, got.Reason, err)
	}
}

// Bad input is one line on stderr and a non-zero exit.
func TestPlayBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"--turns", "j10 zz9"},
		{"--turns", "j10 j10k10"},
		{"--turns", "j10", "--rules", "3,3,9,2,1"},
		{"--turns", "j10", "--time", "-1s"},
		{"--loop", "--turns", "j10"},
	} {
		var out, errb bytes.Buffer
		code := run(append([]string{"play"}, args...), &out, &errb)
		if code == 0 || strings.Count(strings.TrimRight(errb.String(), "\n"), "\n") != 0 || out.Len() != 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q: want one error line", args, code, out.String(), errb.String())
		}
	}
}

// --loop answers each line with a move (or an error line) and keeps going;
// an over-long line is refused without being kept.
func TestPlayLoop(t *testing.T) {
	in := strings.NewReader("j10 i9k9\nj10 zz9\n\n" + strings.Repeat("j10 ", 20000) + "\nj10 k10l10\nquit\nj10\n")
	var out bytes.Buffer
	if err := playCmd([]string{"--loop", "--time", "0", "--nodes", "2000"}, in, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	if len(lines) != 5 {
		t.Fatalf("want 5 answers, got %q", lines)
	}
	r := game.Connect6()
	for i, want := range []string{"j10 i9k9", "", "", "", "j10 k10l10"} {
		if want == "" {
			if i != 2 && !strings.HasPrefix(lines[i], "error: ") {
				t.Errorf("line %d: want an error, got %q", i+1, lines[i])
			}
			if i == 2 && lines[i] != "j10" {
				t.Errorf("empty board: want j10, got %q", lines[i])
			}
			continue
		}
		b, err := board.ReplayText(r, want)
		if err != nil {
			t.Fatal(err)
		}
		m, err := game.ParseMove(r, lines[i])
		if err != nil || b.Check(m, false) != nil {
			t.Errorf("line %d: %q is not a legal move after %q", i+1, lines[i], want)
		}
	}
	// JSON lines.
	out.Reset()
	if err := playCmd([]string{"--loop", "--json", "--nodes", "500", "--time", "0"}, strings.NewReader("j10 i9k9\n"), &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	var got playJSON
	if err := json.Unmarshal(out.Bytes(), &got); err != nil || got.Move == "" {
		t.Fatalf("JSON line %q: %v", out.String(), err)
	}
}

// playCmd runs c6 play reading stdin from in.
func playCmd(args []string, in io.Reader, stdout, stderr io.Writer) error {
	return (&PlayCommand{stdio{in, stdout, stderr}}).Run(context.Background(), args)
}
