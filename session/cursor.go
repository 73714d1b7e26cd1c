package session

import (
	"context"
	"fmt"
	"strings"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
)

// Cursor is the line shown and the cursor on it: the position it reaches,
// the pending stone of a two-stone turn, what the book knows about the
// position (read off the UI goroutine after each move) and the statuses
// and reply counts of the line's positions (a cache kept across moves).
// Its methods run on the UI goroutine.
type Cursor struct {
	s *Session

	gen      int         // bumped when the shown position changes
	visit    int         // bumped each time a position is shown (goTo)
	line     []game.Move // the current line from the root; may go past cur
	cur      int         // moves of line played to reach pos
	pos      *board.Board
	pending1 game.Square // first stone of a two-stone turn being entered
	attacker game.Color
	marking  bool
	// solvedMinOrder is the least λ order of the Solved list.
	solvedMinOrder int

	loaded   bool   // info and children are the shown position's
	infoFor  posKey // the position info and children were read for
	info     Position
	children []Child
	verdict  *c6book.Verdict
	status   map[posKey]c6book.Status // statuses of positions seen, for the line
	nkids    map[posKey]int           // stored replies of positions seen
	lineSt   []c6book.Status
	lineAlt  []int

	nextText  string // where Next's line is stuck
	nextVisit int    // the visit nextText is about

	order map[game.Move]string // the order turns' stones were entered in (order.go)
	// userLines are the lines the user has been on, the latest first
	// (orient.go): lists show lines in their orientation.
	userLines [][]game.Move
}

// reset shows the root of a new book.
func (c *Cursor) reset() {
	c.line, c.userLines = nil, nil
	c.status, c.nkids = nil, nil
	c.infoFor = posKey{}
	c.nextText = ""
	c.goTo(nil, 0)
}

// reload shows the current line again with fresh data from the book.
func (c *Cursor) reload() {
	c.status, c.nkids = nil, nil
	if _, err := replay(c.s.empty, c.line); err != nil {
		c.line = c.line[:c.cur]
	}
	c.goTo(c.line, c.cur)
}

// forget drops the cached statuses (an edit or a verdict may change them).
func (c *Cursor) forget() { c.status = nil }

// Line returns the current line and how many of its moves are played.
func (c *Cursor) Line() ([]game.Move, int) {
	return append([]game.Move(nil), c.line...), c.cur
}

// LineLen is the length of the current line.
func (c *Cursor) LineLen() int { return len(c.line) }

// LineMove is the i-th move of the line (0 ≤ i < LineLen).
func (c *Cursor) LineMove(i int) game.Move { return c.line[i] }

// Cur is the number of moves of the line played.
func (c *Cursor) Cur() int { return c.cur }

// Position returns the shown position (do not modify it).
func (c *Cursor) Position() *board.Board { return c.pos }

// Children returns the stored moves out of the shown position (do not
// modify the slice); empty until the book has answered.
func (c *Cursor) Children() []Child { return c.children }

// Info returns what the book knows about the shown position.
func (c *Cursor) Info() Position { return c.info }

// Loaded reports whether Info and Children are the shown position's (the
// book has answered since the position changed).
func (c *Cursor) Loaded() bool { return c.loaded }

// Pending is the first stone of a two-stone turn being entered.
func (c *Cursor) Pending() game.Square { return c.pending1 }

// Verdict is the verdict shown for the current position, if any.
func (c *Cursor) Verdict() *c6book.Verdict { return c.verdict }

// Attacker is the attacker the statuses and the prover refer to.
func (c *Cursor) Attacker() game.Color { return c.attacker }

// SetAttacker chooses the attacker.
func (c *Cursor) SetAttacker(a game.Color) {
	if a == c.attacker {
		return
	}
	c.attacker = a
	c.status = nil
	c.infoFor = posKey{} // the statuses are another attacker's
	c.refresh(true)
}

// Marking reports whether taps label squares instead of playing.
func (c *Cursor) Marking() bool { return c.marking }

// SetMarking makes taps label squares (A, B, C…) instead of playing.
func (c *Cursor) SetMarking(on bool) { c.marking = on }

// LineStatus is the status of the position after the first i moves of the
// line (unknown until the book has answered).
func (c *Cursor) LineStatus(i int) c6book.Status {
	if i < len(c.lineSt) {
		return c.lineSt[i]
	}
	return c6book.StatusUnknown
}

// LineVariations is the number of stored moves, other than the line's, out
// of the position before move i (1-based) of the line; -1 when not known.
func (c *Cursor) LineVariations(i int) int {
	if i >= 1 && i-1 < len(c.lineAlt) && c.lineAlt[i-1] > 0 {
		return c.lineAlt[i-1] - 1
	}
	return -1
}

// goTo shows line[:cur] at once and asks the book about it.
func (c *Cursor) goTo(line []game.Move, cur int) {
	b, err := replay(c.s.empty, line[:cur])
	if err != nil {
		c.s.fail(fmt.Errorf("cannot show the line: %w", err))
		return
	}
	c.s.notes.flush() // notes typed are stored before the position changes
	c.visit++
	c.s.stopProof() // a proof shown, or being checked, is the last position's (proof.go)
	c.line = append([]game.Move(nil), line...)
	c.rememberLine(c.line)
	c.cur = cur
	c.pos = b
	c.pending1 = game.NoSquare
	c.refresh(false)
}

// lineRead is a position of the line whose status the book is asked for.
type lineRead struct {
	key  posKey
	b    *board.Board
	kids bool // its replies are counted too (for the Line pane)
}

// refresh asks the book what it knows about the shown position (one
// Position and one Children call) and about the line's positions whose
// status is not cached (all of them with fullLine), off the UI goroutine.
// The board shows the new position at once, with what is cached.
func (c *Cursor) refresh(fullLine bool) {
	c.gen++
	gen := c.gen
	if c.status == nil {
		c.status = map[posKey]c6book.Status{}
	}
	if c.nkids == nil {
		// Kept when the statuses are read again (after an edit or a
		// verify): the Line pane keeps its sibling counts.
		c.nkids = map[posKey]int{}
	}
	c.loaded = false
	if c.infoFor != keyOf(c.pos) {
		// Another position: nothing of the last one's data is shown (a
		// reload of the same one keeps it until the answer comes).
		c.info, c.children, c.verdict, c.infoFor = Position{}, nil, nil, posKey{}
	}
	reads, replayErr := c.lineReads(fullLine)
	c.fillLine()
	c.s.changed(ChangePosition)
	pos, attacker := c.pos.Clone(), c.attacker
	c.s.call(func(ctx context.Context, store BookStore) func() {
		info, infoErr := store.Position(ctx, pos, attacker)
		ch, chErr := store.Children(ctx, pos, attacker)
		var st []c6book.Status
		nk := make([]int, len(reads)) // -1: not counted
		var readErr error
		for i, r := range reads {
			p, err := store.Position(ctx, r.b, attacker)
			if err != nil {
				readErr = fmt.Errorf("reading the line's position %d: %w", i, err)
				break
			}
			st = append(st, p.Status)
			nk[i] = -1
			if r.kids {
				kids, err := store.Children(ctx, r.b, attacker)
				if err != nil {
					readErr = fmt.Errorf("reading the line's position %d: %w", i, err)
					break
				}
				nk[i] = len(kids)
			}
		}
		return func() {
			c.s.fail(infoErr)
			c.s.fail(chErr)
			c.s.fail(readErr)
			c.s.fail(replayErr)
			for i, v := range st {
				c.status[reads[i].key] = v
				if nk[i] >= 0 {
					c.nkids[reads[i].key] = nk[i]
				}
			}
			if gen != c.gen {
				return // the user moved on: keep the statuses, drop the rest
			}
			c.info, c.children, c.verdict, c.loaded, c.infoFor = info, ch, info.Verdict, true, keyOf(c.pos)
			c.nkids[keyOf(c.pos)] = len(ch)
			c.status[keyOf(c.pos)] = info.Status
			c.fillLine()
			c.s.changed(ChangePosition)
		}
	})
}

// reloadShown reads the shown position and the line's statuses again (the
// auto-pilot stored verdicts), without disturbing what the user does
// meanwhile: the answer is dropped when the user moved on. done runs
// with the answer, or its failure (the next report reads again; a lasting
// failure shows when the user moves).
func (c *Cursor) reloadShown(done func()) {
	visit, key, a := c.visit, keyOf(c.pos), c.attacker
	pos := c.pos.Clone()
	reads, _ := c.lineReads(true)
	c.s.call(func(ctx context.Context, store BookStore) func() {
		info, err := store.Position(ctx, pos, a)
		var ch []Child
		if err == nil {
			ch, err = store.Children(ctx, pos, a)
		}
		st := make([]Position, 0, len(reads))
		for _, r := range reads {
			if err != nil {
				break
			}
			var p Position
			p, err = store.Position(ctx, r.b, a)
			st = append(st, p)
		}
		return func() {
			done()
			if err != nil || a != c.attacker {
				return
			}
			if c.status == nil {
				c.status = map[posKey]c6book.Status{} // dropped by an edit meanwhile
			}
			if c.nkids == nil {
				c.nkids = map[posKey]int{}
			}
			for i, p := range st {
				c.status[reads[i].key] = p.Status
			}
			if visit == c.visit && key == keyOf(c.pos) && c.loaded {
				c.info, c.children, c.verdict = info, ch, info.Verdict
				c.status[key] = info.Status
				c.nkids[key] = len(ch)
			}
			c.fillLine()
			c.s.changed(ChangePosition)
		}
	})
}

// lineReads lists the line's positions whose status is to be read.
func (c *Cursor) lineReads(all bool) ([]lineRead, error) {
	var out []lineRead
	b := c.s.empty.Clone()
	for i := 0; i <= len(c.line); i++ {
		k := keyOf(b)
		_, known := c.status[k]
		_, counted := c.nkids[k]
		counted = counted || i == len(c.line) // nothing follows it on the line
		if (!known || !counted || all) && i != c.cur {
			out = append(out, lineRead{k, b.Clone(), !counted})
		}
		if i == len(c.line) {
			break
		}
		if err := b.PlayPartial(c.line[i]); err != nil {
			return out, fmt.Errorf("replaying the line's move %d: %w", i+1, err)
		}
	}
	return out, nil
}

// fillLine computes the line's statuses and variation counts from the
// caches.
func (c *Cursor) fillLine() {
	b := c.s.empty.Clone()
	c.lineSt = c.lineSt[:0]
	c.lineAlt = c.lineAlt[:0]
	for i := 0; i <= len(c.line); i++ {
		k := keyOf(b)
		if n, ok := c.nkids[k]; ok {
			c.lineAlt = append(c.lineAlt, n)
		} else {
			c.lineAlt = append(c.lineAlt, -1)
		}
		c.lineSt = append(c.lineSt, c.status[k])
		if i == len(c.line) || b.PlayPartial(c.line[i]) != nil {
			return
		}
	}
}

// TapSquare is a tap on q: it plays (two taps for a two-stone turn), or
// labels the square in marking mode.
func (c *Cursor) TapSquare(q game.Square) {
	if c.marking {
		c.s.history.toggleMark(q)
		return
	}
	if q == c.pending1 {
		c.DropPending()
		return
	}
	if c.pos.At(q) != game.Empty {
		return
	}
	if w := c.pos.Winner(); w != game.Empty {
		c.s.fail(fmt.Errorf("the game is over: %s has won", ColourName(w)))
		return
	}
	need := c.s.rules.StonesForTurn(c.pos.Turn())
	var m game.Move
	switch {
	case need == 1:
		m = game.NewMove(q)
	case c.pending1 == game.NoSquare:
		c.pending1 = q
		c.s.changed(ChangeBoard)
		return
	default:
		m = game.NewMove(c.pending1, q)
		c.keepOrder(c.pending1, q)
	}
	c.pending1 = game.NoSquare
	c.PlayMove(m)
}

// DropPending drops a half-placed turn.
func (c *Cursor) DropPending() {
	if c.pending1 != game.NoSquare {
		c.pending1 = game.NoSquare
		c.s.changed(ChangeBoard)
	}
}

// PlayMove plays m from the shown position and shows the position after
// it; a move the book does not store is stored (an undoable edit) first.
func (c *Cursor) PlayMove(m game.Move) {
	partial := m.Len() < c.s.rules.StonesForTurn(c.pos.Turn())
	if err := c.pos.Check(m, partial); err != nil {
		c.s.fail(err)
		c.s.changed(ChangeBoard)
		return
	}
	known := !c.loaded // not loaded yet: AddMove tells
	for _, ch := range c.children {
		if ch.Move == m {
			known = true
			break
		}
	}
	if c.loaded && known || c.s.readOnly != "" {
		// (A read-only book only shows the move: nothing is stored.)
		c.showAfter(m)
		return
	}
	// Stored first (book calls run in order), then the position after it
	// is read.
	b := c.pos.Clone()
	e := &moveEdit{editAt: editAt{c.prefix(), "add " + game.MoveName(c.s.rules, m)}, move: m}
	c.s.history.apply(b, e, func(ok bool) {
		if ok && e.created {
			c.status = nil            // statuses above may change
			delete(c.nkids, keyOf(b)) // one reply more
			c.refresh(true)
		}
	})
	c.showAfter(m)
}

// showAfter shows the position after m, keeping the rest of the line when m
// is its next move.
func (c *Cursor) showAfter(m game.Move) {
	line := append(c.prefix(), m)
	if c.cur < len(c.line) && c.line[c.cur] == m {
		line = c.line // keep the rest of the line
	}
	c.goTo(line, c.cur+1)
}

// prefix is the line to the shown position.
func (c *Cursor) prefix() []game.Move {
	return append([]game.Move(nil), c.line[:c.cur]...)
}

// Back goes one move back along the line.
func (c *Cursor) Back() {
	if c.cur > 0 {
		c.goTo(c.line, c.cur-1)
	}
}

// Forward goes one move forward along the line, or, at the end of the
// line, into the most-played stored reply (the first listed on a tie).
func (c *Cursor) Forward() {
	if c.cur < len(c.line) {
		c.goTo(c.line, c.cur+1)
		return
	}
	if i := mostPlayed(c.children); i >= 0 {
		c.goTo(append(c.prefix(), c.children[i].Move), c.cur+1)
	}
}

// mostPlayed is the index of the reply most games went through (the first
// on a tie), -1 when there is none.
func mostPlayed(kids []Child) int {
	best := -1
	for i, c := range kids {
		if best < 0 || c.Games.Games > kids[best].Games.Games {
			best = i
		}
	}
	return best
}

// Home goes to the root, keeping the line.
func (c *Cursor) Home() { c.goTo(c.line, 0) }

// End goes to the end of the line.
func (c *Cursor) End() { c.goTo(c.line, len(c.line)) }

// GoToPly shows the first i moves of the current line.
func (c *Cursor) GoToPly(i int) {
	if i >= 0 && i <= len(c.line) {
		c.goTo(c.line, i)
	}
}

// GoToLine shows the end of line (from the root).
func (c *Cursor) GoToLine(line []game.Move) { c.goTo(line, len(line)) }

// Sibling replaces the last move played by the previous (delta -1) or next
// (+1) stored alternative.
func (c *Cursor) Sibling(delta int) {
	if c.cur == 0 {
		return
	}
	parent, err := replay(c.s.empty, c.line[:c.cur-1])
	if err != nil {
		c.s.fail(err)
		return
	}
	gen, attacker, pb := c.gen, c.attacker, parent.Clone()
	c.s.call(func(ctx context.Context, store BookStore) func() {
		sibs, err := store.Children(ctx, pb, attacker)
		return func() {
			if err != nil {
				c.s.fail(err)
				return
			}
			c.nkids[keyOf(parent)] = len(sibs)
			if gen != c.gen {
				return // the user moved on meanwhile
			}
			c.stepSibling(parent, sibs, delta)
		}
	})
}

func (c *Cursor) stepSibling(parent *board.Board, sibs []Child, delta int) {
	// The book may store a symmetric image of the move played: match by
	// the position reached.
	want, _ := c.pos.CanonicalKey()
	i := -1
	for j, ch := range sibs {
		if ch.Move == c.line[c.cur-1] {
			i = j
			break
		}
		nb := parent.Clone()
		if nb.Play(ch.Move) == nil && nb.ToMove() == c.pos.ToMove() {
			if k, _ := nb.CanonicalKey(); k == want {
				i = j
			}
		}
	}
	j := i + delta
	if i < 0 || j < 0 || j >= len(sibs) {
		return
	}
	line := append(append([]game.Move(nil), c.line[:c.cur-1]...), sibs[j].Move)
	c.goTo(line, c.cur)
}

// SelectChild plays the i-th stored child.
func (c *Cursor) SelectChild(i int) {
	if i >= 0 && i < len(c.children) {
		c.PlayMove(c.children[i].Move)
	}
}

// OpenEntry shows a position found by a query: in the orientation of the
// user's line when that line meets the entry's line (the user is below or
// above it, or on a transposition of a position of it), else in the
// entry's own (stable) orientation.
func (c *Cursor) OpenEntry(e Entry) {
	if e.Line != nil {
		c.openLine(e.Line)
		return
	}
	c.s.call(func(ctx context.Context, store BookStore) func() {
		line, err := store.Resolve(ctx, e)
		return func() {
			if err != nil {
				c.s.fail(err)
				return
			}
			c.openLine(line)
		}
	})
}

// openLine shows the end of line (from the root, any orientation) oriented
// by the user's line (orientLine).
func (c *Cursor) openLine(line []game.Move) {
	out, cur, err := orientLine(c.s.empty, c.line, line)
	if err != nil {
		c.s.fail(err)
		return
	}
	c.goTo(out, cur)
}

// afterEdit reloads the shown position if it is still b.
func (c *Cursor) afterEdit(b *board.Board) {
	if keyOf(c.pos) == keyOf(b) {
		c.refresh(false)
	}
}

// Next goes to the most-proving open position below the shown one (the
// shown one included), in the orientation of the user's line.
func (c *Cursor) Next() {
	a, b, prefix, gen := c.attacker, c.pos.Clone(), c.prefix(), c.gen
	c.s.call(func(ctx context.Context, store BookStore) func() {
		e, ok, err := store.Next(ctx, b, a)
		return func() {
			switch {
			case err != nil:
				c.s.fail(err)
			case !ok:
				c.s.fail(fmt.Errorf("no open position for %s below this one", ColourName(a)))
			case gen != c.gen:
				// The user moved on meanwhile.
			default:
				line := append(prefix, e.Line...)
				if len(e.Line) == 0 {
					line = c.line // here: keep the rest of the line
				}
				c.goTo(line, len(prefix)+len(e.Line))
				c.nextText, c.nextVisit = stuckText(c.MoveText, prefix, e), c.visit
				c.s.changed(ChangeAuto)
			}
		}
	})
}

// HoldText says what the expert or the auto-pilot left at the shown
// position, and where Next's line is stuck ("" when nothing).
func (c *Cursor) HoldText() string {
	var parts []string
	switch {
	case c.info.Held:
		parts = append(parts, "Left to you: the auto-pilot skips this position and everything below it.")
	case c.info.Stuck == c6book.StuckDeadEnd:
		parts = append(parts, "The auto-pilot's dead end: the verdict leaves every defender move open.")
	}
	if c.nextText != "" && c.nextVisit == c.visit {
		parts = append(parts, c.nextText)
	}
	return strings.Join(parts, "\n")
}

// stuckText describes where the auto-pilot is stuck on Next's line (e.Line,
// from the end of prefix), the lines named from the root (lineEnd).
func stuckText(name func(game.Move) string, prefix []game.Move, e Entry) string {
	if len(e.Stuck) == 0 {
		return ""
	}
	var parts []string
	for _, st := range e.Stuck {
		where := "the start"
		if full := append(append([]game.Move(nil), prefix...), e.Line[:min(st.Ply, len(e.Line))]...); len(full) > 0 {
			where = "after " + lineEnd(name, full)
		}
		if st.Ply == len(e.Line) {
			where = "here"
		}
		parts = append(parts, where+": "+st.Why.Describe())
	}
	return "Next: the auto-pilot is stuck on this line — " + strings.Join(parts, "; ") + "."
}

// Search finds positions whose comment matches query; done gets them on the
// UI goroutine, their lines in the orientation of the user's lines.
func (c *Cursor) Search(query string, done func([]Entry)) {
	a, users, empty := c.attacker, c.UserLines(), c.s.empty
	c.s.call(func(ctx context.Context, store BookStore) func() {
		es, err := store.Search(ctx, query, a, 500)
		orientEntries(empty, users, es) // the user's orientation (orient.go)
		return func() {
			if err != nil {
				c.s.fail(err)
				return
			}
			done(es)
		}
	})
}

// SetSolvedMinOrder sets the least λ order LoadSolved lists (0 adds the
// game ends; the default 1 lists every proof).
func (c *Cursor) SetSolvedMinOrder(n int) { c.solvedMinOrder = max(n, 0) }

// SolvedMinOrder is the least λ order LoadSolved lists.
func (c *Cursor) SolvedMinOrder() int { return c.solvedMinOrder }

// LoadSolved lists the proved positions for the attacker of λ order at
// least SolvedMinOrder; done gets them on the UI goroutine, their lines
// in the orientation of the user's lines (orient.go).
func (c *Cursor) LoadSolved(done func([]Entry)) {
	a, minOrder, users, empty := c.attacker, c.solvedMinOrder, c.UserLines(), c.s.empty
	c.s.call(func(ctx context.Context, store BookStore) func() {
		es, err := store.Proved(ctx, a, minOrder, 2000)
		orientEntries(empty, users, es) // the user's orientation (orient.go)
		return func() {
			if err != nil {
				c.s.fail(err)
				return
			}
			done(es)
		}
	})
}
