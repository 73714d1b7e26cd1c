// Package sessiontest has in-memory fakes of the book and the verifier for
// tests of the session and of the widgets that render it.
package sessiontest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/verify"
	"c6book/proofcheck"
	"c6book/session"
)

// Store is an in-memory BookStore: positions keyed by their exact stones
// and side to move (no symmetry), moves as edges. Statuses follow the proof
// book's rules (c6book.ProofOf), propagated to the parents as the book
// does; certificates are not checked (the fake Verifier's are
// placeholders). It counts calls so tests can check that lists are fed
// from memory.
type Store struct {
	mu    sync.Mutex
	rules game.Rules
	nodes map[key]*Node
	calls map[string]int
	games []Game

	// AutoStep, when set, makes the store an auto-pilot (AutoProve): each
	// value received lets it prove one open leaf below its start.
	AutoStep chan struct{}
	// AutoRuns counts the AutoProve calls that have started.
	AutoRuns chan *board.Board
}

// Game is a stored game: its turns as played (any orientation) and its
// winner.
type Game struct {
	Source, ExtID string
	Turns         []game.Move
	Result        game.Color
	// Written is each turn's stones in the record's order (nil: board
	// order); Written[i] holds Turns[i]'s stones.
	Written [][]game.Square
}

type Node struct {
	Comment, Label string
	Marks          map[game.Square]string
	Kids           []game.Move
	// Proof is the position's proof for each attacker (none: an unexplored
	// leaf), derived by the book's rules; a test may set one behind the
	// session's back, as if the book were edited.
	Proof   map[game.Color]c6book.Proof
	Verdict map[game.Color]*c6book.Verdict
	Games   c6book.GameStats // the games through the position (set by tests)
	Held    map[game.Color]bool

	board   *board.Board
	parents map[key]bool
}

// proof is n's proof for attacker a.
func (n *Node) proof(a game.Color) c6book.Proof {
	if p, ok := n.Proof[a]; ok {
		return p
	}
	return c6book.LeafProof(a)
}

func NewStore(r game.Rules) *Store {
	s := NewStoreRules(r)
	s.node(board.MustNewBoard(r), true)
	return s
}

// NewStoreRules is an empty store with any rules (even invalid ones).
func NewStoreRules(r game.Rules) *Store {
	return &Store{rules: r, nodes: map[key]*Node{}, calls: map[string]int{}}
}

func (s *Store) node(b *board.Board, create bool) *Node {
	k := keyOf(b)
	n := s.nodes[k]
	if n == nil && create {
		n = &Node{Proof: map[game.Color]c6book.Proof{}, Verdict: map[game.Color]*c6book.Verdict{}, board: b.Clone(), parents: map[key]bool{}}
		s.nodes[k] = n
	}
	return n
}

func (s *Store) count(name string) {
	s.calls[name]++
}

func (s *Store) Rules() game.Rules { return s.rules }

func (s *Store) Position(_ context.Context, b *board.Board, a game.Color) (session.Position, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.count("Position")
	n := s.node(b, false)
	if n == nil {
		return session.Position{}, nil
	}
	marks := map[game.Square]string{}
	for k, v := range n.Marks {
		marks[k] = v
	}
	return session.Position{Found: true, Comment: n.Comment, Label: n.Label, Marks: marks,
		Status: n.proof(a).Status, Verdict: n.Verdict[a], Games: n.Games, Held: n.Held[a], Stuck: map[bool]c6book.StuckReason{true: c6book.StuckHeld}[n.Held[a]]}, nil
}

func (s *Store) Children(_ context.Context, b *board.Board, a game.Color) ([]session.Child, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.count("Children")
	n := s.node(b, false)
	if n == nil {
		return nil, nil
	}
	out := make([]session.Child, 0, len(n.Kids))
	for _, m := range n.Kids {
		c := b.Clone()
		if err := c.PlayPartial(m); err != nil {
			return nil, err
		}
		ch := session.Child{Move: m}
		if cn := s.node(c, false); cn != nil {
			ch.Status, ch.Label, ch.Games = cn.proof(a).Status, cn.Label, cn.Games
			ch.Note = cn.Comment != "" || len(cn.Marks) > 0
		}
		out = append(out, ch)
	}
	// Most played first, as the book lists them.
	sort.SliceStable(out, func(i, j int) bool { return out[i].Games.Games > out[j].Games.Games })
	return out, nil
}

func (s *Store) AddMove(_ context.Context, b *board.Board, m game.Move) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.count("AddMove")
	// A turn of fewer stones than the rules place is a seminull or null
	// move, as the book stores one.
	created, err := s.addMove(b, m, m.Len() < b.Rules().StonesForTurn(b.Turn()))
	if err != nil || !created {
		return created, err
	}
	return true, s.settle(s.node(b, false))
}

// AddMoves stores the moves ms of b as AddMove does each, the statuses
// derived once at the end (a test's large book); it returns how many were
// new.
func (s *Store) AddMoves(b *board.Board, ms []game.Move) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, m := range ms {
		s.count("AddMove")
		created, err := s.addMove(b, m, false)
		if err != nil {
			return n, err
		}
		if created {
			n++
		}
	}
	if n == 0 {
		return 0, nil
	}
	return n, s.settle(s.node(b, false))
}

// addMove stores m (with partial, a seminull or null move: a verdict's
// item) as a move of b.
func (s *Store) addMove(b *board.Board, m game.Move, partial bool) (bool, error) {
	c := b.Clone()
	play := c.Play
	if partial {
		play = c.PlayPartial
	}
	if err := play(m); err != nil {
		return false, err
	}
	n := s.node(b, true)
	cn := s.node(c, true)
	if slices.Contains(n.Kids, m) {
		return false, nil
	}
	n.Kids = append(n.Kids, m)
	cn.parents[keyOf(b)] = true
	return true, nil
}

// settle derives the proofs of the nodes start for both attackers by the
// book's rules and, while they change, their parents' (deepest first), as
// the book propagates; the items a proof needs are stored as moves first.
func (s *Store) settle(start ...*Node) error {
	queue := map[*Node]bool{}
	for _, n := range start {
		queue[n] = true
	}
	for len(queue) > 0 {
		var n *Node
		for q := range queue {
			if n == nil || deeper(q.board, n.board) {
				n = q
			}
		}
		delete(queue, n)
		changed := false
		for a := game.Black; a <= game.White; a++ {
			p, missing, err := c6book.ProofOf(s.facts(n, a))
			if err != nil {
				return err
			}
			if len(missing) > 0 {
				for _, m := range missing {
					if created, err := s.addMove(n.board, m, true); err != nil || !created {
						return fmt.Errorf("item %s: not stored (%v)", game.MoveName(s.rules, m), err)
					}
				}
				queue[n] = true
				continue
			}
			if !c6book.SameProof(n.proof(a), p) {
				n.Proof[a], changed = p, true
			}
		}
		if changed {
			for k := range n.parents {
				queue[s.nodes[k]] = true
			}
		}
	}
	return nil
}

// deeper orders positions deepest first (more stones), then by hash.
func deeper(x, y *board.Board) bool {
	nx, ny := x.Stones(game.Black)+x.Stones(game.White), y.Stones(game.Black)+y.Stones(game.White)
	if nx != ny {
		return nx > ny
	}
	return x.Hash() > y.Hash() || x.Hash() == y.Hash() && x.ToMove() > y.ToMove()
}

// facts are node n's stored facts for attacker a, as the rules take them.
func (s *Store) facts(n *Node, a game.Color) c6book.ProofFacts {
	b := n.board
	return c6book.ProofFacts{
		Attacker: a, ToMove: b.ToMove(), Winner: b.Winner(), Stones: b.Stones(game.Black) + b.Stones(game.White),
		Expert: n.proof(a).Expert,
		Children: func() ([]c6book.ProofChild, error) {
			out := make([]c6book.ProofChild, len(n.Kids))
			c := b.Clone()
			for i, m := range n.Kids {
				if err := c.PlayPartial(m); err != nil {
					return nil, err
				}
				out[i] = c6book.ProofChild{Move: m, Proof: c6book.LeafProof(a)}
				if cn := s.node(c, false); cn != nil {
					out[i].Proof = cn.proof(a)
				}
				if err := c.Undo(); err != nil {
					return nil, err
				}
			}
			return out, nil
		},
		Board: func() (*board.Board, error) { return b.Clone(), nil },
		Verdict: func() (*c6book.Verdict, error) {
			return n.Verdict[a], nil
		},
	}
}

// RemoveMove removes the move m of b; a reply b's verdict leaves to prove
// (an item the rules would store again) is refused, as the book refuses
// it.
func (s *Store) RemoveMove(_ context.Context, b *board.Board, m game.Move) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.node(b, false)
	if n == nil || !slices.Contains(n.Kids, m) {
		return nil
	}
	kids := slices.Clone(n.Kids)
	s.removeMove(n, m)
	rep, _ := c6book.RepMove(s.rules, b.Stabilizer(), m)
	for a := game.Black; a <= game.White; a++ {
		_, missing, err := c6book.ProofOf(s.facts(n, a))
		if err == nil && slices.Contains(missing, rep) {
			err = fmt.Errorf("move %s: %w", game.MoveName(s.rules, m), c6book.ErrVerdictItem)
		}
		if err != nil { // nothing changes
			n.Kids = kids
			c := b.Clone()
			if c.PlayPartial(m) == nil {
				if cn := s.node(c, false); cn != nil {
					cn.parents[keyOf(b)] = true
				}
			}
			return err
		}
	}
	return s.settle(n)
}

// removeMove removes the stored move m of n (not settled).
func (s *Store) removeMove(n *Node, m game.Move) {
	i := slices.Index(n.Kids, m)
	if i < 0 {
		return
	}
	n.Kids = slices.Delete(n.Kids, i, i+1)
	c := n.board.Clone()
	if c.PlayPartial(m) == nil {
		if cn := s.node(c, false); cn != nil {
			delete(cn.parents, keyOf(n.board))
		}
	}
}

func (s *Store) SetComment(_ context.Context, b *board.Board, text string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.node(b, true).Comment = text
	return nil
}

func (s *Store) SetLabel(_ context.Context, b *board.Board, label string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.node(b, true).Label = label
	return nil
}

func (s *Store) SetMarks(_ context.Context, b *board.Board, marks map[game.Square]string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.node(b, true).Marks = marks
	return nil
}

func (s *Store) StoreVerdict(_ context.Context, b *board.Board, v c6book.Verdict) (session.VerdictStored, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if b.ToMove() != v.Attacker.Opp() {
		return session.VerdictStored{}, fmt.Errorf("verdict for attacker %s on a position with %s to move", v.Attacker, b.ToMove())
	}
	n := s.node(b, true)
	had := slices.Clone(n.Kids)
	vv := v
	undo := verdictUndo{attacker: v.Attacker, stored: &vv, prev: n.Verdict[v.Attacker]}
	n.Verdict[v.Attacker] = &vv
	for _, m := range v.Items() {
		if _, err := s.addMove(b, m, true); err != nil {
			return session.VerdictStored{}, err
		}
	}
	if err := s.settle(n); err != nil {
		return session.VerdictStored{}, err
	}
	for _, m := range n.Kids {
		if !slices.Contains(had, m) {
			undo.added = append(undo.added, m)
		}
	}
	return session.VerdictStored{Added: slices.Clone(undo.added), Undo: undo}, nil
}

// verdictUndo is the fake's record of a StoreVerdict (VerdictStored.Undo).
type verdictUndo struct {
	attacker     game.Color
	stored, prev *c6book.Verdict
	added        []game.Move
}

// UndoVerdict puts back the verdict StoreVerdict replaced and removes the
// replies it added, as the book does; refused when the verdict was
// replaced since.
func (s *Store) UndoVerdict(_ context.Context, b *board.Board, st session.VerdictStored) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := st.Undo.(verdictUndo)
	if !ok {
		return errors.New("undo verify: not a verdict this book stored")
	}
	n := s.node(b, false)
	if n == nil || n.Verdict[u.attacker] != u.stored {
		return c6book.ErrVerdictChanged
	}
	if u.prev != nil {
		n.Verdict[u.attacker] = u.prev
	} else {
		delete(n.Verdict, u.attacker)
	}
	for _, m := range u.added {
		s.removeMove(n, m)
	}
	return s.settle(n)
}

// walk visits every position reachable from the root, breadth first, with
// its line.
func (s *Store) walk(f func(line []game.Move, n *Node) bool) {
	s.walkFrom(board.MustNewBoard(s.rules), f)
}

// walkFrom is walk from b (lines from b).
func (s *Store) walkFrom(b *board.Board, f func(line []game.Move, n *Node) bool) {
	type item struct {
		line []game.Move
		b    *board.Board
	}
	seen := map[key]bool{}
	queue := []item{{[]game.Move{}, b.Clone()}}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		if seen[keyOf(it.b)] {
			continue
		}
		seen[keyOf(it.b)] = true
		n := s.node(it.b, false)
		if n == nil {
			continue
		}
		if !f(it.line, n) {
			return
		}
		for _, m := range n.Kids {
			c := it.b.Clone()
			if c.PlayPartial(m) == nil {
				queue = append(queue, item{append(append([]game.Move(nil), it.line...), m), c})
			}
		}
	}
}

func (s *Store) Next(_ context.Context, b *board.Board, a game.Color) (session.Entry, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var e session.Entry
	found := false
	s.walkFrom(b, func(line []game.Move, n *Node) bool {
		if s.needsWork(n, a) {
			e, found = session.Entry{Line: line, Status: c6book.StatusOpen, Label: n.Label}, true
			// The held positions on its line.
			c := b.Clone()
			for i := 0; i <= len(line); i++ {
				if cn := s.node(c, false); cn != nil && cn.Held[a] {
					e.Stuck = append(e.Stuck, session.StuckAt{Ply: i, Why: c6book.StuckHeld})
				}
				if i < len(line) && c.PlayPartial(line[i]) != nil {
					break
				}
			}
			return false
		}
		return true
	})
	return e, found, nil
}

// needsWork reports whether n is an open leaf for attacker a: no moves
// yet, not decided, and open itself or the item of an open position (a
// reply its verdict left).
func (s *Store) needsWork(n *Node, a game.Color) bool {
	st := n.proof(a).Status
	if len(n.Kids) > 0 || st == c6book.StatusProved || st == c6book.StatusDisproved {
		return false
	}
	if st == c6book.StatusOpen {
		return true
	}
	for k := range n.parents {
		if s.nodes[k].proof(a).Status == c6book.StatusOpen {
			return true
		}
	}
	return false
}

// Proved lists the proved nodes whose order is at least minOrder.
func (s *Store) Proved(_ context.Context, a game.Color, minOrder, limit int) ([]session.Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []session.Entry
	s.walk(func(line []game.Move, n *Node) bool {
		if p := n.proof(a); p.Status == c6book.StatusProved && p.Order >= minOrder {
			out = append(out, session.Entry{Line: line, Status: c6book.StatusProved, Label: n.Label, Text: n.Comment})
		}
		return len(out) < limit
	})
	return out, nil
}

func (s *Store) Search(_ context.Context, q string, a game.Color, limit int) ([]session.Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []session.Entry
	s.walk(func(line []game.Move, n *Node) bool {
		if q != "" && strings.Contains(strings.ToLower(n.Comment), strings.ToLower(q)) {
			out = append(out, session.Entry{Line: line, Label: n.Label, Text: n.Comment, Status: n.proof(a).Status})
		}
		return len(out) < limit
	})
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].Line) < len(out[j].Line) })
	return out, nil
}

// Verifier answers with a fixed unsolved list after the test releases
// it (or fails with the context's error when stopped), reporting progress.
// Its verdicts carry a placeholder certificate, which the fake Store takes
// as certified, unless NoCert (a verdict that proves nothing).
type Verifier struct {
	Unsolved []string
	Release  chan struct{}
	Started  chan *board.Board
	NoCert   bool
}

func (f *Verifier) Verify(ctx context.Context, b *board.Board, lambda int, progress func(session.Progress)) (c6book.Verdict, error) {
	if f.Started != nil {
		f.Started <- b
	}
	progress(session.Progress{Phase: session.Phase(verify.PhaseNull), Done: 1, Total: 4, Nodes: 100})
	if f.Release != nil {
		select {
		case <-f.Release:
		case <-ctx.Done():
			return c6book.Verdict{}, ctx.Err()
		}
	}
	tol, err := c6book.VerifyTolerance(b)
	if err != nil {
		return c6book.Verdict{}, err
	}
	// A placeholder certificate: the fake Store takes the verdict as
	// certified (it does not check certificates).
	a := b.ToMove().Opp()
	v := c6book.Verdict{Attacker: a, Calls: 4, Nodes: 1234, Tolerance: tol, Cert: &proofcheck.Cert{Attacker: a}}
	if f.NoCert {
		v.Cert = nil
	}
	for _, t := range f.Unsolved {
		m, err := game.ParseMove(b.Rules(), t)
		if err != nil {
			return c6book.Verdict{}, err
		}
		v.Unsolved = append(v.Unsolved, c6book.Unsolved{Move: m, Reason: "budget"})
	}
	v.Status = c6book.StatusOpen
	if len(v.Unsolved) == 0 {
		v.Status, v.Order = c6book.StatusProved, 2
	}
	return v, nil
}

func (s *Store) Resolve(_ context.Context, e session.Entry) ([]game.Move, error) {
	return e.Line, nil
}

func (s *Store) SetDisproved(_ context.Context, b *board.Board, a game.Color, on bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.node(b, true)
	p := n.proof(a)
	p.Expert = on
	n.Proof[a] = p
	return s.settle(n)
}

var _ session.Suggester = (*Verifier)(nil)

// Candidates proposes the first empty squares next to the last stone.
func (f *Verifier) Candidates(ctx context.Context, b *board.Board, limit int) ([]session.Candidate, error) {
	var out []session.Candidate
	for _, t := range []string{"a1a2", "s18s19"} {
		m, err := game.ParseMove(b.Rules(), t)
		if err != nil {
			return nil, err
		}
		out = append(out, session.Candidate{Move: m, Note: "test"})
	}
	return out, nil
}

type key struct {
	hash uint64
	side game.Color
}

func keyOf(b *board.Board) key { return key{b.Hash(), b.ToMove()} }

// Node returns the stored node of b (created when asked), for tests that
// look into the book or change it behind the session's back.
func (s *Store) Node(b *board.Board, create bool) *Node {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.node(b, create)
}

// Calls is how often the named method (Position, Children, AddMove) was
// called.
func (s *Store) Calls(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[name]
}

// Len is the number of positions stored.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.nodes)
}

// AddGame stores a game (its moves are not added to the tree) and returns
// its id.
func (s *Store) AddGame(g Game) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.games = append(s.games, g)
	return int64(len(s.games))
}

// reaches reports whether turns reach b's position up to symmetry, with
// the symmetry of the game's board there.
func reaches(r game.Rules, turns []game.Move, b *board.Board) (int, bool) {
	want, _ := b.CanonicalKey()
	g := board.MustNewBoard(r)
	for i := 0; ; i++ {
		if k, sym := g.CanonicalKey(); k == want && g.ToMove() == b.ToMove() {
			return sym, true
		}
		if i == len(turns) || g.PlayPartial(turns[i]) != nil {
			return 0, false
		}
	}
}

func (s *Store) GamesThrough(_ context.Context, b *board.Board, offset, limit int) ([]c6book.GameInfo, int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.count("GamesThrough")
	var all []c6book.GameInfo
	for i := len(s.games) - 1; i >= 0; i-- { // most recent first
		g := s.games[i]
		if _, ok := reaches(s.rules, g.Turns, b); ok {
			all = append(all, c6book.GameInfo{ID: int64(i + 1), Source: g.Source, ExtID: g.ExtID, Turns: len(g.Turns), Result: g.Result})
		}
	}
	total := int64(len(all))
	all = all[min(offset, len(all)):]
	return all[:min(limit, len(all))], total, nil
}

func (s *Store) Game(_ context.Context, id int64, b *board.Board) ([][]game.Square, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id < 1 || int(id) > len(s.games) {
		return nil, fmt.Errorf("no game %d", id)
	}
	g := s.games[id-1]
	gsym, ok := reaches(s.rules, g.Turns, b)
	if !ok {
		return nil, fmt.Errorf("game %d does not reach the position", id)
	}
	_, bsym := b.CanonicalKey()
	out := make([][]game.Square, len(g.Turns))
	for i, m := range g.Turns {
		sq := m.Squares()
		if i < len(g.Written) {
			sq = slices.Clone(g.Written[i])
		}
		for k, q := range sq {
			sq[k] = s.rules.Transform(game.InverseSymmetry(bsym), s.rules.Transform(gsym, q))
		}
		out[i] = sq
	}
	return out, nil
}

// SetHold marks b as left to the expert for a.
func (s *Store) SetHold(_ context.Context, b *board.Board, a game.Color, on bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.node(b, false)
	if n == nil {
		return fmt.Errorf("this position is not in the book")
	}
	if n.Held == nil {
		n.Held = map[game.Color]bool{}
	}
	n.Held[a] = on
	return nil
}

// AutoProve proves, one step (AutoStep) at a time, the first open leaf
// below b that no held position hides; it ends "stuck" when there is none
// left, "stopped" when ctx is done.
func (s *Store) AutoProve(ctx context.Context, b *board.Board, opts session.AutoOptions, progress func(c6book.ProveProgress)) (session.AutoResult, error) {
	if s.AutoStep == nil {
		return session.AutoResult{}, fmt.Errorf("no auto-pilot")
	}
	if s.AutoRuns != nil {
		s.AutoRuns <- b.Clone()
	}
	var p c6book.ProveProgress
	for {
		select {
		case <-ctx.Done():
			return session.AutoResult{Status: c6book.ProveStopped, ProveProgress: p}, ctx.Err()
		case <-s.AutoStep:
		}
		ok, err := s.proveLeaf(b, opts.Attacker)
		if err != nil {
			return session.AutoResult{Status: c6book.ProveError, ProveProgress: p}, err
		}
		if !ok {
			return session.AutoResult{Status: c6book.ProveStuck, ProveProgress: p}, nil
		}
		p.Calls++
		p.Proved++
		// As if the next call were under way: in flight, a tenth done.
		p.InFlight = []int64{int64(p.Calls)}
		p.Working = []c6book.VerifyWork{{ID: int64(p.Calls), Phase: "moves", Done: p.Calls, Total: 10}}
		progress(p)
	}
}

// proveLeaf proves the first open leaf below b (needsWork) that no held
// position hides, as if the auto-pilot had proved a move there (order 1),
// and propagates to its parents.
func (s *Store) proveLeaf(b *board.Board, a game.Color) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var leaf *Node
	s.walkFrom(b, func(line []game.Move, n *Node) bool {
		if !s.needsWork(n, a) {
			return true
		}
		c := b.Clone()
		for i := 0; i <= len(line); i++ {
			if cn := s.node(c, false); cn != nil && cn.Held[a] {
				return true
			}
			if i < len(line) && c.PlayPartial(line[i]) != nil {
				return true
			}
		}
		leaf = n
		return false
	})
	if leaf == nil {
		return false, nil
	}
	leaf.Proof[a] = c6book.Proof{Attacker: a, Status: c6book.StatusProved, Order: 1, How: c6book.HowMove, DN: c6book.Infinite, Zone: []game.Square{}}
	var parents []*Node
	for k := range leaf.parents {
		parents = append(parents, s.nodes[k])
	}
	return true, s.settle(parents...)
}
