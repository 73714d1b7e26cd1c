package proofcheck

import (
	"bytes"
	"compress/flate"
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"c6book/engine/game"
)

func randSquare(rng *rand.Rand) game.Square { return game.Square(rng.IntN(400)) }

func randMove(rng *rand.Rand) game.Move {
	sq := make([]game.Square, rng.IntN(game.MaxPerTurn+1))
	for i := range sq {
		sq[i] = randSquare(rng)
	}
	return game.NewMove(sq...)
}

func randSquares(rng *rand.Rand) []game.Square {
	n := rng.IntN(6)
	if n == 0 {
		return nil
	}
	out := make([]game.Square, n)
	for i := range out {
		out[i] = randSquare(rng)
	}
	return out
}

func randTree(rng *rand.Rand, depth int) *Tree {
	t := &Tree{Move: randMove(rng), Six: rng.IntN(4) == 0}
	if depth > 0 {
		for n := rng.IntN(4); n > 0; n-- {
			r := Reply{Move: randMove(rng), Seminull: rng.IntN(3) == 0}
			if rng.IntN(5) > 0 {
				r.Then = randTree(rng, depth-1)
			}
			t.Replies = append(t.Replies, r)
		}
	}
	return t
}

func randCert(rng *rand.Rand) *Cert {
	c := &Cert{Attacker: game.Color(1 + rng.IntN(2)), AllUnsolved: rng.IntN(4) == 0, NullZone: randSquares(rng), OpenSeminull: randSquares(rng)}
	if rng.IntN(3) > 0 {
		c.NullTree = randTree(rng, 3)
	}
	for n := rng.IntN(3); n > 0; n-- {
		s := SeminullCert{Stone: randSquare(rng), Zone: randSquares(rng)}
		if rng.IntN(4) > 0 {
			s.Tree = randTree(rng, 2)
		}
		c.Seminull = append(c.Seminull, s)
	}
	for n := rng.IntN(3); n > 0; n-- {
		cv := CoveredCert{Move: randMove(rng)}
		if rng.IntN(4) > 0 {
			cv.Tree = randTree(rng, 2)
		}
		c.Covered = append(c.Covered, cv)
	}
	for n := rng.IntN(3); n > 0; n-- {
		c.Unsolved = append(c.Unsolved, randMove(rng))
	}
	return c
}

// deepTree is a chain of depth nodes.
func deepTree(depth int) *Tree {
	root := &Tree{Move: game.NewMove(1, 2)}
	t := root
	for i := 1; i < depth; i++ {
		n := &Tree{Move: game.NewMove(game.Square(i), game.Square(i+1))}
		t.Replies = []Reply{{Move: game.NewMove(game.Square(i % 7)), Then: n}}
		t = n
	}
	return root
}

func TestCertRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 300; i++ {
		c := randCert(rng)
		data, err := c.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var got Cert
		if err := got.UnmarshalBinary(data); err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if !reflect.DeepEqual(&got, c) {
			t.Fatalf("case %d: round trip differs:\n got %+v\nwant %+v", i, &got, c)
		}
		// A second encoding is byte for byte the same.
		again, err := got.MarshalBinary()
		if err != nil || !bytes.Equal(again, data) {
			t.Fatalf("case %d: re-encoding differs (%v)", i, err)
		}
	}
	if _, err := (&Cert{}).MarshalBinary(); err == nil {
		t.Fatal("a certificate without an attacker was encoded")
	}
	var empty Cert
	empty.Attacker = game.White
	data, err := empty.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var got Cert
	if err := got.UnmarshalBinary(data); err != nil || !reflect.DeepEqual(got, empty) {
		t.Fatalf("empty cert: %+v, %v", got, err)
	}
}

func TestTreeRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 200; i++ {
		tr := randTree(rng, 4)
		data, err := tr.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var got Tree
		if err := got.UnmarshalBinary(data); err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if !reflect.DeepEqual(&got, tr) {
			t.Fatalf("case %d: round trip differs", i)
		}
	}
	// Deep trees round-trip up to the limit and are refused beyond it.
	tr := deepTree(maxDepth - 1)
	data, err := tr.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var got Tree
	if err := got.UnmarshalBinary(data); err != nil || !reflect.DeepEqual(&got, tr) {
		t.Fatalf("deep tree: %v", err)
	}
	if _, err := deepTree(maxDepth + 1).MarshalBinary(); err == nil {
		t.Fatal("a tree deeper than the limit was encoded")
	}
}

// rawEncoding compresses a hand-made payload.
func rawEncoding(t testing.TB, version byte, payload []byte) []byte {
	var buf bytes.Buffer
	buf.WriteByte(version)
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	w.Write(payload)
	w.Close()
	return buf.Bytes()
}

func TestDecodeRejectsCorrupt(t *testing.T) {
	// A chain deeper than maxDepth, hand-written: attacker Black, NullTree
	// present; node = move (1 stone), six 0, 1 reply; reply = move (0
	// stones), flags 2 (Then present).
	deep := []byte{1, 2}
	for i := 0; i < maxDepth+5; i++ {
		deep = append(deep, 1, 3, 0, 1, 0, 2)
	}
	cases := map[string][]byte{
		"empty":         nil,
		"version":       {9},
		"not flate":     {certVersion, 0xff, 0xff, 0xff},
		"attacker":      rawEncoding(t, certVersion, []byte{3, 0, 0, 0, 0, 0, 0}),
		"flags":         rawEncoding(t, certVersion, []byte{1, 8, 0, 0, 0, 0, 0}),
		"trailing":      rawEncoding(t, certVersion, []byte{1, 0, 0, 0, 0, 0, 0, 7}),
		"short":         rawEncoding(t, certVersion, []byte{1, 0, 0}),
		"big count":     rawEncoding(t, certVersion, []byte{1, 0, 0xff, 0xff, 0xff, 0xff, 0x0f}),
		"move too long": rawEncoding(t, certVersion, []byte{1, 0, 0, 0, 0, 1, 9, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0}),
		"square":        rawEncoding(t, certVersion, []byte{1, 0, 1, 0xff, 0xff, 0x7f, 0, 0, 0, 0}),
		"six flag":      rawEncoding(t, certVersion, []byte{1, 2, 0, 5, 0, 0, 0, 0, 0, 0}),
		"deep":          rawEncoding(t, certVersion, deep),
	}
	for name, data := range cases {
		var c Cert
		err := c.UnmarshalBinary(data)
		if !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: got %v, want a corrupt-encoding error", name, err)
		}
	}
}

// FuzzCertDecode: decoding arbitrary bytes never panics, and whatever
// decodes re-encodes to something that decodes to the same certificate.
func FuzzCertDecode(f *testing.F) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 4; i++ {
		data, err := randCert(rng).MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, c := range realCerts(f) {
		data, err := c.MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add(rawEncoding(f, certVersion, []byte{1, 2, 2, 3, 4, 0, 1, 1, 5, 2, 1, 6, 0, 0, 0, 0, 0, 0, 0}))
	f.Fuzz(func(t *testing.T, data []byte) {
		var c Cert
		if err := c.UnmarshalBinary(data); err != nil {
			return
		}
		again, err := c.MarshalBinary()
		if err != nil {
			t.Fatalf("decoded certificate does not encode: %v", err)
		}
		var c2 Cert
		if err := c2.UnmarshalBinary(again); err != nil {
			t.Fatalf("re-encoding does not decode: %v", err)
		}
		if !reflect.DeepEqual(c, c2) {
			t.Fatal("re-encoding decodes differently")
		}
	})
}
