package proofcheck

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"

	"c6book/engine/game"
)

// Binary encoding. A certificate (or a lone tree) is written as one version
// byte followed by the payload compressed with compress/flate (best
// compression). The payload is a sequence of uvarints:
//
//	cert:   attacker, flags (1 AllUnsolved, 2 NullTree present),
//	        [tree], squares (NullZone),
//	        count, {stone, squares (Zone), opt-tree}   (Seminull)
//	        count, {move, opt-tree}                    (Covered)
//	        count, {move}                              (Unsolved)
//	        squares                                    (OpenSeminull)
//	tree:   move, six (0/1), count, {move, flags (1 Seminull, 2 Then present), [tree]}
//	move:   stone count (0..game.MaxPerTurn), squares
//	squares: count, squares
//	opt-tree: 0, or 1 and a tree
//
// Trees are written in preorder. Decoding checks every count against the
// bytes left and grows lists of structures as it reads them, so corrupt
// input cannot make it allocate much more than a small multiple of the
// decompressed payload, which is itself bounded (maxPayload); trees deeper
// than maxDepth are refused. Only certificates with a player as attacker
// are encoded.

const (
	certVersion = 1
	treeVersion = 1

	// maxDepth bounds the nesting of decoded trees.
	maxDepth = 10000
	// maxPayload bounds the decompressed payload.
	maxPayload = 64 << 20
	// maxSquare bounds a decoded square (Square is an int16).
	maxSquare = 1<<15 - 1
)

// ErrCorrupt is wrapped by every decoding error.
var ErrCorrupt = errors.New("proofcheck: corrupt encoding")

type encoder struct{ buf []byte }

func (e *encoder) uint(v uint64) { e.buf = binary.AppendUvarint(e.buf, v) }

func (e *encoder) square(s game.Square) error {
	if s < 0 {
		return fmt.Errorf("proofcheck: cannot encode square %d", s)
	}
	e.uint(uint64(s))
	return nil
}

func (e *encoder) squares(sq []game.Square) error {
	e.uint(uint64(len(sq)))
	for _, s := range sq {
		if err := e.square(s); err != nil {
			return err
		}
	}
	return nil
}

func (e *encoder) move(m game.Move) error {
	e.uint(uint64(m.Len()))
	for i := 0; i < m.Len(); i++ {
		if err := e.square(m.At(i)); err != nil {
			return err
		}
	}
	return nil
}

// tree writes t in preorder; it uses an explicit stack so that a deep tree
// cannot overflow the goroutine stack.
func (e *encoder) tree(t *Tree) error {
	type frame struct {
		t *Tree
		i int // next reply
	}
	depth := 0
	stack := []frame{{t: t}}
	if err := e.treeHead(t); err != nil {
		return err
	}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.i == len(f.t.Replies) {
			stack = stack[:len(stack)-1]
			depth--
			continue
		}
		r := &f.t.Replies[f.i]
		f.i++
		if err := e.move(r.Move); err != nil {
			return err
		}
		var flags uint64
		if r.Seminull {
			flags |= 1
		}
		if r.Then != nil {
			flags |= 2
		}
		e.uint(flags)
		if r.Then != nil {
			depth++
			if depth >= maxDepth {
				return fmt.Errorf("proofcheck: tree deeper than %d", maxDepth)
			}
			if err := e.treeHead(r.Then); err != nil {
				return err
			}
			stack = append(stack, frame{t: r.Then})
		}
	}
	return nil
}

func (e *encoder) treeHead(t *Tree) error {
	if err := e.move(t.Move); err != nil {
		return err
	}
	if t.Six {
		e.uint(1)
	} else {
		e.uint(0)
	}
	e.uint(uint64(len(t.Replies)))
	return nil
}

func (e *encoder) optTree(t *Tree) error {
	if t == nil {
		e.uint(0)
		return nil
	}
	e.uint(1)
	return e.tree(t)
}

// writers reuses flate writers: a best-compression writer allocates about
// a megabyte.
var writers sync.Pool

func compress(version byte, payload []byte) ([]byte, error) {
	var out bytes.Buffer
	out.WriteByte(version)
	w, _ := writers.Get().(*flate.Writer)
	if w == nil {
		var err error
		if w, err = flate.NewWriter(&out, flate.BestCompression); err != nil {
			return nil, err
		}
	} else {
		w.Reset(&out)
	}
	if _, err := w.Write(payload); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	writers.Put(w)
	return out.Bytes(), nil
}

func decompress(version byte, data []byte) ([]byte, error) {
	if len(data) == 0 {
		return nil, fmt.Errorf("%w: empty", ErrCorrupt)
	}
	if data[0] != version {
		return nil, fmt.Errorf("%w: version %d, want %d", ErrCorrupt, data[0], version)
	}
	r := flate.NewReader(bytes.NewReader(data[1:]))
	defer r.Close()
	payload, err := io.ReadAll(io.LimitReader(r, maxPayload+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if len(payload) > maxPayload {
		return nil, fmt.Errorf("%w: payload larger than %d bytes", ErrCorrupt, maxPayload)
	}
	return payload, nil
}

// MarshalBinary encodes the certificate (see the format above).
func (c *Cert) MarshalBinary() ([]byte, error) {
	if c.Attacker != game.Black && c.Attacker != game.White {
		return nil, fmt.Errorf("proofcheck: cannot encode a certificate with attacker %d", c.Attacker)
	}
	var e encoder
	e.uint(uint64(c.Attacker))
	var flags uint64
	if c.AllUnsolved {
		flags |= 1
	}
	if c.NullTree != nil {
		flags |= 2
	}
	e.uint(flags)
	if c.NullTree != nil {
		if err := e.tree(c.NullTree); err != nil {
			return nil, err
		}
	}
	if err := e.squares(c.NullZone); err != nil {
		return nil, err
	}
	e.uint(uint64(len(c.Seminull)))
	for i := range c.Seminull {
		s := &c.Seminull[i]
		if err := e.square(s.Stone); err != nil {
			return nil, err
		}
		if err := e.squares(s.Zone); err != nil {
			return nil, err
		}
		if err := e.optTree(s.Tree); err != nil {
			return nil, err
		}
	}
	e.uint(uint64(len(c.Covered)))
	for i := range c.Covered {
		if err := e.move(c.Covered[i].Move); err != nil {
			return nil, err
		}
		if err := e.optTree(c.Covered[i].Tree); err != nil {
			return nil, err
		}
	}
	e.uint(uint64(len(c.Unsolved)))
	for _, m := range c.Unsolved {
		if err := e.move(m); err != nil {
			return nil, err
		}
	}
	if err := e.squares(c.OpenSeminull); err != nil {
		return nil, err
	}
	return compress(certVersion, e.buf)
}

// UnmarshalBinary decodes a certificate written by MarshalBinary. Corrupt
// input returns an error wrapping ErrCorrupt; it never panics.
func (c *Cert) UnmarshalBinary(data []byte) error {
	payload, err := decompress(certVersion, data)
	if err != nil {
		return err
	}
	d := decoder{buf: payload}
	var out Cert
	a := d.uint()
	if d.err == nil && a != uint64(game.Black) && a != uint64(game.White) {
		d.fail("attacker %d", a)
	}
	out.Attacker = game.Color(a)
	flags := d.uint()
	if d.err == nil && flags&^3 != 0 {
		d.fail("cert flags %#x", flags)
	}
	out.AllUnsolved = flags&1 != 0
	if flags&2 != 0 {
		out.NullTree = d.tree()
	}
	out.NullZone = d.squares()
	// Lists of structs grow as they are read (a claimed count only bounds
	// them), so memory stays proportional to the bytes actually decoded.
	for n := d.count(); n > 0 && d.err == nil; n-- {
		var s SeminullCert
		s.Stone = d.square()
		s.Zone = d.squares()
		s.Tree = d.optTree()
		out.Seminull = append(out.Seminull, s)
	}
	for n := d.count(); n > 0 && d.err == nil; n-- {
		var cv CoveredCert
		cv.Move = d.move()
		cv.Tree = d.optTree()
		out.Covered = append(out.Covered, cv)
	}
	for n := d.count(); n > 0 && d.err == nil; n-- {
		out.Unsolved = append(out.Unsolved, d.move())
	}
	out.OpenSeminull = d.squares()
	if d.err == nil && len(d.buf) > 0 {
		d.fail("%d trailing bytes", len(d.buf))
	}
	if d.err != nil {
		return d.err
	}
	*c = out
	return nil
}

// MarshalBinary encodes a lone tree (see the format above).
func (t *Tree) MarshalBinary() ([]byte, error) {
	var e encoder
	if err := e.optTree(t); err != nil {
		return nil, err
	}
	return compress(treeVersion, e.buf)
}

// UnmarshalBinary decodes a tree written by Tree.MarshalBinary. A nil tree
// cannot be decoded into a receiver: it decodes as the zero Tree.
func (t *Tree) UnmarshalBinary(data []byte) error {
	payload, err := decompress(treeVersion, data)
	if err != nil {
		return err
	}
	d := decoder{buf: payload}
	nt := d.optTree()
	if d.err == nil && len(d.buf) > 0 {
		d.fail("%d trailing bytes", len(d.buf))
	}
	if d.err != nil {
		return d.err
	}
	if nt == nil {
		*t = Tree{}
	} else {
		*t = *nt
	}
	return nil
}

// decoder reads the payload; after the first error every read returns zero
// values and the error sticks.
type decoder struct {
	buf []byte
	err error
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
	}
}

func (d *decoder) uint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.buf)
	if n <= 0 {
		d.fail("bad uvarint")
		return 0
	}
	d.buf = d.buf[n:]
	return v
}

// count reads an element count; each element takes at least one byte, so
// a count larger than the bytes left is corrupt.
func (d *decoder) count() int {
	v := d.uint()
	if d.err == nil && v > uint64(len(d.buf)) {
		d.fail("count %d exceeds the %d bytes left", v, len(d.buf))
		return 0
	}
	return int(v)
}

func (d *decoder) square() game.Square {
	v := d.uint()
	if d.err == nil && v > maxSquare {
		d.fail("square %d", v)
		return 0
	}
	return game.Square(v)
}

func (d *decoder) squares() []game.Square {
	n := d.count()
	if n == 0 {
		return nil
	}
	out := make([]game.Square, n)
	for i := range out {
		out[i] = d.square()
	}
	return out
}

func (d *decoder) move() game.Move {
	n := d.uint()
	if d.err == nil && n > game.MaxPerTurn {
		d.fail("move with %d stones", n)
		return game.Move{}
	}
	var sq [game.MaxPerTurn]game.Square
	for i := 0; i < int(n); i++ {
		sq[i] = d.square()
	}
	if d.err != nil {
		return game.Move{}
	}
	return game.NewMove(sq[:n]...)
}

func (d *decoder) optTree() *Tree {
	switch d.uint() {
	case 0:
		return nil
	case 1:
		return d.tree()
	}
	d.fail("bad tree marker")
	return nil
}

// tree reads a tree in preorder with an explicit stack. Replies are
// appended as they are read, never allocated from a claimed count, so
// memory stays proportional to the payload.
func (d *decoder) tree() *Tree {
	type frame struct {
		t *Tree
		n int // replies still to read
	}
	root, n := d.treeHead()
	if d.err != nil {
		return nil
	}
	stack := []frame{{t: root, n: n}}
	for len(stack) > 0 && d.err == nil {
		f := &stack[len(stack)-1]
		if f.n == 0 {
			stack = stack[:len(stack)-1]
			continue
		}
		f.n--
		var r Reply
		r.Move = d.move()
		flags := d.uint()
		if d.err == nil && flags&^3 != 0 {
			d.fail("reply flags %#x", flags)
		}
		r.Seminull = flags&1 != 0
		n := 0
		if flags&2 != 0 {
			if len(stack) >= maxDepth {
				d.fail("tree deeper than %d", maxDepth)
				break
			}
			r.Then, n = d.treeHead()
		}
		if d.err != nil {
			break
		}
		f.t.Replies = append(f.t.Replies, r)
		if r.Then != nil {
			stack = append(stack, frame{t: r.Then, n: n})
		}
	}
	if d.err != nil {
		return nil
	}
	return root
}

// treeHead reads a node's move, six flag and reply count.
func (d *decoder) treeHead() (*Tree, int) {
	t := &Tree{Move: d.move()}
	switch d.uint() {
	case 0:
	case 1:
		t.Six = true
	default:
		d.fail("bad six flag")
	}
	n := d.count()
	if d.err != nil {
		return nil, 0
	}
	return t, n
}
