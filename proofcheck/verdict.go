package proofcheck

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"c6book/engine/game"
)

// VerdictResult is a checked verdict: its zone and what the certificate
// itself accounts for.
type VerdictResult struct {
	// Zone is the verdict's zone (sorted): the empties of the attacker's
	// threat windows, the defender windows p+tol stones could fill, the
	// claimed null and seminull zones and the computed zones of the covered
	// moves.
	Zone []game.Square
	// OpenSeminull are the certificate's open seminull stones.
	OpenSeminull []game.Square
	// Order is the least λ order the certificate supports (see
	// OrderOf); 0 for an all-unsolved certificate. A verdict claiming a
	// lower order is refused by CheckOrder.
	Order int

	b           *board // the verified position (not modified)
	tol         int    // the tolerance it was checked at
	a, d        int8
	over        bool // the attacker already has k in a row
	defThreat   bool // the defender can make k in a row at once
	allUnsolved bool
	wins        []zone // the attacker's threat windows
	hasNull     bool
	nullZone    zone
	semis       []semiZone
	covered     map[game.Move]bool
	nullThin    bool // the null strategy is not a VCDT
	subThin     bool // a covered strategy is not a VCDT, or there is a seminull entry
}

type semiZone struct {
	stone game.Square
	zone  zone
}

// seminullTolerance is the tolerance a seminull strategy is checked at: the
// defender's p-1 stones left off are extra stones (at least one, so that a
// one-stone certificate entry under p = 1 is still checked strictly).
func seminullTolerance(p, tol int) int { return tol + max(1, p-1) }

// CheckVerdict checks certificate c of the position (black, white) with
// the defender to move, at tolerance tol: the null strategy at tol+p, each
// seminull strategy at tol+1 (tol+p-1 for p > 2) on the position with its
// stone, each covered move's strategy at tol; the claimed null and
// seminull zones must contain the zones the checker computes. It does not
// require the unsolved list to be exact: VerdictResult.Refutes says which
// defender moves the certificate accounts for, and the book-level check
// decides about the others. A broken certificate returns an error naming
// the part and the line.
//
// The strategies are checked in parallel, on up to GOMAXPROCS goroutines
// (at most maxCheckers); the result and the error do not depend on it. A
// strategy that is exactly another's image under a symmetry of the
// position, after its image of that one's stones, is not checked again
// (see findImages): its zone is the other's mapped.
func CheckVerdict(ctx context.Context, r game.Rules, black, white []game.Square, defender game.Color, tol int, c *Cert) (*VerdictResult, error) {
	return checkVerdict(ctx, r, black, white, defender, tol, c, min(runtime.GOMAXPROCS(0), maxCheckers), true)
}

// checkVerdict is CheckVerdict with the strategies checked on up to
// workers goroutines; with images false (tests), symmetric parts are
// checked on their own too.
func checkVerdict(ctx context.Context, r game.Rules, black, white []game.Square, defender game.Color, tol int, c *Cert, workers int, images bool) (*VerdictResult, error) {
	if defender != game.Black && defender != game.White {
		return nil, fmt.Errorf("proofcheck: defender %d is not a player", defender)
	}
	if c == nil {
		return nil, fmt.Errorf("proofcheck: no certificate")
	}
	if c.Attacker != defender.Opp() {
		return nil, fmt.Errorf("proofcheck: the certificate's attacker is %v, the defender is %v", c.Attacker, defender)
	}
	b, err := checkPosition(r, black, white, c.Attacker, tol)
	if err != nil {
		return nil, err
	}
	a, d := int8(c.Attacker), int8(defender)
	res := &VerdictResult{b: b, tol: tol, a: a, d: d, OpenSeminull: copySquares(c.OpenSeminull)}
	if b.hasRow(a) {
		res.over = true
		return res, nil
	}
	if b.hasRow(d) {
		return nil, fmt.Errorf("the defender has %d in a row", r.K)
	}
	z := newZone(len(b.cells))
	res.wins = b.threatWindows(a)
	for _, w := range res.wins {
		z.union(w)
	}
	b.addDefWin(z, d, b.p+tol)
	if b.hasThreat(d) {
		if !c.AllUnsolved {
			return nil, fmt.Errorf("the defender can make %d in a row at once and the certificate is not all-unsolved", r.K)
		}
		res.defThreat = true
	}
	if c.AllUnsolved {
		res.allUnsolved = true
		res.Zone = z.squares()
		return res, nil
	}
	n := len(b.cells)
	// The strategies (null, seminull, covered) are independent: they are
	// checked in parallel (checkParts), each on a board of its own; the
	// results are read below in the certificate's order, so the error
	// reported is the first in that order, as if checked one by one.
	var parts []part
	if c.NullTree != nil {
		parts = append(parts, part{tol: tol + b.p, tree: c.NullTree})
	}
	for i := range c.Seminull {
		e := &c.Seminull[i]
		if !b.onBoard(e.Stone) || b.cells[e.Stone] != 0 {
			parts = append(parts, part{bad: true, err: fmt.Errorf("seminull %s: not an empty square", game.SquareName(r, e.Stone))})
			continue
		}
		parts = append(parts, part{def: []game.Square{e.Stone}, tol: seminullTolerance(b.p, tol), tree: e.Tree})
	}
	for i := range c.Covered {
		cv := &c.Covered[i]
		if err := legalDefence(b, cv.Move); err != nil {
			parts = append(parts, part{bad: true, err: fmt.Errorf("covered move %s: %v", game.MoveName(r, cv.Move), err)})
			continue
		}
		parts = append(parts, part{def: cv.Move.Squares(), tol: tol, tree: cv.Tree})
	}
	if images {
		findImages(b, parts)
	}
	checkParts(ctx, b, a, parts, workers)
	next := 0
	if c.NullTree != nil {
		pt := &parts[next]
		next++
		zn, thin, err := pt.zone, pt.thin, pt.err
		if err != nil {
			return nil, fmt.Errorf("null move: %w", err)
		}
		claimed := zoneOf(n, c.NullZone)
		if s, ok := zn.firstMissing(claimed); ok {
			return nil, fmt.Errorf("null zone misses square %s of the null strategy's zone", game.SquareName(r, s))
		}
		res.hasNull = true
		res.nullZone = claimed
		res.nullThin = thin
	}
	z.union(zoneOf(n, c.NullZone))
	for i := range c.Seminull {
		e := &c.Seminull[i]
		pt := &parts[next]
		next++
		if pt.bad {
			return nil, pt.err
		}
		zs, err := pt.zone, pt.err
		res.subThin = true // a seminull strategy leaves the defender a free stone
		if err != nil {
			return nil, fmt.Errorf("seminull %s: %w", game.SquareName(r, e.Stone), err)
		}
		claimed := zoneOf(n, e.Zone)
		if s, ok := zs.firstMissing(claimed); ok {
			return nil, fmt.Errorf("seminull %s: its zone misses square %s of the strategy's zone",
				game.SquareName(r, e.Stone), game.SquareName(r, s))
		}
		res.semis = append(res.semis, semiZone{stone: e.Stone, zone: claimed})
		z.union(claimed)
	}
	res.covered = make(map[game.Move]bool, len(c.Covered))
	for i := range c.Covered {
		cv := &c.Covered[i]
		name := game.MoveName(r, cv.Move)
		pt := &parts[next]
		next++
		if pt.bad {
			return nil, pt.err
		}
		zc, thin, err := pt.zone, pt.thin, pt.err
		res.subThin = res.subThin || thin
		if err != nil {
			return nil, fmt.Errorf("covered move %s: %w", name, err)
		}
		z.union(zc)
		res.covered[cv.Move] = true
	}
	res.Zone = z.squares()
	res.Order = res.order(threatCount(res.wins, b.p))
	return res, nil
}

// checkedOn reports whether v (nil: no) is the result of a check for
// attacker a at tolerance tol on position b: the same rules and stones.
func (v *VerdictResult) checkedOn(b *board, a game.Color, tol int) bool {
	return v != nil && v.a == int8(a) && v.tol == tol && v.b.g.r == b.g.r && slices.Equal(v.b.cells, b.cells)
}

// order is the least λ order the checked certificate supports, given the
// attacker's threats t in the verified position:
//   - 1 (VCDT): the attacker has more than p threats, or exactly p and
//     every covered strategy is a VCDT (every attacker move leaves at least
//     p threats), with no seminull entry;
//   - 2 (VCST): the attacker has a threat (1..p) otherwise; or no threat
//     and a null strategy that is a VCDT; or no threat, no null strategy
//     and only VCDT strategies;
//   - 3: no threat and a null strategy that needs single threats (VCST),
//     or no threat and a covered or seminull strategy that does; or any
//     open seminull stone (its item is proved one order lower).
func (v *VerdictResult) order(t int) int {
	p := v.b.p
	switch {
	case t > p:
		return 1
	case len(v.OpenSeminull) > 0:
		return 3
	case t == p && !v.subThin && len(v.semis) == 0:
		return 1
	case t >= 1:
		return 2
	case v.hasNull && v.nullThin:
		return 3
	case !v.hasNull && v.subThin:
		return 3
	}
	return 2
}

// CheckOrder refuses a claimed λ order lower than the certificate
// supports (a claim of 0, no order, is refused unless the certificate is
// all-unsolved).
func (v *VerdictResult) CheckOrder(claimed int) error {
	if claimed < v.Order {
		return fmt.Errorf("claimed order %d, but the certificate supports only order %d or higher", claimed, v.Order)
	}
	return nil
}

// legalDefence checks that m is a full defender move on b: min(p, empties)
// distinct empty squares.
func legalDefence(b *board, m game.Move) error {
	if want := min(b.p, b.empties); m.Len() != want {
		return fmt.Errorf("%d stones, a turn places %d", m.Len(), want)
	}
	for i := 0; i < m.Len(); i++ {
		s := m.At(i)
		if !b.onBoard(s) {
			return fmt.Errorf("square %d is off the board", s)
		}
		if i > 0 && m.At(i-1) == s {
			return fmt.Errorf("two stones on %s", game.SquareName(b.rules(), s))
		}
		if b.cells[s] != 0 {
			return fmt.Errorf("%s is occupied", game.SquareName(b.rules(), s))
		}
	}
	return nil
}

// part is one strategy of a certificate to check: tree on the verified
// position plus the defender stones def, attacker to move, at tolerance
// tol; bad marks an entry refused for its stones before any strategy is
// checked (err says why), which is not checked. The check fills zone, thin
// and err. A
// part that is the image of an earlier part src under a symmetry of the
// position (findImages: sym maps its stones and strategy onto src's) is
// not checked: it gets src's result, the zone mapped back by sym.
type part struct {
	def  []game.Square
	tol  int
	tree *Tree
	bad  bool

	image bool
	src   int
	sym   int

	zone zone
	thin bool
	err  error
}

// maxCheckers bounds the goroutines checkParts uses.
const maxCheckers = 8

// checkParts checks the parts, in parallel on up to workers goroutines,
// each with a copy of b (b is not modified); an image (findImages) gets its
// source's result. The parts are taken in the list's order; once one
// fails, no more are taken, but every one taken is checked: every part
// before a failing one (or a bad one) is checked, those after it may not
// be. So the first failing part in the list, the one CheckVerdict
// reports, is the same however the work is scheduled.
func checkParts(ctx context.Context, b *board, a int8, parts []part, workers int) {
	first := len(parts) // the first bad part
	for i := range parts {
		if parts[i].bad {
			first = i
			break
		}
	}
	parts = parts[:first]
	var todo []int // the parts to check, in order
	for i := range parts {
		if !parts[i].image {
			todo = append(todo, i)
		}
	}
	defer func() {
		// The images, from their sources (a source comes first; one left
		// unchecked, after a failure, leaves its image unchecked too).
		r := b.rules()
		for i := range parts {
			if pt := &parts[i]; pt.image {
				src := &parts[pt.src]
				if src.zone != nil {
					pt.zone = mapZone(r, pt.sym, src.zone)
				}
				pt.thin, pt.err = src.thin, src.err
			}
		}
	}()
	workers = min(workers, len(todo))
	if workers <= 1 {
		for _, i := range todo {
			pt := &parts[i]
			pt.zone, pt.thin, pt.err = checkSubThin(ctx, b, a, pt.def, pt.tol, pt.tree)
			if pt.err != nil {
				return
			}
		}
		return
	}
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wb := b.clone()
			for {
				// A part taken is checked: the test of failed comes
				// before the take, so that the parts taken are a prefix
				// of todo, all checked.
				if failed.Load() {
					return
				}
				k := next.Add(1) - 1
				if k >= int64(len(todo)) {
					return
				}
				pt := &parts[todo[k]]
				pt.zone, pt.thin, pt.err = checkSubThin(ctx, wb, a, pt.def, pt.tol, pt.tree)
				if pt.err != nil {
					failed.Store(true)
				}
			}
		}()
	}
	wg.Wait()
}

// checkSub checks strategy t on b plus the defender stones def, attacker
// to move, at tolerance tol; b is left as it was.
func checkSub(ctx context.Context, b *board, a int8, def []game.Square, tol int, t *Tree) (zone, error) {
	z, _, err := checkSubThin(ctx, b, a, def, tol, t)
	return z, err
}

// checkSubThin is checkSub that also says whether the strategy is thin
// (not a VCDT: some attacker move leaves fewer than p threats).
func checkSubThin(ctx context.Context, b *board, a int8, def []game.Square, tol int, t *Tree) (zone, bool, error) {
	for _, s := range def {
		b.place(s, 3-a)
	}
	defer func() {
		for i := len(def) - 1; i >= 0; i-- {
			b.remove(def[i])
		}
	}()
	c := newTreeChecker(ctx, b, game.Color(a))
	z, err := c.or(t, tol)
	return z, c.thin, err
}

// leavesThreat reports whether defender move dm leaves one of the
// attacker's threat windows without a defender stone.
func (v *VerdictResult) leavesThreat(dm game.Move) bool {
	for _, w := range v.wins {
		hit := false
		for i := 0; i < dm.Len(); i++ {
			if s := dm.At(i); v.b.onBoard(s) && w.has(s) {
				hit = true
				break
			}
		}
		if !hit {
			return true
		}
	}
	return false
}

// Refutes reports whether the certificate itself accounts for the full
// defender move dm: it leaves an attacker threat window without a stone
// (the attacker makes k in a row next; not when the defender can make k in
// a row first); it is covered; it contains a seminull entry's stone and
// its other stones are outside that entry's zone; or there is a null
// strategy and none of its stones is in the null zone. An all-unsolved
// certificate refutes only the first kind. When the attacker already has
// k in a row, every move is refuted.
func (v *VerdictResult) Refutes(dm game.Move) bool {
	if v.over {
		return true
	}
	if v.defThreat {
		return false
	}
	if v.leavesThreat(dm) {
		return true
	}
	if v.allUnsolved {
		return false
	}
	if v.covered[dm] {
		return true
	}
	for _, e := range v.semis {
		if !dm.Contains(e.stone) {
			continue
		}
		outside := true
		for i := 0; i < dm.Len(); i++ {
			if x := dm.At(i); x != e.stone && (!v.b.onBoard(x) || e.zone.has(x)) {
				outside = false
			}
		}
		if outside {
			return true
		}
	}
	if v.hasNull {
		for i := 0; i < dm.Len(); i++ {
			if s := dm.At(i); !v.b.onBoard(s) || v.nullZone.has(s) {
				return false
			}
		}
		return true
	}
	return false
}

// Moves calls f with every full defender move (min(p, empties) empty
// squares) that puts a stone in every attacker threat window (every move
// when the defender can make k in a row at once), until f returns false.
// When the attacker already has k in a row there are none.
func (v *VerdictResult) Moves(f func(dm game.Move) bool) {
	v.moves(false, f)
}

// Unrefuted calls f with every move of Moves that Refutes does not
// account for, until f returns false. It skips most refuted moves without
// enumerating them: under a null strategy only the moves with a stone in
// the null zone are tried.
func (v *VerdictResult) Unrefuted(f func(dm game.Move) bool) {
	v.moves(true, func(dm game.Move) bool {
		if v.Refutes(dm) {
			return true
		}
		return f(dm)
	})
}

var errStop = fmt.Errorf("stop")

func (v *VerdictResult) moves(onlyNull bool, f func(game.Move) bool) {
	if v.over {
		return
	}
	b := v.b
	var empties []game.Square
	for s, c := range b.cells {
		if c == 0 {
			empties = append(empties, game.Square(s))
		}
	}
	if len(empties) == 0 {
		return
	}
	wins := v.wins
	if v.defThreat {
		wins = nil
	}
	// Under a null strategy a move with no stone in the null zone is
	// refuted: require one (as a window every move must hit).
	if onlyNull && v.hasNull && !v.defThreat && !v.allUnsolved {
		wins = append(append([]zone(nil), wins...), v.nullZone)
	}
	n := min(b.p, len(empties))
	enumerateHitting(empties, n, wins, len(b.cells), func(dm game.Move) error {
		if !f(dm) {
			return errStop
		}
		return nil
	})
}

// Items are what a verdict leaves to the book: every defender move (All),
// or its unsolved full moves and its open seminull stones (one-stone
// moves).
type Items struct {
	All          bool
	Unsolved     []game.Move
	OpenSeminull []game.Move
}

// ItemsFrom builds the Items of a verdict whose item lists hold entries of
// any type U (the verifier's raw verdict, the book's stored one): All is
// all, and each list keeps its order, move giving an entry's move.
func ItemsFrom[U any](all bool, unsolved, openSeminull []U, move func(U) game.Move) Items {
	it := Items{All: all}
	for _, u := range unsolved {
		it.Unsolved = append(it.Unsolved, move(u))
	}
	for _, u := range openSeminull {
		it.OpenSeminull = append(it.OpenSeminull, move(u))
	}
	return it
}

// CheckItems is the one coverage rule every verdict passes before it is
// used (by the verifier queue's client and by the book's StoreVerdict),
// for the certificate v checked: the items must be
//   - consistent with the certificate: All as it says, and an all-unsolved
//     verdict lists nothing and fits the position (the defender can make k
//     in a row at once, or the attacker has no threat window, so that its
//     null move is the only argument there; where the attacker has none a
//     verdict that is not all-unsolved needs a null strategy);
//   - legal and in the position's frame: every unsolved item a full
//     defender move (min(p, empties) distinct empty squares of the board)
//     and every open seminull item one empty square, each blocking every
//     attacker threat window (a move that does not loses at once), listed
//     once, and neither covered nor a refuted seminull entry of the
//     certificate;
//   - complete: every defender move the certificate does not refute is an
//     unsolved item or contains an open seminull stone.
//
// It returns an error naming the first item (or move) that breaks it.
func (v *VerdictResult) CheckItems(it Items) error {
	r := v.b.rules()
	if it.All != v.allUnsolved {
		return fmt.Errorf("the verdict says all-unsolved %v, its certificate %v", it.All, v.allUnsolved)
	}
	if it.All {
		if len(it.Unsolved) > 0 || len(it.OpenSeminull) > 0 {
			return fmt.Errorf("an all-unsolved verdict lists items")
		}
		if !v.over && !v.defThreat && len(v.wins) > 0 {
			return fmt.Errorf("all-unsolved, but the attacker has a threat and the defender none: only the critical defences can be open")
		}
		return nil
	}
	if !v.over && !v.defThreat && len(v.wins) == 0 && !v.hasNull {
		return fmt.Errorf("no threat and no null strategy: the verdict must be all-unsolved")
	}
	seen := make(map[game.Move]bool, len(it.Unsolved))
	for _, m := range it.Unsolved {
		name := game.MoveName(r, m)
		if err := legalDefence(v.b, m); err != nil {
			return fmt.Errorf("unsolved move %s: %v", name, err)
		}
		if seen[m] {
			return fmt.Errorf("unsolved move %s listed twice", name)
		}
		seen[m] = true
		if !v.over && !v.defThreat && v.leavesThreat(m) {
			return fmt.Errorf("unsolved move %s leaves an attacker threat open (it loses at once)", name)
		}
		if v.covered[m] {
			return fmt.Errorf("unsolved move %s is also covered", name)
		}
	}
	stones := make(map[game.Square]bool, len(it.OpenSeminull))
	for _, m := range it.OpenSeminull {
		if m.Len() != 1 {
			return fmt.Errorf("open seminull item of %d stones, want 1", m.Len())
		}
		s := m.At(0)
		if !v.b.onBoard(s) {
			return fmt.Errorf("open seminull square %d is off the board", s)
		}
		name := game.SquareName(r, s)
		if v.b.p < 2 || v.b.empties < 2 {
			return fmt.Errorf("open seminull %s: a turn here places one stone", name)
		}
		if v.b.cells[s] != 0 {
			return fmt.Errorf("open seminull %s is occupied", name)
		}
		if stones[s] {
			return fmt.Errorf("open seminull %s listed twice", name)
		}
		stones[s] = true
		if !v.over && !v.defThreat && v.leavesThreat(m) {
			return fmt.Errorf("open seminull %s leaves an attacker threat open", name)
		}
		for _, e := range v.semis {
			if e.stone == s {
				return fmt.Errorf("open seminull %s is also refuted by the certificate", name)
			}
		}
	}
	var lost game.Move
	found := false
	v.Unrefuted(func(dm game.Move) bool {
		if seen[dm] {
			return true
		}
		for i := 0; i < dm.Len(); i++ {
			if stones[dm.At(i)] {
				return true
			}
		}
		lost, found = dm, true
		return false
	})
	if found {
		return fmt.Errorf("defender move %s is neither refuted by the certificate nor left as an item", game.MoveName(r, lost))
	}
	return nil
}
