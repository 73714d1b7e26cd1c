package c6book

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/proofcheck"
)

// A ProofWalk is a proof line read off a stored certificate, to be watched
// step by step ("Show proof" in the workbench, `c6 book show --proof`): the
// defender's replies the certificate answers (the critical ones first), the
// attacker's moves of the strategy that answers each, the attacker's
// threats and the strategy's zone at every step. It is built only from a
// certificate proofcheck accepts (NewProofWalk checks it first): nothing
// of a fresh search, nothing unchecked. The line follows the first (most
// critical) reply at every defender turn unless another is chosen
// (Choose).

// StepKind says what a proof step's move is.
type StepKind int

// Step kinds.
const (
	StepStart    StepKind = iota // the verified position, the defender to move
	StepDefence                  // a full defender move the strategy answers
	StepSeminull                 // one defender stone; the other anywhere outside the zone
	StepNull                     // the defender's move outside the zone, ignored (null move)
	StepBook                     // a defender move left to the book (proved on its own)
	StepAttack                   // the attacker's move of the strategy
	StepWin                      // the attacker's move that makes k in a row
)

// ProofAlt is a defender reply a proof answers at a step.
type ProofAlt struct {
	Kind  StepKind
	Move  game.Move // the stones shown (none for the null move)
	Depth int       // attacker moves to the win on the strategy's longest line
	Size  int       // attacker moves in the strategy
	tree  *proofcheck.Tree
	tol   int // the tolerance its strategy is checked at
}

// ProofStep is one position of the line.
type ProofStep struct {
	Kind StepKind
	// Move is the turn that led here (none at the start and for the null
	// move); By is who played it.
	Move game.Move
	By   game.Color
	// Board is the position after Move (do not modify it).
	Board *board.Board
	// Threats are the empty squares of the attacker's threat windows (the
	// squares the defender must fill); NThreats how many stones it takes.
	Threats  []game.Square
	NThreats int
	// Zone is the relevance zone of the strategy from here, as proofcheck
	// computes it (the verdict's zone at the start; nil once won).
	Zone []game.Square
	// Alts are the defender replies the proof answers here, the critical
	// (longest) first; Choice is the one the line follows. Empty except at
	// a position with the defender to move.
	Alts   []ProofAlt
	Choice int
	// Tol is the tolerance the strategy from here is checked at.
	Tol int
	// Wins: the attacker has won (k in a row) or has more threats than
	// the defender's next turn can block (the strategy answers no reply).
	Wins bool
}

// ProofWalk is a proof line through a checked certificate.
type ProofWalk struct {
	rules    game.Rules
	start    *board.Board
	attacker game.Color
	res      *proofcheck.VerdictResult
	steps    []ProofStep
	at       int
}

// NewProofWalk checks v's certificate on b (the verdict's position, the
// defender to move, in v's frame) with proofcheck at b's tolerance, and
// its coverage (every defender move answered by the certificate or left to
// the book by it: VerdictResult.CheckItems), and builds the line; a verdict without a certificate, or whose certificate
// does not check, is an error and nothing is shown.
func NewProofWalk(ctx context.Context, b *board.Board, v *Verdict) (*ProofWalk, error) {
	if v == nil || v.Cert == nil {
		return nil, fmt.Errorf("no certificate stored: nothing to show (verify the position again)")
	}
	if v.Cert.Attacker != v.Attacker || b.ToMove() != v.Attacker.Opp() {
		return nil, fmt.Errorf("the certificate is not for this position (attacker %v, %v to move)", v.Cert.Attacker, b.ToMove())
	}
	tol, ok := b.DefenderDeficit(v.Attacker)
	if !ok {
		return nil, fmt.Errorf("the position's stone counts do not fit full turns of %v, the attacker", v.Attacker)
	}
	res, err := proofcheck.CheckVerdict(ctx, b.Rules(), b.StoneList(game.Black), b.StoneList(game.White), b.ToMove(), tol, v.Cert)
	if err != nil {
		return nil, &CertError{err}
	}
	// The coverage rule, with the certificate's own items (those left to
	// the book): every defender move is answered or left to the book.
	if v.Cert.AllUnsolved {
		return nil, fmt.Errorf("the certificate leaves every defender move open: no proof to show")
	}
	items := proofcheck.Items{Unsolved: v.Cert.Unsolved}
	for _, s := range v.Cert.OpenSeminull {
		items.OpenSeminull = append(items.OpenSeminull, game.NewMove(s))
	}
	if err := res.CheckItems(items); err != nil {
		return nil, &CertError{err}
	}
	w := &ProofWalk{rules: b.Rules(), start: b.Clone(), attacker: v.Attacker, res: res}
	first := ProofStep{Kind: StepStart, Board: w.start, Zone: res.Zone, Tol: tol}
	w.threats(&first)
	first.Alts = w.rootAlts(v.Cert, tol)
	w.steps = []ProofStep{first}
	if err := w.extend(ctx); err != nil {
		return nil, err
	}
	return w, nil
}

// Attacker is the player the proof is for.
func (w *ProofWalk) Attacker() game.Color { return w.attacker }

// Steps are the line's steps, the start first.
func (w *ProofWalk) Steps() []ProofStep { return w.steps }

// At is the index of the step shown.
func (w *ProofWalk) At() int { return w.at }

// Step is the step shown.
func (w *ProofWalk) Step() ProofStep { return w.steps[w.at] }

// Next shows the next step (false at the end).
func (w *ProofWalk) Next() bool {
	if w.at+1 >= len(w.steps) {
		return false
	}
	w.at++
	return true
}

// Prev shows the previous step (false at the start).
func (w *ProofWalk) Prev() bool {
	if w.at == 0 {
		return false
	}
	w.at--
	return true
}

// Seek shows step i (clamped to the line).
func (w *ProofWalk) Seek(i int) { w.at = max(0, min(i, len(w.steps)-1)) }

// Choose makes the line follow defender reply i of the step shown (one of
// its Alts) and shows the step after it.
func (w *ProofWalk) Choose(ctx context.Context, i int) error {
	st := &w.steps[w.at]
	if i < 0 || i >= len(st.Alts) {
		return fmt.Errorf("no reply %d here", i+1)
	}
	st.Choice = i
	w.steps = w.steps[:w.at+1]
	if err := w.extend(ctx); err != nil {
		return err
	}
	w.Next()
	return nil
}

// rootAlts are the defender replies the certificate answers at the
// verified position, the critical first, then those left to the book.
func (w *ProofWalk) rootAlts(c *proofcheck.Cert, tol int) []ProofAlt {
	p := w.rules.P
	var alts []ProofAlt
	for _, cv := range c.Covered {
		alts = append(alts, newAlt(StepDefence, cv.Move, cv.Tree, tol))
	}
	for _, s := range c.Seminull {
		alts = append(alts, newAlt(StepSeminull, game.NewMove(s.Stone), s.Tree, tol+max(1, p-1)))
	}
	if c.NullTree != nil {
		alts = append(alts, newAlt(StepNull, game.Move{}, c.NullTree, tol+p))
	}
	sortAlts(alts)
	for _, m := range c.Unsolved {
		alts = append(alts, ProofAlt{Kind: StepBook, Move: m})
	}
	for _, s := range c.OpenSeminull {
		alts = append(alts, ProofAlt{Kind: StepBook, Move: game.NewMove(s)})
	}
	return alts
}

func newAlt(k StepKind, m game.Move, t *proofcheck.Tree, tol int) ProofAlt {
	d, n := treeDepth(t)
	return ProofAlt{Kind: k, Move: m, Depth: d, Size: n, tree: t, tol: tol}
}

// sortAlts puts the critical replies first: the longest refutation, then
// the largest, then the board order of the move (stable).
func sortAlts(alts []ProofAlt) {
	slices.SortStableFunc(alts, func(x, y ProofAlt) int {
		if c := cmp.Compare(y.Depth, x.Depth); c != 0 {
			return c
		}
		return cmp.Compare(y.Size, x.Size)
	})
}

// treeDepth is the attacker moves on t's longest line and in all of t.
func treeDepth(t *proofcheck.Tree) (depth, size int) {
	if t == nil {
		return 0, 0
	}
	size = 1
	for _, r := range t.Replies {
		d, n := treeDepth(r.Then)
		depth = max(depth, d)
		size += n
	}
	return depth + 1, size
}

// extend follows the chosen replies from the last step to the end of the
// line (a win, or a reply left to the book).
func (w *ProofWalk) extend(ctx context.Context) error {
	for {
		last := w.steps[len(w.steps)-1]
		if len(last.Alts) == 0 {
			return nil
		}
		alt := last.Alts[last.Choice]
		b := last.Board.Clone()
		if err := b.PlayPartial(alt.Move); err != nil {
			return fmt.Errorf("proof line, defender %s: %w", game.MoveName(w.rules, alt.Move), err)
		}
		def := ProofStep{Kind: alt.Kind, Move: alt.Move, By: w.attacker.Opp(), Board: b, Tol: alt.tol}
		w.threats(&def)
		if alt.Kind == StepBook {
			w.steps = append(w.steps, def)
			return nil
		}
		z, err := proofcheck.CheckTree(ctx, w.rules, b.StoneList(game.Black), b.StoneList(game.White), w.attacker, alt.tol, alt.tree)
		if err != nil {
			return &CertError{err}
		}
		def.Zone = z
		w.steps = append(w.steps, def)
		if err := w.attack(ctx, b, alt.tree, alt.tol); err != nil {
			return err
		}
	}
}

// attack adds the attacker's move of t from b (the attacker to move) and
// the defender's replies after it.
func (w *ProofWalk) attack(ctx context.Context, b *board.Board, t *proofcheck.Tree, tol int) error {
	if t == nil {
		return fmt.Errorf("proof line: no attacker move after %s", game.FormatTurns(w.rules, b.History()))
	}
	nb := b.Clone()
	if err := nb.PlayPartial(t.Move); err != nil {
		return fmt.Errorf("proof line, attacker %s: %w", game.MoveName(w.rules, t.Move), err)
	}
	st := ProofStep{Kind: StepAttack, Move: t.Move, By: w.attacker, Board: nb, Tol: tol}
	if nb.Winner() == w.attacker {
		st.Kind, st.Wins = StepWin, true
		w.steps = append(w.steps, st)
		return nil
	}
	w.threats(&st)
	// The zone after the attacker's move: the union of its replies'
	// strategies' zones and the threat windows (what the checker adds).
	z := new(game.SqSet)
	z.AddAll(st.Threats...)
	semTol := tol + max(1, w.rules.P-1)
	for _, r := range t.Replies {
		k, rt := StepDefence, tol
		if r.Seminull {
			k, rt = StepSeminull, semTol
		}
		st.Alts = append(st.Alts, newAlt(k, r.Move, r.Then, rt))
	}
	sortAlts(st.Alts)
	st.Wins = len(st.Alts) == 0 // no defender move blocks every threat (proofcheck checked it)
	if len(st.Alts) > 0 {
		// The chosen reply's zone is computed when the line reaches it;
		// here the strategy's as a whole.
		zs, err := proofcheck.CheckTree(ctx, w.rules, b.StoneList(game.Black), b.StoneList(game.White), w.attacker, tol, t)
		if err != nil {
			return &CertError{err}
		}
		z.AddAll(zs...)
	}
	st.Zone = z.Squares()
	w.steps = append(w.steps, st)
	return nil
}

// threats fills the attacker's threats of a step.
func (w *ProofWalk) threats(st *ProofStep) {
	st.Threats = st.Board.ThreatWindowEmpties(w.attacker)
	st.NThreats = st.Board.Threats(w.attacker)
}

// StepText says in words what a step shows.
func (w *ProofWalk) StepText(i int) string {
	st := w.steps[i]
	r := w.rules
	att, def := colourWord(w.attacker), colourWord(w.attacker.Opp())
	name := game.MoveName(r, st.Move)
	var s string
	switch st.Kind {
	case StepStart:
		s = fmt.Sprintf("%s to move: the proof answers %d %s", def, len(st.Alts), plural(len(st.Alts), "reply", "replies"))
		if n := len(st.Alts); n > 0 && st.Alts[n-1].Kind == StepBook {
			b := 0
			for _, a := range st.Alts {
				if a.Kind == StepBook {
					b++
				}
			}
			s += fmt.Sprintf(" (%d left to the book)", b)
		}
		s += "; any other move loses at once"
	case StepDefence:
		s = fmt.Sprintf("%s %s", def, name)
	case StepSeminull:
		s = fmt.Sprintf("%s %s and any stone outside the zone", def, name)
	case StepNull:
		s = fmt.Sprintf("%s plays outside the zone: %s ignores it (null move)", def, att)
	case StepBook:
		return fmt.Sprintf("%s %s: left to the book, proved there on its own (play it to see its proof)", def, name)
	case StepAttack:
		s = fmt.Sprintf("%s %s", att, name)
	case StepWin:
		return fmt.Sprintf("%s %s: %d in a row, %s wins", att, name, r.K, att)
	}
	if st.NThreats > 0 {
		s += fmt.Sprintf(" — %d %s", st.NThreats, plural(st.NThreats, "threat", "threats"))
	}
	if st.Wins {
		s += fmt.Sprintf(": %s cannot block them all, %s wins next", def, att)
	}
	if len(st.Alts) > 0 && st.Kind != StepStart {
		s += fmt.Sprintf("; %d %s answered", len(st.Alts), plural(len(st.Alts), "reply", "replies"))
	}
	return s
}

// AltText names a defender reply of a step for a list.
func (w *ProofWalk) AltText(a ProofAlt) string {
	r := w.rules
	switch a.Kind {
	case StepNull:
		return fmt.Sprintf("any move outside the zone (null) — wins in %d", a.Depth)
	case StepSeminull:
		return fmt.Sprintf("%s + a stone outside the zone — wins in %d", game.MoveName(r, a.Move), a.Depth)
	case StepBook:
		return game.MoveName(r, a.Move) + " — left to the book"
	}
	return fmt.Sprintf("%s — wins in %d", game.MoveName(r, a.Move), a.Depth)
}

// Line is the proof line as text, one step a row ("3. White k10k11 — 2
// threats"), the steps' turns numbered from the verified position.
func (w *ProofWalk) Line() []string {
	out := make([]string, len(w.steps))
	for i := range w.steps {
		out[i] = fmt.Sprintf("%d. %s", i, w.StepText(i))
	}
	return out
}

func colourWord(c game.Color) string {
	switch c {
	case game.Black:
		return "Black"
	case game.White:
		return "White"
	}
	return "nobody"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
