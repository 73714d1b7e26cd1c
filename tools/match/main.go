// Command match plays the engine's player against the auto-pilot's old
// first candidate (rankCandidates, engine.AttackerCandidates) from the most
// played three-turn openings of the LittleGolem games, each opening twice
// (each engine with each colour), and prints the score:
//
//	nice go run ./tools/match [--games FILE] [--openings 40] [--time 100ms | --nodes N]
//
// Run it from the project root. A game ends with a six, a full board, or
// at --max-turns (a draw, LittleGolem's rule is 150).
package main

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"c6book/engine"
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
	games := fs.String("games", "../shared/data/littlegolem-connect6-games.json.gz", "LittleGolem games {gid: [turns]}")
	nOpen := fs.Int("openings", 40, "the most played three-turn openings to start from")
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
	openings, err := topOpenings(*games, *nOpen)
	if err != nil {
		return err
	}
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
			b, err := engine.ReplayText(r, op.turns)
			if err != nil {
				return err
			}
			winner, err := playGame(ctx, b, black, white, *maxTurns)
			if err != nil {
				return fmt.Errorf("%s: %w", op.turns, err)
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
				fmt.Fprintf(stdout, "%-22s player %s: %s wins after %d turns\n", op.turns, pc, res, b.Turn())
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

type opening struct {
	turns string
	games int
}

// topOpenings returns the n most played first three turns (ties: by the
// turns), as played (no symmetry folding).
func topOpenings(path string, n int) ([]opening, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rd io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			return nil, err
		}
		defer z.Close()
		rd = z
	}
	var raw map[string][]string
	if err := json.NewDecoder(io.LimitReader(rd, 1<<30)).Decode(&raw); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r := engine.Connect6()
	count := map[string]int{}
	for _, turns := range raw {
		if len(turns) < 4 {
			continue
		}
		key := strings.Join(turns[:3], " ")
		if _, err := engine.ReplayText(r, key); err != nil {
			continue
		}
		count[key]++
	}
	var out []opening
	for k, v := range count {
		out = append(out, opening{k, v})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].games != out[j].games {
			return out[i].games > out[j].games
		}
		return out[i].turns < out[j].turns
	})
	if len(out) > n {
		out = out[:n]
	}
	return out, nil
}
