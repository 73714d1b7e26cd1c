package threat

import (
	"cmp"
	"context"
	"slices"
	"time"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/internal/latest"
)

const pnInf = uint32(1) << 30

// pnode is a node of the proof-number search tree. OR nodes have the
// attacker to move; AND nodes the defender (after the attacker's move).
type pnode struct {
	// (fields ordered so that the node packs into 72 bytes)
	pn, dn   uint32
	visits   int32 // OR node at stage 1 (VCST): descents through it
	depth    int16
	move     game.Move // the move leading here
	and      bool
	expanded bool
	semi     bool // OR node after a one-stone defender reply (seminull)
	semiDone bool // proven seminull: the replies inside its zone were added
	six      bool // OR node where the attacker has a threat window
	stage    int8 // OR node: 1 = double threats generated, 2 = single threats too, 3 = and the best single threats
	threats  int8 // AND node: attacker threats after move
	tol      int8 // defender stones this node's zone must tolerate
	singles  int8 // single-threat attacker moves on the path to this node
	kids     []*pnode
	alias    *pnode    // proven elsewhere (transposition)
	zones    *zoneMemo // proven node: its zones, one per tolerance asked
}

// zoneMemo is a list of a proven node's zones (a pointer in the node, not a
// slice: most nodes never get one, and the node is smaller).
type zoneMemo struct {
	tol  int8
	zone *game.SqSet
	next *zoneMemo
}

func (n *pnode) proven() bool    { return n.pn == 0 }
func (n *pnode) disproven() bool { return n.dn == 0 }

// ttEntry is keyed by the Zobrist hash and holds the position's check
// hash: an entry whose check differs is another position (a 64-bit
// collision) and is never used, so a collision can cost work, never a false
// proof.
type ttEntry struct {
	check    uint64
	node     *pnode // proven OR node
	provTol  int8
	disTol   int8 // disproven at this tolerance (and so at any higher one)
	disRem   int8 // with this many single-threat moves left (and so with fewer)
	disKnown bool
}

type search struct {
	ctx      context.Context
	b        *board.Board
	a, d     game.Color
	p        Params
	minT     int
	gen      *board.MoveGen
	tt       map[uint64]*ttEntry
	nodes    int64
	evals    int64
	maxDepth int
	start    time.Time
	deadline time.Time // set by run from Limits.Timeout unless set before
	prog     *latest.Reporter[Progress]
	lastProg time.Time
	path     []*pnode
	stopped  UnsolvedReason
	slab     []pnode
	kidSlab  []*pnode // backing store of the nodes' kids slices
	defs     board.DefenceBuf
	moves    []board.ThreatMove
	singles  []scoredMove
	hist     []int32 // per square: proven OR nodes whose winning move holds it
	// per square: its singleScore term, valid when scStamp[s] == scGen
	scVal   []int64
	scStamp []uint32
	scGen   uint32
	// singleCap, when positive, is the most single-threat attacker moves
	// a line may hold (VCST); beyond it the attacker plays double threats
	// only. 0: no cap.
	singleCap int8
	// seeds are the tables of earlier searches whose proofs s may use
	// (seedProofs)
	seeds []map[uint64]*ttEntry
}

// noCap is the single-threat allowance of a node of an uncapped search.
const noCap = 127

// singlesLeft is the number of single-threat attacker moves the line to n
// may still add.
func (s *search) singlesLeft(n *pnode) int8 {
	switch {
	case s.minT != 1:
		return 0
	case s.singleCap <= 0:
		return noCap
	}
	return max(0, s.singleCap-n.singles)
}

// newNode allocates a node from a slab (nodes live as long as the search).
func (s *search) newNode() *pnode {
	if len(s.slab) == cap(s.slab) {
		s.slab = make([]pnode, 0, 1024)
	}
	s.slab = s.slab[:len(s.slab)+1]
	s.nodes++
	return &s.slab[len(s.slab)-1]
}

// reserveKids makes room in n.kids for extra more children, taking the
// space from a shared slab rather than one allocation per node (children
// live as long as the search).
func (s *search) reserveKids(n *pnode, extra int) {
	need := len(n.kids) + extra
	if need <= cap(n.kids) {
		return
	}
	if need > cap(s.kidSlab)-len(s.kidSlab) {
		s.kidSlab = make([]*pnode, 0, max(4096, need))
	}
	l := len(s.kidSlab)
	kids := append(s.kidSlab[l:l:l+need], n.kids...)
	s.kidSlab = s.kidSlab[:l+need]
	n.kids = kids
}

func newSearch(ctx context.Context, b *board.Board, p Params) *search {
	s := &search{ctx: ctx, b: b.Clone(), p: p, gen: board.NewMoveGen(b.Rules()), tt: make(map[uint64]*ttEntry), hist: make([]int32, b.Rules().Squares()),
		scVal: make([]int64, b.Rules().Squares()), scStamp: make([]uint32, b.Rules().Squares())}
	s.a = b.ToMove()
	s.d = s.a.Opp()
	s.gen.CountDefs = true // addAttackerKid's proof numbers
	// VCDT: every attacker move leaves at least p threats, so that the
	// defender has no free stone (two threats for Connect6; with one stone
	// a turn a single threat already forces the reply). VCST: one threat.
	s.minT = b.Rules().P
	if p.Mode == VCST {
		s.minT = 1
	}
	if s.p.Limits.MaxNodes <= 0 {
		s.p.Limits.MaxNodes = DefaultMaxNodes
	}
	if s.p.ProgressEvery <= 0 {
		s.p.ProgressEvery = 200 * time.Millisecond
	}
	return s
}

// seedProofs lets s use the proofs of prev (an earlier search of the same
// root, attacker and board) and of the searches prev itself was seeded
// with: ttInit looks them up when s's own table has no proof. Disproofs are
// left out, for they hold only in the other search's threat space. Nothing
// is copied, so a stage starts at once however big the tables are.
func (s *search) seedProofs(prev *search) {
	s.seeds = append(append(s.seeds[:0:0], prev.seeds...), prev.tt)
}

func (s *search) run() (Result, error) {
	s.start = time.Now()
	if s.p.Limits.Timeout > 0 && s.deadline.IsZero() {
		s.deadline = s.start.Add(s.p.Limits.Timeout)
	}
	if s.prog == nil { // else shared with an enclosing multi-stage search
		s.prog = latest.NewReporter(s.p.Progress)
		defer s.prog.Stop(s.ctx)
	}
	root := s.newNode()
	root.tol = int8(s.p.Tolerance)
	s.initOR(root)
	iter := 0
	for !root.proven() && !root.disproven() {
		iter++
		if iter&3 == 0 && s.checkStop() {
			break
		}
		if s.nodes >= s.p.Limits.MaxNodes {
			s.stopped = ReasonBudget
			break
		}
		// Descend to a most-proving node, from the deepest node of the
		// last path whose numbers did not change (its ancestors did not
		// change either, so the most-proving node lies below it).
		if len(s.path) == 0 {
			s.path = append(s.path, root)
		}
		n := s.path[len(s.path)-1]
		for n.expanded {
			if s.widen(n) {
				break // n has new children: back up from n
			}
			n = selectKid(n)
			s.apply(n)
			s.path = append(s.path, n)
		}
		if !n.expanded {
			s.expand(n)
		}
		// Back up, undoing moves, until a node's numbers stay the same.
		for i := len(s.path) - 1; i >= 0; i-- {
			m := s.path[i]
			pn, dn := m.pn, m.dn
			if m == n {
				pn, dn = pnInf+1, pnInf+1 // just expanded: always back up
			}
			s.update(m)
			if i == 0 || (m.pn == pn && m.dn == dn) {
				break
			}
			s.unapply(m)
			s.path = s.path[:i]
		}
		if s.prog.Active() && iter&63 == 0 {
			s.report(root)
		}
	}
	// Back to the root position.
	for i := len(s.path) - 1; i > 0; i-- {
		s.unapply(s.path[i])
	}
	s.path = s.path[:0]
	res := Result{Nodes: s.nodes, Evals: s.evals, Elapsed: time.Since(s.start), MaxDepth: s.maxDepth, Mode: s.p.Mode}
	switch {
	case root.proven():
		res.Outcome = Win
		res.Tree = s.strategy(root, int(root.tol))
		if res.Tree != nil {
			res.Move = res.Tree.Move
			res.Zone = res.Tree.Zone
		}
		res.Line = principalLine(res.Tree)
	case root.disproven():
		res.Reason = ReasonExhausted
		if s.b.Threats(s.d) > s.b.Rules().P && !s.b.HasThreat(s.a) {
			res.Reason = ReasonLoss
		}
	default:
		res.Reason = s.stopped
		res.Line = s.mostProvingLine(root)
	}
	res.Elapsed = time.Since(s.start)
	if s.prog.Active() {
		s.report(root)
	}
	return res, nil
}

func (s *search) checkStop() bool {
	select {
	case <-s.ctx.Done():
		s.stopped = ReasonCancelled
		return true
	default:
	}
	if !s.deadline.IsZero() && time.Now().After(s.deadline) {
		s.stopped = ReasonBudget
		return true
	}
	return false
}

func (s *search) report(root *pnode) {
	now := time.Now()
	if now.Sub(s.lastProg) < s.p.ProgressEvery && !(root.proven() || root.disproven()) {
		return
	}
	s.lastProg = now
	pr := Progress{Nodes: s.nodes, Depth: s.maxDepth, Elapsed: now.Sub(s.start), PN: root.pn, DN: root.dn, Line: s.mostProvingLine(root)}
	s.prog.Send(pr)
}

// mostProvingLine follows the most-proving path without touching the board.
func (s *search) mostProvingLine(root *pnode) []game.Move {
	var line []game.Move
	for n := root; n.expanded && len(n.kids) > 0 && len(line) < 64; {
		n = selectKid(n)
		line = append(line, n.move)
	}
	return line
}

func selectKid(n *pnode) *pnode {
	var best *pnode
	for _, k := range n.kids {
		if best == nil || moreProving(n.and, k.pn, k.dn, best.pn, best.dn) {
			best = k
		}
	}
	return best
}

// moreProving reports whether a child with numbers (pn, dn) is to be
// searched before one with (bpn, bdn): under an AND node the smaller
// disproof number, under an OR node the smaller proof number, ties to the
// larger other number.
func moreProving(and bool, pn, dn, bpn, bdn uint32) bool {
	if and {
		return dn < bdn || (dn == bdn && pn > bpn)
	}
	return pn < bpn || (pn == bpn && dn > bdn)
}

// pnSum combines children's numbers: an AND node's proof number (an OR
// node's disproof number) is the sum of its children's, capped at pnInf,
// and the other number is their minimum.
type pnSum struct {
	sum uint64
	min uint32
}

func newPNSum() pnSum { return pnSum{min: pnInf} }

func (a *pnSum) add(summed, minimised uint32) {
	a.sum += uint64(summed)
	if minimised < a.min {
		a.min = minimised
	}
}

func (a pnSum) result() (summed, minimised uint32) {
	return uint32(min(a.sum, uint64(pnInf))), a.min
}

// apply plays the move leading to n on the board.
func (s *search) apply(n *pnode) {
	c := s.d
	if n.and {
		c = s.a
	}
	for i := 0; i < n.move.Len(); i++ {
		s.b.Place(n.move.At(i), c)
	}
}

func (s *search) unapply(n *pnode) {
	for i := n.move.Len() - 1; i >= 0; i-- {
		s.b.Remove(n.move.At(i))
	}
}

// initOR sets the initial numbers of an OR node whose position is on the board.
func (s *search) initOR(n *pnode) {
	s.evals++
	switch {
	case s.b.HasThreat(s.a):
		n.six = true
		n.pn, n.dn = 0, pnInf
		return
	case s.b.Threats(s.d) > s.b.Rules().P:
		n.pn, n.dn = pnInf, 0
		return
	}
	h, k := s.b.Hashes()
	s.ttInit(n, h, k)
}

// ttInit sets n's numbers from the transposition table entry of key: a
// proof at a tolerance at least n's (in s's table or a seed's), a disproof
// at one at most n's with at least as many single threats left.
func (s *search) ttInit(n *pnode, key, check uint64) {
	if s.p.KeyHook != nil {
		s.p.KeyHook(key)
	}
	e := s.tt[key]
	if provedBy(n, e, check) {
		return
	}
	for _, tt := range s.seeds {
		if provedBy(n, tt[key], check) {
			return
		}
	}
	if e != nil && e.check == check && e.disKnown && e.disTol <= n.tol && e.disRem >= s.singlesLeft(n) {
		n.pn, n.dn = pnInf, 0
		return
	}
	n.pn, n.dn = 1, 1
}

// provedBy reports whether table entry e, of the position whose check hash
// is check, proves n (at a tolerance at least n's); if so n becomes an
// alias of the proven node.
func provedBy(n *pnode, e *ttEntry, check uint64) bool {
	if e == nil || e.check != check || e.node == nil || e.provTol < n.tol {
		return false
	}
	n.alias = e.node
	n.pn, n.dn = 0, pnInf
	return true
}

// expand generates the children of a leaf whose position is on the board.
func (s *search) expand(n *pnode) {
	n.expanded = true
	if int(n.depth) > s.maxDepth {
		s.maxDepth = int(n.depth)
	}
	if !n.and {
		if s.p.ExpandHook != nil {
			s.p.ExpandHook(s.b)
		}
		if s.p.Limits.MaxDepth > 0 && int(n.depth) >= s.p.Limits.MaxDepth {
			n.pn, n.dn = pnInf, 0
			return
		}
		left := s.singlesLeft(n)
		if left > 0 && s.b.Rules().P >= 2 {
			// VCST, multistage: double threats first; the best single
			// threats join them when the node has cost widenAfter
			// descents (see widen), the others when all have failed
			// (see update).
			n.stage = 1
			s.addAttackerMoves(n, 2, 0)
			if len(n.kids) == 0 {
				n.stage = 2
				s.addVCSTMoves(n, selAll)
			}
			return
		}
		// VCDT, or VCST on a line whose single threats are used up.
		minT := s.minT
		if left == 0 {
			minT = s.b.Rules().P
		}
		n.stage = 2
		s.addAttackerMoves(n, minT, 0)
		return
	}
	s.expandDefender(n)
}

// addAttackerMoves adds the attacker's threat moves with at least minT
// threats (and, when maxT > 0, at most maxT) as children of OR node n.
func (s *search) addAttackerMoves(n *pnode, minT, maxT int) {
	moves := s.gen.Generate(s.b, s.a, minT, s.p.Free, s.moves[:0])
	s.moves = moves
	s.evals += int64(len(moves))
	s.reserveKids(n, len(moves))
	// History heuristic: moves whose squares won elsewhere in this search
	// first; otherwise generation order (a stable sort).
	sc := s.singles[:0]
	for _, tm := range moves {
		if maxT <= 0 || tm.Threats <= maxT {
			sc = append(sc, scoredMove{tm.Move, s.histScore(tm.Move), int8(tm.Threats), tm.Defs})
		}
	}
	s.singles = sc
	slices.SortStableFunc(sc, func(x, y scoredMove) int { return cmp.Compare(y.score, x.score) })
	for _, sm := range sc {
		s.addAttackerKid(n, board.ThreatMove{Move: sm.m, Threats: int(sm.threats), Defs: sm.defs})
	}
}

// histScore is the history score of attacker move m: for each of its
// squares, the proven OR nodes of this search whose winning move holds it.
func (s *search) histScore(m game.Move) int64 {
	var h int64
	for i := 0; i < m.Len(); i++ {
		h += int64(s.hist[m.At(i)])
	}
	return h
}

// sortScored sorts moves by score, highest first, ties by squares: a total
// order, whatever order generation lists the moves in.
func sortScored(sc []scoredMove) {
	slices.SortFunc(sc, func(x, y scoredMove) int {
		if x.score != y.score {
			return cmp.Compare(y.score, x.score)
		}
		if x.m.At(0) != y.m.At(0) {
			return cmp.Compare(x.m.At(0), y.m.At(0))
		}
		return cmp.Compare(x.m.At(1), y.m.At(1))
	})
}

// singleFirst is the number of single-threat moves, the best by
// singleScore, that join the double threats of a VCST node whose double
// threats have not decided it within widenAfter descents.
const (
	singleFirst = 8
	widenAfter  = 512
)

// Which single-threat moves addVCSTMoves adds.
const (
	selAll  = iota // every one
	selTop         // the singleFirst best
	selRest        // all but the singleFirst best
)

// widen adds the best single threats to a VCST OR node (on the board) at
// stage 1 that is descended through for the widenAfter-th time, so that
// single threats are searched in the same proof-number search as the
// double threats instead of only when every double threat has failed (on
// a big board that rarely happens). It reports whether it added children.
func (s *search) widen(n *pnode) bool {
	if n.and || n.stage != 1 || s.minT != 1 || s.b.Rules().P < 2 {
		return false
	}
	n.visits++
	if n.visits < widenAfter {
		return false
	}
	n.stage = 3
	before := len(n.kids)
	s.addVCSTMoves(n, selTop)
	return len(n.kids) > before
}

// addVCSTMoves adds to OR node n (VCST) the attacker's single-threat
// moves chosen by sel. The best are the first by a total order on (score,
// move), so that selTop and selRest split the moves the same way whatever
// order generation lists them in.
func (s *search) addVCSTMoves(n *pnode, sel int) {
	moves := s.gen.Generate(s.b, s.a, 1, s.p.Free, s.moves[:0])
	s.moves = moves
	s.evals += int64(len(moves))
	singles := s.singles[:0]
	s.scGen++ // a new position: the cached square scores are stale
	if s.scGen == 0 {
		clear(s.scStamp)
		s.scGen = 1
	}
	for _, tm := range moves {
		if tm.Threats == 1 {
			singles = append(singles, scoredMove{tm.Move, s.singleScore(tm.Move), 1, tm.Defs})
		}
	}
	s.singles = singles
	if sel != selAll && len(singles) > singleFirst {
		sortScored(singles)
	}
	switch top := min(len(singles), singleFirst); sel {
	case selAll:
		s.reserveKids(n, len(singles))
	case selTop:
		s.reserveKids(n, top)
	default:
		s.reserveKids(n, len(singles)-top)
	}
	for i, sm := range singles {
		if sel == selAll || (i < singleFirst) == (sel == selTop) {
			s.addAttackerKid(n, board.ThreatMove{Move: sm.m, Threats: 1, Defs: sm.defs})
		}
	}
}

type scoredMove struct {
	m       game.Move
	score   int64
	threats int8
	defs    int32 // ThreatMove.defs
}

// singleScore is a cheap evaluation of an attacker move from the window
// counts before it: for each stone, the attacker-live windows through it
// weighted by their attacker stones (4^count: windows near a threat count
// most), and half that for the defender-live windows it spoils. The terms
// of the squares are cached until scGen changes (a new position).
func (s *search) singleScore(m game.Move) int64 {
	var sc int64
	for i := 0; i < m.Len(); i++ {
		q := m.At(i)
		if s.scStamp[q] != s.scGen {
			s.scStamp[q], s.scVal[q] = s.scGen, s.squareScore(q)
		}
		sc += s.scVal[q]
	}
	return sc
}

// squareScore is singleScore's term for an attacker stone on q.
func (s *search) squareScore(q game.Square) int64 {
	b := s.b
	var sc int64
	for _, w := range b.WindowsThrough(q) {
		ca, cd := b.WindowStones(s.a, w), b.WindowStones(s.d, w)
		switch {
		case cd == 0:
			sc += 2 << (2 * ca)
		case ca == 0:
			sc += 1 << (2 * cd)
		}
	}
	return sc
}

// addAttackerKid adds attacker move tm as a child of OR node n.
func (s *search) addAttackerKid(n *pnode, tm board.ThreatMove) {
	k := s.newNode()
	k.and, k.move, k.threats, k.tol, k.depth, k.singles = true, tm.Move, int8(tm.Threats), n.tol, n.depth+1, n.singles
	if tm.Threats < s.b.Rules().P {
		k.singles++
	}
	switch {
	case tm.Threats > s.b.Rules().P:
		k.pn, k.dn = 0, pnInf
	case tm.Threats == s.b.Rules().P:
		// The defender's replies are its critical defences: as many
		// children to prove (the usual mobility initialisation).
		k.pn, k.dn = uint32(max(1, tm.Defs)), 1
	default:
		// A single threat: the defender's replies (mostly seminull)
		// and, once those are proved, the full moves inside their
		// zones: one more than the replies.
		k.pn, k.dn = uint32(max(1, tm.Defs)+1), 1
	}
	n.kids = append(n.kids, k)
}

// expandDefender adds the defender's replies to AND node n: every minimal
// set of stones that hits all attacker threat windows. A normal set with
// fewer than p stones (a single threat, p = 2) is a seminull reply: the
// defender's other stone is free, bounded by the reply's relevance zone.
// The threat count is read from the board, not trusted from generation.
func (s *search) expandDefender(n *pnode) {
	p := s.b.Rules().P
	t := s.b.Threats(s.a)
	if t != int(n.threats) {
		// Never expected: generation counts exactly. Trust the board.
		n.threats = int8(t)
	}
	if t > p {
		n.pn, n.dn = 0, pnInf
		return
	}
	if t == 0 {
		// Never generated; without this guard a node with no defender
		// reply would count as won.
		n.pn, n.dn = pnInf, 0
		return
	}
	normal, relaxed := s.b.CriticalDefencesBuf(s.a, &s.defs)
	s.reserveKids(n, len(normal)+len(relaxed))
	for _, m := range normal {
		if m.Len() < p {
			s.addOR(n, m, true, n.tol+1)
		} else {
			s.addOR(n, m, false, n.tol)
		}
	}
	for _, m := range relaxed {
		s.addOR(n, m, false, n.tol)
	}
}

func (s *search) addOR(parent *pnode, m game.Move, semi bool, tol int8) *pnode {
	k := s.newNode()
	k.move, k.semi, k.tol, k.depth, k.singles = m, semi, tol, parent.depth, parent.singles
	if m.Len() > 2 {
		for i := 0; i < m.Len(); i++ {
			s.b.Place(m.At(i), s.d)
		}
		s.initOR(k)
		for i := m.Len() - 1; i >= 0; i-- {
			s.b.Remove(m.At(i))
		}
	} else {
		s.initORAfter(k, m)
	}
	parent.kids = append(parent.kids, k)
	return k
}

// initORAfter is initOR for the position after the defender's reply m (one
// or two stones), read off the board at the parent without placing m: the
// attacker's threat windows m misses, the defender's threats with m
// (moveGen.threatsWith) and the Zobrist key with m.
func (s *search) initORAfter(n *pnode, m game.Move) {
	s.evals++
	b := s.b
	for _, w := range b.ThreatWindowIDs(s.a) {
		hit := false
		for _, q := range b.WindowSquares(w) {
			if m.Contains(q) {
				hit = true
				break
			}
		}
		if !hit {
			n.six = true
			n.pn, n.dn = 0, pnInf
			return
		}
	}
	s1, s2 := m.At(0), game.NoSquare
	if m.Len() == 2 {
		s2 = m.At(1)
	}
	if s.gen.ThreatsWith(b, s.d, s1, s2) > b.Rules().P {
		n.pn, n.dn = pnInf, 0
		return
	}
	h, k := b.HashWith(s.d, m)
	s.ttInit(n, h, k)
}

// update recomputes n's numbers from its children (position of n on the board).
func (s *search) update(n *pnode) {
	if !n.expanded || n.proven() || n.disproven() {
		return
	}
	if n.and {
		s.expandSeminulls(n)
	}
	acc := newPNSum()
	for _, k := range n.kids {
		if n.and {
			acc.add(k.pn, k.dn)
		} else {
			acc.add(k.dn, k.pn)
		}
	}
	switch {
	case n.and && len(n.kids) == 0 && int(n.threats) > s.b.Rules().P:
		n.pn, n.dn = 0, pnInf // no defence: the threats cannot be blocked
	case n.and && len(n.kids) == 0:
		n.pn, n.dn = pnInf, 0 // never expected: no proof without replies
	case n.and:
		n.pn, n.dn = acc.result()
	default:
		n.dn, n.pn = acc.result()
	}
	switch {
	case n.proven():
		if !n.and {
			for _, k := range n.kids {
				if k.proven() {
					n.kids = []*pnode{k}
					for i := 0; i < k.move.Len(); i++ {
						s.hist[k.move.At(i)]++
					}
					break
				}
			}
			e := s.entry()
			if e.node == nil || e.provTol < n.tol {
				e.node, e.provTol = n, n.tol
			}
		}
	case n.disproven():
		n.kids = nil
		if !n.and && (n.stage == 1 || n.stage == 3) && s.minT == 1 && s.b.Rules().P >= 2 {
			// Every double threat (and the best single threats) failed:
			// try the other single threats.
			sel := selAll
			if n.stage == 3 {
				sel = selRest
			}
			n.stage = 2
			s.addVCSTMoves(n, sel)
			if len(n.kids) > 0 {
				n.pn, n.dn = 1, 1
				s.update(n)
				return
			}
		}
		if !n.and && s.p.Limits.MaxDepth == 0 {
			e := s.entry()
			// Keep the disproof that holds in more positions: at a
			// lower tolerance and with more single threats left.
			if rem := s.singlesLeft(n); !e.disKnown || (n.tol <= e.disTol && rem >= e.disRem) {
				e.disKnown, e.disTol, e.disRem = true, n.tol, rem
			}
		}
	}
}

func (s *search) entry() *ttEntry {
	hash, chk := s.b.Hashes()
	e := s.tt[hash]
	if e == nil || e.check != chk {
		// New, or a collision: the newer position takes the slot.
		e = &ttEntry{check: chk}
		s.tt[hash] = e
	}
	return e
}

// expandSeminulls adds, for each proven seminull child (s), the defender
// moves (s, s') with s' inside its relevance zone as children.
func (s *search) expandSeminulls(n *pnode) {
	for i := 0; i < len(n.kids); i++ {
		k := n.kids[i]
		if !k.semi || k.semiDone || !k.proven() {
			continue
		}
		k.semiDone = true
		st := k.move.At(0)
		s.b.Place(st, s.d)
		z := s.zoneOf(k, int(k.tol))
		s.b.Remove(st)
		for _, s2 := range z.Squares() {
			if s2 == st || s.b.At(s2) != game.Empty {
				continue
			}
			m := game.NewMove(st, s2)
			dup := false
			for _, o := range n.kids {
				if !o.semi && o.move == m {
					dup = true
					break
				}
			}
			if !dup {
				s.addOR(n, m, false, n.tol)
			}
		}
	}
}

func principalLine(t *Strategy) []game.Move {
	var line []game.Move
	for t != nil {
		line = append(line, t.Move)
		if len(t.Replies) == 0 {
			break
		}
		// Follow the reply with the longest defence.
		best := t.Replies[0]
		for _, r := range t.Replies[1:] {
			if strategyDepth(r.Then) > strategyDepth(best.Then) {
				best = r
			}
		}
		line = append(line, best.Move)
		t = best.Then
	}
	return line
}

func strategyDepth(t *Strategy) int {
	if t == nil {
		return 0
	}
	best := 0
	for _, r := range t.Replies {
		if x := strategyDepth(r.Then); x > best {
			best = x
		}
	}
	return 1 + best
}
