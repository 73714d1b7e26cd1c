package engine

import (
	"context"
	"fmt"
	"sort"
	"time"
)

// AutoProve is a job-level proof-number search over verifier calls: it
// proves that the attacker wins a position with the defender to move by
// verifying it, then, for every defender move the verifier leaves unsolved,
// proposing attacker moves (threat moves from the threat generator and
// quiet moves near the stones, ranked by a pattern score) and verifying
// each, recursively, expanding the most-proving position first. It plays
// the expert's part in NCTU6-style proving, without hand-given moves.

// AutoProveOptions configure AutoProve.
type AutoProveOptions struct {
	// Verify configures every verifier call. AutoProve needs plain
	// positions to work on, so with Lambda 3 it sets ExpandSeminull.
	Verify VerifyOptions
	// MaxCalls bounds the verifier calls (0: 500).
	MaxCalls int
	// MaxDepth bounds the attacker moves proposed on a line below the
	// root (0: 6).
	MaxDepth int
	// Candidates is the number of attacker moves tried at a position (0: 8).
	Candidates int
}

// AutoProgress is reported while AutoProve runs.
type AutoProgress struct {
	Calls       int // verifier calls
	SolverCalls int
	Positions   int // positions in the search tree
	PN, DN      uint32
	Elapsed     time.Duration
}

// ProofNode is a position with the defender to move (after the attacker's
// Move; the zero Move at the root) and its verdict. For every defender move
// the verdict leaves unsolved there is a reply with the attacker's answer.
type ProofNode struct {
	Move    Move
	Verdict Verdict
	Replies []ProofReply
}

// ProofReply is a defender move and the attacker's answer to it (nil when
// AutoProve did not prove one).
type ProofReply struct {
	Move   Move
	Answer *ProofNode
}

// AutoResult is the outcome of AutoProve.
type AutoResult struct {
	Proved bool
	// Root is the proof tree when Proved; otherwise the tree of the
	// verdicts found, each unsolved defender move with the attacker's most
	// promising answer tried (or none).
	Root        *ProofNode
	Calls       int // verifier calls
	SolverCalls int
	Nodes       int64 // solver nodes
	Positions   int   // positions in the search tree
	Elapsed     time.Duration
	Reason      string // when not proved: "disproved" (no candidate works) or "budget"
}

type apNode struct {
	and      bool
	move     Move // AND: the attacker's move; OR: the defender's
	b        *Board
	vd       Verdict
	pn, dn   uint32
	kids     []*apNode
	parent   *apNode
	expanded bool
	depth    int // attacker moves proposed above this node
}

type autoProver struct {
	ctx   context.Context
	opts  AutoProveOptions
	res   AutoResult
	start time.Time
	prog  *reporter[AutoProgress]
	root  *apNode
	a, d  Color
}

// AutoProve proves (or fails to prove, within the budget) that the player
// who just moved in b wins. progress, when not nil, is called from a
// separate goroutine with reports that are dropped rather than slowing the
// search.
func AutoProve(ctx context.Context, b *Board, opts AutoProveOptions, progress func(AutoProgress)) (AutoResult, error) {
	if opts.MaxCalls <= 0 {
		opts.MaxCalls = 500
	}
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = 6
	}
	if opts.Candidates <= 0 {
		opts.Candidates = 8
	}
	if opts.Verify.Lambda == 3 {
		opts.Verify.ExpandSeminull = true
	}
	p := &autoProver{ctx: ctx, opts: opts, start: time.Now()}
	p.d = b.ToMove()
	p.a = p.d.Opp()
	p.prog = startReporter(progress)
	defer p.prog.stop(ctx)
	root, err := p.newAND(b.Clone(), Move{}, 0)
	if err != nil {
		return p.finish(nil), err
	}
	p.root = root
	for root.pn != 0 && root.dn != 0 {
		if p.res.Calls >= opts.MaxCalls {
			break
		}
		if err := ctx.Err(); err != nil {
			return p.finish(root), err
		}
		n := root
		for n.expanded && len(n.kids) > 0 {
			n = selectAP(n)
		}
		if err := p.expandOR(n); err != nil {
			return p.finish(root), err
		}
		for m := n; m != nil; m = m.parent {
			updateAP(m)
		}
		p.report()
	}
	return p.finish(root), nil
}

func (p *autoProver) finish(root *apNode) AutoResult {
	p.res.Elapsed = time.Since(p.start)
	if root != nil {
		p.res.Proved = root.pn == 0
		p.res.Root = exportAP(root)
		if !p.res.Proved {
			p.res.Reason = "budget"
			if root.dn == 0 {
				p.res.Reason = "disproved"
			}
		}
	}
	return p.res
}

func (p *autoProver) report() {
	if !p.prog.active() {
		return
	}
	pr := AutoProgress{Calls: p.res.Calls, SolverCalls: p.res.SolverCalls, Positions: p.res.Positions, Elapsed: time.Since(p.start)}
	if p.root != nil {
		pr.PN, pr.DN = p.root.pn, p.root.dn
	}
	p.prog.send(pr)
}

func selectAP(n *apNode) *apNode {
	var best *apNode
	for _, k := range n.kids {
		if best == nil || moreProving(n.and, k.pn, k.dn, best.pn, best.dn) {
			best = k
		}
	}
	return best
}

func updateAP(n *apNode) {
	if !n.expanded {
		return
	}
	acc := newPNSum()
	for _, k := range n.kids {
		if n.and {
			acc.add(k.pn, k.dn)
		} else {
			acc.add(k.dn, k.pn)
		}
	}
	if n.and {
		n.pn, n.dn = acc.result()
	} else {
		n.dn, n.pn = acc.result()
	}
}

// newAND verifies b (defender to move) and builds its node.
func (p *autoProver) newAND(b *Board, m Move, depth int) (*apNode, error) {
	n := &apNode{and: true, move: m, b: b, depth: depth}
	p.res.Positions++
	vd, err := Verify(p.ctx, b, p.opts.Verify, nil)
	p.res.Calls++
	p.res.SolverCalls += vd.Calls
	p.res.Nodes += vd.Nodes
	if err != nil {
		return nil, err
	}
	n.vd = vd
	n.expanded = true
	switch {
	case vd.Status == StatusProved:
		n.pn, n.dn = 0, pnInf
	case vd.AllUnsolved || len(vd.OpenSeminull) > 0 || depth >= p.opts.MaxDepth:
		n.pn, n.dn = pnInf, 0
	default:
		for _, u := range vd.Unsolved {
			nb := b.Clone()
			for i := 0; i < u.Move.Len(); i++ {
				nb.Place(u.Move.At(i), p.d)
			}
			nb.SetToMove(p.a)
			k := &apNode{move: u.Move, b: nb, parent: n, depth: depth, pn: 1, dn: 1}
			p.res.Positions++
			if nb.HasThreat(p.a) {
				k.pn, k.dn = 0, pnInf // cannot happen: such moves are not unsolved
			}
			n.kids = append(n.kids, k)
		}
		updateAP(n)
	}
	return n, nil
}

// expandOR proposes attacker moves at OR node n and verifies them, one at a
// time, until one is proved.
func (p *autoProver) expandOR(n *apNode) error {
	n.expanded = true
	for _, m := range p.candidates(n.b) {
		if p.res.Calls >= p.opts.MaxCalls {
			n.expanded = len(n.kids) > 0
			return nil
		}
		nb := n.b.Clone()
		for i := 0; i < m.Len(); i++ {
			nb.Place(m.At(i), p.a)
		}
		nb.SetToMove(p.d)
		if nb.Winner() == p.a {
			// A six: the reply leaves the attacker a window (never listed
			// unsolved); record it as proved without a verifier call.
			k := &apNode{and: true, move: m, b: nb, parent: n, depth: n.depth + 1, expanded: true}
			k.vd = Verdict{Status: StatusProved, Order: 1, Attacker: p.a, Threats: nb.rules.P + 1, Engine: EngineVersion, Note: "the attacker makes k in a row"}
			n.kids = append(n.kids, k)
			break
		}
		k, err := p.newAND(nb, m, n.depth+1)
		if err != nil {
			return err
		}
		k.parent = n
		n.kids = append(n.kids, k)
		if k.pn == 0 {
			break
		}
	}
	if len(n.kids) == 0 {
		n.pn, n.dn = pnInf, 0
		return nil
	}
	updateAP(n)
	return nil
}

// candidates ranks attacker moves at b (attacker to move): threat moves and
// quiet moves built from the best single squares; every move blocks the
// defender's threats.
func (p *autoProver) candidates(b *Board) []Move {
	a, d := p.a, p.d
	r := b.rules
	if mv, ok := b.WinningMove(a); ok {
		return []Move{mv}
	}
	if b.Threats(d) > r.P {
		return nil
	}
	type cand struct {
		m     Move
		score float64
	}
	var cs []cand
	seen := map[Move]bool{}
	add := func(m Move) {
		if m.Len() != r.P || seen[m] {
			return
		}
		seen[m] = true
		for i := 0; i < m.Len(); i++ {
			b.Place(m.At(i), a)
		}
		ok := !b.HasThreat(d)
		sc := evalFor(b, a) + 1e6*float64(b.Threats(a))
		for i := m.Len() - 1; i >= 0; i-- {
			b.Remove(m.At(i))
		}
		if ok {
			cs = append(cs, cand{m, sc})
		}
	}
	for _, tm := range b.ThreatMoves(a, 1, FreeNear) {
		add(tm.Move)
	}
	// Quiet moves: pairs of the best squares (after the blocks, if any).
	blocks := []Move{{}}
	if b.Threats(d) > 0 {
		normal, relaxed := b.CriticalDefences(d)
		blocks = append(normal, relaxed...)
	}
	for _, blk := range blocks {
		for i := 0; i < blk.Len(); i++ {
			b.Place(blk.At(i), a)
		}
		sq := bestSquares(b, a, 10)
		for i := blk.Len() - 1; i >= 0; i-- {
			b.Remove(blk.At(i))
		}
		switch r.P - blk.Len() {
		case 0:
			add(blk)
		case 1:
			for _, s := range sq {
				add(blk.With(s))
			}
		default:
			for i := range sq {
				for j := i + 1; j < len(sq); j++ {
					add(NewMove(sq[i], sq[j]))
				}
			}
		}
	}
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].score != cs[j].score {
			return cs[i].score > cs[j].score
		}
		return moveLess(cs[i].m, cs[j].m)
	})
	out := make([]Move, 0, p.opts.Candidates)
	for _, c := range cs {
		if len(out) == p.opts.Candidates {
			break
		}
		out = append(out, c.m)
	}
	return out
}

// bestSquares returns up to n empty squares next to the stones (distance
// 2), best for a first by the pattern score.
func bestSquares(b *Board, a Color, n int) []Square {
	r := b.rules
	type sv struct {
		s Square
		v float64
	}
	var all []sv
	for s := Square(0); int(s) < r.Squares(); s++ {
		if b.cells[s] != Empty || !nearStone(b, s, 2) {
			continue
		}
		b.Place(s, a)
		v := evalFor(b, a)
		b.Remove(s)
		all = append(all, sv{s, v})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].v > all[j].v })
	var out []Square
	for i := 0; i < len(all) && i < n; i++ {
		out = append(out, all[i].s)
	}
	return out
}

func nearStone(b *Board, s Square, dist int) bool {
	r := b.rules
	x, y := r.XY(s)
	for dy := -dist; dy <= dist; dy++ {
		for dx := -dist; dx <= dist; dx++ {
			if r.OnBoard(x+dx, y+dy) && b.cells[r.Sq(x+dx, y+dy)] != Empty {
				return true
			}
		}
	}
	return false
}

// evalFor scores a position for a: its live windows weighted by stones,
// minus the defender's.
func evalFor(b *Board, a Color) float64 {
	d := a.Opp()
	var v float64
	for w := 0; w < b.g.nwin; w++ {
		ca, cd := b.cnt[a][w], b.cnt[d][w]
		switch {
		case ca > 0 && cd == 0:
			v += float64(int(1) << (3 * ca))
		case cd > 0 && ca == 0:
			v -= 0.7 * float64(int(1)<<(3*cd))
		}
	}
	return v
}

// exportAP converts the search tree: under a proved node only the proving
// answers are kept; under an unproved one, the best answer tried.
func exportAP(n *apNode) *ProofNode {
	pn := &ProofNode{Move: n.move, Verdict: n.vd}
	for _, k := range n.kids { // OR children: unsolved defender moves
		rep := ProofReply{Move: k.move}
		var best *apNode
		for _, c := range k.kids {
			if best == nil || c.pn < best.pn {
				best = c
			}
		}
		if best != nil {
			rep.Answer = exportAP(best)
		}
		pn.Replies = append(pn.Replies, rep)
	}
	return pn
}

// CheckProof re-verifies a proof tree from b (defender to move): every
// node's verdict is recomputed by Verify with opts, and every defender
// move the fresh verdict leaves unsolved must have an answer in the tree
// that is itself re-verified. It returns the verifier calls made.
func CheckProof(ctx context.Context, b *Board, root *ProofNode, opts VerifyOptions) (calls int, err error) {
	if opts.Lambda == 3 {
		opts.ExpandSeminull = true
	}
	var rec func(b *Board, n *ProofNode, line []Move) error
	rec = func(b *Board, n *ProofNode, line []Move) error {
		if n == nil {
			return fmt.Errorf("after %q: no answer", FormatTurns(b.rules, line))
		}
		a := b.ToMove().Opp()
		if b.Winner() == a {
			return nil
		}
		vd, err := Verify(ctx, b, opts, nil)
		calls++
		if err != nil {
			return err
		}
		if vd.AllUnsolved || len(vd.OpenSeminull) > 0 {
			return fmt.Errorf("after %q: the verifier leaves every move open (%s)", FormatTurns(b.rules, line), vd.Note)
		}
		for _, u := range vd.Unsolved {
			var ans *ProofNode
			for _, r := range n.Replies {
				if r.Move == u.Move {
					ans = r.Answer
				}
			}
			if ans == nil {
				return fmt.Errorf("after %q: defender move %s is unsolved and the proof has no answer", FormatTurns(b.rules, line), MoveName(b.rules, u.Move))
			}
			nb := b.Clone()
			for i := 0; i < u.Move.Len(); i++ {
				nb.Place(u.Move.At(i), a.Opp())
			}
			for i := 0; i < ans.Move.Len(); i++ {
				s := ans.Move.At(i)
				if nb.At(s) != Empty {
					return fmt.Errorf("after %q: answer %s is on an occupied square", FormatTurns(b.rules, line), MoveName(b.rules, ans.Move))
				}
				nb.Place(s, a)
			}
			if ans.Move.Len() != b.rules.P {
				return fmt.Errorf("after %q: answer %s has the wrong number of stones", FormatTurns(b.rules, line), MoveName(b.rules, ans.Move))
			}
			nb.SetToMove(a.Opp())
			if err := rec(nb, ans, append(append(line[:len(line):len(line)], u.Move), ans.Move)); err != nil {
				return err
			}
		}
		return nil
	}
	err = rec(b.Clone(), root, nil)
	return calls, err
}
