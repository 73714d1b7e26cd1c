package proofcheck

import (
	"context"
	"errors"
	"fmt"
	"time"

	"c6book/engine/game"
)

// Source gives the book-level checker the stored positions.
type Source interface {
	Rules() game.Rules
	Node(ctx context.Context, id int64) (*Node, error)
}

// Node is a stored position.
type Node struct {
	ID           int64
	Black, White []game.Square // the position's stones, in its own frame
	ToMove       game.Color
	Edges        []Edge   // stored moves, each in THIS node's frame; the child's stones are in the child's own frame
	Cert         *Cert    // the stored verdict's certificate (this frame), nil when none
	Claims       [2]Claim // the stored status, index attacker-1
	// Checked, when not nil, is what CheckVerdict returned in this process
	// for Cert, the source vouching that Cert is the certificate it
	// checked (the same stored bytes): CheckBook uses it instead of
	// checking the certificate again when it was checked on this position
	// (the same stones), for Cert's attacker and at the position's
	// tolerance; otherwise it checks Cert.
	Checked *VerdictResult
	// Twins are the node's stored twins: Stone (a defender stone, this
	// frame) taken off leaves position ID, the same side to move. At a
	// full attacker-to-move position a twin proved with a zone that misses
	// Stone proves the node (checkOR).
	Twins []Twin
}

// Twin is a stored twin of a position (Node.Twins).
type Twin struct {
	Stone game.Square
	ID    int64
}

// Edge is a stored move to a child position.
type Edge struct {
	Move  game.Move
	Child int64
}

// Claim is a stored status for one attacker.
type Claim struct {
	Proved  bool
	Zone    []game.Square
	HasZone bool
	// Order is the claimed λ order (when HasOrder): it may not be lower
	// than what the proof rests on — at the defender's turn the order the
	// certificate supports and every item's claimed order, at the
	// attacker's the claimed order of the move that checks.
	Order    int
	HasOrder bool
}

// Root is a position whose proof is to be checked, for one attacker.
type Root struct {
	ID       int64
	Attacker game.Color
}

// Failure is a broken proof: the root checked, the line from it to the
// broken position (in the root's frame), that position's id and why.
type Failure struct {
	Root     int64
	Attacker game.Color
	Line     []game.Move
	ID       int64
	Reason   string

	rules game.Rules
}

func (f *Failure) Error() string {
	where := "at the root"
	if len(f.Line) > 0 {
		where = fmt.Sprintf("after %q", game.FormatTurns(f.rules, f.Line))
	}
	return fmt.Sprintf("proof of position %d for %v breaks %s (position %d): %s", f.Root, f.Attacker, where, f.ID, f.Reason)
}

// Deficit returns the number of defender stones missing from a position
// with black and white stones, toMove to play, compared with full turns:
// the attacker's stones must be exactly those of its full turns (Black: 0,
// or q + p·(t−1) for t turns; White: p·t); the side to move then gives the
// defender's number of turns and so its expected stones. A position below
// a seminull move has deficit 1, below a null move p.
func Deficit(r game.Rules, black, white int, toMove, attacker game.Color) (int, error) {
	if attacker != game.Black && attacker != game.White {
		return 0, fmt.Errorf("attacker %d is not a player", attacker)
	}
	if toMove != game.Black && toMove != game.White {
		return 0, fmt.Errorf("side to move %d is not a player", toMove)
	}
	if black < 0 || white < 0 || r.P < 1 || r.Q < 1 {
		return 0, fmt.Errorf("bad counts or rules")
	}
	blackStones := func(turns int) int {
		if turns == 0 {
			return 0
		}
		return r.Q + r.P*(turns-1)
	}
	var aTurns, dTurns, expected, actual int
	if attacker == game.Black {
		switch {
		case black == 0:
			aTurns = 0
		case black >= r.Q && (black-r.Q)%r.P == 0:
			aTurns = 1 + (black-r.Q)/r.P
		default:
			return 0, fmt.Errorf("Black (the attacker) has %d stones: not a number of full turns", black)
		}
		dTurns = aTurns // White has moved as often as Black when Black is to move
		if toMove == game.White {
			dTurns = aTurns - 1
		}
		if dTurns < 0 {
			return 0, fmt.Errorf("White to move before Black's first turn")
		}
		expected, actual = r.P*dTurns, white
	} else {
		if white%r.P != 0 {
			return 0, fmt.Errorf("White (the attacker) has %d stones: not a number of full turns", white)
		}
		aTurns = white / r.P
		dTurns = aTurns // Black has moved once more than White when White is to move
		if toMove == game.White {
			dTurns = aTurns + 1
		}
		expected, actual = blackStones(dTurns), black
	}
	if actual > expected {
		return 0, fmt.Errorf("the defender has %d stones, more than the %d of its full turns", actual, expected)
	}
	return expected - actual, nil
}

// CheckBook checks the stored proofs of roots: every position on the way
// must be claimed proved with a zone; at an attacker-to-move position some
// stored move must lead to a proved child with a zone inside the claimed
// one; at a defender-to-move position the stored certificate must check
// (CheckVerdict at the position's deficit) and every defender move it does
// not refute must be a proved child (up to the position's own symmetries)
// or contain an open seminull stone whose proved child's zone misses the
// other stone; the claimed zone must contain the computed one. checked is
// the number of (position, attacker) pairs checked; a broken proof returns
// a *Failure. progress (may be nil) is called with that number at most
// every 100 ms.
func CheckBook(ctx context.Context, src Source, roots []Root, progress func(checked int)) (checked int, err error) {
	r := src.Rules()
	if err := r.Validate(); err != nil {
		return 0, fmt.Errorf("proofcheck: %w", err)
	}
	bc := &bookChecker{ctx: ctx, src: src, r: r, nodes: map[int64]*Node{}, memo: map[bookKey]*bookResult{},
		active: map[bookKey]bool{}, progress: progress, last: time.Now()}
	for _, root := range roots {
		res, err := bc.check(root.ID, root.Attacker)
		if err != nil {
			return bc.checked, err
		}
		if res.fail != nil {
			f := res.fail
			return bc.checked, &Failure{Root: root.ID, Attacker: root.Attacker, Line: f.line, ID: f.id, Reason: f.reason, rules: r}
		}
	}
	return bc.checked, nil
}

type bookKey struct {
	id int64
	a  game.Color
}

// bookResult is the outcome of one (position, attacker): the verified
// claimed zone, or a failure with the line from the position (its frame).
type bookResult struct {
	zone    zone
	fail    *relFailure
	claimed bool // the position claims a proof (for choosing which failure to report)
	order   int  // the checked claimed order; -1 when none is claimed
}

type relFailure struct {
	line   []game.Move
	id     int64
	reason string
}

type bookChecker struct {
	ctx      context.Context
	src      Source
	r        game.Rules
	nodes    map[int64]*Node
	memo     map[bookKey]*bookResult
	active   map[bookKey]bool
	checked  int
	progress func(int)
	last     time.Time
}

func (bc *bookChecker) node(id int64) (*Node, error) {
	if n, ok := bc.nodes[id]; ok {
		return n, nil
	}
	n, err := bc.src.Node(bc.ctx, id)
	if err != nil {
		return nil, fmt.Errorf("proofcheck: position %d: %w", id, err)
	}
	if n == nil {
		return nil, fmt.Errorf("proofcheck: position %d: not found", id)
	}
	if n.ID != id {
		return nil, fmt.Errorf("proofcheck: asked for position %d, the source gave %d", id, n.ID)
	}
	bc.nodes[id] = n
	return n, nil
}

func (bc *bookChecker) check(id int64, a game.Color) (*bookResult, error) {
	key := bookKey{id, a}
	if res, ok := bc.memo[key]; ok {
		return res, nil
	}
	if err := bc.ctx.Err(); err != nil {
		return nil, err
	}
	if bc.active[key] {
		return &bookResult{fail: &relFailure{id: id, reason: "the proof goes round in a cycle"}}, nil
	}
	bc.active[key] = true
	res, err := bc.checkNode(id, a)
	delete(bc.active, key)
	if err != nil {
		return nil, err
	}
	bc.memo[key] = res
	bc.checked++
	if bc.progress != nil && time.Since(bc.last) >= 100*time.Millisecond {
		bc.last = time.Now()
		bc.progress(bc.checked)
	}
	return res, nil
}

func failAt(id int64, format string, args ...any) *bookResult {
	return &bookResult{fail: &relFailure{id: id, reason: fmt.Sprintf(format, args...)}}
}

// edgeInfo is a stored edge resolved against its parent.
type edgeInfo struct {
	done  bool
	child *Node
	sym   int    // maps parent+move onto the child's stones
	err   string // the edge is broken
}

func (bc *bookChecker) checkNode(id int64, a game.Color) (*bookResult, error) {
	n, err := bc.node(id)
	if err != nil {
		return nil, err
	}
	if a != game.Black && a != game.White {
		return failAt(id, "attacker %d is not a player", a), nil
	}
	if n.ToMove != game.Black && n.ToMove != game.White {
		return failAt(id, "side to move %d is not a player", n.ToMove), nil
	}
	claim := n.Claims[a-1]
	if !claim.Proved || !claim.HasZone {
		return failAt(id, "rests on a position not proved for %v (with a zone)", a), nil
	}
	res, err := bc.checkClaimed(n, a, claim)
	if res != nil {
		res.claimed = true
	}
	return res, err
}

// checkClaimed checks position n, claimed proved for attacker a.
func (bc *bookChecker) checkClaimed(n *Node, a game.Color, claim Claim) (*bookResult, error) {
	r, id := bc.r, n.ID
	b, err := setUp(r, n.Black, n.White)
	if err != nil {
		return failAt(id, "bad position: %v", err), nil
	}
	claimed := zoneOf(len(b.cells), claim.Zone)
	ord := -1
	if claim.HasOrder {
		ord = claim.Order
	}
	ok := &bookResult{zone: claimed, order: ord}
	ai, di := int8(a), int8(a.Opp())
	if b.hasRow(ai) {
		// Won, whatever the stone counts: a move that makes k in a row
		// may place fewer stones than a turn.
		return ok, nil
	}
	if b.hasRow(di) {
		return failAt(id, "the defender has %d in a row", r.K), nil
	}
	tol, err := Deficit(r, len(n.Black), len(n.White), n.ToMove, a)
	if err != nil {
		return failAt(id, "stone counts: %v", err), nil
	}
	edges := make([]edgeInfo, len(n.Edges))
	var res *bookResult
	if n.ToMove == a {
		res, err = bc.checkOR(n, b, a, tol, claimed, ord, edges)
	} else {
		res, err = bc.checkAND(n, b, a, tol, claimed, ord, edges)
	}
	if err != nil || res != nil {
		return res, err
	}
	return ok, nil
}

// resolve checks that edge i of n leads to its child: the child's stones
// are the image of n's stones plus the move under some symmetry, and the
// other side is to move there.
func (bc *bookChecker) resolve(n *Node, b *board, i int, edges []edgeInfo) (*edgeInfo, error) {
	e := &edges[i]
	if e.done {
		return e, nil
	}
	e.done = true
	child, err := bc.node(n.Edges[i].Child)
	if err != nil {
		return nil, err
	}
	e.child = child
	m := n.Edges[i].Move
	col := int8(n.ToMove)
	for j := 0; j < m.Len(); j++ {
		s := m.At(j)
		if !b.onBoard(s) || b.cells[s] != 0 || (j > 0 && m.At(j-1) == s) {
			e.err = fmt.Sprintf("stored move %s is not legal here", game.MoveName(bc.r, m))
			return e, nil
		}
	}
	if m.Len() == 0 {
		e.err = "stored move places no stone"
		return e, nil
	}
	for j := 0; j < m.Len(); j++ {
		b.place(m.At(j), col)
	}
	sym, found := findSymmetry(bc.r, b, child)
	for j := m.Len() - 1; j >= 0; j-- {
		b.remove(m.At(j))
	}
	if !found || child.ToMove != n.ToMove.Opp() {
		e.err = fmt.Sprintf("stored move %s does not lead to its child (position %d)", game.MoveName(bc.r, m), child.ID)
		return e, nil
	}
	e.sym = sym
	return e, nil
}

// findSymmetry returns a symmetry that maps the stones of b exactly onto
// the child's stones (colour by colour).
func findSymmetry(r game.Rules, b *board, child *Node) (int, bool) {
	nb, nw := 0, 0
	for _, c := range b.cells {
		switch c {
		case 1:
			nb++
		case 2:
			nw++
		}
	}
	if len(child.Black) != nb || len(child.White) != nw {
		return 0, false
	}
	target := make(map[game.Square]int8, nb+nw)
	for i, list := range [2][]game.Square{child.Black, child.White} {
		for _, s := range list {
			if _, dup := target[s]; dup {
				return 0, false
			}
			target[s] = int8(i + 1)
		}
	}
next:
	for sym := 0; sym < r.SymmetryCount(); sym++ {
		for s, c := range b.cells {
			if c != 0 && target[r.Transform(sym, game.Square(s))] != c {
				continue next
			}
		}
		return sym, true
	}
	return 0, false
}

// stabilizer returns the symmetries that map b's stones onto themselves,
// the identity (0) first.
func stabilizer(r game.Rules, b *board) []int {
	var out []int
next:
	for sym := 0; sym < r.SymmetryCount(); sym++ {
		for s, c := range b.cells {
			if c != 0 && b.cells[r.Transform(sym, game.Square(s))] != c {
				continue next
			}
		}
		out = append(out, sym)
	}
	return out
}

// childFailure lifts a child's failure into the parent: the move, then the
// child's line mapped back into the parent's frame.
func (bc *bookChecker) childFailure(m game.Move, sym int, f *relFailure) *relFailure {
	inv := game.InverseSymmetry(sym)
	line := make([]game.Move, 0, 1+len(f.line))
	line = append(line, m)
	for _, cm := range f.line {
		line = append(line, bc.r.TransformMove(inv, cm))
	}
	return &relFailure{line: line, id: f.id, reason: f.reason}
}

// mapZone maps a child's zone into the parent's frame: by the inverse of
// the edge's symmetry, then by the inverse of the stabilizer element g
// that matched the move (g = 0 when none).
func (bc *bookChecker) mapZone(z zone, sym, g int) zone {
	out := newZone(bc.r.Squares())
	is, ig := game.InverseSymmetry(sym), game.InverseSymmetry(g)
	for _, s := range z.squares() {
		out.add(bc.r.Transform(ig, bc.r.Transform(is, s)))
	}
	return out
}

// checkOR: some stored move must lead to a proved child whose zone, with
// the move and the defender windows, lies in the claimed zone.
func (bc *bookChecker) checkOR(n *Node, b *board, a game.Color, tol int, claimed zone, ord int, edges []edgeInfo) (*bookResult, error) {
	r := bc.r
	ai, di := int8(a), int8(a.Opp())
	var first, best *relFailure
	note := func(f *relFailure, childClaims bool) {
		if first == nil {
			first = f
		}
		if best == nil && childClaims {
			best = f
		}
	}
	for i, edge := range n.Edges {
		m := edge.Move
		name := game.MoveName(r, m)
		e, err := bc.resolve(n, b, i, edges)
		if err != nil {
			return nil, err
		}
		if e.err != "" {
			note(&relFailure{id: n.ID, reason: e.err}, true)
			continue
		}
		// A turn places p stones, Black's first turn (on the empty board) q.
		turn := b.p
		if len(n.Black)+len(n.White) == 0 {
			turn = r.Q
		}
		if m.Len() > turn {
			note(&relFailure{id: n.ID, reason: fmt.Sprintf("attacker move %s has more than %d stones", name, turn)}, true)
			continue
		}
		before := b.empties
		for j := 0; j < m.Len(); j++ {
			b.place(m.At(j), ai)
		}
		six := b.hasRow(ai)
		for j := m.Len() - 1; j >= 0; j-- {
			b.remove(m.At(j))
		}
		if !six && m.Len() < turn && m.Len() < before {
			note(&relFailure{id: n.ID, reason: fmt.Sprintf("attacker move %s has fewer than %d stones and does not make %d in a row", name, turn, r.K)}, true)
			continue
		}
		z := newZone(len(b.cells))
		z.addMove(m)
		if six {
			b.addDefWin(z, di, tol)
		} else {
			cr, err := bc.check(edge.Child, a)
			if err != nil {
				return nil, err
			}
			if cr.fail != nil {
				note(bc.childFailure(m, e.sym, cr.fail), cr.claimed)
				continue
			}
			if ord >= 0 && ord < cr.order {
				note(&relFailure{id: n.ID, reason: fmt.Sprintf("claimed order %d, but attacker move %s is proved at order %d", ord, name, cr.order)}, true)
				continue
			}
			b.addDefWin(z, di, b.p+tol)
			z.union(bc.mapZone(cr.zone, e.sym, 0))
		}
		if s, missing := z.firstMissing(claimed); missing {
			note(&relFailure{id: n.ID, reason: fmt.Sprintf("attacker move %s: the claimed zone misses square %s", name, game.SquareName(r, s))}, true)
			continue
		}
		return nil, nil
	}
	for _, t := range n.Twins {
		f, err := bc.checkTwin(n, b, a, tol, claimed, ord, t)
		if err != nil {
			return nil, err
		}
		if f == nil {
			return nil, nil
		}
		note(f, true)
	}
	if best == nil {
		best = first
	}
	if best == nil {
		best = &relFailure{id: n.ID, reason: "no stored attacker move"}
	}
	return &bookResult{fail: best}, nil
}

// checkTwin checks the twin rule at the attacker-to-move node n (board b,
// deficit tol): n is a full position (tol 0); the twin's stones are n's
// with the defender stone t.Stone taken off, up to a symmetry, the same
// side to move (so the twin is one defender stone short: its proof is
// checked at tolerance 1); the twin is proved for a; its zone, in n's
// frame, misses t.Stone — the proof tolerates one extra defender stone
// anywhere outside its zone, as for an open seminull item; that zone with
// t.Stone lies in the claimed one. It returns the failure, nil when the
// twin proves n.
func (bc *bookChecker) checkTwin(n *Node, b *board, a game.Color, tol int, claimed zone, ord int, t Twin) (*relFailure, error) {
	r, x, di := bc.r, t.Stone, int8(a.Opp())
	name := game.SquareName(r, x)
	if tol != 0 {
		return &relFailure{id: n.ID, reason: fmt.Sprintf("twin without %s: the position is %d defender stones short, not a full position", name, tol)}, nil
	}
	if !b.onBoard(x) || b.cells[x] != di {
		return &relFailure{id: n.ID, reason: fmt.Sprintf("twin without %s: not a defender stone here", name)}, nil
	}
	tw, err := bc.node(t.ID)
	if err != nil {
		return nil, err
	}
	b.remove(x)
	sym, found := findSymmetry(r, b, tw)
	b.place(x, di)
	if !found || tw.ToMove != n.ToMove {
		return &relFailure{id: n.ID, reason: fmt.Sprintf("twin without %s: position %d is not this position less that stone", name, t.ID)}, nil
	}
	cr, err := bc.check(t.ID, a)
	if err != nil {
		return nil, err
	}
	if cr.fail != nil {
		// The twin's line, in n's frame (the twin is not a move away).
		f := bc.childFailure(game.Move{}, sym, cr.fail)
		f.line = f.line[1:]
		if f.reason != "" {
			f.reason = fmt.Sprintf("twin without %s: %s", name, f.reason)
		}
		return f, nil
	}
	if ord >= 0 && ord < cr.order {
		return &relFailure{id: n.ID, reason: fmt.Sprintf("claimed order %d, but the twin without %s is proved at order %d", ord, name, cr.order)}, nil
	}
	z := bc.mapZone(cr.zone, sym, 0)
	if z.has(x) {
		return &relFailure{id: n.ID, reason: fmt.Sprintf("twin without %s: its zone holds that square", name)}, nil
	}
	z.add(x)
	if s, missing := z.firstMissing(claimed); missing {
		return &relFailure{id: n.ID, reason: fmt.Sprintf("twin without %s: the claimed zone misses square %s", name, game.SquareName(r, s))}, nil
	}
	return nil, nil
}

// checkAND: the certificate must check, and every defender move it does
// not refute must be a proved child or an open seminull child's.
func (bc *bookChecker) checkAND(n *Node, b *board, a game.Color, tol int, claimed zone, ord int, edges []edgeInfo) (*bookResult, error) {
	r := bc.r
	if n.Cert == nil || n.Cert.Attacker != a {
		return failAt(n.ID, "no certificate for %v", a), nil
	}
	vr := n.Checked
	var err error
	if !vr.checkedOn(b, a, tol) {
		vr, err = CheckVerdict(bc.ctx, r, n.Black, n.White, a.Opp(), tol, n.Cert)
	}
	if err != nil {
		if ctxErr := bc.ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
			return nil, err
		}
		return failAt(n.ID, "certificate: %v", err), nil
	}
	if ord >= 0 {
		if err := vr.CheckOrder(ord); err != nil {
			return failAt(n.ID, "%v", err), nil
		}
	}
	z := zoneOf(len(b.cells), vr.Zone)
	stab := stabilizer(r, b)
	byMove := make(map[game.Move][]int)
	for i, e := range n.Edges {
		byMove[e.Move] = append(byMove[e.Move], i)
	}
	// child returns the zone (this frame, for move dm) of a proved child
	// whose stored move is an image of dm under the stabilizer, or a
	// failure from the first such child.
	child := func(dm game.Move) (zone, *relFailure, error) {
		var fail *relFailure
		for _, g := range stab {
			for _, i := range byMove[r.TransformMove(g, dm)] {
				e, err := bc.resolve(n, b, i, edges)
				if err != nil {
					return nil, nil, err
				}
				if e.err != "" {
					if fail == nil {
						fail = &relFailure{id: n.ID, reason: e.err}
					}
					continue
				}
				cr, err := bc.check(n.Edges[i].Child, a)
				if err != nil {
					return nil, nil, err
				}
				if cr.fail != nil {
					if fail == nil {
						fail = bc.childFailure(n.Edges[i].Move, e.sym, cr.fail)
					}
					continue
				}
				if ord >= 0 && ord < cr.order {
					if fail == nil {
						fail = &relFailure{id: n.ID, reason: fmt.Sprintf("claimed order %d, but defender move %s is proved at order %d",
							ord, game.MoveName(r, n.Edges[i].Move), cr.order)}
					}
					continue
				}
				return bc.mapZone(cr.zone, e.sym, g), nil, nil
			}
		}
		return nil, fail, nil
	}
	var fatal error
	var fail *relFailure // the failure reported: set for the first uncovered move
	count := 0
	vr.Unrefuted(func(dm game.Move) bool {
		count++
		if count&255 == 0 {
			if err := bc.ctx.Err(); err != nil {
				fatal = err
				return false
			}
		}
		cz, cf, err := child(dm)
		if err != nil {
			fatal = err
			return false
		}
		if cz != nil {
			z.union(cz)
			return true
		}
		dmFail := cf // a broken child of this move explains more than "not covered"
		for _, s := range vr.OpenSeminull {
			if !dm.Contains(s) {
				continue
			}
			sz, sf, err := child(game.NewMove(s))
			if err != nil {
				fatal = err
				return false
			}
			if sz == nil {
				if sf != nil && dmFail == nil {
					dmFail = sf
				}
				continue
			}
			outside := true
			for i := 0; i < dm.Len(); i++ {
				if x := dm.At(i); x != s && sz.has(x) {
					outside = false
				}
			}
			if outside {
				z.union(sz)
				return true
			}
		}
		fail = dmFail
		if fail == nil {
			fail = &relFailure{id: n.ID, reason: fmt.Sprintf("defender move %s is neither refuted by the certificate nor a proved child", game.MoveName(r, dm))}
		}
		return false
	})
	if fatal != nil {
		return nil, fatal
	}
	if fail != nil {
		return &bookResult{fail: fail}, nil
	}
	if s, missing := z.firstMissing(claimed); missing {
		return failAt(n.ID, "the claimed zone misses square %s", game.SquareName(r, s)), nil
	}
	return nil, nil
}
