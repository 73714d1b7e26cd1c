package proofcheck

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	boardpkg "c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/internal/testenv"
)

// mirrorPosition returns a position with the defender to move that board
// symmetry sym maps onto itself (whole orbits of attacker and defender
// stones), or nil when the one drawn is over, lets the defender win at once
// or gives the attacker more than p threats.
func mirrorPosition(rng *rand.Rand, r game.Rules, sym, nA, nD int) (*boardpkg.Board, game.Color) {
	a := game.Black
	if rng.IntN(2) == 0 {
		a = game.White
	}
	d := a.Opp()
	used := map[game.Square]bool{}
	pick := func(n int) []game.Square {
		var out []game.Square
		for tries := 0; len(out) < n && tries < 200; tries++ {
			s := game.Square(rng.IntN(r.Squares()))
			orbit := []game.Square{s}
			for t := r.Transform(sym, s); t != s; t = r.Transform(sym, t) {
				orbit = append(orbit, t)
			}
			if slices.ContainsFunc(orbit, func(t game.Square) bool { return used[t] }) {
				continue
			}
			for _, t := range orbit {
				used[t] = true
			}
			out = append(out, orbit...)
		}
		return out
	}
	as, ds := pick(nA), pick(nD)
	black, white := as, ds
	if a == game.White {
		black, white = ds, as
	}
	b, err := boardpkg.SetUp(r, black, white, d)
	if err != nil || b.Winner() != game.Empty || b.HasThreat(d) || b.Threats(a) > r.P {
		return nil, a
	}
	return b, a
}

// The verifier solves one defender move per orbit of a symmetric
// position's symmetries and stores the other moves' strategies mapped: its
// certificates check like any other (CheckVerdict and the coverage rule).
// A forged one, where a covered move's strategy is another covered move's
// mapped by a symmetry that does not fix the position, is refused, each
// time the engine's own strategy check (CheckStrategy, against every
// defender reply) finds the forged strategy does not win there.
func TestSymmetricCertificates(t *testing.T) {
	testenv.Heavy(t)
	ctx := context.Background()
	r := game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}
	rng := rand.New(rand.NewPCG(27, 6231))
	checked, mapped, forged, wins := 0, 0, 0, 0
	for tries := 0; checked < 8 && tries < 400; tries++ {
		sym := 1 + rng.IntN(r.SymmetryCount()-1)
		b, a := mirrorPosition(rng, r, sym, 8, 6)
		if b == nil {
			continue
		}
		vd, err := verify.Verify(ctx, b, verify.VerifyOptions{Lambda: 2, Limits: threat.Limits{MaxNodes: 4000}, Workers: 2}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if vd.AllUnsolved || len(vd.Covered) < 2 {
			continue
		}
		black, white := b.StoneList(game.Black), b.StoneList(game.White)
		cert := FromVerdict(&vd)
		res, err := CheckVerdict(ctx, r, black, white, a.Opp(), 0, cert)
		if err != nil {
			t.Fatalf("the certificate of a symmetric position does not check: %v\n%s", err, b.Diagram())
		}
		if err := res.CheckItems(ItemsOf(&vd)); err != nil {
			t.Fatalf("coverage: %v\n%s", err, b.Diagram())
		}
		checked++
		pb, err := setUp(r, black, white)
		if err != nil {
			t.Fatal(err)
		}
		stab := stabilizer(r, pb)
		fixes := func(g int) bool { return slices.Contains(stab, g) }
		covered := map[game.Move]int{}
		for i, cv := range cert.Covered {
			covered[cv.Move] = i
		}
		perCert := 0 // forgeries tried on this certificate (each checks it whole)
		for i, cv := range cert.Covered {
			if perCert >= 4 {
				break
			}
			for _, g := range stab {
				j, ok := covered[r.TransformMove(g, cv.Move)]
				if g == 0 || !ok || j == i {
					continue
				}
				mapped++
				for h := 1; h < r.SymmetryCount(); h++ {
					if fixes(h) || r.TransformMove(h, cv.Move) == cert.Covered[j].Move {
						continue
					}
					// Covered move j refuted by move i's strategy mapped
					// by h, which does not fix the position.
					fake := *cert
					fake.Covered = slices.Clone(cert.Covered)
					fake.Covered[j].Tree = cv.Tree.Transform(r, h)
					nb := b.Clone()
					for k := 0; k < fake.Covered[j].Move.Len(); k++ {
						nb.Place(fake.Covered[j].Move.At(k), a.Opp())
					}
					nb.SetToMove(a)
					if threat.CheckStrategy(ctx, nb, ToStrategy(fake.Covered[j].Tree), 0) == nil {
						wins++ // it wins there all the same: no forgery
						continue
					}
					forged++
					perCert++
					if _, err := CheckVerdict(ctx, r, black, white, a.Opp(), 0, &fake); err == nil {
						t.Fatalf("a covered move refuted by another's strategy mapped by symmetry %d (not one of the position's %v) checks\n%s", h, stab, b.Diagram())
					}
				}
				break
			}
		}
	}
	t.Logf("%d certificates checked, %d covered moves with a covered image tried, %d forgeries refused, %d wrong-symmetry strategies that still win", checked, mapped, forged, wins)
	if checked < 8 || mapped == 0 || forged == 0 {
		t.Fatalf("the sample does not exercise symmetric certificates: %d checked, %d mapped, %d forged", checked, mapped, forged)
	}
}
