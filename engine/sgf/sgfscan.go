package sgf

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Limits of the SGF reader. Whatever the input, reading it holds at most
// about one node (SGFMaxNodeBytes) and one open game tree a nesting level
// (SGFMaxDepth) in memory, reads at most SGFMaxBytes, and ParseSGF, which
// builds the whole tree, holds at most SGFMaxTreeBytes of it.
const (
	// SGFMaxBytes bounds an SGF input (a full export of a book of 1.2
	// million positions is about 13 MB).
	SGFMaxBytes = 256 << 20
	// SGFMaxNodeBytes bounds the text of one node: its properties and
	// their values (a comment) together.
	SGFMaxNodeBytes = 1 << 20
	// SGFMaxDepth bounds the nesting of game trees (variations within
	// variations).
	SGFMaxDepth = 1000
	// SGFMaxTreeBytes bounds the memory of a tree ParseSGF builds (values
	// and a fixed cost per node, property and value).
	SGFMaxTreeBytes = 64 << 20
)

// SGFLimits bound an SGF reader; a zero field takes the default above.
type SGFLimits struct {
	MaxBytes     int64
	MaxNodeBytes int
	MaxDepth     int
	MaxTreeBytes int64
}

func (l SGFLimits) withDefaults() SGFLimits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = SGFMaxBytes
	}
	if l.MaxNodeBytes <= 0 {
		l.MaxNodeBytes = SGFMaxNodeBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = SGFMaxDepth
	}
	if l.MaxTreeBytes <= 0 {
		l.MaxTreeBytes = SGFMaxTreeBytes
	}
	return l
}

// SGFEventKind says what an SGFScanner read.
type SGFEventKind int

const (
	// SGFTreeStart is '(': a game tree (a game of the collection at depth
	// 1, else a variation) begins.
	SGFTreeStart SGFEventKind = iota + 1
	// SGFNodeRead is a node (';' and its properties).
	SGFNodeRead
	// SGFTreeEnd is ')': the game tree ends.
	SGFTreeEnd
)

// SGFEvent is one step of an SGF input.
type SGFEvent struct {
	Kind SGFEventKind
	// Depth is the nesting of game trees the event is in: 1 for a game
	// of the collection and its own nodes.
	Depth int
	// Node is the node read (SGFNodeRead), without children; Index counts
	// the nodes of the input from 1.
	Node  *SGFNode
	Index int
	// Offset is the byte of the input where the event starts.
	Offset int64
}

// SGFScanner reads an SGF collection as a stream of events without
// holding more than one node: game trees are checked as they open and
// close, so that the events of a well-formed input end with io.EOF and
// every other input ends with an *SGFError. Limits bound the input.
type SGFScanner struct {
	rd    *bufio.Reader
	lim   SGFLimits
	off   int64
	depth int
	nodes int
	// prev is the previous token: 0 (none), '(', ';' (a node) or ')'.
	prev  byte
	games int
	// inNode: a node is being read (its errors name it).
	inNode bool
	err    error
}

// NewSGFScanner reads rd with the limits given (zero fields: defaults).
func NewSGFScanner(rd io.Reader, lim SGFLimits) *SGFScanner {
	return &SGFScanner{rd: bufio.NewReaderSize(rd, 64<<10), lim: lim.withDefaults()}
}

// Nodes is the number of nodes read so far.
func (s *SGFScanner) Nodes() int { return s.nodes }

// errTooLarge marks the input limit inside readByte.
var errTooLarge = errors.New("too large")

func (s *SGFScanner) readByte() (byte, error) {
	if s.off >= s.lim.MaxBytes {
		// One byte more than the limit is an error; exactly the limit is not.
		if _, err := s.rd.ReadByte(); err == io.EOF {
			return 0, io.EOF
		}
		return 0, errTooLarge
	}
	c, err := s.rd.ReadByte()
	if err != nil {
		return 0, err
	}
	s.off++
	return c, nil
}

func (s *SGFScanner) unread() {
	s.rd.UnreadByte()
	s.off--
}

func (s *SGFScanner) fail(off int64, format string, args ...any) error {
	e := &SGFError{Offset: int(off), Msg: fmt.Sprintf(format, args...)}
	if s.inNode {
		e.Node = s.nodes
	}
	s.err = e
	return s.err
}

// readErr turns a read error into the scanner's error.
func (s *SGFScanner) readErr(err error, what string) error {
	switch {
	case errors.Is(err, errTooLarge):
		return s.fail(s.off, "the input is larger than %d bytes", s.lim.MaxBytes)
	case err == io.EOF:
		return s.fail(s.off, "%s", what)
	default:
		s.err = fmt.Errorf("sgf: byte %d: %w", s.off, err)
		return s.err
	}
}

func isSGFSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' }

func isSGFLetter(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }

// skipSpace skips white space; it returns the next byte (unread) or the
// read error.
func (s *SGFScanner) skipSpace() (byte, error) {
	for {
		c, err := s.readByte()
		if err != nil {
			return 0, err
		}
		if !isSGFSpace(c) {
			s.unread()
			return c, nil
		}
	}
}

// Next returns the next event, io.EOF after the last game tree of a
// well-formed input, or an error (an *SGFError for a malformed or too
// large input; the same error again on later calls).
func (s *SGFScanner) Next() (SGFEvent, error) {
	if s.err != nil {
		return SGFEvent{}, s.err
	}
	c, err := s.skipSpace()
	if err == io.EOF {
		switch {
		case s.depth != 0:
			return SGFEvent{}, s.fail(s.off, "unterminated game tree (missing ')')")
		case s.games == 0:
			return SGFEvent{}, s.fail(0, "no game tree")
		}
		s.err = io.EOF
		return SGFEvent{}, io.EOF
	}
	if err != nil {
		return SGFEvent{}, s.readErr(err, "")
	}
	at := s.off
	switch c {
	case '(':
		if s.prev == '(' {
			return SGFEvent{}, s.fail(at, "a game tree must start with a node (';')")
		}
		if s.depth >= s.lim.MaxDepth {
			return SGFEvent{}, s.fail(at, "variations nested deeper than %d", s.lim.MaxDepth)
		}
		s.readByte()
		s.depth++
		if s.depth == 1 {
			s.games++
		}
		s.prev = '('
		// The tree's first node must follow.
		if c, err := s.skipSpace(); err != nil || c != ';' {
			if err != nil && err != io.EOF {
				return SGFEvent{}, s.readErr(err, "")
			}
			return SGFEvent{}, s.fail(s.off, "a game tree must start with a node (';')")
		}
		return SGFEvent{Kind: SGFTreeStart, Depth: s.depth, Offset: at}, nil
	case ')':
		if s.depth == 0 {
			return SGFEvent{}, s.fail(at, "unbalanced ')'")
		}
		s.readByte()
		d := s.depth
		s.depth--
		s.prev = ')'
		return SGFEvent{Kind: SGFTreeEnd, Depth: d, Offset: at}, nil
	case ';':
		if s.depth == 0 {
			return SGFEvent{}, s.fail(at, "node outside a game tree")
		}
		if s.prev == ')' {
			return SGFEvent{}, s.fail(at, "a node after a variation (nodes go before a game tree's variations)")
		}
		s.readByte()
		s.nodes++
		s.prev = ';'
		s.inNode = true
		n, err := s.node(at)
		s.inNode = false
		if err != nil {
			return SGFEvent{}, err
		}
		return SGFEvent{Kind: SGFNodeRead, Depth: s.depth, Node: n, Index: s.nodes, Offset: at}, nil
	default:
		return SGFEvent{}, s.fail(at, "unexpected %q", c)
	}
}

// node reads the properties of a node whose ';' is at byte start.
func (s *SGFScanner) node(start int64) (*SGFNode, error) {
	n := &SGFNode{}
	size := func() int64 { return s.off - start }
	tooBig := func() error {
		return s.fail(start, "node longer than %d bytes (a comment or property too long)", s.lim.MaxNodeBytes)
	}
	for {
		c, err := s.skipSpace()
		if err == io.EOF {
			return n, nil // Next reports the missing ')'
		}
		if err != nil {
			return nil, s.readErr(err, "")
		}
		if !isSGFLetter(c) {
			return n, nil
		}
		idStart := s.off
		// FF[3] allowed lower-case letters in identifiers; keep only capitals.
		var id []byte
		for {
			c, err := s.readByte()
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, s.readErr(err, "")
			}
			if !isSGFLetter(c) {
				s.unread()
				break
			}
			if c >= 'A' && c <= 'Z' {
				id = append(id, c)
			}
			if len(id) > 16 || size() > int64(s.lim.MaxNodeBytes) {
				return nil, s.fail(idStart, "bad property identifier")
			}
		}
		if len(id) == 0 {
			return nil, s.fail(idStart, "bad property identifier")
		}
		p := SGFProp{ID: string(id)}
		for {
			c, err := s.skipSpace()
			if err != nil && err != io.EOF {
				return nil, s.readErr(err, "")
			}
			if err == io.EOF || c != '[' {
				break
			}
			s.readByte()
			var v strings.Builder
			closed := false
			for !closed {
				ch, err := s.readByte()
				if err != nil {
					return nil, s.readErr(err, "unterminated property value")
				}
				switch ch {
				case '\\':
					next, err := s.readByte()
					if err != nil {
						return nil, s.readErr(err, "unterminated property value")
					}
					v.WriteByte(next)
				case ']':
					closed = true
				default:
					v.WriteByte(ch)
				}
				if size() > int64(s.lim.MaxNodeBytes) {
					return nil, tooBig()
				}
			}
			p.Values = append(p.Values, v.String())
		}
		if len(p.Values) == 0 {
			return nil, s.fail(s.off, "property %s has no value", p.ID)
		}
		n.Props = append(n.Props, p)
	}
}

// ParseSGF reads an SGF collection: one root node per game tree. It never
// panics; malformed input, or input over the limits (SGFMaxBytes,
// SGFMaxNodeBytes, SGFMaxDepth, SGFMaxTreeBytes), gives an *SGFError.
func ParseSGF(data string) ([]*SGFNode, error) {
	return ReadSGF(strings.NewReader(data), SGFLimits{})
}

// ReadSGF is ParseSGF from a reader, with limits (zero fields: defaults).
func ReadSGF(rd io.Reader, lim SGFLimits) ([]*SGFNode, error) {
	lim = lim.withDefaults()
	s := NewSGFScanner(rd, lim)
	var roots []*SGFNode
	// stack[i] is the node the i+1-th open tree hangs from (nil: a root);
	// cur is the last node read in the innermost tree.
	var stack []*SGFNode
	var cur *SGFNode
	var mem int64
	for {
		ev, err := s.Next()
		if err == io.EOF {
			return roots, nil
		}
		if err != nil {
			return nil, err
		}
		switch ev.Kind {
		case SGFTreeStart:
			stack = append(stack, cur)
		case SGFTreeEnd:
			cur = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
		case SGFNodeRead:
			n := ev.Node
			mem += 64
			for _, p := range n.Props {
				mem += 40
				for _, v := range p.Values {
					mem += 16 + int64(len(v))
				}
			}
			if mem > lim.MaxTreeBytes {
				return nil, &SGFError{Offset: int(ev.Offset), Node: ev.Index, Msg: fmt.Sprintf("the game trees take more than %d bytes in memory", lim.MaxTreeBytes)}
			}
			switch {
			case cur != nil:
				cur.Children = append(cur.Children, n)
			case stack[len(stack)-1] != nil:
				stack[len(stack)-1].Children = append(stack[len(stack)-1].Children, n)
			default:
				roots = append(roots, n)
			}
			cur = n
		}
		if ev.Kind == SGFTreeStart {
			// The tree's first node hangs from the node before '('.
			cur = nil
		}
	}
}
