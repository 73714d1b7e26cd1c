package service

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"c6book"
	"c6book/autopilot"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/proofbook"
	"c6book/session"
)

// Store adapts a Book to the workbench's session.BookStore: it locates
// boards (any frame) in the book and maps moves, squares and verdicts
// between the caller's frame and the book's canonical frames.
type Store struct {
	bk *proofbook.Book
	o  StoreOptions
}

// StoreOptions configure a Store.
type StoreOptions struct {
	// Jobs runs the auto-pilot's verifier jobs (nil: in this process,
	// verify.LocalVerifier).
	Jobs verify.Verifier
	// Limits, when set, is read as each auto-pilot run starts: the limits
	// of each solver call (the Preferences'); nil or zero:
	// DefaultVerify's.
	Limits func() threat.Limits
}

// Store is the book as the workbench's session sees it.
func (bk *Book) Store(o StoreOptions) *Store { return &Store{bk: bk.pb, o: o} }

var (
	_ session.BookStore = (*Store)(nil)
	// The session finds these by type assertion: a signature that drifts
	// must fail here, not switch the feature off.
	_ session.ReadOnlyStore = (*Store)(nil)
)

func (s *Store) Rules() game.Rules { return s.bk.Rules() }

// ReadOnly says why the book cannot be written ("" when it can): the
// workbench then disables editing (session.ReadOnlyStore).
func (s *Store) ReadOnly() string { return s.bk.ReadOnly() }

// locate finds b; found is false (and err nil) when b is not in the book.
func (s *Store) locate(ctx context.Context, b *board.Board) (id proofbook.PosID, sym int, found bool, err error) {
	id, sym, err = s.bk.Locate(ctx, b)
	if errors.Is(err, proofbook.ErrNotFound) {
		return 0, sym, false, nil
	}
	return id, sym, err == nil, err
}

func (s *Store) mustLocate(ctx context.Context, b *board.Board) (proofbook.PosID, int, error) {
	id, sym, found, err := s.locate(ctx, b)
	if err == nil && !found {
		err = fmt.Errorf("this position is not in the book")
	}
	return id, sym, err
}

func (s *Store) Position(ctx context.Context, b *board.Board, a game.Color) (session.Position, error) {
	// The book's proofs changed outside the program since the last check:
	// said in the status bar (they show as unchecked).
	var warning string
	if ok, err := s.bk.ProofsChecked(ctx); err != nil {
		return session.Position{}, err
	} else if !ok {
		warning = proofbook.UncheckedNote
	}
	id, sym, found, err := s.locate(ctx, b)
	if err != nil || !found {
		return session.Position{Warning: warning}, err
	}
	p, err := s.bk.Position(ctx, id)
	if err != nil {
		return session.Position{}, err
	}
	r := s.bk.Rules()
	inv := game.InverseSymmetry(sym)
	out := session.Position{Found: true, Comment: p.Comment, Label: p.Label, Status: p.Proof(a).Status}
	if out.Stuck, err = autopilot.Stuck(ctx, s.bk, id, a); err != nil {
		return session.Position{}, err
	}
	out.Warning = warning
	out.Held = out.Stuck == c6book.StuckHeld
	if pr := p.Proof(a); pr.Status == c6book.StatusProved && pr.How == c6book.HowTwin {
		tw, ok, err := s.bk.ProvingTwin(ctx, id, a)
		if err != nil {
			return session.Position{}, err
		}
		if ok {
			out.ByTwin, out.TwinStone = true, r.Transform(inv, tw.Stone)
		}
	}
	if out.Games, err = s.bk.GameStatsOf(ctx, id); err != nil {
		return session.Position{}, err
	}
	if len(p.Marks) > 0 {
		out.Marks = map[game.Square]string{}
		for _, m := range p.Marks {
			out.Marks[r.Transform(inv, m.Square)] = markText(m)
		}
	}
	if v := p.Verdict; v != nil && v.Attacker == a {
		bv := v.Transform(r, inv) // in b's frame
		out.Verdict = &bv
		if v.Cert == nil {
			out.Verdict.Note = strings.TrimSpace(out.Verdict.Note + " (stored without a certificate: it proves nothing, re-verify)")
		} else if !v.AllUnsolved {
			// What is still left to prove: the unsolved moves, the open
			// seminull positions and, once one is proved, the full moves
			// inside its zone.
			items, err := s.bk.Items(ctx, id, a)
			if err != nil {
				return session.Position{}, err
			}
			out.Verdict.Unsolved, out.Verdict.OpenSeminull = nil, nil
			for _, it := range items {
				u := c6book.Unsolved{Move: r.TransformMove(inv, it.Move), Reason: it.Reason}
				if it.Move.Len() < r.P {
					out.Verdict.OpenSeminull = append(out.Verdict.OpenSeminull, u)
				} else {
					out.Verdict.Unsolved = append(out.Verdict.Unsolved, u)
				}
			}
		}
	}
	return out, nil
}

// markText is what the board draws for a stored mark: its text, or its
// shape as a glyph.
func markText(m proofbook.Mark) string {
	if m.Text != "" {
		return m.Text
	}
	return m.Shape.Glyph()
}

func (s *Store) Children(ctx context.Context, b *board.Board, a game.Color) ([]session.Child, error) {
	id, sym, found, err := s.locate(ctx, b)
	if err != nil || !found {
		return nil, err
	}
	kids, err := s.bk.Children(ctx, id)
	if err != nil {
		return nil, err
	}
	r := s.bk.Rules()
	out := make([]session.Child, len(kids))
	for i, c := range kids {
		out[i] = session.Child{
			Move:   proofbook.FromCanonical(r, sym, c.Move),
			Status: c.Proof(a).Status,
			Label:  c.Label,
			Note:   c.Note,
			Games:  c.Games,
		}
	}
	// In the book's order: most played first, then by status.
	return out, nil
}

func (s *Store) AddMove(ctx context.Context, b *board.Board, m game.Move) (bool, error) {
	id, _, err := s.mustLocate(ctx, b)
	if err != nil {
		return false, err
	}
	kids, err := s.bk.Children(ctx, id)
	if err != nil {
		return false, err
	}
	child, err := s.bk.PlayFrom(ctx, b, m)
	if err != nil {
		return false, err
	}
	for _, c := range kids {
		if c.ID == child {
			return false, nil
		}
	}
	return true, nil
}

func (s *Store) RemoveMove(ctx context.Context, b *board.Board, m game.Move) error {
	id, sym, err := s.mustLocate(ctx, b)
	if err != nil {
		return err
	}
	return s.bk.RemoveMove(ctx, id, proofbook.ToCanonical(s.bk.Rules(), sym, m))
}

func (s *Store) SetComment(ctx context.Context, b *board.Board, text string) error {
	id, _, err := s.mustLocate(ctx, b)
	if err != nil {
		return err
	}
	return annotate(ctx, s.bk, id, Annotation{Comment: &text})
}

func (s *Store) SetLabel(ctx context.Context, b *board.Board, label string) error {
	id, _, err := s.mustLocate(ctx, b)
	if err != nil {
		return err
	}
	return annotate(ctx, s.bk, id, Annotation{Label: &label})
}

func (s *Store) SetMarks(ctx context.Context, b *board.Board, marks map[game.Square]string) error {
	id, sym, err := s.mustLocate(ctx, b)
	if err != nil {
		return err
	}
	// A mark the board shows unchanged is stored unchanged: a shape
	// (drawn as a glyph) stays a shape, and exports as CR/TR/SQ/MA/SL.
	p, err := s.bk.Position(ctx, id)
	if err != nil {
		return err
	}
	stored := make(map[game.Square]proofbook.Mark, len(p.Marks))
	for _, m := range p.Marks {
		stored[m.Square] = m
	}
	r := s.bk.Rules()
	list := make([]proofbook.Mark, 0, len(marks))
	for sq, txt := range marks {
		c := r.Transform(sym, sq)
		if m, ok := stored[c]; ok && markText(m) == txt {
			list = append(list, m)
			continue
		}
		list = append(list, proofbook.Mark{Square: c, Text: txt})
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Square < list[j].Square })
	return s.bk.SetMarks(ctx, id, list)
}

func (s *Store) SetDisproved(ctx context.Context, b *board.Board, a game.Color, on bool) error {
	id, _, err := s.mustLocate(ctx, b)
	if err != nil {
		return err
	}
	return annotate(ctx, s.bk, id, Annotation{Attacker: a, Disproved: &on})
}

// StoreVerdict stores v, a verdict in b's frame (the verifier's), mapped
// into the book's canonical frame; its Undo is the book's answer
// (proofbook.Stored).
func (s *Store) StoreVerdict(ctx context.Context, b *board.Board, v c6book.Verdict) (session.VerdictStored, error) {
	id, sym, err := s.mustLocate(ctx, b)
	if err != nil {
		return session.VerdictStored{}, err
	}
	r := s.bk.Rules()
	st, err := s.bk.StoreVerdict(ctx, id, v.Transform(r, sym))
	if err != nil {
		return session.VerdictStored{}, err
	}
	added := make([]game.Move, len(st.Replies))
	for i, m := range st.Replies {
		added[i] = proofbook.FromCanonical(r, sym, m)
	}
	return session.VerdictStored{Added: added, Undo: st}, nil
}

// UndoVerdict takes back a StoreVerdict on b (proofbook's UndoVerdict).
func (s *Store) UndoVerdict(ctx context.Context, b *board.Board, st session.VerdictStored) error {
	stored, ok := st.Undo.(proofbook.Stored)
	if !ok {
		return errors.New("undo verify: not a verdict this book stored")
	}
	id, _, err := s.mustLocate(ctx, b)
	if err != nil {
		return err
	}
	return s.bk.UndoVerdict(ctx, id, stored)
}

// shortTurns is how many turns a list row shows of a line from the root.
const shortTurns = 5

// Next finds the most-proving open position below b; its moves come back
// in b's orientation.
func (s *Store) Next(ctx context.Context, b *board.Board, a game.Color) (session.Entry, bool, error) {
	id, sym, err := s.mustLocate(ctx, b)
	if err != nil {
		return session.Entry{}, false, err
	}
	line, err := s.bk.Next(ctx, id, a)
	if err != nil {
		return session.Entry{}, false, err
	}
	r := s.bk.Rules()
	turns := make([]game.Move, len(line.Turns)) // from's canonical frame
	for i, m := range line.Turns {
		turns[i] = proofbook.FromCanonical(r, sym, m)
	}
	e := session.Entry{Line: turns, Status: c6book.StatusOpen}
	// Where the auto-pilot is stuck on the line (held, dead end).
	for i, pid := range line.IDs {
		why, err := autopilot.Stuck(ctx, s.bk, pid, a)
		if err != nil {
			return session.Entry{}, false, err
		}
		if why != "" {
			e.Stuck = append(e.Stuck, session.StuckAt{Ply: i, Why: why})
		}
	}
	return e, true, nil
}

// stableEntry is a list entry for a position whose stable line is turns.
func (s *Store) stableEntry(turns []game.Move) session.Entry {
	if turns == nil {
		turns = []game.Move{}
	}
	return session.Entry{Line: turns, Short: proofbook.ShortLine(s.bk.Rules(), turns, shortTurns)}
}

// Proved lists the proved positions worth browsing: real proofs (order 1 and
// up), not the game ends an import marks proved (the attacker has already
// made, or makes at once, six in a row: order 0).
func (s *Store) Proved(ctx context.Context, a game.Color, minOrder, limit int) ([]session.Entry, error) {
	rs, err := s.bk.Proved(ctx, a, minOrder, limit)
	if err != nil {
		return nil, err
	}
	out := make([]session.Entry, 0, len(rs))
	for _, r := range rs {
		e := s.stableEntry(r.Turns)
		e.Ref, e.Stones, e.Status, e.Label = int64(r.ID), r.Stones, r.Proof.Status, r.Label
		e.Text = fmt.Sprintf("order %d (%s)", r.Proof.Order, r.Proof.How)
		out = append(out, e)
	}
	return out, nil
}

func (s *Store) Search(ctx context.Context, q string, a game.Color, limit int) ([]session.Entry, error) {
	hs, err := s.bk.Search(ctx, q, limit)
	if err != nil {
		return nil, err
	}
	out := make([]session.Entry, len(hs))
	for i, h := range hs {
		e := s.stableEntry(h.Turns)
		e.Ref, e.Stones, e.Status, e.Label, e.Text = int64(h.ID), h.Stones, h.Proof(a).Status, h.Label, h.Comment
		out[i] = e
	}
	return out, nil
}

func (s *Store) GamesThrough(ctx context.Context, b *board.Board, offset, limit int) ([]c6book.GameInfo, int64, error) {
	id, _, found, err := s.locate(ctx, b)
	if err != nil || !found {
		return nil, 0, err
	}
	return s.bk.GamesThrough(ctx, id, proofbook.GamesQuery{Offset: offset, Limit: limit})
}

// Game returns a stored game's turns in b's orientation, each turn's
// stones in the record's order.
func (s *Store) Game(ctx context.Context, gid int64, b *board.Board) ([][]game.Square, error) {
	g, err := s.bk.Game(ctx, gid)
	if err != nil {
		return nil, err
	}
	turns, ok := proofbook.OrientWritten(s.bk.Rules(), g.Written, b)
	if !ok {
		return nil, fmt.Errorf("game %s %s does not reach this position", g.Source, g.ExtID)
	}
	return turns, nil
}

func (s *Store) Resolve(ctx context.Context, e session.Entry) ([]game.Move, error) {
	if e.Line != nil {
		return e.Line, nil
	}
	turns, err := s.bk.StableTurns(ctx, proofbook.PosID(e.Ref))
	if err != nil {
		return nil, err
	}
	if turns == nil {
		return []game.Move{}, nil
	}
	return turns, nil
}

// The auto-pilot and the expert's "leave to me" for the workbench: the
// book's own loop (autopilot.Prove) with the store's job verifier.

var (
	_ session.AutoProver = (*Store)(nil)
	_ session.Holder     = (*Store)(nil)
)

// JobVerifier runs the auto-pilot's verifier jobs: the store's, or in this
// process.
func (s *Store) JobVerifier() verify.Verifier {
	if s.o.Jobs != nil {
		return s.o.Jobs
	}
	return verify.LocalVerifier{}
}

// AutoProve runs autopilot.Prove below b (a stored position).
func (s *Store) AutoProve(ctx context.Context, b *board.Board, o session.AutoOptions, progress func(c6book.ProveProgress)) (session.AutoResult, error) {
	id, _, err := s.mustLocate(ctx, b)
	if err != nil {
		return session.AutoResult{}, err
	}
	ps := ProveDefaults()
	ps.Jobs, ps.MaxCalls, ps.MaxTime, ps.Verify.Lambda = max(1, o.Jobs), o.MaxCalls, o.MaxTime, o.Lambda
	if s.o.Limits != nil {
		if l := s.o.Limits(); l != (threat.Limits{}) {
			ps.Verify.MaxNodes, ps.Verify.Timeout = l.MaxNodes, l.Timeout
		}
	}
	res, err := prove(ctx, s.bk, id, o.Attacker, s.JobVerifier(), ps, progress)
	return session.AutoResult{Status: res.Status, ProveProgress: c6book.ProveProgress{Calls: res.Calls, Proved: res.Proved,
		Open: res.Open, Added: res.Added, Elapsed: res.Elapsed}}, err
}

// SetHold marks b as left to the expert for attacker a (or gives it back).
func (s *Store) SetHold(ctx context.Context, b *board.Board, a game.Color, on bool) error {
	id, _, err := s.mustLocate(ctx, b)
	if err != nil {
		return err
	}
	return annotate(ctx, s.bk, id, Annotation{Attacker: a, Held: &on})
}
