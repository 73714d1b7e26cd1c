package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"c6book"
	"c6book/engine"
	"c6book/proofbook"
)

// gameStatsJSON is a position's or a reply's game counts in JSON;
// black_rate (Black's share of the finished games, 0 to 1) is null when
// none is finished.
type gameStatsJSON struct {
	Games      int64    `json:"games"`
	BlackWins  int64    `json:"black_wins"`
	WhiteWins  int64    `json:"white_wins"`
	Unfinished int64    `json:"unfinished"`
	BlackRate  *float64 `json:"black_rate"`
}

func statsJSON(g c6book.GameStats) gameStatsJSON {
	out := gameStatsJSON{Games: g.Games, BlackWins: g.BlackWins, WhiteWins: g.WhiteWins, Unfinished: g.Unfinished}
	if r, ok := g.BlackRate(); ok {
		out.BlackRate = &r
	}
	return out
}

// rateText is Black's win rate as "52%", "-" when no game is finished.
func rateText(g c6book.GameStats) string {
	r, ok := g.BlackRate()
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*r)
}

// resultText names a game's result.
func resultText(c engine.Color) string {
	switch c {
	case engine.Black:
		return "B+"
	case engine.White:
		return "W+"
	}
	return "unfinished"
}

type gamesOpts struct {
	order         string
	limit, offset int
	game          int64
}

func gamesFlags(fs *flag.FlagSet) bookRun {
	var o gamesOpts
	fs.StringVar(&o.order, "order", "recent", "recent (most recently stored first) or id (by source and id)")
	fs.IntVar(&o.limit, "limit", 20, "at most this many games")
	fs.IntVar(&o.offset, "offset", 0, "skip this many games (the next page)")
	fs.Int64Var(&o.game, "game", 0, "print this game's turns (the book's game id, as listed), in the orientation of --turns")
	return bookRun{
		check: func(*bookEnv) error {
			if o.order != "recent" && o.order != "id" {
				return fmt.Errorf("--order %q: want recent or id", o.order)
			}
			if o.offset < 0 {
				return fmt.Errorf("--offset %d: want 0 or more", o.offset)
			}
			return positive("limit", o.limit)
		},
		run: func(e *bookEnv) error { return bookGames(e, o) },
	}
}

// bookGames lists the games through --turns, or prints one of them in the
// orientation of --turns.
func bookGames(e *bookEnv, o gamesOpts) error {
	ctx, bk := e.ctx, e.bk
	r := bk.Rules()
	id, b, _, err := e.f.locate(ctx, bk, false)
	if err != nil {
		return err
	}
	if o.game != 0 {
		g, err := bk.Game(ctx, o.game)
		if err != nil {
			return err
		}
		ms, ok := proofbook.OrientTurns(r, g.Moves, b)
		if !ok {
			return fmt.Errorf("game %d (%s %s) does not reach --turns %q", g.ID, g.Source, g.ExtID, e.f.turns)
		}
		turns := engine.FormatTurns(r, ms)
		return e.print(map[string]any{"game": g.ID, "source": g.Source, "ext_id": g.ExtID, "turns": turns,
			"length": g.Turns, "result": resultText(g.Result)}, func(w io.Writer) {
			fmt.Fprintf(w, "game %d (%s %s), %d turns, %s\n  --turns %q\n", g.ID, g.Source, g.ExtID, g.Turns, resultText(g.Result), turns)
		})
	}
	order := proofbook.GamesRecent
	if o.order == "id" {
		order = proofbook.GamesByID
	}
	list, total, err := bk.GamesThrough(ctx, id, proofbook.GamesQuery{Order: order, Limit: o.limit, Offset: o.offset})
	if err != nil {
		return err
	}
	gs, err := bk.GameStatsOf(ctx, id)
	if err != nil {
		return err
	}
	type gameJSON struct {
		Game   int64  `json:"game"`
		Source string `json:"source"`
		ExtID  string `json:"ext_id"`
		Length int    `json:"length"`
		Result string `json:"result"`
	}
	out := []gameJSON{}
	for _, g := range list {
		out = append(out, gameJSON{g.ID, g.Source, g.ExtID, g.Turns, resultText(g.Result)})
	}
	return e.print(map[string]any{"id": int64(id), "total": total, "offset": o.offset, "stats": statsJSON(gs), "games": out},
		func(w io.Writer) {
			fmt.Fprintf(w, "%d games through position %d (Black won %d, White %d, %d unfinished); %d-%d:\n",
				total, id, gs.BlackWins, gs.WhiteWins, gs.Unfinished, min(int64(o.offset+1), total), int64(o.offset+len(list)))
			fmt.Fprintf(w, "  %8s  %-12s %-10s %6s  %s\n", "game", "source", "id", "turns", "result")
			for _, g := range out {
				fmt.Fprintf(w, "  %8d  %-12s %-10s %6d  %s\n", g.Game, oneLine(g.Source, 12), oneLine(g.ExtID, 10), g.Length, g.Result)
			}
			if int64(o.offset+len(list)) < total {
				fmt.Fprintf(w, "  ... --offset %d for more; --game N prints one in this line's orientation\n", o.offset+len(list))
			}
		})
}

// unsolvedJSON is an unsolved move with its reason, in the user's frame.
type unsolvedJSON struct {
	Move   string `json:"move"`
	Reason string `json:"reason"`
	Why    string `json:"why"`
}

// unsolvedWhy lists a verdict's unsolved moves and open seminull moves
// with their reasons, in the user's frame (sym: the user's board onto the
// canonical frame).
func unsolvedWhy(r engine.Rules, sym int, v *c6book.Verdict) []unsolvedJSON {
	out := []unsolvedJSON{}
	for _, list := range [][]c6book.Unsolved{v.Unsolved, v.OpenSeminull} {
		for _, u := range list {
			out = append(out, unsolvedJSON{engine.MoveName(r, proofbook.FromCanonical(r, sym, u.Move)), u.Reason, u.Why()})
		}
	}
	return out
}

// printUnsolvedWhy writes one line per unsolved move with its reason,
// grouped: "unsolved, out of budget (...): k10l10 m9m10".
func printUnsolvedWhy(w io.Writer, list []unsolvedJSON) {
	var order []string
	by := map[string][]string{}
	for _, u := range list {
		if _, ok := by[u.Why]; !ok {
			order = append(order, u.Why)
		}
		by[u.Why] = append(by[u.Why], u.Move)
	}
	for _, why := range order {
		fmt.Fprintf(w, "  unsolved, %s: %s\n", why, strings.Join(by[why], " "))
	}
}
