package board

import (
	"errors"
	"fmt"

	"c6book/engine/game"
)

// winSet is a set of window indices with O(1) add, remove and iteration.
type winSet struct {
	list []int32
	pos  []int32 // index+1 in list, 0 when absent
}

func newWinSet(n int) winSet { return winSet{pos: make([]int32, n)} }

func (s *winSet) add(w int32) {
	n := len(s.list)
	if n == cap(s.list) {
		s.list = append(s.list, w)[:n]
	}
	// Reslicing in place writes no slice pointer: no write barrier.
	s.list = s.list[:n+1]
	s.list[n] = w
	s.pos[w] = int32(n + 1)
}

func (s *winSet) remove(w int32) {
	i := s.pos[w] - 1
	last := s.list[len(s.list)-1]
	s.list[i] = last
	s.pos[last] = i + 1
	s.list = s.list[:len(s.list)-1]
	s.pos[w] = 0
}

func (s *winSet) clone() winSet {
	return winSet{list: append([]int32(nil), s.list...), pos: append([]int32(nil), s.pos...)}
}

// Board is a position of Connect(m,n,k,p,q): the stones, whose turn it is,
// and incrementally maintained per-window stone counts from which threats are
// read (one count word per window holds both colours' counts: see cntWord).
// Place/Remove are the raw stone-level operations used by the solvers (cost:
// the windows through one square, i.e. its four lines); Play/Undo are the
// rule-checked turn-level operations.
type Board struct {
	rules game.Rules
	g     *geometry
	cells []game.Color
	cw    []uint16 // count word of each window: both colours' stones in it
	hash  uint64
	chk   uint64 // a second, independent Zobrist hash: verifies transposition-table hits
	count [3]int // stones per colour
	full  [3]int // windows with K stones of a colour
	thr   [3]winSet
	hot   [3]winSet

	tl, hl uint8 // threat level K-P, hot level max(K-2P,1)

	toMove game.Color
	turn   int // completed turns
	hist   []game.Move
	setup  bool // position was set up, not played from the empty board
}

// NewBoard returns the empty board for r, Black to move.
func NewBoard(r game.Rules) (*Board, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return emptyBoard(newGeometry(r)), nil
}

// emptyBoard returns the empty board of geometry g, Black to move.
func emptyBoard(g *geometry) *Board {
	r := g.rules
	b := &Board{rules: r, g: g, cells: make([]game.Color, r.Squares()), toMove: game.Black}
	b.cw = make([]uint16, g.nwin)
	for c := game.Black; c <= game.White; c++ {
		b.thr[c] = newWinSet(g.nwin)
		b.hot[c] = newWinSet(g.nwin)
	}
	b.tl = uint8(r.K - r.P)
	b.hl = uint8(max(r.K-2*r.P, 1))
	return b
}

// MustNewBoard is NewBoard for rules known to be valid (Connect6 and the
// constants of tests); it panics on invalid rules, a programming error.
func MustNewBoard(r game.Rules) *Board {
	b, err := NewBoard(r)
	if err != nil {
		panic(err)
	}
	return b
}

// Clone returns an independent copy (the immutable geometry is shared).
func (b *Board) Clone() *Board {
	c := *b
	c.cells = append([]game.Color(nil), b.cells...)
	c.cw = append([]uint16(nil), b.cw...)
	for col := game.Black; col <= game.White; col++ {
		c.thr[col] = b.thr[col].clone()
		c.hot[col] = b.hot[col].clone()
	}
	c.hist = append([]game.Move(nil), b.hist...)
	return &c
}

// Rules returns the board's rules.
func (b *Board) Rules() game.Rules { return b.rules }

// At returns the content of square s.
func (b *Board) At(s game.Square) game.Color { return b.cells[s] }

// Hash is the Zobrist hash of the stones (side to move not included).
func (b *Board) Hash() uint64 { return b.hash }

// Key is the Zobrist hash of the stones and the side to move.
func (b *Board) Key() uint64 {
	if b.toMove == game.White {
		return b.hash ^ sideKey
	}
	return b.hash
}

// FromSetup reports whether the position was set up (SetUp, SetUpLike)
// rather than played from the empty board.
func (b *Board) FromSetup() bool { return b.setup }

// MarkSetUp records that the position was set up stone by stone (Place)
// rather than played: FromSetup reports it from then on.
func (b *Board) MarkSetUp() { b.setup = true }

// PlaceTurn places m's stones for the side to move and passes the turn,
// without Play's checks and without history: the searches' fast walk down
// a line. RemoveTurn takes it back.
func (b *Board) PlaceTurn(m game.Move) {
	c := b.toMove
	for i := 0; i < m.Len(); i++ {
		b.Place(m.At(i), c)
	}
	b.toMove = c.Opp()
	b.turn++
}

// RemoveTurn takes back PlaceTurn(m).
func (b *Board) RemoveTurn(m game.Move) {
	for i := m.Len() - 1; i >= 0; i-- {
		b.Remove(m.At(i))
	}
	b.toMove = b.toMove.Opp()
	b.turn--
}

// ToMove is the player whose turn it is.
func (b *Board) ToMove() game.Color { return b.toMove }

// SetToMove sets the side to move (for set-up positions and solvers).
func (b *Board) SetToMove(c game.Color) { b.toMove = c }

// Turn is the number of completed turns (0 before Black's first turn).
func (b *Board) Turn() int { return b.turn }

// Stones returns the number of stones of colour c.
func (b *Board) Stones(c game.Color) int { return b.count[c] }

// Empties returns the number of empty squares.
func (b *Board) Empties() int { return len(b.cells) - b.count[game.Black] - b.count[game.White] }

// History returns the turns played since the start (or the set-up).
func (b *Board) History() []game.Move { return append([]game.Move(nil), b.hist...) }

// Winner returns the colour with K or more in a row, or Empty.
func (b *Board) Winner() game.Color {
	switch {
	case b.full[game.Black] > 0:
		return game.Black
	case b.full[game.White] > 0:
		return game.White
	}
	return game.Empty
}

// Count words: a window's stones of both colours in one word, cntBits
// each (Black's in the low bits, White's above), so that Place and Remove
// update a window with one load, one store and one event-table lookup.
const (
	cntBits = 5 // counts 0..31: K <= MaxSide < 32
	cntMask = 1<<cntBits - 1
)

// cntShift is the position of c's count in a count word (c is Black or White).
func cntShift(c game.Color) uint { return uint(c-1) * cntBits }

// cntWord is the count word of n stones of c (and none of the other colour).
// The shift is below 16, which the compiler then need not check.
func cntWord(c game.Color, n uint8) uint16 { return uint16(n) << (cntShift(c) & 15) }

// wcnt is the number of stones of c in window w.
func (b *Board) WindowStones(c game.Color, w int32) uint8 {
	return uint8(b.cw[w]>>cntShift(c)) & cntMask
}

// Place puts a stone of colour c on the empty square s, updating the windows
// through s. It does no rule checking and does not change the side to move.
// The windows through s on one line are consecutive (geometry.runs): their
// count words are updated without reading window numbers, and ws[:end]
// with w from first lets the compiler drop the bounds check.
func (b *Board) Place(s game.Square, c game.Color) {
	b.cells[s] = c
	z := b.g.zob(c, s)
	b.hash ^= z.key
	b.chk ^= z.chk
	b.count[c]++
	cw := b.cw
	inc := cntWord(c, 1)
	ev := &b.g.evPlace[c-1]
	for _, r := range b.g.runs(s) {
		ws := cw[:r.end]
		for w := int(r.first); w < len(ws); w++ {
			v := ws[w] + inc
			ws[w] = v
			switch e := ev[v&(evSize-1)]; e {
			case evNone:
			case evHot:
				b.hot[c].add(int32(w))
			default:
				b.placeEvent(int32(w), c, e)
			}
		}
	}
}

// placeEvent makes the changes of event e after c's stone went into window
// w (the rare case of Place): c's window may join c's sets, or die for the
// opponent and leave its sets.
func (b *Board) placeEvent(w int32, c game.Color, e uint8) {
	if e >= evOHot {
		// The window dies for the opponent: it was hot (threat level >=
		// hot level), perhaps a threat too, and had no stone of c.
		o := c.Opp()
		b.hot[o].remove(w)
		if e&evOThr != 0 {
			b.thr[o].remove(w)
		}
		return
	}
	if e&evHot != 0 {
		b.hot[c].add(w)
	}
	if e&evThr != 0 {
		b.thr[c].add(w)
	}
	if e&evFull != 0 {
		b.full[c]++
	}
}

// Remove takes the stone off square s, undoing Place.
func (b *Board) Remove(s game.Square) {
	c := b.cells[s]
	b.cells[s] = game.Empty
	z := b.g.zob(c, s)
	b.hash ^= z.key
	b.chk ^= z.chk
	b.count[c]--
	cw := b.cw
	dec := cntWord(c, 1)
	ev := &b.g.evRemove[c-1]
	for _, r := range b.g.runs(s) {
		ws := cw[:r.end]
		for w := int(r.first); w < len(ws); w++ {
			v := ws[w] - dec
			ws[w] = v
			switch e := ev[v&(evSize-1)]; e {
			case evNone:
			case evHot:
				b.hot[c].remove(int32(w))
			default:
				b.removeEvent(int32(w), c, e)
			}
		}
	}
}

// removeEvent undoes placeEvent: e is the event of c's stone leaving w.
func (b *Board) removeEvent(w int32, c game.Color, e uint8) {
	if e >= evOHot {
		o := c.Opp()
		b.hot[o].add(w)
		if e&evOThr != 0 {
			b.thr[o].add(w)
		}
		return
	}
	if e&evHot != 0 {
		b.hot[c].remove(w)
	}
	if e&evThr != 0 {
		b.thr[c].remove(w)
	}
	if e&evFull != 0 {
		b.full[c]--
	}
}

// Errors returned by Play.
var (
	ErrGameOver   = errors.New("the game is already over")
	ErrOccupied   = errors.New("square is occupied")
	ErrOffBoard   = errors.New("square is off the board")
	ErrStoneCount = errors.New("wrong number of stones for this turn")
	ErrDuplicate  = errors.New("the same square twice in one turn")
	ErrNoHistory  = errors.New("no turn to undo")
)

// MoveError says which stone of a turn was illegal and why.
type MoveError struct {
	Turn int
	Move game.Move
	Err  error
	Info string
}

func (e *MoveError) Error() string {
	if e.Info != "" {
		return fmt.Sprintf("turn %d: %v (%s)", e.Turn+1, e.Err, e.Info)
	}
	return fmt.Sprintf("turn %d: %v", e.Turn+1, e.Err)
}

func (e *MoveError) Unwrap() error { return e.Err }

// Check validates move m as the next turn without playing it. With partial,
// a turn may place fewer stones than the rules ask (null and seminull moves);
// otherwise fewer stones are allowed only when they win or fill the board.
func (b *Board) Check(m game.Move, partial bool) error {
	fail := func(err error, info string) error {
		return &MoveError{Turn: b.turn, Move: m, Err: err, Info: info}
	}
	if b.Winner() != game.Empty {
		return fail(ErrGameOver, b.Winner().String()+" has won")
	}
	if b.Empties() == 0 {
		return fail(ErrGameOver, "the board is full: a draw")
	}
	want := b.rules.StonesForTurn(b.turn)
	if b.setup && b.turn == 0 && b.count[game.Black]+b.count[game.White] > 0 {
		want = b.rules.P
	}
	n := m.Len()
	if n > want {
		return fail(ErrStoneCount, fmt.Sprintf("%d stones, this turn places %d", n, want))
	}
	for i := 0; i < n; i++ {
		s := m.At(i)
		if s < 0 || int(s) >= len(b.cells) {
			return fail(ErrOffBoard, fmt.Sprintf("square %d", s))
		}
		if b.cells[s] != game.Empty {
			return fail(ErrOccupied, game.SquareName(b.rules, s))
		}
		for j := 0; j < i; j++ {
			if m.At(j) == s {
				return fail(ErrDuplicate, game.SquareName(b.rules, s))
			}
		}
	}
	if n < want && !partial && n < b.Empties() {
		// Short turns are legal only when they end the game.
		for i := 0; i < n; i++ {
			b.Place(m.At(i), b.toMove)
		}
		won := b.full[b.toMove] > 0
		for i := n - 1; i >= 0; i-- {
			b.Remove(m.At(i))
		}
		if !won {
			return fail(ErrStoneCount, fmt.Sprintf("%d stones, this turn places %d", n, want))
		}
	}
	return nil
}

// Play checks and plays move m for the side to move.
func (b *Board) Play(m game.Move) error { return b.play(m, false) }

// PlayPartial plays a turn that may place fewer stones than the rules ask:
// a null move (0 stones) or a seminull move (fewer than p).
func (b *Board) PlayPartial(m game.Move) error { return b.play(m, true) }

func (b *Board) play(m game.Move, partial bool) error {
	if err := b.Check(m, partial); err != nil {
		return err
	}
	for i := 0; i < m.Len(); i++ {
		b.Place(m.At(i), b.toMove)
	}
	b.hist = append(b.hist, m)
	b.turn++
	b.toMove = b.toMove.Opp()
	return nil
}

// Undo takes back the last turn played.
func (b *Board) Undo() error {
	if len(b.hist) == 0 {
		return ErrNoHistory
	}
	m := b.hist[len(b.hist)-1]
	b.hist = b.hist[:len(b.hist)-1]
	for i := m.Len() - 1; i >= 0; i-- {
		b.Remove(m.At(i))
	}
	b.turn--
	b.toMove = b.toMove.Opp()
	return nil
}

// SetUp returns a board holding the given stones with toMove to play. The
// first turn of a set-up position with stones places p stones.
func SetUp(r game.Rules, black, white []game.Square, toMove game.Color) (*Board, error) {
	b, err := NewBoard(r)
	if err != nil {
		return nil, err
	}
	return b.setUp(black, white, toMove)
}

// SetUpLike is SetUp for the rules of board like, sharing its geometry
// (the window tables SetUp builds anew): much faster when many positions
// are set up (a merge sets up every position of a book).
func SetUpLike(like *Board, black, white []game.Square, toMove game.Color) (*Board, error) {
	return emptyBoard(like.g).setUp(black, white, toMove)
}

// setUp places the stones on the empty board b (see SetUp).
func (b *Board) setUp(black, white []game.Square, toMove game.Color) (*Board, error) {
	r := b.rules
	for i, list := range [2][]game.Square{black, white} {
		c := game.Color(i + 1)
		for _, s := range list {
			if s < 0 || int(s) >= r.Squares() {
				return nil, fmt.Errorf("set-up: %w: square %d", ErrOffBoard, s)
			}
			if b.cells[s] != game.Empty {
				return nil, fmt.Errorf("set-up: %w: %s", ErrOccupied, game.SquareName(r, s))
			}
			b.Place(s, c)
		}
	}
	if b.full[game.Black] > 0 && b.full[game.White] > 0 {
		return nil, errors.New("set-up: both players have a row")
	}
	if toMove != game.Black && toMove != game.White {
		return nil, errors.New("set-up: side to move must be B or W")
	}
	b.toMove = toMove
	b.setup = true
	return b, nil
}

// StoneList returns the squares holding colour c, in increasing order.
func (b *Board) StoneList(c game.Color) []game.Square {
	out := make([]game.Square, 0, b.count[c])
	for s, v := range b.cells {
		if v == c {
			out = append(out, game.Square(s))
		}
	}
	return out
}

// eachLiveWindow calls f on every window holding no stone of c's opponent
// and at least minCount stones of c: from c's hot list when minCount
// reaches the hot level (a hot window has no opponent stone), else by a
// scan of all windows (in the order of geometry.scan).
func (b *Board) eachLiveWindow(c game.Color, minCount int, f func(w int32)) {
	if minCount >= int(b.hl) {
		for _, w := range b.hot[c].list {
			if int(b.WindowStones(c, w)) >= minCount {
				f(w)
			}
		}
		return
	}
	sc, so := cntShift(c), cntShift(c.Opp())
	for _, w := range b.g.scan {
		if v := b.cw[w]; v>>so&cntMask == 0 && int(v>>sc&cntMask) >= minCount {
			f(w)
		}
	}
}
