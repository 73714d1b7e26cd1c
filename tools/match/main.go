// Command match plays the engine's player against the auto-pilot's old
// first candidate (rankCandidates, player.AttackerCandidates), or against
// itself at another budget (--opponent player --opp-time 100ms), from the
// most played three-turn openings of the LittleGolem games (the openings of
// the opening set tools/benchverify/openings.tsv, written by
// tools/openingset), each opening
// twice (each engine with each colour), and prints the score:
//
//	nice go run ./tools/match [--set FILE] [--openings 40] [--skip 0] [--time 100ms | --nodes N]
//	    [--opponent old|player [--opp-time D] [--opp-nodes N] [--opp-no-games]] [--no-games]
//	    [--par 1] [-v] [--lost FILE]
//
// -v prints every game with its moves (turn notation, from the empty
// board: paste after `c6 play --turns`); --lost FILE writes the games the
// player lost, one a line ("turns<TAB>player's colour"). --par N plays N
// games at once (use it with --nodes only: time budgets would share the
// cores). Run it from the project root. A game ends with a six, a full
// board, or at --max-turns (a draw, LittleGolem's rule is 150).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"c6book/engine/board"
	gamepkg "c6book/engine/game"
	playerpkg "c6book/engine/player"
	"c6book/internal/openingset"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "match:", err)
		os.Exit(1)
	}
}

// mover chooses the move of the side to move.
type mover func(ctx context.Context, b *board.Board) (gamepkg.Move, error)

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("match", flag.ContinueOnError)
	fs.SetOutput(stderr)
	set := fs.String("set", openingset.Path, "the opening set (tools/openingset)")
	nOpen := fs.Int("openings", 40, "the most played three-turn openings of the set to start from")
	skip := fs.Int("skip", 0, "leave out the first N of them (to play a later subset)")
	perMove := fs.Duration("time", 100*time.Millisecond, "the player's time a move (0: --nodes only)")
	nodes := fs.Int64("nodes", 0, "the player's node budget a move (0: none with --time)")
	opponent := fs.String("opponent", "old", "old (rankCandidates' first move) or player (the player at --opp-time/--opp-nodes)")
	oppTime := fs.Duration("opp-time", 0, "the opponent player's time a move (--opponent player)")
	oppNodes := fs.Int64("opp-nodes", 0, "the opponent player's node budget a move (--opponent player)")
	noGames := fs.Bool("no-games", false, "the player leaves out the games' opening moves (player.GameMoves)")
	oppNoGames := fs.Bool("opp-no-games", false, "the opponent player leaves them out (--opponent player)")
	maxTurns := fs.Int("max-turns", 150, "a game this long is a draw")
	par := fs.Int("par", 1, "games played at once")
	verbose := fs.Bool("v", false, "print every game with its moves")
	lostFile := fs.String("lost", "", "write the games the player lost to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *perMove < 0 || *nodes < 0 || *oppTime < 0 || *oppNodes < 0 || *nOpen < 1 || *skip < 0 || *skip >= *nOpen || *maxTurns < 4 || *par < 1 {
		return fmt.Errorf("bad flags: --time, --nodes, --opp-time, --opp-nodes >= 0, 0 <= --skip < --openings, --max-turns >= 4, --par >= 1")
	}
	if *perMove == 0 && *nodes == 0 {
		return fmt.Errorf("give --time or --nodes")
	}
	if *opponent != "old" && *opponent != "player" {
		return fmt.Errorf("--opponent: %q is neither old nor player", *opponent)
	}
	if *opponent == "player" && *oppTime == 0 && *oppNodes == 0 {
		return fmt.Errorf("--opponent player: give --opp-time or --opp-nodes")
	}
	rows, err := openingset.Load(*set)
	if err != nil {
		return err
	}
	openings := openingset.Openings(rows, *nOpen)
	openings = openings[min(*skip, len(openings)):]
	r := gamepkg.Connect6()
	player := func(ctx context.Context, b *board.Board) (gamepkg.Move, error) {
		res, err := playerpkg.Play(ctx, b, playerpkg.PlayOptions{Timeout: *perMove, MaxNodes: *nodes, NoGames: *noGames})
		return res.Move, err
	}
	old := func(_ context.Context, b *board.Board) (gamepkg.Move, error) {
		if c := playerpkg.AttackerCandidates(b, 1); len(c) > 0 {
			return c[0], nil
		}
		// No candidate (the opponent has more threats than a turn
		// blocks): the policy's move.
		if ms := playerpkg.RankMoves(b, nil, 1); len(ms) > 0 {
			return ms[0].Move, nil
		}
		return gamepkg.Move{}, fmt.Errorf("no move")
	}
	if *opponent == "player" {
		old = func(ctx context.Context, b *board.Board) (gamepkg.Move, error) {
			res, err := playerpkg.Play(ctx, b, playerpkg.PlayOptions{Timeout: *oppTime, MaxNodes: *oppNodes, NoGames: *oppNoGames})
			return res.Move, err
		}
	}
	type game struct {
		op          openingset.Opening
		playerBlack bool
		winner      gamepkg.Color
		moves       string
		turns       int
		err         error
	}
	var list []*game
	for _, op := range openings {
		for _, playerBlack := range []bool{true, false} {
			list = append(list, &game{op: op, playerBlack: playerBlack})
		}
	}
	start := time.Now()
	ctx := context.Background()
	next := make(chan *game)
	var wg sync.WaitGroup
	for w := 0; w < *par; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range next {
				black, white := player, mover(old)
				if !g.playerBlack {
					black, white = old, player
				}
				b, err := board.ReplayText(r, g.op.Turns)
				if err != nil {
					g.err = err
					continue
				}
				g.winner, g.err = playGame(ctx, b, black, white, *maxTurns)
				g.moves = gamepkg.FormatTurns(r, b.History())
				g.turns = b.Turn()
			}
		}()
	}
	for _, g := range list {
		next <- g
	}
	close(next)
	wg.Wait()
	var won, lost, drawn int
	var lostLines []string
	for _, g := range list {
		if g.err != nil {
			return fmt.Errorf("%s: %w", g.op.Turns, g.err)
		}
		pc := gamepkg.Black
		if !g.playerBlack {
			pc = gamepkg.White
		}
		res := "draw"
		switch g.winner {
		case pc:
			won++
			res = "player"
		case pc.Opp():
			lost++
			res = "opponent"
			lostLines = append(lostLines, g.moves+"\t"+pc.String())
		default:
			drawn++
		}
		if *verbose {
			fmt.Fprintf(stdout, "%-22s player %s: %s wins after %d turns: %s\n", g.op.Turns, pc, res, g.turns, g.moves)
		}
	}
	if *lostFile != "" {
		text := strings.Join(lostLines, "\n")
		if text != "" {
			text += "\n"
		}
		if err := os.WriteFile(*lostFile, []byte(text), 0o644); err != nil {
			return err
		}
	}
	opp := "rankCandidates' first"
	if *opponent == "player" {
		opp = fmt.Sprintf("the player at %v/move (nodes %d)", *oppTime, *oppNodes)
	}
	n := won + lost + drawn
	fmt.Fprintf(stdout, "%d openings x 2 colours, player %v/move (nodes %d) vs %s: player %d wins, %d losses, %d draws: score %.1f%% (%.0fs)\n",
		len(openings), *perMove, *nodes, opp, won, lost, drawn, 100*(float64(won)+0.5*float64(drawn))/float64(n), time.Since(start).Seconds())
	return nil
}

// playGame plays from b to the end: the winner, or Empty for a draw.
func playGame(ctx context.Context, b *board.Board, black, white mover, maxTurns int) (gamepkg.Color, error) {
	for b.Winner() == gamepkg.Empty && b.Empties() > 0 && b.Turn() < maxTurns {
		mv := black
		if b.ToMove() == gamepkg.White {
			mv = white
		}
		m, err := mv(ctx, b)
		if err != nil {
			return gamepkg.Empty, err
		}
		if err := b.Play(m); err != nil {
			return gamepkg.Empty, fmt.Errorf("%s plays %s: %w", b.ToMove(), gamepkg.MoveName(b.Rules(), m), err)
		}
	}
	return b.Winner(), nil
}
