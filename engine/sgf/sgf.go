package sgf

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"c6book/engine/board"
	"c6book/engine/game"
)

// SGFProp is one property of an SGF node: an identifier and its values.
type SGFProp struct {
	ID     string
	Values []string
}

// SGFNode is a node of an SGF game tree. Children[0] is the main line.
type SGFNode struct {
	Props    []SGFProp
	Children []*SGFNode
}

// Get returns the first value of property id and whether it exists.
func (n *SGFNode) Get(id string) (string, bool) {
	for _, p := range n.Props {
		if p.ID == id && len(p.Values) > 0 {
			return p.Values[0], true
		}
	}
	return "", false
}

// Set replaces (or adds) property id.
func (n *SGFNode) Set(id string, values ...string) {
	for i, p := range n.Props {
		if p.ID == id {
			n.Props[i].Values = values
			return
		}
	}
	n.Props = append(n.Props, SGFProp{ID: id, Values: values})
}

// SGFError locates a syntax error, or an input over the reader's limits.
type SGFError struct {
	Offset int // byte of the input
	Node   int // the node being read (counted from 1 in the input), 0 outside a node
	Msg    string
}

func (e *SGFError) Error() string {
	if e.Node > 0 {
		return fmt.Sprintf("sgf: node %d, byte %d: %s", e.Node, e.Offset, e.Msg)
	}
	return fmt.Sprintf("sgf: byte %d: %s", e.Offset, e.Msg)
}

// WriteSGF writes one game tree.
func WriteSGF(root *SGFNode) string {
	var sb strings.Builder
	w := NewSGFWriter(&sb)
	var walk func(n *SGFNode)
	walk = func(n *SGFNode) {
		for {
			w.Node(n.Props...)
			if len(n.Children) != 1 {
				break
			}
			n = n.Children[0]
		}
		for _, c := range n.Children {
			w.Open()
			walk(c)
			w.Close()
		}
	}
	w.Open()
	walk(root)
	w.Close()
	w.Flush()
	return sb.String()
}

// SGFWriter writes SGF as it goes: game trees are opened and closed
// around their nodes, so that a tree of any size is written without being
// held. A nested tree starts on a new line; a collection's tree ends with
// one. Write errors are kept: the first one is Flush's.
type SGFWriter struct {
	w     *bufio.Writer
	depth int
}

// NewSGFWriter writes to w (buffered: call Flush at the end).
func NewSGFWriter(w io.Writer) *SGFWriter { return &SGFWriter{w: bufio.NewWriterSize(w, 64<<10)} }

// Open starts a game tree (a variation inside another one).
func (s *SGFWriter) Open() {
	if s.depth > 0 {
		s.w.WriteByte('\n')
	}
	s.w.WriteByte('(')
	s.depth++
}

// Close ends the innermost game tree.
func (s *SGFWriter) Close() {
	s.w.WriteByte(')')
	s.depth--
	if s.depth == 0 {
		s.w.WriteByte('\n')
	}
}

// Node writes a node with its properties (values escaped).
func (s *SGFWriter) Node(props ...SGFProp) {
	s.w.WriteByte(';')
	for _, p := range props {
		s.w.WriteString(p.ID)
		for _, v := range p.Values {
			s.w.WriteByte('[')
			for i := 0; i < len(v); i++ {
				if v[i] == '\\' || v[i] == ']' {
					s.w.WriteByte('\\')
				}
				s.w.WriteByte(v[i])
			}
			s.w.WriteByte(']')
		}
	}
}

// Flush writes what is buffered and returns the first write error.
func (s *SGFWriter) Flush() error { return s.w.Flush() }

// SGFRules reads the rules of a game tree root: the property RU
// ("m,n,k,p,q", written by c6book) or SZ ("19" or "19:17") with Connect6's
// k, p, q; def when neither is present.
func SGFRules(root *SGFNode, def game.Rules) (game.Rules, error) {
	if ru, ok := root.Get("RU"); ok && strings.Count(ru, ",") == 4 {
		if len(ru) > 64 {
			return game.Rules{}, fmt.Errorf("sgf: RU[%s]: too long for m,n,k,p,q", printable(game.ClipText(ru, 24)))
		}
		// Other RU values (a Go program's "Japanese") are not ours; an
		// m,n,k,p,q value that is not valid is an error, not a fallback.
		r, err := game.ParseRules(ru)
		if err != nil {
			return game.Rules{}, fmt.Errorf("sgf: RU: %w", err)
		}
		return r, nil
	}
	r := def
	if sz, ok := root.Get("SZ"); ok {
		m, n := sz, sz
		if a, b, found := strings.Cut(sz, ":"); found {
			m, n = a, b
		}
		mi, err1 := strconv.Atoi(strings.TrimSpace(m))
		ni, err2 := strconv.Atoi(strings.TrimSpace(n))
		if err1 != nil || err2 != nil {
			return game.Rules{}, fmt.Errorf("sgf: bad SZ[%s]", printable(game.ClipText(sz, 24)))
		}
		r.M, r.N = mi, ni
	}
	if err := r.Validate(); err != nil {
		return game.Rules{}, fmt.Errorf("sgf: %w", err)
	}
	return r, nil
}

// SGFMove reads the move of a node: B[...] or W[...] in LittleGolem
// notation ("j11k10"), SGF letter pairs ("jjkk", lower case, row a at the
// top: SGF FF[4]'s point type, which the book's export writes) or the
// Connect6 editors' upper-case letter pairs ("JJ", row A at the bottom:
// see SGFStoneProps). A turn of several stones may also be written as a
// list of points, one value per stone (W[aa][ab]), or as a compressed point
// list (W[aa:ab], a rectangle); a turn written one stone per node (the
// editors' way) is put together by the reader of the game (GameFromSGF,
// proofbook's import).
// It returns ok=false for a node without a move, and an empty Move for B[]
// (the null move: a pass, which only a proof line may hold). "resign",
// "swap" and "draw" give ok=false. Points are read exactly as written in
// their canonical form (lower case, no blank, no leading zero): a value it
// cannot place exactly is an error, never a shorter turn: two move
// properties in one node, a blank value, "pass", an upper-case or
// otherwise non-canonical point, an empty point in a list, a point twice,
// more than MaxPerTurn stones.
func SGFMove(r game.Rules, n *SGFNode) (c game.Color, m game.Move, ok bool, err error) {
	var prop *SGFProp
	for i := range n.Props {
		p := &n.Props[i]
		if p.ID != "B" && p.ID != "W" {
			continue
		}
		if prop != nil {
			if prop.ID == p.ID {
				return game.Empty, game.Move{}, false, fmt.Errorf("sgf: property %s twice in one node", p.ID)
			}
			return game.Empty, game.Move{}, false, errors.New("sgf: a node with both a B and a W move")
		}
		prop = p
	}
	if prop == nil {
		return game.Empty, game.Move{}, false, nil
	}
	id := prop.ID
	c = game.Black
	if id == "W" {
		c = game.White
	}
	if len(prop.Values) == 1 {
		v := prop.Values[0]
		if v == "" {
			return c, game.Move{}, true, nil
		}
		// ASCII lower case only: strings.ToLower may change the byte length
		// (the Kelvin sign becomes "k").
		switch asciiLower(v) {
		case "resign", "swap", "draw":
			return c, game.Move{}, false, nil
		case "pass":
			return c, game.Move{}, false, fmt.Errorf("sgf: bad move %s: a pass (only a proof line holds a null move, written %s[])", sgfPropText(*prop), id)
		}
	}
	var sq []game.Square
	upper, lower := false, false
	for _, v := range prop.Values {
		if isUpperLetters(v) {
			upper = true
		} else {
			lower = true
		}
		if upper && lower {
			return c, game.Move{}, false, fmt.Errorf("sgf: bad move %s: upper-case letter pairs (row A at the bottom) mixed with lower case", sgfPropText(*prop))
		}
		if v == "" {
			return c, game.Move{}, false, fmt.Errorf("sgf: bad move %s: an empty point in a list of points", sgfPropText(*prop))
		}
		if strings.TrimSpace(v) == "" {
			return c, game.Move{}, false, fmt.Errorf("sgf: bad move %s: a blank value", sgfPropText(*prop))
		}
		pts, err := sgfMovePoints(r, v, game.MaxPerTurn-len(sq), len(prop.Values) > 1)
		if err != nil {
			return c, game.Move{}, false, fmt.Errorf("sgf: bad move %s: %w", sgfPropText(*prop), err)
		}
		sq = append(sq, pts...)
	}
	for i := range sq {
		for j := 0; j < i; j++ {
			if sq[i] == sq[j] {
				return c, game.Move{}, false, fmt.Errorf("sgf: move %s places %s twice", sgfPropText(*prop), game.SquareName(r, sq[i]))
			}
		}
	}
	mv, merr := game.MakeMove(sq...)
	if merr != nil {
		return c, game.Move{}, false, fmt.Errorf("sgf: bad move %s: %w", sgfPropText(*prop), merr)
	}
	return c, mv, true, nil
}

// sgfMovePoints reads one value of a move property: LittleGolem notation
// (one or more squares), SGF letter pairs, or a compressed point list; at
// most room stones. In a list (one value per point) a value is one point
// or a compressed point list. Only the canonical forms are read: lower
// case, nothing around the points, rows without leading zeros.
func sgfMovePoints(r game.Rules, v string, room int, list bool) ([]game.Square, error) {
	if isUpperLetters(v) {
		// The Connect6 editors' points: upper-case letter pairs, column A
		// at the left, row A at the bottom (see SGFStoneProps).
		if len(v)%2 != 0 {
			return nil, fmt.Errorf("bad point %q: upper-case points are letter pairs", game.ClipText(v, 24))
		}
		sq, err := sgfPointPairs(r, v, room, sgfUpperPoint)
		if err != nil {
			return nil, err
		}
		if list && len(sq) != 1 {
			return nil, fmt.Errorf("bad point in a list of points: %q holds %d points", game.ClipText(v, 24), len(sq))
		}
		return sq, nil
	}
	for i := 0; i < len(v); i++ {
		if ch := v[i]; !(ch >= 'a' && ch <= 'z' || ch >= '0' && ch <= '9' || ch == ':') {
			switch {
			case ch >= 'A' && ch <= 'Z':
				return nil, fmt.Errorf("point %q: coordinates are written in lower case", game.ClipText(v, 24))
			case isSGFSpace(ch):
				return nil, fmt.Errorf("point %q: a blank inside a move", game.ClipText(v, 24))
			}
			return nil, fmt.Errorf("bad point %q", game.ClipText(v, 24))
		}
	}
	if strings.Contains(v, ":") {
		return sgfRect(r, v, room)
	}
	var sq []game.Square
	if strings.IndexFunc(v, func(ch rune) bool { return ch >= '0' && ch <= '9' }) >= 0 {
		// LittleGolem notation: every square exactly as SquareName writes it.
		for t := v; t != ""; {
			s, rest, err := game.ParseSquarePrefix(r, t)
			if err != nil {
				return nil, err
			}
			if tok := t[:len(t)-len(rest)]; tok != game.SquareName(r, s) {
				return nil, fmt.Errorf("point %q is not written canonically (%s)", game.ClipText(tok, 24), game.SquareName(r, s))
			}
			if sq = append(sq, s); len(sq) > room {
				return nil, fmt.Errorf("more than %d stones in one turn", game.MaxPerTurn)
			}
			t = rest
		}
	} else {
		if len(v)%2 != 0 {
			return nil, fmt.Errorf("bad point %q", game.ClipText(v, 24))
		}
		var err error
		if sq, err = sgfPointPairs(r, v, room, sgfLetterPoint); err != nil {
			return nil, err
		}
	}
	if list && len(sq) != 1 {
		return nil, fmt.Errorf("bad point in a list of points: %q holds %d points", game.ClipText(v, 24), len(sq))
	}
	if len(sq) > room {
		return nil, fmt.Errorf("more than %d stones in one turn", game.MaxPerTurn)
	}
	return sq, nil
}

// sgfPointPairs reads v, an even number of letters, as points of two
// letters each (point reads one), at most room of them.
func sgfPointPairs(r game.Rules, v string, room int, point func(game.Rules, string) (game.Square, error)) ([]game.Square, error) {
	var sq []game.Square
	for i := 0; i < len(v); i += 2 {
		s, err := point(r, v[i:i+2])
		if err != nil {
			return nil, err
		}
		if sq = append(sq, s); len(sq) > room {
			return nil, fmt.Errorf("more than %d stones in one turn", game.MaxPerTurn)
		}
	}
	return sq, nil
}

// sgfLetterPoint reads an SGF letter pair (lower case; row a at the top).
func sgfLetterPoint(r game.Rules, p string) (game.Square, error) {
	if len(p) != 2 || p[0] < 'a' || p[0] > 'z' || p[1] < 'a' || p[1] > 'z' {
		return game.NoSquare, fmt.Errorf("bad point %q", game.ClipText(p, 24))
	}
	x, y := int(p[0]-'a'), r.N-1-int(p[1]-'a')
	if !r.OnBoard(x, y) {
		return game.NoSquare, fmt.Errorf("point %q is off the board", p)
	}
	return r.Sq(x, y), nil
}

// sgfUpperPoint reads an upper-case letter pair of the Connect6 editors
// (column A at the left, row A at the bottom: "JJ" is j10).
func sgfUpperPoint(r game.Rules, p string) (game.Square, error) {
	if len(p) != 2 || p[0] < 'A' || p[0] > 'Z' || p[1] < 'A' || p[1] > 'Z' {
		return game.NoSquare, fmt.Errorf("bad point %q", game.ClipText(p, 24))
	}
	x, y := int(p[0]-'A'), int(p[1]-'A')
	if !r.OnBoard(x, y) {
		return game.NoSquare, fmt.Errorf("point %q is off the board", p)
	}
	return r.Sq(x, y), nil
}

// isUpperLetters reports whether s is one or more upper-case ASCII
// letters.
func isUpperLetters(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

// SGFPoint is the SGF point of square s: two lower-case letters, the
// column from a at the left, the row from a at the top (SGF FF[4]'s point
// type, as Go programs and SGF viewers read it).
func SGFPoint(r game.Rules, s game.Square) string {
	x, y := r.XY(s)
	return string([]byte{byte('a' + x), byte('a' + r.N - 1 - y)})
}

// SGFStoneProps writes turn m of colour c as Connect6 programs write
// their SGF game trees: one node per stone, each a B or W property holding
// one SGF point (SGFPoint), so that a turn of two stones is two nodes of
// the same colour in a row (the null move, which only a proof line holds,
// is one node with an empty value). This is the convention of the Connect6
// editor of the NCTU6 program's lab (GM[511] game trees: a turn's stones in
// consecutive nodes of one colour, two-letter points) as their game-record
// tools write it: github.com/qetu970954/KifuAssembler, whose
// KifuAssembler/src/incorporator.py writes the "(;GM[511]" editor trees and
// the "pure SGF" of a LittleGolem game (B[j10];W[k11i11] becomes
// B[JJ];W[KK];W[IK]); an SGF viewer for Go reads it as well. Those tools
// write the letters in upper case with row A at the bottom (the LittleGolem
// row number as a letter); the lower case written here, row a at the top,
// is SGF FF[4]'s point type (red-bean.com/sgf, "go.html": column then row,
// a at the top left), the one the book's labels and marks (LB, CR, TR, SQ,
// MA) use in the same file. The readers take both (the case says which:
// SGFMove) and LittleGolem's turn notation (its "connect6" SGF downloads).
func SGFStoneProps(r game.Rules, c game.Color, m game.Move) []SGFProp {
	if m.Len() == 0 {
		return []SGFProp{{ID: c.String(), Values: []string{""}}}
	}
	out := make([]SGFProp, m.Len())
	for i := range out {
		out[i] = SGFProp{ID: c.String(), Values: []string{SGFPoint(r, m.At(i))}}
	}
	return out
}

// sgfRect expands a compressed point list "aa:cc" (the rectangle between
// two corners), refusing more than room points.
func sgfRect(r game.Rules, v string, room int) ([]game.Square, error) {
	a, b, _ := strings.Cut(v, ":")
	p, err := sgfLetterPoint(r, a)
	if err != nil {
		return nil, fmt.Errorf("compressed point list %q: %w", game.ClipText(v, 24), err)
	}
	q, err := sgfLetterPoint(r, b)
	if err != nil {
		return nil, fmt.Errorf("compressed point list %q: %w", game.ClipText(v, 24), err)
	}
	x0, y0 := r.XY(p)
	x1, y1 := r.XY(q)
	x0, x1 = min(x0, x1), max(x0, x1)
	y0, y1 = min(y0, y1), max(y0, y1)
	if n := (x1 - x0 + 1) * (y1 - y0 + 1); n > room {
		return nil, fmt.Errorf("compressed point list %q: %d points, at most %d fit", v, n, room)
	}
	var out []game.Square
	for y := y1; y >= y0; y-- {
		for x := x0; x <= x1; x++ {
			out = append(out, r.Sq(x, y))
		}
	}
	return out, nil
}

// SGFPoints reads one value of a point-list property (CR, TR, SQ, MA, SL):
// an SGF letter pair, an upper-case pair of the Connect6 editors (row A at
// the bottom), a square in LittleGolem notation, or a compressed point
// list ("aa:cc", the rectangle between two corners).
func SGFPoints(r game.Rules, v string) ([]game.Square, error) {
	if strings.Contains(v, ":") {
		return sgfRect(r, v, r.Squares())
	}
	if len(v) == 2 && v[0] >= 'a' && v[1] >= 'a' {
		if s, err := sgfLetterPoint(r, v); err == nil {
			return []game.Square{s}, nil
		}
	}
	if len(v) == 2 && isUpperLetters(v) {
		if s, err := sgfUpperPoint(r, v); err == nil {
			return []game.Square{s}, nil
		}
	}
	if s, err := game.ParseSquare(r, v); err == nil {
		return []game.Square{s}, nil
	}
	return nil, fmt.Errorf("bad point %q", game.ClipText(v, 24))
}

// SGFSetupProp returns the first set-up property of n (AB, AW, AE), or "".
// Games are played from the empty board: a set-up property cannot be read
// as turns.
func SGFSetupProp(n *SGFNode) string {
	for _, p := range n.Props {
		if p.ID == "AB" || p.ID == "AW" || p.ID == "AE" {
			return p.ID
		}
	}
	return ""
}

// sgfPropText writes a property for an error message, values cut short (a
// broken file may hold megabytes in one value).
func sgfPropText(p SGFProp) string {
	var sb strings.Builder
	sb.WriteString(p.ID)
	for i, v := range p.Values {
		if i == game.MaxPerTurn+1 {
			fmt.Fprintf(&sb, "…(%d values)", len(p.Values))
			break
		}
		sb.WriteString("[" + printable(game.ClipText(v, 24)) + "]")
	}
	return sb.String()
}

// printable writes control characters (a line break in a value) as Go
// escapes, so that an error quoting the value stays on one line.
func printable(s string) string {
	if strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) < 0 {
		return s
	}
	q := strconv.Quote(s)
	return q[1 : len(q)-1]
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func isASCIILetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

// GameFromSGF reads the main line of one game tree as rules and turns.
// Moves are checked against the rules (colour order, legality).
func GameFromSGF(root *SGFNode, def game.Rules) (game.Rules, []game.Move, error) {
	return gameFromSGF(root, def, false)
}

// LineFromSGF is GameFromSGF for a proof line: a turn with fewer stones
// than the rules place (B[] or W[] for the null move, one stone for a
// seminull move, as GameToSGF and the book's export write them) is played
// as a partial turn.
func LineFromSGF(root *SGFNode, def game.Rules) (game.Rules, []game.Move, error) {
	return gameFromSGF(root, def, true)
}

func gameFromSGF(root *SGFNode, def game.Rules, partial bool) (game.Rules, []game.Move, error) {
	r, err := SGFRules(root, def)
	if err != nil {
		return game.Rules{}, nil, err
	}
	b, err := board.NewBoard(r)
	if err != nil {
		return game.Rules{}, nil, err
	}
	var turns []game.Move
	// A turn written one stone per node (SGFStoneProps): the stones read
	// so far of the turn being put together, and the node they began at.
	var pend []game.Square
	pendC, pendAt := game.Empty, 0
	play := func(depth int, c game.Color, m game.Move) error {
		if c != b.ToMove() {
			return fmt.Errorf("node %d: %s to move, but the node plays %s", depth, b.ToMove(), c)
		}
		play := b.Play
		if partial {
			play = b.PlayPartial
		}
		if err := play(m); err != nil {
			return fmt.Errorf("node %d: %s: %w", depth, game.MoveName(r, m), err)
		}
		turns = append(turns, m)
		return nil
	}
	flush := func() error {
		if len(pend) == 0 {
			return nil
		}
		m := game.NewMove(pend...)
		pend = pend[:0]
		return play(pendAt, pendC, m)
	}
	for n, depth := root, 0; n != nil; depth++ {
		if id := SGFSetupProp(n); id != "" {
			return game.Rules{}, nil, fmt.Errorf("node %d: set-up stones (%s) are not supported; games must be played from the empty board", depth, id)
		}
		c, m, ok, err := SGFMove(r, n)
		if err != nil {
			return game.Rules{}, nil, fmt.Errorf("node %d: %w", depth, err)
		}
		if ok {
			if len(pend) > 0 && c != pendC {
				// The other colour: the stones before were the whole turn.
				if err := flush(); err != nil {
					return game.Rules{}, nil, err
				}
			}
			if len(pend) > 0 {
				if m, err = SGFJoinStones(r, pend, m); err != nil {
					return game.Rules{}, nil, fmt.Errorf("node %d: %w", depth, err)
				}
				pend = pend[:0]
			}
			if c == b.ToMove() && m.Len() > 0 && m.Len() < r.StonesForTurn(b.Turn()) {
				// The first stones of a turn written one stone per node.
				pend, pendC, pendAt = append(pend, m.Squares()...), c, depth
			} else if err := play(depth, c, m); err != nil {
				return game.Rules{}, nil, err
			}
		}
		if len(n.Children) == 0 {
			break
		}
		n = n.Children[0]
	}
	if err := flush(); err != nil {
		return game.Rules{}, nil, err
	}
	return r, turns, nil
}

// SGFJoinStones adds the stones of m to those read before of a turn
// written one stone per node (SGFStoneProps), refusing a square twice.
func SGFJoinStones(r game.Rules, pend []game.Square, m game.Move) (game.Move, error) {
	sq := append(append([]game.Square(nil), pend...), m.Squares()...)
	for i := range sq {
		for j := 0; j < i; j++ {
			if sq[i] == sq[j] {
				return game.Move{}, fmt.Errorf("sgf: a turn written over several nodes places %s twice", game.SquareName(r, sq[i]))
			}
		}
	}
	mv, err := game.MakeMove(sq...)
	if err != nil {
		return game.Move{}, fmt.Errorf("sgf: a turn written over several nodes: %w", err)
	}
	return mv, nil
}

// GameToSGF writes turns as an SGF game (with RU for the rules), one
// node per stone (SGFStoneProps).
func GameToSGF(r game.Rules, turns []game.Move, props ...SGFProp) string {
	root := &SGFNode{Props: []SGFProp{{"FF", []string{"4"}}, {"SZ", []string{sizeProp(r)}}, {"RU", []string{r.String()}}}}
	root.Props = append(root.Props, props...)
	cur := root
	c := game.Black
	for _, m := range turns {
		for _, p := range SGFStoneProps(r, c, m) {
			n := &SGFNode{Props: []SGFProp{p}}
			cur.Children = []*SGFNode{n}
			cur = n
		}
		c = c.Opp()
	}
	return WriteSGF(root)
}

func sizeProp(r game.Rules) string {
	if r.M == r.N {
		return strconv.Itoa(r.M)
	}
	return fmt.Sprintf("%d:%d", r.M, r.N)
}

// SGFMoveValue is the value of a B/W property for m (LittleGolem notation,
// empty for the null move).
func sgfMoveValue(r game.Rules, m game.Move) string {
	if m.Len() == 0 {
		return ""
	}
	return game.MoveName(r, m)
}

// SGFMoveValue is exported for the book's exporter.
func SGFMoveValue(r game.Rules, m game.Move) string { return sgfMoveValue(r, m) }

// SGFSizeValue is the SZ value for r.
func SGFSizeValue(r game.Rules) string { return sizeProp(r) }
