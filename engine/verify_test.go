package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
)

// coverage finds the verdict's argument for defender move dm (played on b)
// and checks it against every defender reply. It returns "unsolved" when the
// verdict lists dm, "" when covered and sound, or an error.
func coverage(ctx context.Context, b *Board, vd Verdict, dm Move) (string, error) {
	for _, u := range vd.Unsolved {
		if u.Move == dm {
			return "unsolved", nil
		}
	}
	for _, os := range vd.OpenSeminull {
		if dm.Contains(os.At(0)) {
			return "open-seminull", nil
		}
	}
	nb := b.Clone()
	d := nb.ToMove()
	for i := 0; i < dm.Len(); i++ {
		nb.Place(dm.At(i), d)
	}
	nb.SetToMove(d.Opp())
	if nb.full[d] > 0 {
		return "", fmt.Errorf("defender move %s wins for the defender", MoveName(b.rules, dm))
	}
	if nb.HasThreat(d.Opp()) {
		return "immediate", nil
	}
	check := func(how string, st *Strategy) (string, error) {
		if err := CheckStrategy(ctx, nb, st, 3_000_000); err != nil {
			return "", fmt.Errorf("defender move %s covered by %s: %w", MoveName(b.rules, dm), how, err)
		}
		return how, nil
	}
	for _, c := range vd.Covered {
		if !c.Seminull && c.Move == dm {
			return check("explicit", c.Tree)
		}
	}
	for _, sz := range vd.SeminullZones {
		if !dm.Contains(sz.Stone) {
			continue
		}
		zone := SqSetOf(sz.Zone...)
		other := dm.At(0)
		if other == sz.Stone && dm.Len() > 1 {
			other = dm.At(1)
		}
		if dm.Len() == 1 || !zone.Has(other) {
			return check("seminull", sz.Tree)
		}
	}
	if vd.NullTree != nil {
		zone := SqSetOf(vd.NullZone...)
		inside := false
		for i := 0; i < dm.Len(); i++ {
			inside = inside || zone.Has(dm.At(i))
		}
		if !inside {
			return check("null", vd.NullTree)
		}
	}
	return "", fmt.Errorf("defender move %s is neither refuted nor listed unsolved", MoveName(b.rules, dm))
}

// Verify is sound: for proved and open verdicts alike, every defender move
// (all of them) outside the unsolved list is refuted by the argument the
// verdict carries, checked against every defender reply after it.
func TestVerifySoundAgainstEveryDefence(t *testing.T) {
	ctx := context.Background()
	cases := []solverCase{
		{Rules{9, 9, 5, 2, 1}, 5, 5},
		{Rules{8, 8, 4, 1, 1}, 4, 4},
		{Rules{11, 11, 6, 2, 1}, 12, 11},
	}
	for ci, sc := range cases {
		rng := rand.New(rand.NewPCG(uint64(ci)+300, 11))
		stat := map[string]int{}
		for _, lambda := range []int{2, 3} {
			for i := 0; i < 8; i++ {
				// Attacker to move: play one of its threat-free moves at
				// random so the verified position has the defender to move.
				b := randomSolverPosition(rng, sc.rules, sc.nA, sc.nD)
				a := b.ToMove()
				var empt []Square
				for s, c := range b.cells {
					if c == Empty {
						empt = append(empt, Square(s))
					}
				}
				for j := 0; j < sc.rules.P; j++ {
					k := rng.IntN(len(empt))
					b.Place(empt[k], a)
					empt = append(empt[:k], empt[k+1:]...)
				}
				b.SetToMove(a.Opp())
				if b.Winner() != Empty || b.HasThreat(a.Opp()) {
					continue
				}
				vd, err := Verify(ctx, b, VerifyOptions{Lambda: lambda, Limits: Limits{MaxNodes: 5000}, Workers: 2})
				if err != nil {
					t.Fatal(err)
				}
				stat[vd.Status]++
				if vd.AllUnsolved {
					stat["all-open"]++
					continue
				}
				forEachCombo(empt, sc.rules.P, func(sq []Square) bool {
					how, err := coverage(ctx, b, vd, NewMove(sq...))
					if err != nil {
						t.Fatalf("%v λ%d: %v\n%s", sc.rules, lambda, err, dumpBoard(b))
					}
					stat[how]++
					return true
				})
			}
		}
		t.Logf("%v: %v", sc.rules, stat)
		if stat[StatusProved] == 0 || stat["null"] == 0 || stat["seminull"] == 0 {
			t.Errorf("%v: the sample does not exercise proofs and zones: %v", sc.rules, stat)
		}
	}
}
