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
//
// Version 2 writes each distinct strategy subtree once. The same
// strategy answers many lines (covered moves whose stones it ignores,
// transpositions), written out in full under each, and DEFLATE's 32 KB
// window misses repeats farther apart: the λ3 verdict of
// Mickey Mouse's j10 i9k9 i7j9 at 200,000 nodes a solver call holds
// 242,498 strategy nodes of only 11,339 distinct subtrees. A strategy is
// 0 (none), 1 and a node (its fields, then its replies, each with its
// strategy), or 2+i: the i-th node written before (numbered when its last
// reply is written, so a node can only name a finished one: no cycles).
// The decoder shares the node (strategies are never changed in place)
// and counts the nodes a tree walk would visit: more than maxTreeNodes in
// a verdict is refused, so that a few bytes cannot stand for a tree too
// large to walk. Version 1 (every subtree written out) is still read.

// verdictVersion is the first byte of an encoded verdict.
const verdictVersion = 2

// Limits that bound what a decoder accepts from the network.
const (
	maxDecoded   = 64 << 20 // decompressed payload
	maxTreeDepth = 4096     // strategy nesting
	// maxTreeNodes bounds the strategy nodes a walk of a decoded
	// verdict's trees visits (shared subtrees once for each time they
	// are named): a 64 MiB version 1 payload could hold about this many.
	maxTreeNodes = 16 << 20
)

// errCorrupt is returned for a result or job that cannot be decoded.
var errCorrupt = errors.New("jobqueue: corrupt message")

type encoder struct {
	buf  []byte
	flat bool // version 1: every subtree written out
	// The subtree table (version 2): intern numbers equal subtrees alike
	// (by their node and its replies' intern numbers); written maps an
	// intern number to the index of the node once written.
	intern  map[*threat.Strategy]int
	keys    map[string]int
	written map[int]int
	key     []byte
}

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

// internOf numbers st's subtrees, children first: equal subtrees (equal
// fields, replies with equal moves, flags and subtrees) get one number.
func (e *encoder) internOf(st *threat.Strategy) int {
	if id, ok := e.intern[st]; ok {
		return id
	}
	kids := make([]int, len(st.Replies))
	for i, r := range st.Replies {
		kids[i] = -1
		if r.Then != nil {
			kids[i] = e.internOf(r.Then)
		}
	}
	k := e.key[:0]
	k = appendMove(k, st.Move)
	k = binary.AppendVarint(k, int64(st.Threats))
	if st.Six {
		k = append(k, 1)
	} else {
		k = append(k, 0)
	}
	k = binary.AppendUvarint(k, uint64(len(st.Zone)))
	for _, z := range st.Zone {
		k = binary.AppendVarint(k, int64(z))
	}
	for i, r := range st.Replies {
		k = appendMove(k, r.Move)
		if r.Seminull {
			k = append(k, 1)
		} else {
			k = append(k, 0)
		}
		k = binary.AppendVarint(k, int64(kids[i]))
	}
	e.key = k
	id, ok := e.keys[string(k)]
	if !ok {
		id = len(e.keys)
		e.keys[string(k)] = id
	}
	e.intern[st] = id
	return id
}

func appendMove(k []byte, m game.Move) []byte {
	k = append(k, byte(m.Len()))
	for i := 0; i < m.Len(); i++ {
		k = binary.AppendVarint(k, int64(m.At(i)))
	}
	return k
}

func (e *encoder) tree(st *threat.Strategy) {
	if st == nil {
		e.uint(0)
		return
	}
	id := -1
	if !e.flat {
		if e.intern == nil {
			e.intern, e.keys, e.written = map[*threat.Strategy]int{}, map[string]int{}, map[int]int{}
		}
		id = e.internOf(st)
		if i, ok := e.written[id]; ok {
			e.uint(2 + uint64(i))
			return
		}
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
	if !e.flat {
		e.written[id] = len(e.written)
	}
}

// encodeVerdict encodes vd (see the format above).
func encodeVerdict(vd *verify.Verdict) ([]byte, error) {
	return encodeVerdictVersion(vd, verdictVersion)
}

// encodeVerdictVersion encodes vd in version 1 or 2 (tests and
// benchmarks compare them).
func encodeVerdictVersion(vd *verify.Verdict, version byte) ([]byte, error) {
	if version != 1 && version != 2 {
		return nil, fmt.Errorf("jobqueue: no verdict encoding version %d", version)
	}
	e := encoder{flat: version == 1}
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
	out.WriteByte(version)
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
	// version 2: the nodes written so far, in the order they were
	// finished, with the nodes a walk of each visits; walked counts the
	// nodes a walk of the trees decoded so far visits.
	shared  bool
	nodes   []*threat.Strategy
	weights []int64
	walked  int64
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
	st, w := d.subtree(depth)
	d.walked += w
	if d.err == nil && d.walked > maxTreeNodes {
		d.fail("strategies of more than %d nodes", maxTreeNodes)
	}
	if d.err != nil {
		return nil
	}
	return st
}

// subtree reads one strategy and returns it with the nodes a walk of it
// visits.
func (d *decoder) subtree(depth int) (*threat.Strategy, int64) {
	tag := d.uint()
	switch {
	case d.err != nil || tag == 0:
		return nil, 0
	case tag >= 2 && d.shared:
		i := tag - 2
		if i >= uint64(len(d.nodes)) {
			d.fail("strategy %d named before it is written", i)
			return nil, 0
		}
		return d.nodes[i], d.weights[i]
	case tag != 1:
		d.fail("bad strategy tag %d", tag)
		return nil, 0
	}
	if depth > maxTreeDepth {
		d.fail("strategy deeper than %d", maxTreeDepth)
		return nil, 0
	}
	st := &threat.Strategy{Move: d.move(), Threats: d.small(), Six: d.bool(), Zone: d.squareList()}
	weight := int64(1)
	n := d.count()
	if n > 0 {
		st.Replies = make([]threat.Reply, n)
		for i := range st.Replies {
			st.Replies[i] = threat.Reply{Move: d.move(), Seminull: d.bool()}
			var w int64
			st.Replies[i].Then, w = d.subtree(depth + 1)
			weight = min(weight+w, maxTreeNodes+1)
			if d.err != nil {
				return nil, 0
			}
		}
	}
	if d.err != nil {
		return nil, 0
	}
	if d.shared {
		d.nodes = append(d.nodes, st)
		d.weights = append(d.weights, weight)
	}
	return st, weight
}

// decodeVerdict decodes a verdict written by encodeVerdict for a position
// under rules r (every square must be on r's board).
func decodeVerdict(r game.Rules, data []byte) (verify.Verdict, error) {
	if len(data) == 0 {
		return verify.Verdict{}, fmt.Errorf("%w: empty verdict", errCorrupt)
	}
	if data[0] != verdictVersion && data[0] != 1 {
		return verify.Verdict{}, fmt.Errorf("%w: verdict encoding version %d, this build reads 1 and %d", errCorrupt, data[0], verdictVersion)
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
	d := &decoder{buf: payload, squares: r.Squares(), shared: data[0] >= 2}
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
