package proofcheck

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/internal/testenv"
)

// Each symmetry the checker takes images by (engine's maps, ids 1 up)
// maps every window of the checker's own board onto a window; the 7 (3 on
// a rectangle) are distinct bijections of the squares and none is the
// identity.
func TestSymmetriesMapWindowsOntoWindows(t *testing.T) {
	for _, r := range []game.Rules{{M: 19, N: 19, K: 6, P: 2, Q: 3}, {M: 9, N: 7, K: 5, P: 2, Q: 1}, {M: 8, N: 8, K: 4, P: 1, Q: 1}} {
		g := geometryOf(r)
		windows := map[string]bool{}
		key := func(sq []game.Square) string {
			slices.Sort(sq)
			return string(game.FormatTurns(r, []game.Move{game.NewMove(sq[:2]...)})) + game.SquareName(r, sq[0]) + game.SquareName(r, sq[len(sq)-1]) + string(rune(len(sq)))
		}
		for w := 0; w < g.nwin; w++ {
			var sq []game.Square
			for _, s := range g.win(w) {
				sq = append(sq, game.Square(s))
			}
			windows[key(sq)] = true
		}
		var syms []int // the symmetries other than the identity
		for h := 1; h < r.SymmetryCount(); h++ {
			syms = append(syms, h)
		}
		images := map[string]bool{}
		for _, h := range syms {
			seen := make([]bool, r.Squares())
			var img []byte
			for s := 0; s < r.Squares(); s++ {
				d := r.Transform(h, game.Square(s))
				if d < 0 || int(d) >= r.Squares() || seen[d] {
					t.Fatalf("%v: symmetry %d is not a bijection of the squares", r, h)
				}
				seen[d] = true
				img = append(img, byte(d), byte(d>>8))
			}
			if images[string(img)] {
				t.Fatalf("%v: symmetry %d repeats another symmetry", r, h)
			}
			images[string(img)] = true
			id := true
			for s := 0; s < r.Squares(); s++ {
				id = id && r.Transform(h, game.Square(s)) == game.Square(s)
			}
			if id {
				t.Fatalf("%v: symmetry %d is the identity", r, h)
			}
			for w := 0; w < g.nwin; w++ {
				var sq []game.Square
				for _, s := range g.win(w) {
					sq = append(sq, r.Transform(h, game.Square(s)))
				}
				if !windows[key(sq)] {
					t.Fatalf("%v: symmetry %d maps window %d off the windows", r, h, w)
				}
			}
		}
	}
}

// A certificate of a symmetric position checks the same with its symmetric
// parts taken from their images (findImages) as with every part checked:
// the engine's certificates (strategies of symmetric defender moves stored
// mapped) and forged ones: a covered move given another covered move's
// strategy mapped by a symmetry that does not fix the position, or
// unmapped, or the image's strategy of another move. The forgeries are
// never taken for images, and the ones that do not win are refused.
func TestSymmetricPartsCheckedOnce(t *testing.T) {
	testenv.Heavy(t)
	ctx := context.Background()
	r := game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}
	rng := rand.New(rand.NewPCG(28, 6232))
	certs, imaged, forged, refused := 0, 0, 0, 0
	for tries := 0; certs < 8 && tries < 400; tries++ {
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
		pb, err := setUp(r, black, white)
		if err != nil {
			t.Fatal(err)
		}
		// both checks a certificate with and without images; they must
		// agree. It returns the error and the number of images found.
		both := func(c *Cert) (error, int) {
			t.Helper()
			r1, e1 := checkVerdict(ctx, r, black, white, a.Opp(), 0, c, 2, true)
			r2, e2 := checkVerdict(ctx, r, black, white, a.Opp(), 0, c, 2, false)
			if s1, s2 := resultText(r1, e1), resultText(r2, e2); s1 != s2 {
				t.Fatalf("with images:\n%s\nevery part checked:\n%s\n%s", s1, s2, b.Diagram())
			}
			n := 0
			for _, p := range certParts(pb, c) {
				if p.image {
					n++
				}
			}
			return e1, n
		}
		cert := FromVerdict(&vd)
		err, n := both(cert)
		if err != nil {
			t.Fatalf("the certificate does not check: %v", err)
		}
		certs++
		imaged += n
		stab := stabilizer(r, pb)[1:] // without the identity
		covered := map[game.Move]int{}
		for i, cv := range cert.Covered {
			covered[cv.Move] = i
		}
		perCert := 0 // forged certificates (each checked whole, twice)
		for i, cv := range cert.Covered {
			if perCert >= 6 {
				break
			}
			for _, h := range stab {
				j, ok := covered[r.TransformMove(h, cv.Move)]
				if !ok || j == i {
					continue
				}
				// j is i's image under h. Forge j's strategy.
				var fakes []*Tree
				for g := 1; g < r.SymmetryCount(); g++ {
					if !slices.Contains(stab, g) {
						fakes = append(fakes, cv.Tree.Transform(r, g)) // a symmetry that does not fix the position
					}
				}
				fakes = append(fakes, cv.Tree) // not mapped
				if k := (i + 1) % len(cert.Covered); k != j {
					fakes = append(fakes, cert.Covered[k].Tree.Transform(r, h)) // the image of another move's
				}
				for _, ft := range fakes {
					fake := *cert
					fake.Covered = slices.Clone(cert.Covered)
					fake.Covered[j].Tree = ft
					if imageOf(r, h, cv.Tree, ft) {
						continue // the real image: no forgery
					}
					for _, p := range certParts(pb, &fake) {
						if p.image && slices.Equal(p.def, fake.Covered[j].Move.Squares()) && p.tree == ft {
							t.Fatalf("a forged strategy of %s is taken for an image", game.MoveName(r, fake.Covered[j].Move))
						}
					}
					forged++
					perCert++
					if err, _ := both(&fake); err != nil {
						refused++
					}
				}
				break
			}
		}
	}
	t.Logf("%d certificates, %d parts taken from their images, %d forgeries, %d refused (the others still win)", certs, imaged, forged, refused)
	if certs < 8 || imaged == 0 || forged == 0 || refused == 0 {
		t.Fatalf("the sample does not exercise symmetric parts: %d certificates, %d images, %d forgeries, %d refused", certs, imaged, forged, refused)
	}
}

// certParts are the parts CheckVerdict makes of c on b, with the images
// found.
func certParts(b *board, c *Cert) []part {
	var parts []part
	if c.NullTree != nil {
		parts = append(parts, part{tree: c.NullTree})
	}
	for _, e := range c.Seminull {
		parts = append(parts, part{def: []game.Square{e.Stone}, tol: 1, tree: e.Tree})
	}
	for _, cv := range c.Covered {
		parts = append(parts, part{def: cv.Move.Squares(), tree: cv.Tree})
	}
	findImages(b, parts)
	return parts
}
