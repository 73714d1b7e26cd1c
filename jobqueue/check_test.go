package jobqueue

import (
	"context"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
	threatpkg "c6book/engine/threat"
	verifypkg "c6book/engine/verify"
)

// Open verdicts are checked as strictly as proved ones: a forged open
// verdict (every defender move unsolved without a refutation, items
// listed twice, off the board, on occupied squares, of the wrong size,
// losing at once, an open verdict with nothing open) is rejected, while
// the honest ones pass.
func TestForgedOpenVerdictRejected(t *testing.T) {
	ctx := context.Background()
	type cased struct {
		b  *board.Board
		o  verifypkg.VerifyOptions
		vd verifypkg.Verdict
	}
	verify := func(tc testCase) cased {
		job, _ := newJob(tc.board(t), tc.withTol(t))
		jb, jo, err := job.board()
		if err != nil {
			t.Fatal(err)
		}
		o := jo
		o.Workers = 1
		vd, err := verifypkg.Verify(ctx, jb, o, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := checkVerdict(ctx, jb, jo, &vd); err != nil {
			t.Fatalf("%s: the honest verdict is rejected: %v", tc.turns, err)
		}
		return cased{jb, jo, vd}
	}
	threat := verify(smallCases[0]) // the attacker threatens: proved
	open := verify(smallCases[3])   // no threat: open with a null strategy and unsolved moves
	if threat.b.Threats(threat.vd.Attacker) == 0 || open.vd.Status != verifypkg.StatusOpen || len(open.vd.Unsolved) == 0 || open.vd.NullTree == nil {
		t.Fatalf("the cases changed: threats %d; open case %s with %d unsolved", threat.b.Threats(threat.vd.Attacker), open.vd.Status, len(open.vd.Unsolved))
	}
	// every full defender move of b, unsolved
	everyMove := func(b *board.Board) []verifypkg.UnsolvedMove {
		var empties []game.Square
		for s := 0; s < b.Rules().Squares(); s++ {
			if b.At(game.Square(s)) == game.Empty {
				empties = append(empties, game.Square(s))
			}
		}
		var out []verifypkg.UnsolvedMove
		for i := range empties {
			for j := i + 1; j < len(empties); j++ {
				out = append(out, verifypkg.UnsolvedMove{Move: game.NewMove(empties[i], empties[j]), Reason: threatpkg.ReasonBudget})
			}
		}
		return out
	}
	claimNothing := func(vd *verifypkg.Verdict) {
		vd.Status, vd.Order = verifypkg.StatusOpen, 0
		vd.NullZone, vd.NullTree, vd.SeminullZones, vd.Covered, vd.Zone = nil, nil, nil, nil, nil
		vd.Unsolved, vd.OpenSeminull, vd.AllUnsolved = nil, nil, false
	}
	occupied := func(b *board.Board) game.Square {
		return b.StoneList(game.Black)[0]
	}
	u0 := open.vd.Unsolved[0].Move
	for _, f := range []struct {
		name string
		c    cased
		edit func(vd *verifypkg.Verdict, b *board.Board)
	}{
		{"all-unsolved where the attacker threatens", threat, func(vd *verifypkg.Verdict, b *board.Board) {
			claimNothing(vd)
			vd.AllUnsolved = true
		}},
		{"every move unsolved where the attacker threatens", threat, func(vd *verifypkg.Verdict, b *board.Board) {
			claimNothing(vd)
			vd.Unsolved = everyMove(b)
		}},
		{"every move unsolved, no null strategy", open, func(vd *verifypkg.Verdict, b *board.Board) {
			claimNothing(vd)
			vd.Unsolved = everyMove(b)
		}},
		{"an unsolved move twice", open, func(vd *verifypkg.Verdict, b *board.Board) {
			vd.Unsolved = append(vd.Unsolved, vd.Unsolved[0])
		}},
		{"an unsolved move off the board", open, func(vd *verifypkg.Verdict, b *board.Board) {
			vd.Unsolved = append(vd.Unsolved, verifypkg.UnsolvedMove{Move: game.NewMove(u0.At(0), game.Square(b.Rules().Squares()))})
		}},
		{"an unsolved move on an occupied square", open, func(vd *verifypkg.Verdict, b *board.Board) {
			vd.Unsolved = append(vd.Unsolved, verifypkg.UnsolvedMove{Move: game.NewMove(u0.At(0), occupied(b))})
		}},
		{"an unsolved move of one stone", open, func(vd *verifypkg.Verdict, b *board.Board) {
			vd.Unsolved = append(vd.Unsolved, verifypkg.UnsolvedMove{Move: game.NewMove(u0.At(0))})
		}},
		{"an unsolved move also covered", open, func(vd *verifypkg.Verdict, b *board.Board) {
			vd.Unsolved = append(vd.Unsolved, verifypkg.UnsolvedMove{Move: vd.Covered[0].Move})
		}},
		{"an unsolved move that loses at once", threat, func(vd *verifypkg.Verdict, b *board.Board) {
			vd.Status, vd.Order = verifypkg.StatusOpen, 0
			vd.Unsolved = nil
			for _, u := range everyMove(b) {
				if !blocks(b, vd.Attacker, u.Move) {
					vd.Unsolved = []verifypkg.UnsolvedMove{u}
					break
				}
			}
		}},
		{"an open seminull stone twice", open, func(vd *verifypkg.Verdict, b *board.Board) {
			s := verifypkg.UnsolvedMove{Move: game.NewMove(freeStone(b, vd))}
			vd.OpenSeminull = append(vd.OpenSeminull, s, s)
		}},
		{"an open seminull stone on an occupied square", open, func(vd *verifypkg.Verdict, b *board.Board) {
			vd.OpenSeminull = append(vd.OpenSeminull, verifypkg.UnsolvedMove{Move: game.NewMove(occupied(b))})
		}},
		{"an open seminull item of two stones", open, func(vd *verifypkg.Verdict, b *board.Board) {
			vd.OpenSeminull = append(vd.OpenSeminull, verifypkg.UnsolvedMove{Move: u0})
		}},
		{"open with nothing open", threat, func(vd *verifypkg.Verdict, b *board.Board) {
			vd.Status, vd.Order = verifypkg.StatusOpen, 0
		}},
		{"a move left out", open, func(vd *verifypkg.Verdict, b *board.Board) {
			vd.Unsolved = vd.Unsolved[1:]
		}},
	} {
		vd := cloneVerdict(t, f.c.vd)
		f.edit(&vd, f.c.b)
		if err := checkVerdict(ctx, f.c.b, f.c.o, &vd); err == nil {
			t.Errorf("%s: accepted", f.name)
		} else {
			t.Logf("%s: %v", f.name, err)
		}
	}
}

// freeStone is an empty square that is no refuted seminull stone of vd.
func freeStone(b *board.Board, vd *verifypkg.Verdict) game.Square {
	for s := game.Square(0); int(s) < b.Rules().Squares(); s++ {
		refuted := false
		for _, z := range vd.SeminullZones {
			refuted = refuted || z.Stone == s
		}
		if b.At(s) == game.Empty && !refuted {
			return s
		}
	}
	return -1
}

// blocks reports whether defender move m leaves the attacker no threat.
func blocks(b *board.Board, attacker game.Color, m game.Move) bool {
	nb := b.Clone()
	for i := 0; i < m.Len(); i++ {
		nb.Place(m.At(i), attacker.Opp())
	}
	return !nb.HasThreat(attacker)
}

// cloneVerdict is a deep copy of vd (through the codec).
func cloneVerdict(t *testing.T, vd verifypkg.Verdict) verifypkg.Verdict {
	t.Helper()
	data, err := encodeVerdict(&vd)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := game.ParseRules("9,9,5,2,1")
	out, err := decodeVerdict(r, data)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
