package engine

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
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

// SGFError locates a syntax error.
type SGFError struct {
	Offset int
	Msg    string
}

func (e *SGFError) Error() string { return fmt.Sprintf("sgf: byte %d: %s", e.Offset, e.Msg) }

// ParseSGF reads an SGF collection: one root node per game tree. It never
// panics; malformed input gives an *SGFError.
func ParseSGF(data string) ([]*SGFNode, error) {
	var roots []*SGFNode
	type frame struct {
		parent *SGFNode // node the next node attaches to (nil: a new root)
	}
	var stack []frame
	var cur *SGFNode // last node of the current sequence
	i := 0
	skipSpace := func() {
		for i < len(data) && (data[i] == ' ' || data[i] == '\n' || data[i] == '\r' || data[i] == '\t') {
			i++
		}
	}
	for {
		skipSpace()
		if i >= len(data) {
			break
		}
		c := data[i]
		switch {
		case c == '(':
			stack = append(stack, frame{parent: cur})
			i++
			skipSpace()
			if i >= len(data) || data[i] != ';' {
				return nil, &SGFError{i, "a game tree must start with a node (';')"}
			}
		case c == ')':
			if len(stack) == 0 {
				return nil, &SGFError{i, "unbalanced ')'"}
			}
			cur = stack[len(stack)-1].parent
			stack = stack[:len(stack)-1]
			i++
		case c == ';':
			if len(stack) == 0 {
				return nil, &SGFError{i, "node outside a game tree"}
			}
			n := &SGFNode{}
			i++
			for {
				skipSpace()
				if i >= len(data) || !(data[i] >= 'A' && data[i] <= 'Z' || data[i] >= 'a' && data[i] <= 'z') {
					break
				}
				start := i
				for i < len(data) && (data[i] >= 'A' && data[i] <= 'Z' || data[i] >= 'a' && data[i] <= 'z') {
					i++
				}
				// FF[3] allowed lower-case letters in identifiers; keep only capitals.
				var id strings.Builder
				for _, ch := range data[start:i] {
					if ch >= 'A' && ch <= 'Z' {
						id.WriteRune(ch)
					}
				}
				if id.Len() == 0 || id.Len() > 16 {
					return nil, &SGFError{start, "bad property identifier"}
				}
				p := SGFProp{ID: id.String()}
				for {
					skipSpace()
					if i >= len(data) || data[i] != '[' {
						break
					}
					i++
					var v strings.Builder
					closed := false
					for i < len(data) {
						ch := data[i]
						if ch == '\\' && i+1 < len(data) {
							v.WriteByte(data[i+1])
							i += 2
							continue
						}
						i++
						if ch == ']' {
							closed = true
							break
						}
						v.WriteByte(ch)
					}
					if !closed {
						return nil, &SGFError{i, "unterminated property value"}
					}
					p.Values = append(p.Values, v.String())
				}
				if len(p.Values) == 0 {
					return nil, &SGFError{i, "property " + p.ID + " has no value"}
				}
				n.Props = append(n.Props, p)
			}
			if cur == nil {
				if stack[len(stack)-1].parent != nil {
					return nil, &SGFError{i, "internal: detached node"}
				}
				roots = append(roots, n)
			} else {
				cur.Children = append(cur.Children, n)
			}
			cur = n
		default:
			return nil, &SGFError{i, fmt.Sprintf("unexpected %q", c)}
		}
	}
	if len(stack) != 0 {
		return nil, &SGFError{len(data), "unterminated game tree (missing ')')"}
	}
	if len(roots) == 0 {
		return nil, &SGFError{0, "no game tree"}
	}
	return roots, nil
}

// WriteSGF writes one game tree.
func WriteSGF(root *SGFNode) string {
	var sb strings.Builder
	var walk func(n *SGFNode)
	walk = func(n *SGFNode) {
		for {
			sb.WriteByte(';')
			for _, p := range n.Props {
				sb.WriteString(p.ID)
				for _, v := range p.Values {
					sb.WriteByte('[')
					sb.WriteString(strings.NewReplacer(`\`, `\\`, `]`, `\]`).Replace(v))
					sb.WriteByte(']')
				}
			}
			if len(n.Children) != 1 {
				break
			}
			n = n.Children[0]
		}
		for _, c := range n.Children {
			sb.WriteString("\n(")
			walk(c)
			sb.WriteByte(')')
		}
	}
	sb.WriteByte('(')
	walk(root)
	sb.WriteString(")\n")
	return sb.String()
}

// SGFRules reads the rules of a game tree root: the property RU
// ("m,n,k,p,q", written by c6book) or SZ ("19" or "19:17") with Connect6's
// k, p, q; def when neither is present.
func SGFRules(root *SGFNode, def Rules) (Rules, error) {
	if ru, ok := root.Get("RU"); ok && strings.Count(ru, ",") == 4 {
		// Other RU values (a Go program's "Japanese") are not ours; an
		// m,n,k,p,q value that is not valid is an error, not a fallback.
		r, err := ParseRules(ru)
		if err != nil {
			return Rules{}, fmt.Errorf("sgf: RU: %w", err)
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
			return Rules{}, fmt.Errorf("sgf: bad SZ[%s]", sz)
		}
		r.M, r.N = mi, ni
	}
	if err := r.Validate(); err != nil {
		return Rules{}, fmt.Errorf("sgf: %w", err)
	}
	return r, nil
}

// SGFMove reads the move of a node: B[...] or W[...] in LittleGolem
// notation ("j11k10") or SGF letter pairs ("jjkk", row a at the top). A turn
// of several stones may also be written as a list of points, one value per
// stone (W[aa][ab]), or as a compressed point list (W[aa:ab], a rectangle).
// It returns ok=false for a node without a move, and an empty Move for B[]
// (a pass, i.e. null move). "resign" and similar words give ok=false. A
// value it cannot place exactly is an error, never a shorter turn: two
// move properties in one node, an empty or unreadable point in a list, a
// point twice, more than MaxPerTurn stones.
func SGFMove(r Rules, n *SGFNode) (c Color, m Move, ok bool, err error) {
	var prop *SGFProp
	for i := range n.Props {
		p := &n.Props[i]
		if p.ID != "B" && p.ID != "W" {
			continue
		}
		if prop != nil {
			if prop.ID == p.ID {
				return Empty, Move{}, false, fmt.Errorf("sgf: property %s twice in one node", p.ID)
			}
			return Empty, Move{}, false, errors.New("sgf: a node with both a B and a W move")
		}
		prop = p
	}
	if prop == nil {
		return Empty, Move{}, false, nil
	}
	id := prop.ID
	c = Black
	if id == "W" {
		c = White
	}
	if len(prop.Values) == 1 {
		v := strings.TrimSpace(prop.Values[0])
		if v == "" {
			return c, Move{}, true, nil
		}
		// ASCII lower case only: strings.ToLower may change the byte length
		// (the Kelvin sign becomes "k"), and the pairs below are read by byte.
		low := asciiLower(v)
		if low == "resign" || low == "swap" || low == "draw" || low == "pass" {
			return c, Move{}, false, nil
		}
	}
	var sq []Square
	for _, raw := range prop.Values {
		v := strings.TrimSpace(raw)
		if v == "" {
			return c, Move{}, false, fmt.Errorf("sgf: bad move %s: an empty point in a list of points", sgfPropText(*prop))
		}
		pts, err := sgfMovePoints(r, v, MaxPerTurn-len(sq), len(prop.Values) > 1)
		if err != nil {
			return c, Move{}, false, fmt.Errorf("sgf: bad move %s: %w", sgfPropText(*prop), err)
		}
		sq = append(sq, pts...)
	}
	for i := range sq {
		for j := 0; j < i; j++ {
			if sq[i] == sq[j] {
				return c, Move{}, false, fmt.Errorf("sgf: move %s places %s twice", sgfPropText(*prop), SquareName(r, sq[i]))
			}
		}
	}
	mv, merr := MakeMove(sq...)
	if merr != nil {
		return c, Move{}, false, fmt.Errorf("sgf: bad move %s: %w", sgfPropText(*prop), merr)
	}
	return c, mv, true, nil
}

// sgfMovePoints reads one value of a move property: LittleGolem notation
// (one or more squares), SGF letter pairs, or a compressed point list; at
// most room stones. In a list (one value per point) a value is one point
// or a compressed point list.
func sgfMovePoints(r Rules, v string, room int, list bool) ([]Square, error) {
	if list && !strings.Contains(v, ":") {
		var s Square
		var err error
		if low := asciiLower(v); len(v) == 2 && isASCIILetters(low) {
			s, err = sgfLetterPoint(r, low)
		} else if s, err = ParseSquare(r, v); err != nil {
			err = fmt.Errorf("bad point in a list of points: %w", err)
		}
		if err != nil {
			return nil, err
		}
		if room < 1 {
			return nil, fmt.Errorf("more than %d stones in one turn", MaxPerTurn)
		}
		return []Square{s}, nil
	}
	if strings.IndexFunc(v, func(ch rune) bool { return ch >= '0' && ch <= '9' }) >= 0 {
		m, err := ParseMove(r, v)
		if err != nil {
			return nil, err
		}
		if m.Len() > room {
			return nil, fmt.Errorf("more than %d stones in one turn", MaxPerTurn)
		}
		return m.Squares(), nil
	}
	if strings.Contains(v, ":") {
		return sgfRect(r, v, room)
	}
	low := asciiLower(v)
	if len(v)%2 != 0 || !isASCIILetters(low) {
		return nil, fmt.Errorf("bad point %q", clipText(v, 24))
	}
	if len(v)/2 > room {
		return nil, fmt.Errorf("more than %d stones in one turn", MaxPerTurn)
	}
	var sq []Square
	for i := 0; i < len(v); i += 2 {
		s, err := sgfLetterPoint(r, low[i:i+2])
		if err != nil {
			return nil, err
		}
		sq = append(sq, s)
	}
	return sq, nil
}

// sgfLetterPoint reads an SGF letter pair (lower case; row a at the top).
func sgfLetterPoint(r Rules, p string) (Square, error) {
	if len(p) != 2 || p[0] < 'a' || p[0] > 'z' || p[1] < 'a' || p[1] > 'z' {
		return NoSquare, fmt.Errorf("bad point %q", clipText(p, 24))
	}
	x, y := int(p[0]-'a'), r.N-1-int(p[1]-'a')
	if !r.OnBoard(x, y) {
		return NoSquare, fmt.Errorf("point %q is off the board", p)
	}
	return r.Sq(x, y), nil
}

// sgfRect expands a compressed point list "aa:cc" (the rectangle between
// two corners), refusing more than room points.
func sgfRect(r Rules, v string, room int) ([]Square, error) {
	a, b, _ := strings.Cut(asciiLower(v), ":")
	p, err := sgfLetterPoint(r, a)
	if err != nil {
		return nil, fmt.Errorf("compressed point list %q: %w", clipText(v, 24), err)
	}
	q, err := sgfLetterPoint(r, b)
	if err != nil {
		return nil, fmt.Errorf("compressed point list %q: %w", clipText(v, 24), err)
	}
	x0, y0 := r.XY(p)
	x1, y1 := r.XY(q)
	x0, x1 = min(x0, x1), max(x0, x1)
	y0, y1 = min(y0, y1), max(y0, y1)
	if n := (x1 - x0 + 1) * (y1 - y0 + 1); n > room {
		return nil, fmt.Errorf("compressed point list %q: %d points, at most %d fit", v, n, room)
	}
	var out []Square
	for y := y1; y >= y0; y-- {
		for x := x0; x <= x1; x++ {
			out = append(out, r.Sq(x, y))
		}
	}
	return out, nil
}

// SGFPoints reads one value of a point-list property (CR, TR, SQ, MA, SL):
// an SGF letter pair, a square in LittleGolem notation, or a compressed
// point list ("aa:cc", the rectangle between two corners).
func SGFPoints(r Rules, v string) ([]Square, error) {
	if strings.Contains(v, ":") {
		return sgfRect(r, v, r.Squares())
	}
	if len(v) == 2 && v[0] >= 'a' && v[1] >= 'a' {
		if s, err := sgfLetterPoint(r, v); err == nil {
			return []Square{s}, nil
		}
	}
	if s, err := ParseSquare(r, v); err == nil {
		return []Square{s}, nil
	}
	return nil, fmt.Errorf("bad point %q", clipText(v, 24))
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
		if i == MaxPerTurn+1 {
			fmt.Fprintf(&sb, "…(%d values)", len(p.Values))
			break
		}
		sb.WriteString("[" + clipText(v, 24) + "]")
	}
	return sb.String()
}

// clipText cuts s to about n bytes (on a rune boundary) with an ellipsis.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
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
func GameFromSGF(root *SGFNode, def Rules) (Rules, []Move, error) {
	return gameFromSGF(root, def, false)
}

// LineFromSGF is GameFromSGF for a proof line: a turn with fewer stones
// than the rules place (B[] or W[] for the null move, one stone for a
// seminull move, as GameToSGF and the book's export write them) is played
// as a partial turn.
func LineFromSGF(root *SGFNode, def Rules) (Rules, []Move, error) {
	return gameFromSGF(root, def, true)
}

func gameFromSGF(root *SGFNode, def Rules, partial bool) (Rules, []Move, error) {
	r, err := SGFRules(root, def)
	if err != nil {
		return Rules{}, nil, err
	}
	b, err := NewBoard(r)
	if err != nil {
		return Rules{}, nil, err
	}
	var turns []Move
	for n, depth := root, 0; n != nil; depth++ {
		if id := SGFSetupProp(n); id != "" {
			return Rules{}, nil, fmt.Errorf("node %d: set-up stones (%s) are not supported; games must be played from the empty board", depth, id)
		}
		c, m, ok, err := SGFMove(r, n)
		if err != nil {
			return Rules{}, nil, fmt.Errorf("node %d: %w", depth, err)
		}
		if ok {
			if c != b.ToMove() {
				return Rules{}, nil, fmt.Errorf("node %d: %s to move, but the node plays %s", depth, b.ToMove(), c)
			}
			if err := b.play(m, partial); err != nil {
				return Rules{}, nil, fmt.Errorf("node %d: %s: %w", depth, MoveName(r, m), err)
			}
			turns = append(turns, m)
		}
		if len(n.Children) == 0 {
			break
		}
		n = n.Children[0]
	}
	return r, turns, nil
}

// GameToSGF writes turns as a LittleGolem-style SGF game (with RU for the rules).
func GameToSGF(r Rules, turns []Move, props ...SGFProp) string {
	root := &SGFNode{Props: []SGFProp{{"FF", []string{"4"}}, {"SZ", []string{sizeProp(r)}}, {"RU", []string{r.String()}}}}
	root.Props = append(root.Props, props...)
	cur := root
	c := Black
	for _, m := range turns {
		n := &SGFNode{Props: []SGFProp{{c.String(), []string{sgfMoveValue(r, m)}}}}
		cur.Children = []*SGFNode{n}
		cur = n
		c = c.Opp()
	}
	return WriteSGF(root)
}

func sizeProp(r Rules) string {
	if r.M == r.N {
		return strconv.Itoa(r.M)
	}
	return fmt.Sprintf("%d:%d", r.M, r.N)
}

// SGFMoveValue is the value of a B/W property for m (LittleGolem notation,
// empty for the null move).
func sgfMoveValue(r Rules, m Move) string {
	if m.Len() == 0 {
		return ""
	}
	return MoveName(r, m)
}

// SGFMoveValue is exported for the book's exporter.
func SGFMoveValue(r Rules, m Move) string { return sgfMoveValue(r, m) }

// SGFSizeValue is the SZ value for r.
func SGFSizeValue(r Rules) string { return sizeProp(r) }
