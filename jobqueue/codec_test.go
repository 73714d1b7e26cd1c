package jobqueue

import (
	"bytes"
	"compress/flate"
	"context"
	"testing"

	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
)

// sharedVerdict is a verdict whose covered moves share one strategy
// subtree (as the solver's transpositions do), each under a node of its
// own.
func sharedVerdict(r game.Rules, covered int) verify.Verdict {
	leaf := func(s game.Square) *threat.Strategy {
		return &threat.Strategy{Move: game.NewMove(s, s+1), Threats: 3, Six: true, Zone: []game.Square{s, s + 1, s + 2}}
	}
	common := &threat.Strategy{Move: game.NewMove(40, 41), Threats: 2, Zone: []game.Square{40, 41, 42, 43}}
	for i := 0; i < 20; i++ {
		common.Replies = append(common.Replies, threat.Reply{Move: game.NewMove(game.Square(100+2*i), game.Square(101+2*i)), Then: leaf(game.Square(200 + i))})
	}
	vd := verify.Verdict{Status: verify.StatusOpen, Order: 2, Lambda: 2, Attacker: game.Black, Engine: verify.EngineVersion,
		Unsolved: []verify.UnsolvedMove{{Move: game.NewMove(0, 1), Reason: threat.ReasonBudget}}}
	for i := 0; i < covered; i++ {
		// Equal subtrees in distinct nodes (not one pointer): the
		// encoder finds them equal by their contents.
		c := *common
		vd.Covered = append(vd.Covered, verify.CoveredMove{Move: game.NewMove(game.Square(2+i), game.Square(300+i%50)), Mode: threat.VCDT,
			Tree: &threat.Strategy{Move: game.NewMove(10, 11), Threats: 2, Zone: []game.Square{10, 11}, Replies: []threat.Reply{{Move: game.NewMove(12, 13), Then: &c}}}})
	}
	return vd
}

func payloadLen(t *testing.T, data []byte) int {
	t.Helper()
	var out bytes.Buffer
	if _, err := out.ReadFrom(flate.NewReader(bytes.NewReader(data[1:]))); err != nil {
		t.Fatal(err)
	}
	return out.Len()
}

// TestCodecSharesSubtrees: equal subtrees are written once (version 2),
// the decoded verdict encodes to the same bytes, its trees are those of
// the version 1 encoding, and the version 1 encoding still decodes. It
// fails if the encoder writes a repeated subtree out again (the payload
// grows with the covered moves' shared subtree) or reads one back wrong.
func TestCodecSharesSubtrees(t *testing.T) {
	r := game.Rules{M: 19, N: 19, K: 6, P: 2, Q: 1}
	vd := sharedVerdict(r, 100)
	v2, err := encodeVerdict(&vd)
	if err != nil {
		t.Fatal(err)
	}
	v1, err := encodeVerdictVersion(&vd, 1)
	if err != nil {
		t.Fatal(err)
	}
	if v2[0] != 2 || v1[0] != 1 {
		t.Fatalf("version bytes %d and %d", v2[0], v1[0])
	}
	// Version 1 writes the shared subtree (20 replies) 100 times, version
	// 2 once: its payload must be far smaller.
	p1, p2 := payloadLen(t, v1), payloadLen(t, v2)
	if p2*5 > p1 {
		t.Errorf("payloads: version 1 %d bytes, version 2 %d: the shared subtree is not written once", p1, p2)
	}
	for _, data := range [][]byte{v1, v2} {
		got, err := decodeVerdict(r, data)
		if err != nil {
			t.Fatalf("version %d: %v", data[0], err)
		}
		for _, version := range []byte{1, 2} {
			want := v1
			if version == 2 {
				want = v2
			}
			again, err := encodeVerdictVersion(&got, version)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, want) {
				t.Errorf("decoded version %d, encoded as version %d: not the bytes of the original", data[0], version)
			}
		}
		if data[0] == 2 && got.Covered[0].Tree.Replies[0].Then != got.Covered[1].Tree.Replies[0].Then {
			t.Error("version 2 decoding does not share the equal subtree")
		}
	}
	for cut := 1; cut < len(v2); cut += 3 {
		if _, err := decodeVerdict(r, v2[:cut]); err == nil {
			t.Fatalf("a verdict cut at %d bytes decodes", cut)
		}
	}
}

// TestCodecRefusesTreeBombs: a few bytes naming earlier subtrees twice
// over (each node's two replies both name the node before: 2^n nodes to
// walk) are refused, and so is a name of a node not yet written. It fails
// if the decoder returns such a tree.
func TestCodecRefusesTreeBombs(t *testing.T) {
	r := game.Rules{M: 19, N: 19, K: 6, P: 2, Q: 1}
	build := func(levels int, badRef bool) []byte {
		var e encoder
		e.str(string(verify.StatusOpen))
		for _, v := range []int64{2, 2, int64(game.Black), 0, 0} {
			e.int(v)
		}
		e.squares(nil)
		e.unsolved([]verify.UnsolvedMove{{Move: game.NewMove(0, 1), Reason: threat.ReasonBudget}})
		e.bool(false)
		e.unsolved(nil)
		e.squares(nil)
		e.int(int64(threat.VCDT))
		e.moves(nil)
		// The null tree: a chain of levels nodes, each with two replies
		// naming the node before (the first node is a leaf).
		var node func(level int)
		node = func(level int) {
			e.uint(1)
			e.move(game.NewMove(game.Square(level % 300)))
			e.int(2)
			e.bool(false)
			e.squares(nil)
			if level == 0 {
				e.uint(0)
				return
			}
			e.uint(2)
			if level == 1 {
				e.move(game.NewMove(5, 6))
				e.bool(false)
				node(0)
			} else {
				e.move(game.NewMove(5, 6))
				e.bool(false)
				node(level - 1)
			}
			e.move(game.NewMove(7, 8))
			e.bool(false)
			ref := uint64(level - 1)
			if badRef {
				ref += 5
			}
			e.uint(2 + ref)
		}
		node(levels)
		e.uint(0) // seminull zones
		e.uint(0) // covered
		e.int(0)
		e.int(0)
		e.int(0)
		e.int(0)
		e.str(verify.EngineVersion)
		e.str("")
		var out bytes.Buffer
		out.WriteByte(2)
		w, _ := flate.NewWriter(&out, flate.DefaultCompression)
		w.Write(e.buf)
		w.Close()
		return out.Bytes()
	}
	if _, err := decodeVerdict(r, build(3, false)); err != nil {
		t.Fatalf("a small shared tree is refused: %v", err)
	}
	if _, err := decodeVerdict(r, build(40, false)); err == nil {
		t.Fatal("a tree of 2^40 nodes to walk decodes")
	}
	if _, err := decodeVerdict(r, build(3, true)); err == nil {
		t.Fatal("a tree naming a node not yet written decodes")
	}
}

// TestCodecRealVerdictShares: a real verdict with transpositions
// (Connect6, λ3, the queue's slow case) comes back from version 2 equal
// to the original and checks.
func TestCodecRealVerdictShares(t *testing.T) {
	tc := c6Cases[len(c6Cases)-1]
	b, o := tc.board(t), tc.withTol(t)
	o.Workers = 1
	vd, err := verify.Verify(context.Background(), b, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	v1, _ := encodeVerdictVersion(&vd, 1)
	v2, _ := encodeVerdict(&vd)
	got, err := decodeVerdict(b.Rules(), v2)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := encodeVerdictVersion(&got, 1); !bytes.Equal(again, v1) {
		t.Fatal("the version 2 round trip changes the verdict")
	}
	if err := checkVerdict(context.Background(), b, o, &got); err != nil {
		t.Fatalf("decoded verdict does not check: %v", err)
	}
	t.Logf("%s: version 1 %d bytes (%d decoded), version 2 %d bytes (%d decoded)", tc.turns, len(v1), payloadLen(t, v1), len(v2), payloadLen(t, v2))
}
