package ui

import (
	"c6book"
	"context"
	"sort"
	"strings"
	"sync"

	"c6book/engine"
)

// fakeStore is an in-memory BookStore: positions keyed by their exact stones
// and side to move (no symmetry), moves as edges. It counts calls so tests
// can check that lists are fed from memory.
type fakeStore struct {
	mu    sync.Mutex
	rules engine.Rules
	nodes map[posKey]*fakeNode
	calls map[string]int
}

type fakeNode struct {
	comment, label string
	marks          map[engine.Square]string
	kids           []engine.Move
	status         map[engine.Color]c6book.Status
	verdict        map[engine.Color]*c6book.Verdict
}

func newFakeStore(r engine.Rules) *fakeStore {
	s := newFakeStoreRules(r)
	s.node(engine.MustNewBoard(r), true)
	return s
}

// newFakeStoreRules is an empty store with any rules (even invalid ones).
func newFakeStoreRules(r engine.Rules) *fakeStore {
	return &fakeStore{rules: r, nodes: map[posKey]*fakeNode{}, calls: map[string]int{}}
}

func (s *fakeStore) node(b *engine.Board, create bool) *fakeNode {
	k := keyOf(b)
	n := s.nodes[k]
	if n == nil && create {
		n = &fakeNode{status: map[engine.Color]c6book.Status{}, verdict: map[engine.Color]*c6book.Verdict{}}
		s.nodes[k] = n
	}
	return n
}

func (s *fakeStore) count(name string) {
	s.calls[name]++
}

func (s *fakeStore) Rules() engine.Rules { return s.rules }

func (s *fakeStore) Position(_ context.Context, b *engine.Board, a engine.Color) (Position, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.count("Position")
	n := s.node(b, false)
	if n == nil {
		return Position{}, nil
	}
	marks := map[engine.Square]string{}
	for k, v := range n.marks {
		marks[k] = v
	}
	return Position{Found: true, Comment: n.comment, Label: n.label, Marks: marks,
		Status: n.status[a], Verdict: n.verdict[a]}, nil
}

func (s *fakeStore) Children(_ context.Context, b *engine.Board, a engine.Color) ([]Child, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.count("Children")
	n := s.node(b, false)
	if n == nil {
		return nil, nil
	}
	out := make([]Child, 0, len(n.kids))
	for _, m := range n.kids {
		c := b.Clone()
		if err := c.Play(m); err != nil {
			return nil, err
		}
		ch := Child{Move: m}
		if cn := s.node(c, false); cn != nil {
			ch.Status, ch.Label = cn.status[a], cn.label
		}
		out = append(out, ch)
	}
	return out, nil
}

func (s *fakeStore) AddMove(_ context.Context, b *engine.Board, m engine.Move) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.count("AddMove")
	return s.addMove(b, m)
}

func (s *fakeStore) addMove(b *engine.Board, m engine.Move) (bool, error) {
	c := b.Clone()
	if err := c.Play(m); err != nil {
		return false, err
	}
	n := s.node(b, true)
	s.node(c, true)
	for _, k := range n.kids {
		if k == m {
			return false, nil
		}
	}
	n.kids = append(n.kids, m)
	return true, nil
}

func (s *fakeStore) RemoveMove(_ context.Context, b *engine.Board, m engine.Move) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.node(b, false)
	if n == nil {
		return nil
	}
	for i, k := range n.kids {
		if k == m {
			n.kids = append(n.kids[:i], n.kids[i+1:]...)
			break
		}
	}
	return nil
}

func (s *fakeStore) SetComment(_ context.Context, b *engine.Board, text string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.node(b, true).comment = text
	return nil
}

func (s *fakeStore) SetLabel(_ context.Context, b *engine.Board, label string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.node(b, true).label = label
	return nil
}

func (s *fakeStore) SetMarks(_ context.Context, b *engine.Board, marks map[engine.Square]string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.node(b, true).marks = marks
	return nil
}

func (s *fakeStore) StoreVerdict(_ context.Context, b *engine.Board, v c6book.Verdict) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.node(b, true)
	vv := v
	n.verdict[v.Attacker] = &vv
	if v.Proved() {
		n.status[v.Attacker] = c6book.StatusProved
	} else {
		n.status[v.Attacker] = c6book.StatusOpen
	}
	for _, m := range v.Items() {
		if _, err := s.addMove(b, m); err != nil {
			return err
		}
		c := b.Clone()
		_ = c.Play(m)
		if cn := s.node(c, true); cn.status[v.Attacker] == c6book.StatusUnknown {
			cn.status[v.Attacker] = c6book.StatusOpen
		}
	}
	return nil
}

// walk visits every position reachable from the root, breadth first, with
// its line.
func (s *fakeStore) walk(f func(line []engine.Move, n *fakeNode) bool) {
	type item struct {
		line []engine.Move
		b    *engine.Board
	}
	seen := map[posKey]bool{}
	queue := []item{{nil, engine.MustNewBoard(s.rules)}}
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
		for _, m := range n.kids {
			c := it.b.Clone()
			if c.Play(m) == nil {
				queue = append(queue, item{append(append([]engine.Move(nil), it.line...), m), c})
			}
		}
	}
}

func (s *fakeStore) Next(_ context.Context, a engine.Color) (Entry, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var e Entry
	found := false
	s.walk(func(line []engine.Move, n *fakeNode) bool {
		if n.status[a] == c6book.StatusOpen && len(n.kids) == 0 {
			e, found = Entry{Line: line, Status: c6book.StatusOpen, Label: n.label}, true
			return false
		}
		return true
	})
	return e, found, nil
}

func (s *fakeStore) Proved(_ context.Context, a engine.Color, limit int) ([]Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Entry
	s.walk(func(line []engine.Move, n *fakeNode) bool {
		if n.status[a] == c6book.StatusProved {
			out = append(out, Entry{Line: line, Status: c6book.StatusProved, Label: n.label, Text: n.comment})
		}
		return len(out) < limit
	})
	return out, nil
}

func (s *fakeStore) Search(_ context.Context, q string, limit int) ([]Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Entry
	s.walk(func(line []engine.Move, n *fakeNode) bool {
		if q != "" && strings.Contains(strings.ToLower(n.comment), strings.ToLower(q)) {
			out = append(out, Entry{Line: line, Label: n.label, Text: n.comment})
		}
		return len(out) < limit
	})
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].Line) < len(out[j].Line) })
	return out, nil
}

// fakeVerifier answers with a fixed unsolved list after the test releases
// it (or fails with the context's error when stopped), reporting progress.
type fakeVerifier struct {
	unsolved []string
	release  chan struct{}
	started  chan *engine.Board
}

func (f *fakeVerifier) Verify(ctx context.Context, b *engine.Board, lambda int, progress func(Progress)) (c6book.Verdict, error) {
	if f.started != nil {
		f.started <- b
	}
	progress(Progress{Phase: "null", Done: 1, Total: 4, Nodes: 100})
	if f.release != nil {
		select {
		case <-f.release:
		case <-ctx.Done():
			return c6book.Verdict{}, ctx.Err()
		}
	}
	v := c6book.Verdict{Attacker: b.ToMove().Opp(), Calls: 4, Nodes: 1234}
	for _, t := range f.unsolved {
		m, err := engine.ParseMove(b.Rules(), t)
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

func (s *fakeStore) Resolve(_ context.Context, e Entry) ([]engine.Move, error) { return e.Line, nil }

func (s *fakeStore) SetDisproved(_ context.Context, b *engine.Board, a engine.Color, on bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.node(b, true)
	if on {
		n.status[a] = c6book.StatusDisproved
	} else {
		n.status[a] = c6book.StatusUnknown
	}
	return nil
}

// Candidates proposes the first empty squares next to the last stone.
func (f *fakeVerifier) Candidates(ctx context.Context, b *engine.Board, limit int) ([]Candidate, error) {
	var out []Candidate
	for _, t := range []string{"a1a2", "s18s19"} {
		m, err := engine.ParseMove(b.Rules(), t)
		if err != nil {
			return nil, err
		}
		out = append(out, Candidate{Move: m, Note: "test"})
	}
	return out, nil
}
