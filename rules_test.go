package c6book

import (
	"errors"
	"slices"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/proofcheck"
)

// The proof rules as pure functions of loaded facts, table-tested without
// a database (proofbook runs them through recompute: its status_test, and
// Check re-derives every stored status with them; the session's fake store
// runs them too, and sessiontest's Conformance compares both stores).

var rulesR = game.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}

func rulesBoard(t *testing.T, turns string) *board.Board {
	t.Helper()
	b, err := board.ReplayText(rulesR, turns)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func rulesMove(t *testing.T, text string) game.Move {
	t.Helper()
	ms, err := game.ParseTurns(rulesR, text)
	if err != nil || len(ms) != 1 {
		t.Fatalf("move %q: %v", text, err)
	}
	return ms[0]
}

func provedKid(t *testing.T, move string, ord int, zone []game.Square) ProofChild {
	return ProofChild{Move: rulesMove(t, move), Proof: Proof{Attacker: game.Black, Status: StatusProved, Order: ord, How: "verdict", PN: 0, DN: Infinite, Zone: zone}}
}

func kid(t *testing.T, move string, st Status, pn, dn int64) ProofChild {
	return ProofChild{Move: rulesMove(t, move), Proof: Proof{Attacker: game.Black, Status: st, PN: pn, DN: dn}}
}

func TestTerminalProof(t *testing.T) {
	a := game.Black
	for _, tc := range []struct {
		name            string
		winner          game.Color
		expert, ok      bool
		status          Status
		how             ProofHow
		pn, dn, order   int64
		zoneEmptyNotNil bool
	}{
		{"attacker won", game.Black, false, true, StatusProved, "win", 0, Infinite, 0, true},
		{"attacker won, expert mark", game.Black, true, true, StatusProved, "win", 0, Infinite, 0, true},
		{"defender won", game.White, false, true, StatusDisproved, "loss", Infinite, 0, 0, false},
		{"expert", game.Empty, true, true, StatusDisproved, "expert", Infinite, 0, 0, false},
		{"undecided", game.Empty, false, false, StatusUnknown, "", 0, 0, 0, false},
	} {
		p, ok := terminalProof(a, tc.winner, tc.expert)
		if ok != tc.ok {
			t.Errorf("%s: decided %v, want %v", tc.name, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		if p.Status != tc.status || p.How != tc.how || p.PN != tc.pn || p.DN != tc.dn || int64(p.Order) != tc.order || p.Expert != tc.expert || p.Attacker != a {
			t.Errorf("%s: %+v", tc.name, p)
		}
		if tc.zoneEmptyNotNil != (p.Zone != nil && len(p.Zone) == 0) {
			t.Errorf("%s: zone %v", tc.name, p.Zone)
		}
	}
}

// Attacker to move (Black, after "e5 a1a2").
func TestOrProof(t *testing.T) {
	b := rulesBoard(t, "e5 a1a2")
	zone := []game.Square{rulesR.Sq(0, 8)}
	for _, tc := range []struct {
		name   string
		kids   []ProofChild
		status Status
		how    ProofHow
		order  int
		pn, dn int64
	}{
		{"open and unknown moves: pn min, dn sum", []ProofChild{kid(t, "e4e6", StatusOpen, 3, 2), kid(t, "d5f5", StatusUnknown, 1, 1)}, StatusOpen, "", 0, 1, 3},
		{"unknown moves only", []ProofChild{kid(t, "e4e6", StatusUnknown, 2, 5)}, StatusUnknown, "", 0, 2, 5},
		{"every move refuted: 1/1", []ProofChild{kid(t, "e4e6", StatusDisproved, Infinite, 0), kid(t, "d5f5", StatusDisproved, Infinite, 0)}, StatusUnknown, "", 0, 1, 1},
		{"a proved move", []ProofChild{kid(t, "e4e6", StatusOpen, 3, 2), provedKid(t, "d5f5", 2, zone)}, StatusProved, "move", 2, 0, Infinite},
		{"the smallest order", []ProofChild{provedKid(t, "e4e6", 3, zone), provedKid(t, "d5f5", 1, zone)}, StatusProved, "move", 1, 0, Infinite},
		{"proved without a zone does not count", []ProofChild{provedKid(t, "e4e6", 2, nil)}, StatusUnknown, "", 0, 0, Infinite},
	} {
		p := orProof(b.Clone(), game.Black, tc.kids)
		if p.Status != tc.status || p.How != tc.how || p.Order != tc.order || p.PN != tc.pn || p.DN != tc.dn {
			t.Errorf("%s: %s %q order %d pn %d dn %d, want %s %q order %d pn %d dn %d", tc.name,
				p.Status, p.How, p.Order, p.PN, p.DN, tc.status, tc.how, tc.order, tc.pn, tc.dn)
		}
		if p.Status == StatusProved {
			// The zone holds the proving move's squares and the child's zone.
			for _, c := range tc.kids {
				if c.Proof.Status == StatusProved && c.Proof.Order == p.Order {
					for _, s := range c.Move.Squares() {
						if !slices.Contains(p.Zone, s) {
							t.Errorf("%s: zone %v lacks the move's square %d", tc.name, p.Zone, s)
						}
					}
				}
			}
			if len(p.Zone) <= len(zone) {
				t.Errorf("%s: zone %v", tc.name, p.Zone)
			}
		}
	}
}

func TestRefutedProof(t *testing.T) {
	for _, tc := range []struct {
		name string
		kids []ProofChild
		ok   bool
	}{
		{"no reply", nil, false},
		{"a refuted full reply", []ProofChild{kid(t, "a3a4", StatusDisproved, Infinite, 0)}, true},
		{"a refuted seminull reply does not count", []ProofChild{kid(t, "a3", StatusDisproved, Infinite, 0)}, false},
		{"a seminull reply that wins for the defender", []ProofChild{{Move: rulesMove(t, "a3"), Proof: Proof{Status: StatusDisproved, How: HowLoss}}}, true},
		{"a proved reply", []ProofChild{provedKid(t, "a3a4", 1, []game.Square{})}, false},
	} {
		p, ok := refutedProof(rulesR, game.Black, 3, tc.kids)
		if ok != tc.ok || ok && (p.Status != StatusDisproved || p.How != "reply" || p.PN != Infinite || p.DN != 0) {
			t.Errorf("%s: %+v %v, want refuted %v", tc.name, p, ok, tc.ok)
		}
	}
}

// Defender to move (White, after "e5 a1a2 e4e6"), attacker Black.
func TestAndProof(t *testing.T) {
	b := rulesBoard(t, "e5 a1a2 e4e6")
	cert := &proofcheck.Cert{Attacker: game.Black}
	item := rulesMove(t, "e3e7")
	item2 := rulesMove(t, "e2e8")
	zone := []game.Square{rulesR.Sq(8, 8)}
	open := func(items ...game.Move) *Verdict {
		v := &Verdict{Attacker: game.Black, Status: StatusOpen, Order: 2, Lambda: 2, Cert: cert, Zone: []game.Square{rulesR.Sq(4, 4)}}
		for _, m := range items {
			v.Unsolved = append(v.Unsolved, Unsolved{Move: m})
		}
		return v
	}
	seminull := open()
	seminull.OpenSeminull = []Unsolved{{Move: rulesMove(t, "e3")}}
	proved := &Verdict{Attacker: game.Black, Status: StatusProved, Order: 1, Lambda: 2, Cert: cert, Zone: []game.Square{rulesR.Sq(4, 4)}}
	uncertified := *proved
	uncertified.Cert = nil
	otherTol := *proved
	otherTol.Tolerance = 1
	forWhite := *proved
	forWhite.Attacker = game.White
	for _, tc := range []struct {
		name    string
		kids    []ProofChild
		v       *Verdict
		status  Status
		how     ProofHow
		order   int
		pn, dn  int64
		missing int
	}{
		{"no verdict: a leaf for the verifier", nil, nil, StatusUnknown, "", 0, 1, 1, 0},
		{"the other attacker's verdict", nil, &forWhite, StatusUnknown, "", 0, 1, 1, 0},
		{"no certificate", nil, &uncertified, StatusOpen, "", 0, 1, 1, 0},
		{"another tolerance", nil, &otherTol, StatusOpen, "", 0, 1, 1, 0},
		{"a proved verdict", nil, proved, StatusProved, "verdict", 1, 0, Infinite, 0},
		{"an open verdict, its item not stored", nil, open(item), StatusOpen, "", 0, 1, 1, 1},
		{"an open verdict, its item open", []ProofChild{kid(t, "e3e7", StatusOpen, 4, 3)}, open(item), StatusOpen, "", 0, 4, 3, 0},
		{"items: pn sum, dn min", []ProofChild{kid(t, "e3e7", StatusOpen, 4, 3), kid(t, "e2e8", StatusUnknown, 2, 7)}, open(item, item2), StatusOpen, "", 0, 6, 3, 0},
		{"its item proved", []ProofChild{provedKid(t, "e3e7", 2, zone)}, open(item), StatusProved, "verdict", 2, 0, Infinite, 0},
		{"an item of a higher order raises it", []ProofChild{provedKid(t, "e3e7", 3, zone)}, open(item), StatusProved, "verdict", 3, 0, Infinite, 0},
		{"an item proved without a zone does not count", []ProofChild{provedKid(t, "e3e7", 2, nil)}, open(item), StatusOpen, "", 0, 1, Infinite, 0},
		{"an open verdict without items", nil, open(), StatusOpen, "", 0, 1, 1, 0},
		{"an open seminull stone: its position first", nil, seminull, StatusOpen, "", 0, 1, 1, 1},
		{"a closed seminull stone leaving no move: order 3", []ProofChild{provedKid(t, "e3", 2, []game.Square{})}, seminull, StatusProved, "verdict", 3, 0, Infinite, 0},
	} {
		p, missing, err := andProof(b.Clone(), game.Black, tc.kids, tc.v)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if p.Status != tc.status || p.How != tc.how || p.Order != tc.order || p.PN != tc.pn || p.DN != tc.dn || len(missing) != tc.missing {
			t.Errorf("%s: %s %q order %d pn %d dn %d, %d missing; want %s %q order %d pn %d dn %d, %d missing", tc.name,
				p.Status, p.How, p.Order, p.PN, p.DN, len(missing), tc.status, tc.how, tc.order, tc.pn, tc.dn, tc.missing)
		}
		if p.Status == StatusProved {
			// The zone: the verdict's and the items'.
			for _, s := range tc.v.Zone {
				if !slices.Contains(p.Zone, s) {
					t.Errorf("%s: zone %v lacks the verdict's square %d", tc.name, p.Zone, s)
				}
			}
			if len(tc.kids) > 0 && len(tc.kids[0].Proof.Zone) > 0 && len(p.Zone) < len(tc.v.Zone)+len(zone) {
				t.Errorf("%s: zone %v lacks the item's", tc.name, p.Zone)
			}
		}
	}
}

// ProofOf asks for the facts a position's case needs and no more (a
// store's recomputation of a leaf loads no board and no verdict), and
// returns a loader's error.
func TestProofOfLoads(t *testing.T) {
	a := game.Black
	or := rulesBoard(t, "e5 a1a2")       // Black, the attacker, to move
	and := rulesBoard(t, "e5 a1a2 e4e6") // White to move
	v := &Verdict{Attacker: a, Status: StatusProved, Order: 1, Cert: &proofcheck.Cert{Attacker: a}}
	refuted := []ProofChild{kid(t, "e3e7", StatusDisproved, Infinite, 0)}
	errLoad := errors.New("load failed")
	for _, tc := range []struct {
		name   string
		b      *board.Board
		winner game.Color
		expert bool
		kids   []ProofChild
		kidErr error
		want   string // the loaders called: c(hildren), b(oard), v(erdict)
		status Status
		how    ProofHow
	}{
		{"won by the attacker", and, game.Black, false, nil, nil, "", StatusProved, "win"},
		{"won by the defender", and, game.White, false, nil, nil, "", StatusDisproved, "loss"},
		{"the expert's disproof", or, game.Empty, true, nil, nil, "", StatusDisproved, "expert"},
		{"an attacker-to-move leaf", or, game.Empty, false, nil, nil, "c", StatusUnknown, ""},
		{"attacker to move", or, game.Empty, false, []ProofChild{kid(t, "d5f5", StatusOpen, 2, 2)}, nil, "cb", StatusOpen, ""},
		{"a refuted reply", and, game.Empty, false, refuted, nil, "cb", StatusDisproved, "reply"},
		{"defender to move", and, game.Empty, false, nil, nil, "cbv", StatusProved, "verdict"},
		{"the children do not load", and, game.Empty, false, nil, errLoad, "c", StatusUnknown, ""},
	} {
		called := ""
		f := ProofFacts{Attacker: a, ToMove: tc.b.ToMove(), Winner: tc.winner, Stones: 3, Expert: tc.expert,
			Children: func() ([]ProofChild, error) { called += "c"; return tc.kids, tc.kidErr },
			Board:    func() (*board.Board, error) { called += "b"; return tc.b.Clone(), nil },
			Verdict:  func() (*Verdict, error) { called += "v"; return v, nil },
		}
		p, _, err := ProofOf(f)
		if called != tc.want {
			t.Errorf("%s: loaded %q, want %q", tc.name, called, tc.want)
		}
		if tc.kidErr != nil {
			if !errors.Is(err, tc.kidErr) {
				t.Errorf("%s: error %v, want %v", tc.name, err, tc.kidErr)
			}
			continue
		}
		if err != nil || p.Status != tc.status || p.How != tc.how || p.Attacker != a {
			t.Errorf("%s: %s %q (%v), want %s %q", tc.name, p.Status, p.How, err, tc.status, tc.how)
		}
	}
}

// The stored bytes of ProofHow (status.how) stay what they were.
func TestProofHowBytes(t *testing.T) {
	for how, want := range map[ProofHow]string{HowNone: "", HowWin: "win", HowLoss: "loss", HowVerdict: "verdict", HowMove: "move", HowReply: "reply", HowExpert: "expert"} {
		if string(how) != want {
			t.Errorf("%q, want %q", how, want)
		}
	}
}

func TestSameProof(t *testing.T) {
	p := Proof{Attacker: game.Black, Status: StatusProved, Order: 2, How: HowMove, DN: Infinite, Zone: []game.Square{3, 5}}
	q := p
	q.Zone = []game.Square{3, 5}
	if !SameProof(p, q) {
		t.Error("equal proofs differ")
	}
	for name, change := range map[string]func(*Proof){
		"status": func(x *Proof) { x.Status = StatusOpen },
		"order":  func(x *Proof) { x.Order = 3 },
		"how":    func(x *Proof) { x.How = HowVerdict },
		"expert": func(x *Proof) { x.Expert = true },
		"pn":     func(x *Proof) { x.PN = 1 },
		"dn":     func(x *Proof) { x.DN = 1 },
		"zone":   func(x *Proof) { x.Zone = []game.Square{3} },
		"nil zone vs empty": func(x *Proof) {
			x.Zone = nil
		},
	} {
		x := p
		change(&x)
		if SameProof(p, x) {
			t.Errorf("%s: a changed proof is the same", name)
		}
	}
	empty, none := p, p
	empty.Zone, none.Zone = []game.Square{}, nil
	if SameProof(empty, none) {
		t.Error("an empty zone is the same as none")
	}
}

// The center stone's position has every symmetry; a move and its images
// are one item, whichever of them is stored, with the same zone.
func TestProofItemsSymmetry(t *testing.T) {
	b := rulesBoard(t, "e5") // White to move
	stab := b.Stabilizer()
	if len(stab) != rulesR.SymmetryCount() || stab[0] != 0 {
		t.Fatalf("stabilizer of the center stone %v", stab)
	}
	if s := rulesBoard(t, "e5 a1a2").Stabilizer(); len(s) != 1 || s[0] != 0 {
		t.Fatalf("stabilizer of e5 a1a2 %v, want the identity only", s)
	}
	m := rulesMove(t, "d4c3")
	rep, g := RepMove(rulesR, stab, m)
	if rulesR.TransformMove(g, m) != rep || PackMove(rep) > PackMove(m) {
		t.Fatalf("RepMove(%s) = %s by %d", game.MoveName(rulesR, m), game.MoveName(rulesR, rep), g)
	}
	v := &Verdict{Attacker: game.Black, Status: StatusOpen, Order: 2, Unsolved: []Unsolved{{Move: m}}}
	zone := []game.Square{rulesR.Sq(0, 0), rulesR.Sq(1, 2)} // the child's canonical frame
	var first ProofItemList
	for i, t2 := range stab {
		stored := rulesR.TransformMove(t2, m)
		kids := []ProofChild{{Move: stored, Proof: Proof{Attacker: game.Black, Status: StatusProved, Order: 1, How: HowMove, DN: Infinite, Zone: zone}}}
		it, err := ProofItems(b.Clone(), game.Black, v, kids)
		if err != nil {
			t.Fatal(err)
		}
		if len(it.Items) != 1 || it.Items[0].Move != rep || it.Items[0].Child != 0 || len(it.Missing) != 0 {
			t.Fatalf("stored as %s: items %+v, missing %v", game.MoveName(rulesR, stored), it.Items, it.Missing)
		}
		if i == 0 {
			first = it
		} else if !slices.Equal(it.Zone, first.Zone) {
			t.Errorf("stored as %s: zone %v, stored as the move itself %v", game.MoveName(rulesR, stored), it.Zone, first.Zone)
		}
	}
	// Not stored: missing, as its representative.
	it, err := ProofItems(b.Clone(), game.Black, v, nil)
	if err != nil || len(it.Missing) != 1 || it.Missing[0] != rep || it.Items[0].Child != -1 {
		t.Fatalf("nothing stored: %+v, %v", it, err)
	}
}

// A twin proves a full attacker-to-move position when its zone (the
// twin's canonical frame) misses the stone taken off: order and zone (with
// the stone) from the twin, HowTwin. It does not when the stone is in the
// zone, is not the defender's, when the twin is not proved or has no
// zone, or when the position is itself one stone short; a proved move
// with a smaller order is preferred.
func TestProofOfTwin(t *testing.T) {
	b := rulesBoard(t, "e5 d4f6 e4e6 c3g7") // Black to move, full
	x := rulesR.Sq(5, 5)                    // f6, White's
	tb := b.Clone()
	tb.Remove(x)
	_, csym := tb.CanonicalKey()
	canon := func(sq ...game.Square) []game.Square {
		out := make([]game.Square, len(sq))
		for i, s := range sq {
			out[i] = rulesR.Transform(csym, s)
		}
		return out
	}
	far, near := rulesR.Sq(0, 0), rulesR.Sq(4, 3)
	proved := func(ord int, zone []game.Square) Proof {
		return Proof{Attacker: game.Black, Status: StatusProved, Order: ord, How: HowMove, DN: Infinite, Zone: zone}
	}
	proofOf := func(b *board.Board, kids []ProofChild, twins ...ProofTwin) Proof {
		t.Helper()
		p, _, err := ProofOf(ProofFacts{Attacker: game.Black, ToMove: b.ToMove(), Stones: b.Stones(game.Black) + b.Stones(game.White),
			Children: func() ([]ProofChild, error) { return kids, nil },
			Board:    func() (*board.Board, error) { return b, nil },
			Verdict:  func() (*Verdict, error) { return nil, nil },
			Twins:    func() ([]ProofTwin, error) { return twins, nil }})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := proofOf(b, nil, ProofTwin{Stone: x, Proof: proved(2, canon(far, near))})
	if p.Status != StatusProved || p.How != HowTwin || p.Order != 2 || !slices.Equal(p.Zone, []game.Square{far, near, x}) {
		t.Fatalf("twin with the stone outside its zone: %+v", p)
	}
	for _, c := range []struct {
		what string
		tw   ProofTwin
	}{
		{"stone in the zone", ProofTwin{Stone: x, Proof: proved(2, canon(far, x))}},
		{"Black's stone", ProofTwin{Stone: rulesR.Sq(4, 4), Proof: proved(2, canon(far))}},
		{"an empty square", ProofTwin{Stone: far, Proof: proved(2, canon(near))}},
		{"twin open", ProofTwin{Stone: x, Proof: Proof{Attacker: game.Black, Status: StatusOpen, PN: 1, DN: 1}}},
		{"twin without a zone", ProofTwin{Stone: x, Proof: proved(2, nil)}},
	} {
		if p := proofOf(b, nil, c.tw); p.Status == StatusProved {
			t.Errorf("%s: %+v, want not proved", c.what, p)
		}
	}
	// One stone short (White's g7 taken off): the rule needs a full
	// position.
	short := b.Clone()
	short.Remove(rulesR.Sq(6, 6))
	if p := proofOf(short, nil, ProofTwin{Stone: x, Proof: proved(2, canon(far))}); p.Status == StatusProved {
		t.Errorf("one stone short: %+v, want not proved", p)
	}
	// A proved move of a lower order wins over the twin.
	m := rulesMove(t, "e3e7")
	kids := []ProofChild{{Move: m, Proof: proved(1, []game.Square{})}}
	if p := proofOf(b, kids, ProofTwin{Stone: x, Proof: proved(2, canon(far))}); p.How != HowMove || p.Order != 1 {
		t.Errorf("a move of order 1 and a twin of order 2: %+v, want the move", p)
	}
}
