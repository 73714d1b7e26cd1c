package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/player"
)

// playCandidateJSON is one root move the player considered.
type playCandidateJSON struct {
	Move  string  `json:"move"`
	Score float64 `json:"score"`
	Prior float64 `json:"prior"`
	Loses bool    `json:"loses_to_vcdt,omitempty"`
	// Games is the move's record in the LittleGolem games; absent when it
	// has none.
	Games *gameRecordJSON `json:"games,omitempty"`
}

// gameRecordJSON is a move's record in the games: the decided games
// through it and the mover's wins among them.
type gameRecordJSON struct {
	Decided int `json:"decided"`
	Wins    int `json:"wins"`
}

// playJSON is c6 play's answer.
type playJSON struct {
	Rules      string              `json:"rules"`
	Turns      string              `json:"turns"`
	ToMove     string              `json:"to_move"`
	Move       string              `json:"move"`
	Score      float64             `json:"score"`
	Reason     player.PlayReason   `json:"reason"`
	PV         []string            `json:"pv"`
	Nodes      int64               `json:"nodes"`
	Depth      int                 `json:"depth"`
	MS         int64               `json:"ms"`
	Candidates []playCandidateJSON `json:"candidates"`
}

// maxLoopLine bounds a line of turns read by --loop.
const maxLoopLine = 64 << 10

// PlayOptions are c6 play's flags.
type PlayOptions struct {
	pf      positionFlags
	json    bool
	budget  time.Duration
	nodes   int64
	ncand   int
	loop    bool
	noGames bool
}

func (o *PlayOptions) register(fs *flag.FlagSet) {
	o.pf.register(fs)
	fs.BoolVar(&o.json, "json", false, "print one JSON object (with --loop: one a line)")
	fs.DurationVar(&o.budget, "time", time.Second, "time for the move, e.g. 1s (0: --nodes only)")
	fs.Int64Var(&o.nodes, "nodes", 0, "node budget: search and solver nodes (0: none with --time, else 300000)")
	fs.IntVar(&o.ncand, "candidates", 8, "candidates printed (0: all)")
	fs.BoolVar(&o.noGames, "no-games", false, "leave out the games' opening moves: the search alone")
	fs.BoolVar(&o.loop, "loop", false, "read a position (a line of turns) from stdin, write the move on stdout, until EOF")
}

// Validate checks the flags' values: a one-line error naming the flag.
func (o *PlayOptions) Validate() error {
	switch {
	case o.budget < 0:
		return fmt.Errorf("--time %v: want a positive duration", o.budget)
	case o.nodes < 0:
		return fmt.Errorf("--nodes %d: want a positive number", o.nodes)
	case o.loop && (o.pf.turns != "" || o.pf.sgf != ""):
		return errors.New("--loop reads the positions from stdin: give no --turns or --sgf")
	}
	return nil
}

// PlayCommand is c6 play: the player's move for the side to move, or
// with --loop one move a line for match tools.
type PlayCommand struct{ stdio }

func (c *PlayCommand) Run(ctx context.Context, args []string) error {
	stdin, stdout, stderr := c.stdin, c.stdout, c.stderr
	var o PlayOptions
	if err := parseOptions("c6 play", &o, args, stderr); err != nil {
		return err
	}
	opts := player.PlayOptions{MaxNodes: o.nodes, Timeout: o.budget, NoGames: o.noGames}
	if o.loop {
		r, err := o.pf.ruleSet()
		if err != nil {
			return err
		}
		return playLoop(ctx, r, opts, o.ncand, o.json, stdin, stdout)
	}
	b, err := o.pf.load()
	if err != nil {
		return err
	}
	out, err := playOne(ctx, b, opts, o.ncand)
	if err != nil {
		return err
	}
	if o.json {
		return writeJSON(stdout, out)
	}
	printPlay(stdout, out)
	return nil
}

// playOne runs the player on b.
func playOne(ctx context.Context, b *board.Board, opts player.PlayOptions, ncand int) (playJSON, error) {
	r := b.Rules()
	res, err := player.Play(ctx, b, opts)
	if err != nil {
		return playJSON{}, err
	}
	out := playJSON{
		Rules:      r.String(),
		Turns:      game.FormatTurns(r, b.History()),
		ToMove:     b.ToMove().String(),
		Move:       game.MoveName(r, res.Move),
		Score:      finite(res.Score),
		Reason:     res.Reason,
		PV:         moveNames(r, res.PV),
		Nodes:      res.Nodes,
		Depth:      res.Depth,
		MS:         res.Elapsed.Milliseconds(),
		Candidates: []playCandidateJSON{},
	}
	for i, c := range res.Candidates {
		if ncand > 0 && i == ncand {
			break
		}
		cj := playCandidateJSON{Move: game.MoveName(r, c.Move), Score: finite(c.Score), Prior: finite(c.Prior), Loses: c.Loses}
		if c.Games > 0 {
			cj.Games = &gameRecordJSON{Decided: c.Games, Wins: c.Wins}
		}
		out.Candidates = append(out.Candidates, cj)
	}
	return out, nil
}

// finite rounds a score for printing; an unscored candidate (-Inf: the
// search ran out before it) prints as the lowest finite score.
func finite(v float64) float64 {
	switch {
	case math.IsInf(v, -1) || math.IsNaN(v):
		return -math.MaxFloat32
	case math.IsInf(v, 1):
		return math.MaxFloat32
	}
	return math.Round(v*1000) / 1000
}

// playLoop answers positions from in, one a line, until EOF or "quit": the
// move (or its JSON) on a line of its own, or "error: ..." for a bad line.
func playLoop(ctx context.Context, r game.Rules, opts player.PlayOptions, ncand int, asJSON bool, in io.Reader, out io.Writer) error {
	br := bufio.NewReaderSize(in, 4096)
	for {
		line, tooLong, err := readLine(br, maxLoopLine)
		if err != nil && line == "" && !tooLong {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		line = strings.TrimSpace(line)
		switch {
		case tooLong:
			fmt.Fprintf(out, "error: line longer than %d bytes\n", maxLoopLine)
			continue
		case line == "quit":
			return nil
		}
		res, perr := playLine(ctx, r, opts, ncand, line)
		switch {
		case perr != nil:
			fmt.Fprintf(out, "error: %s\n", strings.ReplaceAll(perr.Error(), "\n", " "))
		case asJSON:
			if err := writeJSON(out, res); err != nil {
				return err
			}
		default:
			fmt.Fprintln(out, res.Move)
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
	}
}

func playLine(ctx context.Context, r game.Rules, opts player.PlayOptions, ncand int, line string) (playJSON, error) {
	turns, err := game.ParseTurns(r, line)
	if err != nil {
		return playJSON{}, err
	}
	b, err := board.Replay(r, turns)
	if err != nil {
		return playJSON{}, err
	}
	return playOne(ctx, b, opts, ncand)
}

// readLine reads one line of at most limit bytes; a longer line is read to
// its end and dropped (tooLong), so memory stays bounded.
func readLine(br *bufio.Reader, limit int) (line string, tooLong bool, err error) {
	var sb strings.Builder
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if sb.Len()+len(chunk) > limit+1 {
				tooLong = true
				sb.Reset()
			} else {
				sb.Write(chunk)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return strings.TrimRight(sb.String(), "\r\n"), tooLong, err
	}
}

func printPlay(w io.Writer, v playJSON) {
	fmt.Fprintf(w, "%s plays %s (score %g, %s)\n", v.ToMove, v.Move, v.Score, v.Reason)
	fmt.Fprintf(w, "pv: %s\n", strings.Join(v.PV, " "))
	fmt.Fprintf(w, "%d nodes, depth %d, %s\n", v.Nodes, v.Depth, time.Duration(v.MS)*time.Millisecond)
	for i, c := range v.Candidates {
		note := ""
		if g := c.Games; g != nil {
			note += fmt.Sprintf("  games: %d of %d decided won", g.Wins, g.Decided)
		}
		if c.Loses {
			note += "  loses to a VCDT"
		}
		fmt.Fprintf(w, "%2d. %-8s score %10.3f  prior %7.3f%s\n", i+1, c.Move, c.Score, c.Prior, note)
	}
}
