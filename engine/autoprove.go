package engine

import (
	"context"
	"fmt"
	"sort"
	"sync/atomic"
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
	Reason      SearchStatus // when not proved: SearchDisproved (no candidate works) or SearchBudget
}

type apNode struct {
	and      bool
	move     Move // AND: the attacker's move; OR: the defender's
	b        *Board
	vd       Verdict
	verified bool // AND: vd is set (or the move makes k in a row)
	kids     []*apNode
	expanded bool // OR: its candidate moves were added
	depth    int  // attacker moves proposed above this node
}

// autoTree is AutoProve's search tree in memory, the JobTree of JobSearch:
// AND nodes (defender to move) are verified by a job; OR nodes (attacker
// to move) get the ranked candidate moves, each an AND node to verify.
type autoTree struct {
	opts  AutoProveOptions
	ver   Verifier
	a, d  Color
	res   AutoResult
	count atomic.Int64 // positions, read by progress reports
	solv  atomic.Int64 // solver calls, read by progress reports
}

// AutoProve proves (or fails to prove, within the budget) that the player
// who just moved in b wins. progress, when not nil, is called from a
// separate goroutine with reports that are dropped rather than slowing the
// search. It is JobSearch over a tree in memory.
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
	t := &autoTree{opts: opts, ver: LocalVerifier{}}
	t.d = b.ToMove()
	t.a = t.d.Opp()
	root := &apNode{and: true, b: b.Clone()}
	t.count.Add(1)
	var prog func(JobProgress[*apNode])
	if progress != nil {
		prog = func(p JobProgress[*apNode]) {
			progress(AutoProgress{Calls: p.Jobs, SolverCalls: int(t.solv.Load()), Positions: int(t.count.Load()),
				PN: uint32(min(p.PN, int64(pnInf))), DN: uint32(min(p.DN, int64(pnInf))), Elapsed: p.Elapsed})
		}
	}
	sr, err := JobSearch[*apNode](ctx, t, root, JobOptions{Jobs: 1, MaxJobs: opts.MaxCalls}, prog)
	t.res.Positions = int(t.count.Load())
	t.res.Elapsed = sr.Elapsed
	t.res.Proved = sr.Status == SearchProved
	t.res.Root = exportAP(root)
	if !t.res.Proved {
		t.res.Reason = SearchBudget
		if sr.Status == SearchDisproved || sr.Status == SearchStuck {
			t.res.Reason = SearchDisproved
		}
	}
	return t.res, err
}

// Look implements JobTree.
func (t *autoTree) Look(_ context.Context, n *apNode) (JobNode[*apNode], error) {
	if !n.and {
		switch {
		case !n.expanded:
			return JobNode[*apNode]{OR: true, Work: JobExpand}, nil
		case len(n.kids) == 0:
			return JobNode[*apNode]{OR: true, Result: JobFailed}, nil
		}
		return JobNode[*apNode]{OR: true, Children: n.kids}, nil
	}
	vd := n.vd
	switch {
	case !n.verified:
		return JobNode[*apNode]{Work: JobRun}, nil
	case vd.Status == StatusProved:
		return JobNode[*apNode]{Result: JobProved}, nil
	case vd.AllUnsolved || len(vd.OpenSeminull) > 0 || n.depth >= t.opts.MaxDepth || len(n.kids) == 0:
		return JobNode[*apNode]{Result: JobFailed}, nil
	}
	return JobNode[*apNode]{Children: n.kids}, nil
}

// Run implements JobTree: it verifies AND node n.
func (t *autoTree) Run(ctx context.Context, n *apNode) (func(), error) {
	vd, err := t.ver.Verify(ctx, n.b, t.opts.Verify, nil)
	t.solv.Add(int64(vd.Calls))
	return func() {
		t.res.Calls++
		t.res.SolverCalls += vd.Calls
		t.res.Nodes += vd.Nodes
		if err != nil {
			return
		}
		n.vd, n.verified = vd, true
		if vd.Status == StatusProved || vd.AllUnsolved || len(vd.OpenSeminull) > 0 || n.depth >= t.opts.MaxDepth {
			return
		}
		for _, u := range vd.Unsolved {
			nb := n.b.Clone()
			for i := 0; i < u.Move.Len(); i++ {
				nb.Place(u.Move.At(i), t.d)
			}
			nb.SetToMove(t.a)
			n.kids = append(n.kids, &apNode{move: u.Move, b: nb, depth: n.depth})
			t.count.Add(1)
		}
	}, err
}

// Expand implements JobTree: it adds the ranked candidate moves at OR node
// n, each an AND node to verify (a move making k in a row is proved at once).
func (t *autoTree) Expand(_ context.Context, n *apNode) (int, error) {
	n.expanded = true
	for _, m := range AttackerCandidates(n.b, t.opts.Candidates) {
		nb := n.b.Clone()
		for i := 0; i < m.Len(); i++ {
			nb.Place(m.At(i), t.a)
		}
		nb.SetToMove(t.d)
		k := &apNode{and: true, move: m, b: nb, depth: n.depth + 1}
		if nb.Winner() == t.a {
			// A six: the reply leaves the attacker a window (never listed
			// unsolved); record it as proved without a verifier call.
			k.verified = true
			k.vd = Verdict{Status: StatusProved, Order: 1, Attacker: t.a, Threats: nb.rules.P + 1, Engine: EngineVersion, Note: "the attacker makes k in a row"}
		}
		n.kids = append(n.kids, k)
		t.count.Add(1)
	}
	return len(n.kids), nil
}

// apProved reports whether the tree below n proves it.
func apProved(n *apNode) bool {
	if n.and {
		if !n.verified || n.vd.AllUnsolved || len(n.vd.OpenSeminull) > 0 {
			return false
		}
		if n.vd.Status == StatusProved {
			return true
		}
		for _, k := range n.kids {
			if !apProved(k) {
				return false
			}
		}
		return len(n.kids) > 0
	}
	for _, k := range n.kids {
		if apProved(k) {
			return true
		}
	}
	return false
}

// AttackerCandidates ranks the moves of the player to move at b as an
// attacker, best first, at most n of them: threat moves and quiet moves
// built from the best single squares, every one blocking the opponent's
// threats; on an empty board, shapes at the centre. A winning move, if
// any, is the only one.
func AttackerCandidates(b *Board, n int) []Move {
	return rankCandidates(b, b.ToMove(), n)
}

// rankCandidates ranks attacker a's moves at b (a to move): threat moves and
// quiet moves built from the best single squares; every move blocks the
// defender's threats.
func rankCandidates(b *Board, a Color, n int) []Move {
	d := a.Opp()
	r := b.rules
	if b.Stones(Black)+b.Stones(White) == 0 {
		return openingCandidates(b, a, n)
	}
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
	out := make([]Move, 0, n)
	for _, c := range cs {
		if len(out) == n {
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
	for _, w := range b.g.scan { // the order of the float sum
		ca, cd := b.wcnt(a, w), b.wcnt(d, w)
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
			if apProved(c) {
				best = c
				break
			}
			if best == nil || !best.verified && c.verified || c.verified && best.verified && len(c.vd.Unsolved) < len(best.vd.Unsolved) {
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

// openingCandidates ranks a's first moves on the empty board: the shapes of
// the first turn's stones inside a small box at the centre, one per
// symmetry class, by the pattern score; with three stones or more, the
// shapes whose stones all lie on one line come last, and among the others
// the shapes that a mirror through a row or a column of the centre maps
// onto themselves come first. (The pattern score puts the lines first, but
// one line is what the defender blocks: in Connect(6,2,3) the three
// straight threes are the only shapes of the 3×3 box whose λ3 verdict
// leaves seminull moves open, every one of them a subtree of its own for
// the auto-pilot. The mirror shapes are the two triangles i9k9j10 and
// j9i10k10, each proved by one verifier call, and i9k9j11; the L shapes
// the pattern score put before the triangles are left open by theirs, at
// the cost of a whole verifier call each: see docs/notes/i24-small.md,
// i24-l3.md and i27-c623.md. A mirror shape's verifier call also solves
// only one of each pair of mirrored defender moves.)
func openingCandidates(b *Board, a Color, n int) []Move {
	r := b.rules
	q := r.StonesForTurn(b.Turn())
	side := 3
	if q > 3 {
		side = 5
	}
	side = min(side, r.M, r.N)
	x0, y0 := (r.M-side)/2, (r.N-side)/2
	var box []Square
	for y := y0; y < y0+side; y++ {
		for x := x0; x < x0+side; x++ {
			box = append(box, r.Sq(x, y))
		}
	}
	type cand struct {
		m      Move
		line   bool // every stone on one line (q >= 3)
		mirror bool // a mirror through the centre's row or column maps it onto itself (q >= 3)
		score  float64
	}
	var cs []cand
	seen := map[uint64]bool{}
	pick := make([]Square, 0, q)
	var rec func(from int)
	rec = func(from int) {
		if len(pick) == q {
			for _, s := range pick {
				b.Place(s, a)
			}
			key, _ := b.CanonicalKey()
			sc := evalFor(b, a)
			mirror := false
			if q >= 3 {
				for _, sym := range b.Stabilizer() {
					mirror = mirror || sym == 1 || sym == 2 // left-right, top-bottom
				}
			}
			for i := len(pick) - 1; i >= 0; i-- {
				b.Remove(pick[i])
			}
			if !seen[key] {
				seen[key] = true
				cs = append(cs, cand{NewMove(pick...), q >= 3 && collinear(r, pick), mirror, sc})
			}
			return
		}
		for i := from; i < len(box); i++ {
			pick = append(pick, box[i])
			rec(i + 1)
			pick = pick[:len(pick)-1]
		}
	}
	if q <= len(box) {
		rec(0)
	}
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].line != cs[j].line {
			return !cs[i].line
		}
		if cs[i].mirror != cs[j].mirror {
			return cs[i].mirror
		}
		if cs[i].score != cs[j].score {
			return cs[i].score > cs[j].score
		}
		return moveLess(cs[i].m, cs[j].m)
	})
	var out []Move
	for _, c := range cs {
		if len(out) == n {
			break
		}
		out = append(out, c.m)
	}
	return out
}

// collinear reports whether the squares lie on one horizontal, vertical or
// diagonal line.
func collinear(r Rules, sq []Square) bool {
	if len(sq) < 2 {
		return true
	}
	x0, y0 := r.XY(sq[0])
	x1, y1 := r.XY(sq[1])
	dx, dy := x1-x0, y1-y0
	if dx != 0 && dy != 0 && dx != dy && dx != -dy {
		return false
	}
	for _, s := range sq[2:] {
		x, y := r.XY(s)
		ex, ey := x-x0, y-y0
		if ex*dy != ey*dx { // not on the line through the first two
			return false
		}
	}
	return true
}
