package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// gamesBook makes a book with four hand-made games: 1 (Black wins on the
// j column), 2 (game 1's opening, then k10k11), 3 (game 1's opening
// mirrored left-right, a↔s) and 4 (another reply).
func gamesBook(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	book := filepath.Join(dir, "g.c6book")
	games := filepath.Join(dir, "games.json")
	os.WriteFile(games, []byte(`{
"1": ["j10", "a1b1", "j11j12", "a2b2", "j13j14", "a3b3", "j15j16"],
"2": ["j10", "a1b1", "k10k11"],
"3": ["j10", "s1r1", "j11j12"],
"4": ["j10", "a2b2", "k12k13"]}`), 0o644)
	runBook(t, false, "init", "--book", book)
	runBook(t, false, "import-games", "--book", book, "--games", games)
	return book
}

type showJSON struct {
	Games struct {
		Games int64 `json:"games"`
	} `json:"games"`
	Children []struct {
		Move  string `json:"move"`
		Games struct {
			Games     int64    `json:"games"`
			BlackWins int64    `json:"black_wins"`
			BlackRate *float64 `json:"black_rate"`
		} `json:"games"`
	} `json:"children"`
}

func showReplies(t *testing.T, book, turns string) (showJSON, string) {
	t.Helper()
	out, _ := runBook(t, false, "show", "--book", book, "--turns", turns, "--json")
	var sh showJSON
	if err := json.Unmarshal([]byte(out), &sh); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range sh.Children {
		names = append(names, c.Move+":"+strconv.FormatInt(c.Games.Games, 10))
	}
	return sh, strings.Join(names, " ")
}

// show lists the replies most played first with their games and Black's
// rate, named in the orientation of --turns: the same position entered in
// two orientations shows each its own.
func TestBookShowRepliesByGames(t *testing.T) {
	book := gamesBook(t)
	sh, got := showReplies(t, book, "j10 a1b1")
	if got != "j11j12:2 k10k11:1" || sh.Games.Games != 3 {
		t.Fatalf("replies of j10 a1b1: %q (%d games)", got, sh.Games.Games)
	}
	if r := sh.Children[0].Games.BlackRate; r == nil || *r != 1 || sh.Children[1].Games.BlackRate != nil {
		t.Fatalf("Black's rates: %+v", sh.Children)
	}
	// Mirrored: k10k11 is i10i11 there (the j column is the mirror's axis).
	if _, got := showReplies(t, book, "j10 s1r1"); got != "j11j12:2 i10i11:1" {
		t.Fatalf("replies of j10 s1r1: %q", got)
	}
	out, _ := runBook(t, false, "show", "--book", book, "--turns", "j10 s1r1")
	lines := strings.Split(out, "\n")
	var rows []string
	for i, l := range lines {
		if strings.HasPrefix(l, "2 replies, most played first") {
			rows = lines[i+2 : i+4]
		}
	}
	if len(rows) != 2 || strings.Join(strings.Fields(rows[0])[:3], " ") != "j11j12 2 100%" ||
		strings.Join(strings.Fields(rows[1])[:3], " ") != "i10i11 1 -" || !strings.Contains(out, "3 games (Black won 1, White 0, 2 undecided)") {
		t.Fatalf("show text:\n%s", out)
	}
}

type gamesJSON struct {
	Total int64 `json:"total"`
	Games []struct {
		Game   int64  `json:"game"`
		ExtID  string `json:"ext_id"`
		Length int    `json:"length"`
		Result string `json:"result"`
	} `json:"games"`
}

// games lists the games through a position (any orientation, any move
// order), paged; --game prints one in the orientation of --turns.
func TestBookGames(t *testing.T) {
	book := gamesBook(t)
	list := func(args ...string) (gamesJSON, string) {
		t.Helper()
		out, _ := runBook(t, false, append([]string{"games", "--book", book, "--json"}, args...)...)
		var g gamesJSON
		if err := json.Unmarshal([]byte(out), &g); err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, x := range g.Games {
			ids = append(ids, x.ExtID)
		}
		return g, strings.Join(ids, " ")
	}
	if g, ids := list("--turns", "j10 s1r1"); g.Total != 3 || ids != "3 2 1" {
		t.Fatalf("games through j10 s1r1 (recent first): %d %q", g.Total, ids)
	}
	g, ids := list("--turns", "j10 a1b1", "--order", "id", "--limit", "2")
	if ids != "1 2" || g.Games[0].Result != "B+" || g.Games[0].Length != 7 || g.Games[1].Result != "unfinished" {
		t.Fatalf("first page by id: %+v", g)
	}
	if _, ids := list("--turns", "j10 a1b1", "--order", "id", "--limit", "2", "--offset", "2"); ids != "3" {
		t.Fatalf("second page: %q", ids)
	}
	g, ids = list("--turns", "")
	if g.Total != 4 || ids != "4 3 2 1" {
		t.Fatalf("games through the root: %d %q", g.Total, ids)
	}
	id := map[string]int64{}
	for _, x := range g.Games {
		id[x.ExtID] = x.Game
	}
	one := func(turns, ext string) string {
		t.Helper()
		out, _ := runBook(t, false, "games", "--book", book, "--turns", turns, "--game", strconv.FormatInt(id[ext], 10), "--json")
		var v struct {
			Turns string `json:"turns"`
		}
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatal(err)
		}
		return v.Turns
	}
	// Game 2 seen from the mirrored line, game 3 from the plain one; each
	// turn's stones in the record's order (a1b1 mirrored is s1r1, where
	// the board's order is r1s1).
	if got := one("j10 s1r1", "2"); got != "j10 s1r1 i10i11" {
		t.Fatalf("game 2 in the orientation of j10 s1r1: %q", got)
	}
	if got := one("j10 a1b1", "3"); got != "j10 a1b1 j11j12" {
		t.Fatalf("game 3 in the orientation of j10 a1b1: %q", got)
	}
	if got := one("j10 a1b1", "2"); got != "j10 a1b1 k10k11" {
		t.Fatalf("game 2 as played: %q", got)
	}
	_, errs := runBook(t, true, "games", "--book", book, "--turns", "j10 a1b1", "--game", strconv.FormatInt(id["4"], 10))
	if !strings.Contains(errs, "does not reach") {
		t.Fatalf("a game that does not reach the position: %s", errs)
	}
	runBook(t, true, "games", "--book", book, "--order", "best")
	out, _ := runBook(t, false, "games", "--book", book, "--turns", "j10", "--limit", "1")
	if !strings.Contains(out, "4 games through position") || !strings.Contains(out, "--offset 1 for more") {
		t.Fatalf("games text: %s", out)
	}
}

// search and open print a position's line from the root in its stable
// orientation (the first game's through it), whatever orientation the
// position was annotated in; a hit shows the position's statuses.
func TestBookListsPrintStableLines(t *testing.T) {
	book := gamesBook(t)
	runBook(t, false, "annotate", "--book", book, "--turns", "j10 s1r1 j11j12", "--comment", "the j file", "--disprove", "--attacker", "W")
	out, _ := runBook(t, false, "search", "--book", book, "--text", "file", "--json")
	var s struct {
		Hits []struct {
			Turns  string `json:"turns"`
			Stones int    `json:"stones"`
			White  string `json:"white"`
		} `json:"hits"`
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Hits) != 1 || s.Hits[0].Turns != "j10 a1b1 j11j12" || s.Hits[0].Stones != 5 || !strings.HasPrefix(s.Hits[0].White, "disproved") {
		t.Fatalf("search: %s", out)
	}
	out, _ = runBook(t, false, "open", "--book", book, "--proved", "--min-order", "0", "--attacker", "B")
	if !strings.Contains(out, "j10 a1b1 j11j12 a2b2 j13j14 a3b3 j15j16") {
		t.Fatalf("proved list: %s", out)
	}
}

// show and verify say why each move is unsolved.
func TestBookUnsolvedReasons(t *testing.T) {
	book := filepath.Join(t.TempDir(), "cx.c6book")
	const d = "e6 f4c6 g3g4 d4f6 c4e5 c3d7 b3a5"
	runBook(t, false, "init", "--book", book, "--rules", "9,9,5,2,1")
	out, _ := runBook(t, false, "verify", "--book", book, "--turns", d, "--lambda", "3", "--max-nodes", "100", "--workers", "1")
	if !strings.Contains(out, "unsolved, out of budget") || !strings.Contains(out, ": d5\n") {
		t.Fatalf("verify does not say why d5 is open:\n%s", out)
	}
	out, _ = runBook(t, false, "show", "--book", book, "--turns", d, "--json")
	var sh struct {
		Why []struct {
			Move, Reason, Why string
		} `json:"unsolved_why"` // beside the verdict, in --turns' orientation
	}
	if err := json.Unmarshal([]byte(out), &sh); err != nil || len(sh.Why) != 1 || sh.Why[0].Move != "d5" ||
		sh.Why[0].Reason != "budget" || !strings.Contains(sh.Why[0].Why, "budget") {
		t.Fatalf("show --json unsolved_why: %v %s", err, out)
	}
}

// next works below --turns and prints the line in its orientation: the
// printed line, entered again, is the position it names.
func TestBookNextBelowInItsOrientation(t *testing.T) {
	book := filepath.Join(t.TempDir(), "cx.c6book")
	const d = "e6 f4c6 g3g4 d4f6 c4e5 c3d7"
	const mirrored = "e6 d4g6 c3c4 f4d6 g4e5 g3f7" // a↔i
	runBook(t, false, "init", "--book", book, "--rules", "9,9,5,2,1")
	runBook(t, false, "verify", "--book", book, "--turns", d, "--attacker", "W", "--max-nodes", "50", "--workers", "1")
	for _, start := range []string{d, mirrored} {
		out, _ := runBook(t, false, "next", "--book", book, "--turns", start, "--attacker", "W", "--json")
		var n struct {
			ID    int64  `json:"id"`
			Turns string `json:"turns"`
		}
		if err := json.Unmarshal([]byte(out), &n); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(n.Turns, start+" ") || len(strings.Fields(n.Turns)) != 7 {
			t.Fatalf("next from %q: %q, want a reply below it", start, n.Turns)
		}
		out, _ = runBook(t, false, "show", "--book", book, "--turns", n.Turns, "--json")
		var sh struct {
			ID int64 `json:"id"`
		}
		if err := json.Unmarshal([]byte(out), &sh); err != nil || sh.ID != n.ID {
			t.Fatalf("next from %q printed %q for position %d, which is position %d (%v)", start, n.Turns, n.ID, sh.ID, err)
		}
	}
}

// A games file with a bad entry after good ones is refused with one line
// naming the entry, and the book is left as it was.
func TestImportGamesBadFile(t *testing.T) {
	book := gamesBook(t)
	before, _ := runBook(t, false, "stats", "--book", book, "--json")
	dir := t.TempDir()
	for _, c := range []struct{ name, data, want string }{
		{"null.json", `{"5": ["j10", "k10k11"], "6": null}`, `entry 2 (game "6"): want a list of turns, not null`},
		{"trailing.json", `{"5": ["j10", "k10k11"]} {"6": ["j10"]}`, `data after the games object`},
		{"emptyid.json", `{"5": ["j10", "k10k11"], "": ["j10"]}`, `entry 2: empty game id`},
		{"longid.json", `{"5": ["j10", "k10k11"], "` + strings.Repeat("9", 100000) + `": ["j10"]}`, `entry 2: game id of 100000 bytes`},
	} {
		f := filepath.Join(dir, c.name)
		os.WriteFile(f, []byte(c.data), 0o644)
		_, errs := runBook(t, true, "import-games", "--book", book, "--games", f)
		if !strings.Contains(errs, c.want) || !strings.Contains(errs, "nothing imported") || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Fatalf("%s: want one line with %q, got %q", c.name, c.want, errs)
		}
		if after, _ := runBook(t, false, "stats", "--book", book, "--json"); after != before {
			t.Fatalf("%s: the refused file changed the book:\n%s\n%s", c.name, before, after)
		}
	}
}

// The text output says "undecided", as the app does, and c6 book -h says
// what it means; the --json output keeps "unfinished" (the field and the
// result value scripts read) and adds "undecided" beside it.
func TestBookGamesUndecidedWording(t *testing.T) {
	book := gamesBook(t)
	out, errs := runBook(t, false, "games", "--book", book, "--turns", "j10 a1b1", "--order", "id")
	if strings.Contains(out, "unfinished") || !strings.Contains(out, "2 undecided)") || !strings.Contains(out, "  undecided\n") {
		t.Fatalf("games text:\n%s", out)
	}
	out, _ = runBook(t, false, "show", "--book", book, "--turns", "j10 a1b1")
	if strings.Contains(out, "unfinished") || !strings.Contains(out, "undecided") {
		t.Fatalf("show text:\n%s", out)
	}
	out, _ = runBook(t, false, "games", "--book", book, "--turns", "j10 a1b1", "--order", "id", "--json")
	var g struct {
		Stats struct {
			Undecided  *int64 `json:"undecided"`
			Unfinished *int64 `json:"unfinished"`
		} `json:"stats"`
		Games []struct {
			Result string `json:"result"`
		} `json:"games"`
	}
	if err := json.Unmarshal([]byte(out), &g); err != nil {
		t.Fatal(err)
	}
	if g.Stats.Undecided == nil || g.Stats.Unfinished == nil || *g.Stats.Undecided != 2 || *g.Stats.Unfinished != 2 || len(g.Games) != 3 || g.Games[1].Result != "unfinished" {
		t.Fatalf("games JSON: %s", out)
	}
	_, errs = runBook(t, false, "-h")
	if !strings.Contains(errs, "undecided: a game whose record ends without six in a row") {
		t.Fatalf("c6 book -h:\n%s", errs)
	}
}
