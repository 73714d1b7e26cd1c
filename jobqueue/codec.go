package jobqueue

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"time"

	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
)

// The result codec. A verdict travels as one version byte, then a DEFLATE
// stream of varints (squares and counts as varints, strings with their
// length first, strategies depth first): every field of verify.Verdict,
// including the strategies' zones and threat counts, so that decoding
// gives back the verdict the worker computed and the caller can build and
// re-check the certificate from it. The encoding is deterministic: equal
// verdicts encode to equal bytes.

// verdictVersion is the first byte of an encoded verdict.
const verdictVersion = 1

// Limits that bound what a decoder accepts from the network.
const (
	maxDecoded   = 64 << 20 // decompressed payload
	maxTreeDepth = 4096     // strategy nesting
)

// errCorrupt is returned for a result or job that cannot be decoded.
var errCorrupt = errors.New("jobqueue: corrupt message")

type encoder struct{ buf []byte }

func (e *encoder) uint(v uint64) { e.buf = binary.AppendUvarint(e.buf, v) }
func (e *encoder) int(v int64)   { e.buf = binary.AppendVarint(e.buf, v) }
func (e *encoder) bool(v bool) {
	if v {
		e.uint(1)
	} else {
		e.uint(0)
	}
}
func (e *encoder) str(s string) { e.uint(uint64(len(s))); e.buf = append(e.buf, s...) }
func (e *encoder) squares(sq []game.Square) {
	e.uint(uint64(len(sq)))
	for _, s := range sq {
		e.int(int64(s))
	}
}
func (e *encoder) move(m game.Move) {
	e.uint(uint64(m.Len()))
	for i := 0; i < m.Len(); i++ {
		e.int(int64(m.At(i)))
	}
}
func (e *encoder) moves(ms []game.Move) {
	e.uint(uint64(len(ms)))
	for _, m := range ms {
		e.move(m)
	}
}
func (e *encoder) unsolved(us []verify.UnsolvedMove) {
	e.uint(uint64(len(us)))
	for _, u := range us {
		e.move(u.Move)
		e.str(string(u.Reason))
	}
}
func (e *encoder) tree(st *threat.Strategy) {
	if st == nil {
		e.uint(0)
		return
	}
	e.uint(1)
	e.move(st.Move)
	e.int(int64(st.Threats))
	e.bool(st.Six)
	e.squares(st.Zone)
	e.uint(uint64(len(st.Replies)))
	for _, r := range st.Replies {
		e.move(r.Move)
		e.bool(r.Seminull)
		e.tree(r.Then)
	}
}

// encodeVerdict encodes vd (see the format above).
func encodeVerdict(vd *verify.Verdict) ([]byte, error) {
	var e encoder
	e.str(string(vd.Status))
	e.int(int64(vd.Order))
	e.int(int64(vd.Lambda))
	e.int(int64(vd.Attacker))
	e.int(int64(vd.Threats))
	e.int(int64(vd.Tolerance))
	e.squares(vd.Zone)
	e.unsolved(vd.Unsolved)
	e.bool(vd.AllUnsolved)
	e.unsolved(vd.OpenSeminull)
	e.squares(vd.NullZone)
	e.int(int64(vd.NullMode))
	e.moves(vd.NullLine)
	e.tree(vd.NullTree)
	e.uint(uint64(len(vd.SeminullZones)))
	for _, sz := range vd.SeminullZones {
		e.int(int64(sz.Stone))
		e.squares(sz.Zone)
		e.int(int64(sz.Mode))
		e.moves(sz.Line)
		e.tree(sz.Tree)
	}
	e.uint(uint64(len(vd.Covered)))
	for _, c := range vd.Covered {
		e.move(c.Move)
		e.int(int64(c.Mode))
		e.moves(c.Line)
		e.tree(c.Tree)
	}
	e.int(int64(vd.Calls))
	e.int(int64(vd.Jobs))
	e.int(vd.Nodes)
	e.int(int64(vd.Elapsed))
	e.str(vd.Engine)
	e.str(vd.Note)

	var out bytes.Buffer
	out.WriteByte(verdictVersion)
	w, err := flate.NewWriter(&out, flate.DefaultCompression)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(e.buf); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// decoder reads the payload; after the first error every read returns zero
// values and the error sticks.
type decoder struct {
	buf     []byte
	squares int // the board's squares: every square must be below it
	err     error
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s", errCorrupt, fmt.Sprintf(format, args...))
	}
}

func (d *decoder) uint() uint64 { return readVarint(d, binary.Uvarint) }

func (d *decoder) int() int64 { return readVarint(d, binary.Varint) }

// readVarint reads one varint with f (binary.Uvarint or binary.Varint).
func readVarint[T uint64 | int64](d *decoder, f func([]byte) (T, int)) T {
	if d.err != nil {
		return 0
	}
	v, n := f(d.buf)
	if n <= 0 {
		d.fail("bad varint")
		return 0
	}
	d.buf = d.buf[n:]
	return v
}

// small reads a signed number that must fit an int32.
func (d *decoder) small() int {
	v := d.int()
	if v < -1<<31 || v >= 1<<31 {
		d.fail("number %d out of range", v)
		return 0
	}
	return int(v)
}

func (d *decoder) bool() bool {
	switch d.uint() {
	case 0:
		return false
	case 1:
		return true
	}
	d.fail("bad flag")
	return false
}

// count reads a list length; every element takes at least one byte.
func (d *decoder) count() int {
	n := d.uint()
	if n > uint64(len(d.buf)) {
		d.fail("list of %d elements in %d bytes", n, len(d.buf))
		return 0
	}
	return int(n)
}

func (d *decoder) str() string {
	n := d.count()
	if d.err != nil {
		return ""
	}
	s := string(d.buf[:n])
	d.buf = d.buf[n:]
	return s
}

func (d *decoder) square() game.Square {
	v := d.int()
	if d.err == nil && (v < 0 || v >= int64(d.squares)) {
		d.fail("square %d off the board", v)
		return 0
	}
	return game.Square(v)
}

// readList reads a list (its length first) with one call of f an
// element; an empty list is nil.
func readList[T any](d *decoder, f func() T) []T {
	n := d.count()
	if n == 0 {
		return nil
	}
	out := make([]T, n)
	for i := range out {
		out[i] = f()
	}
	return out
}

func (d *decoder) squareList() []game.Square { return readList(d, d.square) }

func (d *decoder) move() game.Move {
	n := d.uint()
	if n > game.MaxPerTurn {
		d.fail("move of %d stones", n)
		return game.Move{}
	}
	sq := make([]game.Square, n)
	for i := range sq {
		sq[i] = d.square()
	}
	m := game.NewMove(sq...)
	for i := 1; i < m.Len(); i++ {
		if m.At(i) == m.At(i-1) {
			d.fail("move with a stone twice")
		}
	}
	return m
}

func (d *decoder) moves() []game.Move { return readList(d, d.move) }

func (d *decoder) unsolved() []verify.UnsolvedMove {
	return readList(d, func() verify.UnsolvedMove {
		return verify.UnsolvedMove{Move: d.move(), Reason: threat.UnsolvedReason(d.str())}
	})
}

func (d *decoder) tree(depth int) *threat.Strategy {
	if !d.bool() || d.err != nil {
		return nil
	}
	if depth > maxTreeDepth {
		d.fail("strategy deeper than %d", maxTreeDepth)
		return nil
	}
	st := &threat.Strategy{Move: d.move(), Threats: d.small(), Six: d.bool(), Zone: d.squareList()}
	n := d.count()
	if n > 0 {
		st.Replies = make([]threat.Reply, n)
		for i := range st.Replies {
			st.Replies[i] = threat.Reply{Move: d.move(), Seminull: d.bool()}
			st.Replies[i].Then = d.tree(depth + 1)
			if d.err != nil {
				return nil
			}
		}
	}
	return st
}

// decodeVerdict decodes a verdict written by encodeVerdict for a position
// under rules r (every square must be on r's board).
func decodeVerdict(r game.Rules, data []byte) (verify.Verdict, error) {
	if len(data) == 0 {
		return verify.Verdict{}, fmt.Errorf("%w: empty verdict", errCorrupt)
	}
	if data[0] != verdictVersion {
		return verify.Verdict{}, fmt.Errorf("%w: verdict encoding version %d, this build reads %d", errCorrupt, data[0], verdictVersion)
	}
	fr := flate.NewReader(bytes.NewReader(data[1:]))
	defer fr.Close()
	payload, err := io.ReadAll(io.LimitReader(fr, maxDecoded+1))
	if err != nil {
		return verify.Verdict{}, fmt.Errorf("%w: %v", errCorrupt, err)
	}
	if len(payload) > maxDecoded {
		return verify.Verdict{}, fmt.Errorf("%w: verdict larger than %d bytes", errCorrupt, maxDecoded)
	}
	d := &decoder{buf: payload, squares: r.Squares()}
	var vd verify.Verdict
	vd.Status = verify.VerdictStatus(d.str())
	vd.Order = d.small()
	vd.Lambda = d.small()
	vd.Attacker = game.Color(d.small())
	vd.Threats = d.small()
	vd.Tolerance = d.small()
	vd.Zone = d.squareList()
	vd.Unsolved = d.unsolved()
	vd.AllUnsolved = d.bool()
	vd.OpenSeminull = d.unsolved()
	vd.NullZone = d.squareList()
	vd.NullMode = threat.Mode(d.small())
	vd.NullLine = d.moves()
	vd.NullTree = d.tree(0)
	vd.SeminullZones = readList(d, func() verify.SeminullZone {
		return verify.SeminullZone{Stone: d.square(), Zone: d.squareList(), Mode: threat.Mode(d.small()), Line: d.moves(), Tree: d.tree(0)}
	})
	vd.Covered = readList(d, func() verify.CoveredMove {
		return verify.CoveredMove{Move: d.move(), Mode: threat.Mode(d.small()), Line: d.moves(), Tree: d.tree(0)}
	})
	vd.Calls = d.small()
	vd.Jobs = d.small()
	vd.Nodes = d.int()
	vd.Elapsed = time.Duration(d.int())
	vd.Engine = d.str()
	vd.Note = d.str()
	if d.err == nil && len(d.buf) > 0 {
		d.fail("%d trailing bytes", len(d.buf))
	}
	if d.err != nil {
		return verify.Verdict{}, d.err
	}
	return vd, nil
}
