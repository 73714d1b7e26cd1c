package proofcheck

import "c6book/engine/game"

// Symmetric parts of a certificate. When a board symmetry h maps the
// verified position onto itself (every stone onto a stone of its colour),
// h maps windows onto windows, and so the check of strategy T after the
// defender stones def, at tolerance t, succeeds exactly when the check of
// h(T) after h(def) at t does, with the zone mapped by h. So a part whose
// stones and strategy are the image under such an h of an earlier part's
// (the verifier stores the strategies of symmetric defender moves mapped,
// move for move) needs no check of its own: its zone is the earlier
// part's mapped. The checker finds these pairs itself, from the position
// and the strategies: the certificate claims nothing about them, and a
// strategy that is not exactly the image is checked on its own.

// The symmetries are engine's maps (Rules.Transform: id 0 is the
// identity), the ones the book check already uses (stabilizer, book.go);
// TestSymmetriesMapWindowsOntoWindows checks them against the checker's own
// windows.

// imageOf reports whether tree u is tree t mapped by g, node for node and
// reply for reply in the same order (nil trees alike).
func imageOf(r game.Rules, g int, t, u *Tree) bool {
	if t == nil || u == nil {
		return t == u
	}
	if t.Six != u.Six || len(t.Replies) != len(u.Replies) || !onBoard(r, t.Move) || r.TransformMove(g, t.Move) != u.Move {
		return false
	}
	for i := range t.Replies {
		tr, ur := &t.Replies[i], &u.Replies[i]
		if tr.Seminull != ur.Seminull || !onBoard(r, tr.Move) || r.TransformMove(g, tr.Move) != ur.Move || !imageOf(r, g, tr.Then, ur.Then) {
			return false
		}
	}
	return true
}

// onBoard reports whether every square of m is on board r.
func onBoard(r game.Rules, m game.Move) bool {
	for i := 0; i < m.Len(); i++ {
		if s := m.At(i); s < 0 || int(s) >= r.Squares() {
			return false
		}
	}
	return true
}

// mapZone returns the zone {s : g(s) in z}: z mapped by g's inverse.
func mapZone(r game.Rules, g int, z zone) zone {
	out := newZone(r.Squares())
	for s := 0; s < r.Squares(); s++ {
		if z.has(r.Transform(g, game.Square(s))) {
			out.add(game.Square(s))
		}
	}
	return out
}

// findImages marks each part that is the image of an earlier part under a
// symmetry h of b's stabilizer: h maps its stones onto the earlier part's
// and its strategy onto the earlier part's strategy (imageOf), at the same
// tolerance. Such a part gets image set, src the earlier part and sym h.
func findImages(b *board, parts []part) {
	r := b.rules()
	stab := stabilizer(r, b)[1:] // without the identity
	if len(stab) == 0 {
		return
	}
	type key struct {
		m   game.Move
		tol int
	}
	first := make(map[key]int, len(parts))
	for j := range parts {
		pj := &parts[j]
		if pj.bad {
			return // checkParts checks nothing after a bad part
		}
		m := game.NewMove(pj.def...)
		for _, h := range stab {
			i, ok := first[key{r.TransformMove(h, m), pj.tol}]
			if ok && imageOf(r, h, pj.tree, parts[i].tree) {
				pj.image, pj.src, pj.sym = true, i, h
				break
			}
		}
		if !pj.image {
			if _, ok := first[key{m, pj.tol}]; !ok {
				first[key{m, pj.tol}] = j
			}
		}
	}
}
