package c6book

import (
	"errors"
	"fmt"
	"slices"

	"c6book/engine/board"
	"c6book/engine/game"
)

// The proof rules. For attacker a, a position's proof follows from its
// stored children and its stored verdict alone (local rules), so a book is
// consistent when every position's proof equals its local recomputation,
// and a change is propagated by recomputing the changed position and,
// while values change, its ancestors (deepest first). The rules are pure
// functions of the facts a store loads (ProofFacts); the proof book and the
// session's fake store both derive their statuses with ProofOf.
//
//   - the attacker has k in a row: proved (order 0); the defender has: disproved;
//   - an expert marked the position disproved: disproved (sticky);
//   - attacker to move (OR): proved when some stored move is proved (order:
//     the smallest); pn = min, dn = sum over the moves not disproved; no
//     moves: an unexplored leaf, 1/1. At a full position (no defender
//     stone missing) also proved by a twin: the position less one defender
//     stone x, stored and proved (at tolerance 1, since a stone is now
//     missing) with a zone that misses x — that proof tolerates one more
//     defender stone anywhere outside its zone, the argument of the open
//     seminull items below;
//   - defender to move (AND): disproved when a stored full defender move is
//     disproved. Proved when the stored verdict (same attacker) bounds the
//     defence (not AllUnsolved) and every item it leaves — each unsolved
//     move and each open seminull move — is a stored child that is proved;
//     the replies outside the items are covered by the verdict's zone
//     argument. pn = sum, dn = min over the items (a missing item counts
//     1/1). Without a verdict the position is a leaf, 1/1, that needs the
//     verifier;
//   - a position without a stored proof is an unexplored leaf: unknown, 1/1.
//
// Status is "open" for positions with a verdict that is not yet proved and
// for moves leading to open or proved work; "unknown" otherwise.
//
// Zones (see docs/ALGORITHMS.md, relevance zones): a proved position carries its relevance zone
// at its tolerance (its defender stone deficit), in its canonical frame
// (engine's CanonicalKey); the rules map each child's zone into the
// parent's frame through the move that reaches it.

// The stores' refusals under the rules (the proof book's and the fake
// store's alike, so that the workbench can tell them from a failure).
var (
	// ErrVerdictItem: removing a move that a stored verdict leaves to
	// prove (an item ProofOf reports missing, that a store would add again)
	// is refused; undoing the verify that stored the verdict removes it.
	ErrVerdictItem = errors.New("a reply its verdict leaves to prove: undo the verify to remove it")
	// ErrVerdictChanged: a verify cannot be undone once the position's
	// verdict was replaced (by a later verify).
	ErrVerdictChanged = errors.New("its verdict changed since")
)

// ProofHow says what a proved or disproved status rests on. Its bytes are
// what the book stores (status.how) and the CLI prints.
type ProofHow string

// What a proof rests on.
const (
	HowNone    ProofHow = ""        // not decided (unknown or open)
	HowWin     ProofHow = "win"     // the attacker has k in a row
	HowLoss    ProofHow = "loss"    // the defender has k in a row
	HowVerdict ProofHow = "verdict" // defender to move: a certified verdict whose items are proved
	HowMove    ProofHow = "move"    // attacker to move: a proved move
	HowReply   ProofHow = "reply"   // defender to move: a disproved full reply
	HowExpert  ProofHow = "expert"  // an expert marked the position disproved
	HowTwin    ProofHow = "twin"    // attacker to move: a twin (one defender stone less) proved with a zone that misses that stone
)

// LeafProof is the proof of a position nobody worked on for attacker a:
// unknown, 1/1.
func LeafProof(a game.Color) Proof { return Proof{Attacker: a, PN: 1, DN: 1} }

// ProofChild is a stored move of a position (in the frame of its board,
// ProofFacts.Board) with its child's proof for the attacker (LeafProof when
// the child has none; the zone in the child's canonical frame).
type ProofChild struct {
	Move  game.Move
	Proof Proof
}

// ProofFacts are the stored facts the proof of a position for Attacker
// follows from. The position's own are fields; its children, board and
// verdict are loaded on demand: ProofOf calls each loader at most once,
// and only when the position's case needs it (a decided position loads
// nothing more, an attacker-to-move leaf no board), so a store's
// recomputation stays cheap.
type ProofFacts struct {
	Attacker       game.Color
	ToMove, Winner game.Color
	Stones         int  // stones on the board (0: the first turn)
	Expert         bool // an expert marked the position disproved for Attacker
	// Children lists the stored moves with their children's proofs.
	Children func() ([]ProofChild, error)
	// Board is the position in the frame its moves and verdict are stored
	// in (the proof's zone comes back in that frame). The rules place and
	// remove stones on it and leave it as it was.
	Board func() (*board.Board, error)
	// Verdict is the position's stored verdict (nil: none).
	Verdict func() (*Verdict, error)
	// Twins (nil: none) lists the stored twins of an attacker-to-move
	// position: the positions it becomes when one defender stone is taken
	// off, with their proofs for the attacker.
	Twins func() ([]ProofTwin, error)
}

// ProofTwin is a stored twin of an attacker-to-move position: Stone (a
// defender stone of the position, in the frame of its board) taken off
// leaves the twin, whose proof (zone in the twin's canonical frame) is
// Proof.
type ProofTwin struct {
	Stone game.Square
	Proof Proof
}

// ProofOf derives the proof of a position from its stored facts (the
// rules at the top of this file). missing lists the moves (the board's
// frame) the proof needs as children that are not stored yet: the items of
// its verdict, among them the full moves (s, x) inside the zone of a proved
// open seminull stone s; a store adds them and derives the proof again.
func ProofOf(f ProofFacts) (p Proof, missing []game.Move, err error) {
	a := f.Attacker
	if p, ok := terminalProof(a, f.Winner, f.Expert); ok {
		return p, nil, nil
	}
	kids, err := f.Children()
	if err != nil {
		return Proof{}, nil, err
	}
	var twins []ProofTwin
	if f.ToMove == a && f.Twins != nil {
		if twins, err = f.Twins(); err != nil {
			return Proof{}, nil, err
		}
	}
	if f.ToMove == a && len(kids) == 0 && !anyProved(twins) {
		return LeafProof(a), nil, nil
	}
	b, err := f.Board()
	if err != nil {
		return Proof{}, nil, err
	}
	if f.ToMove == a {
		p := orProof(b, a, kids)
		if tp, ok := twinProof(b, a, twins); ok && (p.Status != StatusProved || tp.Order < p.Order ||
			tp.Order == p.Order && len(tp.Zone) < len(p.Zone)) {
			p = tp
		}
		return p, nil, nil
	}
	if p, ok := refutedProof(b.Rules(), a, f.Stones, kids); ok {
		return p, nil, nil
	}
	v, err := f.Verdict()
	if err != nil {
		return Proof{}, nil, err
	}
	return andProof(b, a, kids, v)
}

// SameProof reports whether two proofs are the same as stored (the time
// of the last update aside).
func SameProof(x, y Proof) bool {
	return x.Status == y.Status && x.Order == y.Order && x.How == y.How && x.Expert == y.Expert && x.PN == y.PN && x.DN == y.DN &&
		(x.Zone == nil) == (y.Zone == nil) && slices.Equal(x.Zone, y.Zone)
}

// VerdictCounts reports whether verdict v (nil: none) of the defender-to-
// move position b can count in a proof for attacker a: it is a's, and
// certified at b's defender stone deficit.
func VerdictCounts(b *board.Board, a game.Color, v *Verdict) bool {
	tol, ok := b.DefenderDeficit(a)
	return v != nil && v.Attacker == a && ok && v.Certified(tol)
}

func provedProof(a game.Color, ord int, how ProofHow, zone []game.Square) Proof {
	return Proof{Attacker: a, Status: StatusProved, Order: ord, How: how, PN: 0, DN: Infinite, Zone: zone}
}

func disprovedProof(a game.Color, how ProofHow) Proof {
	return Proof{Attacker: a, Status: StatusDisproved, How: how, PN: Infinite, DN: 0}
}

func addCap(x, y int64) int64 {
	if x+y > Infinite {
		return Infinite
	}
	return x + y
}

// terminalProof is the proof of a position decided before its children
// count: won by a (order 0, the empty zone), won by the defender, or
// marked disproved by an expert. ok is false for any other position.
func terminalProof(a, winner game.Color, expert bool) (p Proof, ok bool) {
	switch {
	case winner == a:
		p = provedProof(a, 0, HowWin, []game.Square{})
	case winner == a.Opp():
		p = disprovedProof(a, HowLoss)
	case expert:
		p = disprovedProof(a, HowExpert)
	default:
		return Proof{}, false
	}
	p.Expert = expert
	return p, true
}

// orProof is the proof of an attacker-to-move position b with its stored
// moves kids (at least one): proved by the best proved move (smallest
// order, then smallest zone: the move's squares, the defender windows p+t
// stones could fill (t for a move that makes k in a row), and the child's
// zone), else pn = min, dn = sum over the moves (1/1 when every move is
// refuted), open when a move leads to open work.
func orProof(b *board.Board, a game.Color, kids []ProofChild) Proof {
	r := b.Rules()
	p := LeafProof(a)
	tol, tolOK := b.DefenderDeficit(a)
	var best *ProofChild
	var bestZone []game.Square
	pn, dn, work := Infinite, int64(0), false
	for i := range kids {
		c := &kids[i]
		switch c.Proof.Status {
		case StatusProved:
			if !tolOK || c.Proof.Zone == nil {
				break // proved without a zone (an older book): cannot count
			}
			z := new(game.SqSet)
			z.AddAll(c.Move.Squares()...)
			maxE := r.P + tol
			if c.Proof.How == HowWin {
				maxE = tol // the move makes k in a row
			}
			z.AddAll(b.DefenderWindowEmpties(a, maxE)...)
			z.AddAll(childZone(b, a, c.Move, c.Proof.Zone)...)
			zl := z.Squares()
			if best == nil || c.Proof.Order < best.Proof.Order || c.Proof.Order == best.Proof.Order && len(zl) < len(bestZone) {
				best, bestZone = c, zl
			}
		case StatusOpen:
			work = true
		}
		if c.Proof.PN < pn {
			pn = c.Proof.PN
		}
		dn = addCap(dn, c.Proof.DN)
	}
	if best != nil {
		return provedProof(a, best.Proof.Order, HowMove, bestZone)
	}
	p.PN, p.DN = pn, dn
	if pn >= Infinite {
		// Every stored move is refuted; the attacker needs a new one.
		p.PN, p.DN = 1, 1
	}
	if work {
		p.Status = StatusOpen
	}
	return p
}

func anyProved(twins []ProofTwin) bool {
	for _, t := range twins {
		if t.Proof.Status == StatusProved {
			return true
		}
	}
	return false
}

// twinProof is the proof of the attacker-to-move position b by its twins
// (see ProvingTwin): the best twin's order, and its zone (in b's frame)
// with its stone added. ok is false when no twin counts.
func twinProof(b *board.Board, a game.Color, twins []ProofTwin) (Proof, bool) {
	i, zone, ok := ProvingTwin(b, a, twins)
	if !ok {
		return Proof{}, false
	}
	return provedProof(a, twins[i].Proof.Order, HowTwin, zone), true
}

// ProvingTwin is the twin the proof of the attacker-to-move position b by
// its twins rests on (index i into twins): b must be a full position (no
// defender stone missing), the twin's stone x a defender stone of b, the
// twin proved with a zone (mapped into b's frame) that misses x. Of such
// twins the best is taken (smallest order, then smallest zone); zone is
// its zone in b's frame with x added. ok is false when no twin counts.
func ProvingTwin(b *board.Board, a game.Color, twins []ProofTwin) (i int, zone []game.Square, ok bool) {
	if len(twins) == 0 {
		return 0, nil, false
	}
	if tol, ok := b.DefenderDeficit(a); !ok || tol != 0 {
		return 0, nil, false
	}
	r := b.Rules()
	best := -1
	for k, t := range twins {
		x := t.Stone
		if t.Proof.Status != StatusProved || t.Proof.Zone == nil || x < 0 || int(x) >= r.Squares() || b.At(x) != a.Opp() {
			continue
		}
		b.Remove(x)
		_, csym := b.CanonicalKey()
		b.Place(x, a.Opp())
		inv := game.InverseSymmetry(csym)
		z := new(game.SqSet)
		in := false
		for _, s := range t.Proof.Zone {
			s = r.Transform(inv, s)
			if s == x {
				in = true
			}
			z.Add(s)
		}
		if in {
			continue
		}
		z.Add(x)
		zl := z.Squares()
		if best < 0 || t.Proof.Order < twins[best].Proof.Order || t.Proof.Order == twins[best].Proof.Order && len(zl) < len(zone) {
			best, zone = k, zl
		}
	}
	return best, zone, best >= 0
}

// refutedProof is the proof of a defender-to-move position (nstones
// stones) one of whose stored full defender moves (or a move that wins for
// the defender) is disproved: disproved. ok is false when there is none.
func refutedProof(r game.Rules, a game.Color, nstones int, kids []ProofChild) (Proof, bool) {
	full := r.P
	if nstones == 0 {
		full = r.Q
	}
	for _, c := range kids {
		if c.Proof.Status == StatusDisproved && (c.Move.Len() >= full || c.Proof.How == HowLoss) {
			return disprovedProof(a, HowReply), true
		}
	}
	return Proof{}, false
}

// andProof is the proof of a defender-to-move position b with its stored
// children kids (none of them a refutation: refutedProof) and its stored
// verdict v (nil: none): a leaf that needs the verifier without a verdict
// of a that counts (VerdictCounts; open with one that does not), else
// proved when every item of the verdict (ProofItems) is a proved child,
// with the verdict's order raised by the items', else open with pn = sum,
// dn = min over the items. missing are the items not stored as children.
func andProof(b *board.Board, a game.Color, kids []ProofChild, v *Verdict) (Proof, []game.Move, error) {
	p := LeafProof(a)
	if !VerdictCounts(b, a, v) {
		if v != nil && v.Attacker == a {
			p.Status = StatusOpen
		}
		return p, nil, nil
	}
	it, err := ProofItems(b, a, v, kids)
	if err != nil {
		return Proof{}, nil, err
	}
	if len(it.Items) == 0 && v.Status != StatusProved && len(v.OpenSeminull) == 0 {
		p.Status = StatusOpen // an open verdict without items: keep working
		return p, nil, nil
	}
	// The position's order: the verdict's own (the order its argument
	// needs, checked against its certificate when stored), raised by every
	// item's proof; a closed open-seminull item makes it at least 3 (its
	// position was proved one order lower without the defender's second
	// stone).
	ord := v.Order
	if len(v.OpenSeminull) > 0 {
		ord = max(ord, 3)
	}
	all := true
	pn, dn := int64(0), Infinite
	for _, c := range it.Items {
		cp := LeafProof(a)
		if c.Child >= 0 {
			cp = kids[c.Child].Proof
		}
		if cp.Status != StatusProved || cp.Zone == nil {
			all = false
			cp.Status = StatusOpen
		} else if cp.Order > ord {
			ord = cp.Order
		}
		if cp.Status != StatusProved {
			pn = addCap(pn, cp.PN)
			if cp.DN < dn {
				dn = cp.DN
			}
		}
	}
	if all {
		return provedProof(a, ord, HowVerdict, it.Zone), it.Missing, nil
	}
	if pn == 0 {
		pn = 1
	}
	p.Status, p.PN, p.DN = StatusOpen, pn, dn
	return p, it.Missing, nil
}

// ProofItem is a move a defender-to-move position's proof needs proved:
// the move (its representative under the position's symmetries) and the
// index of its stored child in the children given to ProofItems, -1 when
// it is not stored.
type ProofItem struct {
	Move  game.Move
	Child int
}

// ProofItemList is what a verdict leaves to prove (ProofItems).
type ProofItemList struct {
	Items []ProofItem
	// Zone is the proof's zone when every item is proved: the verdict's,
	// the proved items' and the proved seminull positions'.
	Zone []game.Square
	// Missing are the items not stored as children.
	Missing []game.Move
}

// ProofItems lists the items of verdict v (one that counts: VerdictCounts)
// of the defender-to-move position b for attacker a, with its stored
// children kids: every unsolved move; for each open seminull stone s, the
// seminull position D+s itself until it is proved with a zone Z(s), then
// every full move (s, x) with x in Z(s) that the verdict does not refute
// on its own. A move and its images under the symmetries of b's stones are
// one item (the representative, RepMove), whichever of them is stored.
// Only the zones of proved items are collected.
func ProofItems(b *board.Board, a game.Color, v *Verdict, kids []ProofChild) (ProofItemList, error) {
	r := b.Rules()
	var out ProofItemList
	zone := new(game.SqSet)
	zone.AddAll(v.Zone...)
	stab := b.Stabilizer()
	// Each stored child under its representative, with the symmetry g
	// that maps its move onto it.
	type stored struct{ i, g int }
	byRep := make(map[int64]stored, len(kids))
	for i := range kids {
		rep, g := RepMove(r, stab, kids[i].Move)
		if _, dup := byRep[PackMove(rep)]; !dup {
			byRep[PackMove(rep)] = stored{i, g}
		}
	}
	d := a.Opp()
	// proved finds move m's stored child; zs is its zone in the frame of m
	// when it is proved with a zone.
	find := func(m game.Move) (rep game.Move, child int, zs []game.Square, proved bool) {
		rep, gm := RepMove(r, stab, m)
		k, ok := byRep[PackMove(rep)]
		if !ok {
			return rep, -1, nil, false
		}
		c := kids[k.i]
		if c.Proof.Status != StatusProved || c.Proof.Zone == nil {
			return rep, k.i, nil, false
		}
		zs = childZone(b, d, c.Move, c.Proof.Zone)
		// From the stored move's frame to the representative's (k.g),
		// then back to m's (gm inverted).
		ginv := game.InverseSymmetry(gm)
		for i, s := range zs {
			zs[i] = r.Transform(ginv, r.Transform(k.g, s))
		}
		return rep, k.i, zs, true
	}
	seen := map[int64]bool{}
	item := func(m game.Move) {
		rep, child, zs, _ := find(m)
		zone.AddAll(zs...)
		key := PackMove(rep)
		if seen[key] {
			return
		}
		seen[key] = true
		out.Items = append(out.Items, ProofItem{Move: rep, Child: child})
		if child < 0 {
			out.Missing = append(out.Missing, rep)
		}
	}
	for _, u := range v.Unsolved {
		item(u.Move)
	}
	for _, u := range v.OpenSeminull {
		if u.Move.Len() != 1 {
			return out, fmt.Errorf("verdict: open seminull item %s is not one stone", game.MoveName(r, u.Move))
		}
		s := u.Move.At(0)
		_, _, zs, proved := find(u.Move)
		if !proved {
			item(u.Move) // the seminull position itself is to prove first
			continue
		}
		zone.AddAll(zs...)
		for _, x := range zs {
			if x == s || b.At(x) != game.Empty || v.Refutes(s, x) {
				continue
			}
			item(game.NewMove(s, x))
		}
	}
	out.Zone = zone.Squares()
	return out, nil
}

// childZone maps a zone stored in the canonical frame of the child that
// move m reaches from b (with mover to play m) into b's frame.
func childZone(b *board.Board, mover game.Color, m game.Move, zone []game.Square) []game.Square {
	for i := 0; i < m.Len(); i++ {
		b.Place(m.At(i), mover)
	}
	_, csym := b.CanonicalKey()
	for i := m.Len() - 1; i >= 0; i-- {
		b.Remove(m.At(i))
	}
	r, inv := b.Rules(), game.InverseSymmetry(csym)
	out := make([]game.Square, len(zone))
	for i, s := range zone {
		out[i] = r.Transform(inv, s)
	}
	return out
}

// RepMove is the representative of move m in a frame whose stones have
// stabilizer stab (engine's Board.Stabilizer): its image with the smallest
// packed value (PackMove), so that symmetric moves from a symmetric
// position are one edge; g is the symmetry that maps m onto it (rep = g(m)).
func RepMove(r game.Rules, stab []int, m game.Move) (rep game.Move, g int) {
	best, bv := m, PackMove(m)
	for _, t := range stab[1:] {
		mt := r.TransformMove(t, m)
		if v := PackMove(mt); v < bv {
			best, bv, g = mt, v, t
		}
	}
	return best, g
}
