// Command match plays the engine's player against the auto-pilot's old
// first candidate (rankCandidates, engine.AttackerCandidates) from the most
// played three-turn openings of the LittleGolem games (the openings of the
// opening set tools/benchverify/openings.tsv, written by tools/openingset),
// each opening twice (each engine with each colour), and prints the score:
//
//	nice go run ./tools/match [--set FILE] [--openings 40] [--time 100ms | --nodes N]
//
// Run it from the project root. A game ends with a six, a full board, or
// at --max-turns (a draw, LittleGolem's rule is 150).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"c6book/engine"
	"c6book/internal/openingset"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "match:", err)
		os.Exit(1)
	}
}

// mover chooses the move of the side to move.
type mover func(ctx context.Context, b *engine.Board) (engine.Move, error)

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("match", flag.ContinueOnError)
	fs.SetOutput(stderr)
	set := fs.String("set", openingset.Path, "the opening set (tools/openingset)")
	nOpen := fs.Int("openings", 40, "the most played three-turn openings of the set to start from")
	perMove := fs.Duration("time", 100*time.Millisecond, "the player's time a move (0: --nodes only)")
	nodes := fs.Int64("nodes", 0, "the player's node budget a move (0: none with --time)")
	maxTurns := fs.Int("max-turns", 150, "a game this long is a draw")
	verbose := fs.Bool("v", false, "print every game")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *perMove < 0 || *nodes < 0 || *nOpen < 1 || *maxTurns < 4 {
		return fmt.Errorf("bad flags: --time and --nodes >= 0, --openings >= 1, --max-turns >= 4")
	}
	if *perMove == 0 && *nodes == 0 {
		return fmt.Errorf("give --time or --nodes")
	}
	rows, err := openingset.Load(*set)
	if err != nil {
		return err
	}
	openings := openingset.Openings(rows, *nOpen)
	r := engine.Connect6()
	player := func(ctx context.Context, b *engine.Board) (engine.Move, error) {
		res, err := engine.Play(ctx, b, engine.PlayOptions{Timeout: *perMove, MaxNodes: *nodes})
		return res.Move, err
	}
	old := func(_ context.Context, b *engine.Board) (engine.Move, error) {
		if c := engine.AttackerCandidates(b, 1); len(c) > 0 {
			return c[0], nil
		}
		// No candidate (the opponent has more threats than a turn
		// blocks): the policy's move.
		if ms := engine.RankMoves(b, nil, 1); len(ms) > 0 {
			return ms[0].Move, nil
		}
		return engine.Move{}, fmt.Errorf("no move")
	}
	var won, lost, drawn int
	start := time.Now()
	ctx := context.Background()
	for _, op := range openings {
		for _, playerBlack := range []bool{true, false} {
			black, white := player, mover(old)
			if !playerBlack {
				black, white = old, player
			}
			b, err := engine.ReplayText(r, op.Turns)
			if err != nil {
				return err
			}
			winner, err := playGame(ctx, b, black, white, *maxTurns)
			if err != nil {
				return fmt.Errorf("%s: %w", op.Turns, err)
			}
			pc := engine.Black
			if !playerBlack {
				pc = engine.White
			}
			res := "draw"
			switch winner {
			case pc:
				won++
				res = "player"
			case pc.Opp():
				lost++
				res = "old"
			default:
				drawn++
			}
			if *verbose {
				fmt.Fprintf(stdout, "%-22s player %s: %s wins after %d turns\n", op.Turns, pc, res, b.Turn())
			}
		}
	}
	n := won + lost + drawn
	fmt.Fprintf(stdout, "%d openings x 2 colours, player %v/move (nodes %d) vs rankCandidates' first: player %d wins, %d losses, %d draws: score %.1f%% (%.0fs)\n",
		len(openings), *perMove, *nodes, won, lost, drawn, 100*(float64(won)+0.5*float64(drawn))/float64(n), time.Since(start).Seconds())
	return nil
}

// playGame plays from b to the end: the winner, or Empty for a draw.
func playGame(ctx context.Context, b *engine.Board, black, white mover, maxTurns int) (engine.Color, error) {
	for b.Winner() == engine.Empty && b.Empties() > 0 && b.Turn() < maxTurns {
		mv := black
		if b.ToMove() == engine.White {
			mv = white
		}
		m, err := mv(ctx, b)
		if err != nil {
			return engine.Empty, err
		}
		if err := b.Play(m); err != nil {
			return engine.Empty, fmt.Errorf("%s plays %s: %w", b.ToMove(), engine.MoveName(b.Rules(), m), err)
		}
	}
	return b.Winner(), nil
}
