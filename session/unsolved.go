package session

import (
	"c6book"
	"c6book/engine/game"
)

// UnsolvedGroup is one reason a verdict leaves defender moves to the book,
// with those moves (in the verdict's order).
type UnsolvedGroup struct {
	Why   string
	Moves []game.Move
}

// SeminullWhy is the reason shown for a verdict's open seminull
// positions: one-stone moves the expert answers.
const SeminullWhy = "open seminull position (answer it)"

// GroupUnsolved groups the moves v leaves to the book (its Items) by
// reason: its unsolved replies by their reason, its open seminull
// positions apart; the biggest group first, groups of one size in the
// order their first move has in the verdict. nil for no verdict.
func GroupUnsolved(v *c6book.Verdict) []UnsolvedGroup {
	if v == nil {
		return nil
	}
	var out []UnsolvedGroup
	at := map[string]int{}
	add := func(why string, m game.Move) {
		i, ok := at[why]
		if !ok {
			i = len(out)
			at[why] = i
			out = append(out, UnsolvedGroup{Why: why})
		}
		out[i].Moves = append(out[i].Moves, m)
	}
	for _, u := range v.Unsolved {
		add(u.Why(), u.Move)
	}
	for _, u := range v.OpenSeminull {
		add(SeminullWhy, u.Move)
	}
	// A stable insertion sort by size: a handful of reasons.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && len(out[j].Moves) > len(out[j-1].Moves); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
