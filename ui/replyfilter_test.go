package ui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/session/sessiontest"
)

// filterBook stores six replies after j10 and shows j10: l10l11 (40
// games), k10k11 (5 games, proved), m10m11 (1 game), h8h12 (1 game,
// labelled), n10n11 (no game, a comment) and o10o11 (no game).
func filterBook(t *testing.T) *harness {
	t.Helper()
	h := newHarness(t, game.Connect6(), nil)
	h.tap("j10")
	for _, m := range [][2]string{{"l10", "l11"}, {"k10", "k11"}, {"m10", "m11"}, {"h8", "h12"}, {"n10", "n11"}, {"o10", "o11"}} {
		h.tap(m[0], m[1])
		h.wb.Cursor().Back()
	}
	node := func(turns string) *sessiontest.Node {
		b, err := board.Replay(game.Connect6(), mustTurns(t, turns))
		if err != nil {
			t.Fatal(err)
		}
		return h.store.Node(b, false)
	}
	node("j10 l10l11").Games = c6book.GameStats{Games: 40, Unfinished: 40}
	node("j10 k10k11").Games = c6book.GameStats{Games: 5, Unfinished: 5}
	node("j10 k10k11").Proof[game.Black] = c6book.Proof{Attacker: game.Black, Status: c6book.StatusProved}
	node("j10 m10m11").Games = c6book.GameStats{Games: 1, Unfinished: 1}
	node("j10 h8h12").Games = c6book.GameStats{Games: 1, Unfinished: 1}
	node("j10 h8h12").Label = "x"
	node("j10 n10n11").Comment = "look here"
	h.wb.Cursor().GoToLine(mustTurns(t, "j10")) // the line ends at j10
	h.wb.Session().Reload()
	h.noErrors()
	return h
}

// The Replies filter hides replies from the board and the list, keeping
// each reply's letter (its rank in the full list), the book moves and the
// reply the line goes on with; the app is told the user's choice.
func TestReplyFilter(t *testing.T) {
	h := filterBook(t)
	rules := h.wb.s.Rules()
	kids := h.wb.Cursor().Children()
	if len(kids) != 6 {
		t.Fatalf("%d replies, want 6", len(kids))
	}
	letterOf := map[string]string{} // move → its letter in the full list
	for i, c := range kids {
		letterOf[game.MoveName(rules, c.Move)] = replyLetter(i)
	}
	var told []ReplyFilter
	h.wb.OnReplyFilter = func(f ReplyFilter) { told = append(told, f) }
	check := func(what string, want ...string) {
		t.Helper()
		// The list: one row per reply shown, in order, with its letter.
		var rows []string
		for r := 0; r < h.wb.ui.kidList.Length(); r++ {
			f := strings.Fields(rowText(t, h.wb.ui.kidList, r))
			if letterOf[f[1]] != f[0] {
				t.Fatalf("%s: row %q, want the letter %s", what, strings.Join(f, " "), letterOf[f[1]])
			}
			rows = append(rows, f[1])
		}
		if strings.Join(rows, " ") != strings.Join(want, " ") {
			t.Fatalf("%s: rows %v, want %v", what, rows, want)
		}
		// The board: the letters of the replies shown, on their squares.
		letters, _, _ := boardReplies(h)
		drawn := map[string]bool{}
		for _, l := range letters {
			drawn[l] = true
		}
		for name, l := range letterOf {
			shown := strings.Contains(" "+strings.Join(want, " ")+" ", " "+name+" ")
			if drawn[l] != shown {
				t.Fatalf("%s: %s (%s) drawn %v, want %v (board %v)", what, name, l, drawn[l], shown, letters)
			}
		}
		header := h.wb.ui.kidsL.Text
		if len(want) < len(kids) && !strings.HasPrefix(header, fmt.Sprintf("Replies (%d of 6 shown", len(want))) || len(want) == len(kids) && header != "Replies (6)" {
			t.Fatalf("%s: header %q", what, header)
		}
	}
	check("all", "l10l11", "k10k11", "m10m11", "h8h12", "n10n11", "o10o11")
	h.wb.ui.filterS.SetSelected(ReplyFilter{MinGames: 2}.label())
	if len(told) != 1 || told[0] != (ReplyFilter{MinGames: 2}) || h.wb.ReplyFilter() != told[0] {
		t.Fatalf("the app was told %v", told)
	}
	check("2+ games", "l10l11", "k10k11", "h8h12", "n10n11")
	h.wb.SetReplyFilter(ReplyFilter{BookOnly: true})
	check("book moves", "k10k11", "h8h12", "n10n11")
	if h.wb.ui.filterS.Selected != "Book moves" {
		t.Fatalf("the menu shows %q", h.wb.ui.filterS.Selected)
	}
	// A hidden reply the line goes on with stays shown (here: after
	// playing it and going back).
	h.tap("o10", "o11")
	h.wb.Cursor().Back()
	check("book moves, the line through o10o11", "k10k11", "h8h12", "n10n11", "o10o11")
	// The navigation keys still reach every reply: ↓ from k10k11 (B)
	// goes to m10m11 (C, hidden).
	h.wb.Cursor().GoToLine(mustTurns(t, "j10 k10k11"))
	h.key(fyne.KeyDown)
	if line, cur := h.wb.Cursor().Line(); cur != 2 || game.MoveName(rules, line[1]) != "m10m11" {
		t.Fatalf("↓ from k10k11: %s", h.line())
	}
	h.noErrors()
}

// The preferences' text of each filter the menu offers reads back; other
// text is an error.
func TestParseReplyFilter(t *testing.T) {
	for _, f := range replyFilters {
		g, err := ParseReplyFilter(f.String())
		if err != nil || g != f {
			t.Fatalf("%q: %v %v", f.String(), g, err)
		}
	}
	for _, bad := range []string{"games:3", "games:x", "games:", "some", "games:-2"} {
		if _, err := ParseReplyFilter(bad); err == nil {
			t.Fatalf("%q read", bad)
		}
	}
	if f, err := ParseReplyFilter(""); err != nil || f != (ReplyFilter{}) {
		t.Fatalf("no preference: %v %v", f, err)
	}
}
