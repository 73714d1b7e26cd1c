package main

import (
	"c6book"
	"fmt"
	"io"
	"strings"

	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/proofbook"
)

// How the book subcommands print games, proof statuses and verdicts, in
// text and in JSON.

// gameStatsJSON is a position's or a reply's game counts in JSON;
// black_rate (Black's share of the decided games, 0 to 1) is null when
// none is decided. undecided counts the games whose record ends without
// six in a row (undecidedMeaning), the app's word; unfinished is the same
// count under its first name, kept for scripts.
type gameStatsJSON struct {
	Games      int64    `json:"games"`
	BlackWins  int64    `json:"black_wins"`
	WhiteWins  int64    `json:"white_wins"`
	Undecided  int64    `json:"undecided"`
	Unfinished int64    `json:"unfinished"`
	BlackRate  *float64 `json:"black_rate"`
}

// undecidedMeaning is what an undecided game is, in the words of the
// app's help (c6 book -h prints it).
const undecidedMeaning = "undecided: a game whose record ends without six in a row (resigned, lost on time, " +
	"abandoned, or drawn at 150 turns); the --json output names it \"unfinished\" too"

func statsJSON(g c6book.GameStats) gameStatsJSON {
	out := gameStatsJSON{Games: g.Games, BlackWins: g.BlackWins, WhiteWins: g.WhiteWins, Undecided: g.Unfinished, Unfinished: g.Unfinished}
	if r, ok := g.BlackRate(); ok {
		out.BlackRate = &r
	}
	return out
}

// rateText is Black's win rate as "52%", "-" when no game is decided.
func rateText(g c6book.GameStats) string {
	r, ok := g.BlackRate()
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*r)
}

// resultText names a game's result in the text output: "B+", "W+" or
// "undecided" (undecidedMeaning).
func resultText(c game.Color) string {
	if c == game.Empty {
		return "undecided"
	}
	return resultJSON(c)
}

// resultJSON names a game's result in the --json output: "B+", "W+" or
// "unfinished" (an undecided game: the value scripts read since the
// first version).
func resultJSON(c game.Color) string {
	switch c {
	case game.Black:
		return "B+"
	case game.White:
		return "W+"
	}
	return "unfinished"
}

// unsolvedJSON is an unsolved move with its reason, in the user's frame.
type unsolvedJSON struct {
	Move   string                `json:"move"`
	Reason threat.UnsolvedReason `json:"reason"`
	Why    string                `json:"why"`
}

// unsolvedWhy lists a verdict's unsolved moves and open seminull moves
// with their reasons, in the user's frame (sym: the user's board onto the
// canonical frame).
func unsolvedWhy(r game.Rules, sym int, v *c6book.Verdict) []unsolvedJSON {
	out := []unsolvedJSON{}
	for _, list := range [][]c6book.Unsolved{v.Unsolved, v.OpenSeminull} {
		for _, u := range list {
			out = append(out, unsolvedJSON{game.MoveName(r, proofbook.FromCanonical(r, sym, u.Move)), u.Reason, u.Why()})
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

// verdictOrderText says a verdict's λ order: the order of its argument
// (README, "Orders"), not the λ of the run; an open verdict's is the order
// of what it refuted so far, which its items may raise.
func verdictOrderText(v *c6book.Verdict) string {
	switch {
	case v.Order == 0:
		return "no order: nothing refuted"
	case v.Status == c6book.StatusProved:
		return fmt.Sprintf("order %d", v.Order)
	}
	return fmt.Sprintf("order %d so far", v.Order)
}

func proofText(p c6book.Proof) string {
	s := p.Status.String()
	if p.Status == c6book.StatusProved || p.Status == c6book.StatusUnchecked {
		s += fmt.Sprintf(" (order %d, %s)", p.Order, p.How)
	} else if p.Status == c6book.StatusDisproved {
		s += " (" + string(p.How) + ")"
	} else {
		s += fmt.Sprintf(" pn %d dn %d", p.PN, p.DN)
	}
	return s
}

// certText says whether a stored verdict can count in a proof.
func certText(v *c6book.Verdict) string {
	if v.Cert == nil {
		return "no certificate (proves nothing: re-verify)"
	}
	return fmt.Sprintf("certificate at tolerance %d", v.Tolerance)
}

// verdictMoves names a stored verdict's unsolved defender moves and its
// open seminull moves in the user's frame (sym: the user's board onto the
// canonical frame).
func verdictMoves(r game.Rules, sym int, v *c6book.Verdict) (uns, semi []string) {
	for _, u := range v.Unsolved {
		uns = append(uns, game.MoveName(r, proofbook.FromCanonical(r, sym, u.Move)))
	}
	for _, u := range v.OpenSeminull {
		semi = append(semi, game.MoveName(r, proofbook.FromCanonical(r, sym, u.Move)))
	}
	return uns, semi
}

// unsolvedText says which defender moves a verdict leaves open: the
// unsolved full moves and the open seminull moves (uns and semi, named).
func unsolvedText(v *c6book.Verdict, uns, semi []string) string {
	if v.AllUnsolved {
		s := "every defender move unsolved (no relevance zone bounds the defence)"
		if v.Note != "" {
			s = "every defender move unsolved: " + v.Note
		}
		return s
	}
	s := fmt.Sprintf("%d unsolved %v", len(uns), uns)
	if len(semi) > 0 {
		s += fmt.Sprintf(", %d open seminull %v", len(semi), semi)
	}
	return s
}
