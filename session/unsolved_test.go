package session_test

import (
	"fmt"
	"strings"
	"testing"

	"c6book"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/session"
)

// A verify report's unsolved replies are grouped by reason with their
// counts: the biggest group first, each move in exactly one group, in the
// verdict's order; the open seminull positions are a group of their own.
func TestGroupUnsolvedByReason(t *testing.T) {
	r := game.Connect6()
	mv := func(s string) game.Move {
		m, err := game.ParseMove(r, s)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	v := &c6book.Verdict{
		Unsolved: []c6book.Unsolved{
			{Move: mv("a1a2"), Reason: threat.ReasonBudget},
			{Move: mv("b1b2"), Reason: threat.ReasonExhausted},
			{Move: mv("c1c2"), Reason: threat.ReasonExhausted},
			{Move: mv("d1d2"), Reason: threat.ReasonLoss},
			{Move: mv("e1e2"), Reason: threat.ReasonExhausted},
			{Move: mv("f1f2"), Reason: threat.ReasonBudget},
		},
		OpenSeminull: []c6book.Unsolved{{Move: mv("g1")}},
	}
	var got []string
	for _, g := range session.GroupUnsolved(v) {
		var ms []string
		for _, m := range g.Moves {
			ms = append(ms, game.MoveName(r, m))
		}
		got = append(got, fmt.Sprintf("%s: %s", g.Why, strings.Join(ms, " ")))
	}
	want := []string{
		c6book.ReasonText(threat.ReasonExhausted) + ": b1b2 c1c2 e1e2",
		c6book.ReasonText(threat.ReasonBudget) + ": a1a2 f1f2",
		c6book.ReasonText(threat.ReasonLoss) + ": d1d2",
		session.SeminullWhy + ": g1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("groups:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if session.GroupUnsolved(nil) != nil || len(session.GroupUnsolved(&c6book.Verdict{})) != 0 {
		t.Fatal("no verdict or no items: groups")
	}
}
