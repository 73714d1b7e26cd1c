package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"c6book/engine/game"
)

type threatWindowJSON struct {
	Dir     string   `json:"dir"`
	Squares []string `json:"squares"`
	Empties []string `json:"empties"`
}

type playerThreatsJSON struct {
	Windows  []threatWindowJSON `json:"windows"`
	Normal   []string           `json:"critical_normal"`
	Relaxed  []string           `json:"critical_relaxed"`
	Stones   int                `json:"stones"`
	WinsNext bool               `json:"wins_next_turn"`
}

type threatsJSON struct {
	Rules   string                       `json:"rules"`
	Turn    int                          `json:"turn"`
	ToMove  string                       `json:"to_move"`
	Threats map[string]int               `json:"threats"`
	Winner  *string                      `json:"winner"`
	Players map[string]playerThreatsJSON `json:"players"`
}

var dirNames = [4]string{"horizontal", "vertical", "diagonal", "anti-diagonal"}

// ThreatsOptions are c6 threats' flags.
type ThreatsOptions struct {
	pf   positionFlags
	json bool
}

func (o *ThreatsOptions) register(fs *flag.FlagSet) {
	o.pf.register(fs)
	fs.BoolVar(&o.json, "json", false, "print one JSON object")
}

// Validate checks the flags: a one-line error.
func (o *ThreatsOptions) Validate() error {
	if o.pf.turns == "" && o.pf.sgf == "" {
		return errors.New("give the position with --turns or --sgf")
	}
	return nil
}

// ThreatsCommand is c6 threats: threat counts, windows and critical
// defences of a position.
type ThreatsCommand struct{ stdio }

func (c *ThreatsCommand) Run(ctx context.Context, args []string) error {
	stdout, stderr := c.stdout, c.stderr
	var o ThreatsOptions
	if err := parseOptions("c6 threats", &o, args, stderr); err != nil {
		return err
	}
	b, err := o.pf.load()
	if err != nil {
		return err
	}
	r := b.Rules()
	out := threatsJSON{
		Rules:   r.String(),
		Turn:    b.Turn(),
		ToMove:  b.ToMove().String(),
		Threats: map[string]int{},
		Players: map[string]playerThreatsJSON{},
	}
	if w := b.Winner(); w != game.Empty {
		s := w.String()
		out.Winner = &s
	}
	for _, c := range []game.Color{game.Black, game.White} {
		out.Threats[c.String()] = b.Threats(c)
		pt := playerThreatsJSON{Windows: []threatWindowJSON{}, Normal: []string{}, Relaxed: []string{}, Stones: b.Stones(c)}
		for _, tw := range b.ThreatWindows(c) {
			pt.Windows = append(pt.Windows, threatWindowJSON{Dir: dirNames[tw.Dir], Squares: squareNames(r, tw.Squares), Empties: squareNames(r, tw.Empties)})
		}
		normal, relaxed := b.CriticalDefences(c)
		pt.Normal = append(pt.Normal, moveNames(r, normal)...)
		pt.Relaxed = append(pt.Relaxed, moveNames(r, relaxed)...)
		pt.WinsNext = b.HasThreat(c)
		out.Players[c.String()] = pt
	}
	if o.json {
		return writeJSON(stdout, out)
	}
	fmt.Fprintf(stdout, "rules %s, turn %d, %s to move\n", out.Rules, out.Turn+1, out.ToMove)
	if out.Winner != nil {
		fmt.Fprintf(stdout, "winner: %s\n", *out.Winner)
	}
	for _, c := range []string{"B", "W"} {
		n := out.Threats[c]
		label := fmt.Sprint(n)
		if n > r.P {
			label = fmt.Sprintf("%d or more", r.P+1)
		}
		pt := out.Players[c]
		fmt.Fprintf(stdout, "%s: %s threats, %d windows", c, label, len(pt.Windows))
		if len(pt.Normal) > 0 {
			fmt.Fprintf(stdout, ", critical defences %v", pt.Normal)
		}
		if len(pt.Relaxed) > 0 {
			fmt.Fprintf(stdout, ", relaxed %v", pt.Relaxed)
		}
		fmt.Fprintln(stdout)
	}
	return nil
}
