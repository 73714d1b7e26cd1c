package main

import (
	"flag"
	"fmt"
	"io"

	"c6book/proofbook"
)

// BookGamesCommand is c6 book games: the games through a position, or one
// game's turns.
type BookGamesCommand struct{ o gamesOpts }

func (c *BookGamesCommand) flags(fs *flag.FlagSet) {
	o := &c.o
	fs.StringVar(&o.order, "order", "recent", "recent (most recently stored first) or id (by source and id)")
	fs.IntVar(&o.limit, "limit", 20, "at most this many games")
	fs.IntVar(&o.offset, "offset", 0, "skip this many games (the next page)")
	fs.Int64Var(&o.game, "game", 0, "print this game's turns (the book's game id, as listed), in the orientation of --turns")
}

// validate checks the flags before the book is opened.
func (c *BookGamesCommand) validate(*bookEnv) error {
	o := &c.o
	if o.order != "recent" && o.order != "id" {
		return fmt.Errorf("--order %q: want recent or id", o.order)
	}
	if o.offset < 0 {
		return fmt.Errorf("--offset %d: want 0 or more", o.offset)
	}
	return positive("limit", o.limit)
}

func (c *BookGamesCommand) run(e *bookEnv) error { return bookGames(e, c.o) }

type gamesOpts struct {
	order         string
	limit, offset int
	game          int64
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
		written, ok := proofbook.OrientWritten(r, g.Written, b)
		if !ok {
			return fmt.Errorf("game %d (%s %s) does not reach --turns %q", g.ID, g.Source, g.ExtID, e.f.turns)
		}
		turns := proofbook.WrittenText(r, written)
		return e.print(bookGameJSON{Game: g.ID, Source: g.Source, ExtID: g.ExtID, Turns: turns,
			Length: g.Turns, Result: resultJSON(g.Result)}, func(w io.Writer) {
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
	out := []gameJSON{}
	for _, g := range list {
		out = append(out, gameJSON{g.ID, g.Source, g.ExtID, g.Turns, resultJSON(g.Result)})
	}
	return e.print(bookGamesJSON{ID: int64(id), Total: total, Offset: o.offset, Stats: statsJSON(gs), Games: out},
		func(w io.Writer) {
			fmt.Fprintf(w, "%d games through position %d (Black won %d, White %d, %d undecided); %d-%d:\n",
				total, id, gs.BlackWins, gs.WhiteWins, gs.Unfinished, min(int64(o.offset+1), total), int64(o.offset+len(list)))
			fmt.Fprintf(w, "  %8s  %-12s %-10s %6s  %s\n", "game", "source", "id", "turns", "result")
			for _, g := range list {
				fmt.Fprintf(w, "  %8d  %-12s %-10s %6d  %s\n", g.ID, oneLine(g.Source, 12), oneLine(g.ExtID, 10), g.Turns, resultText(g.Result))
			}
			if int64(o.offset+len(list)) < total {
				fmt.Fprintf(w, "  ... --offset %d for more; --game N prints one in this line's orientation\n", o.offset+len(list))
			}
		})
}
