package c6book

import (
	"slices"
	"testing"

	"c6book/engine"
	"c6book/proofcheck"
)

// The proof rules as pure functions of loaded facts, table-tested without
// a database (proofbook runs them through recompute: its status_test, and
// Check re-derives every stored status with them; the session's fake store
// runs them too, and sessiontest's Conformance compares both stores).

var rulesR = engine.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}

func rulesBoard(t *testing.T, turns string) *engine.Board {
	t.Helper()
	b, err := engine.ReplayText(rulesR, turns)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func rulesMove(t *testing.T, text string) engine.Move {
	t.Helper()
	ms, err := engine.ParseTurns(rulesR, text)
	if err != nil || len(ms) != 1 {
		t.Fatalf("move %q: %v", text, err)
	}
	return ms[0]
}

func provedKid(t *testing.T, move string, ord int, zone []engine.Square) ProofChild {
	return ProofChild{Move: rulesMove(t, move), Proof: Proof{Attacker: engine.Black, Status: StatusProved, Order: ord, How: "verdict", PN: 0, DN: Infinite, Zone: zone}}
}

func kid(t *testing.T, move string, st Status, pn, dn int64) ProofChild {
	return ProofChild{Move: rulesMove(t, move), Proof: Proof{Attacker: engine.Black, Status: st, PN: pn, DN: dn}}
}

func TestTerminalProof(t *testing.T) {
	a := engine.Black
	for _, tc := range []struct {
		name            string
		winner          engine.Color
		expert, ok      bool
		status          Status
		how             ProofHow
		pn, dn, order   int64
		zoneEmptyNotNil bool
	}{
		{"attacker won", engine.Black, false, true, StatusProved, "win", 0, Infinite, 0, true},
		{"attacker won, expert mark", engine.Black, true, true, StatusProved, "win", 0, Infinite, 0, true},
		{"defender won", engine.White, false, true, StatusDisproved, "loss", Infinite, 0, 0, false},
		{"expert", engine.Empty, true, true, StatusDisproved, "expert", Infinite, 0, 0, false},
		{"undecided", engine.Empty, false, false, StatusUnknown, "", 0, 0, 0, false},
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
	zone := []engine.Square{rulesR.Sq(0, 8)}
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
		p := orProof(b.Clone(), engine.Black, tc.kids)
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
		{"a proved reply", []ProofChild{provedKid(t, "a3a4", 1, []engine.Square{})}, false},
	} {
		p, ok := refutedProof(rulesR, engine.Black, 3, tc.kids)
		if ok != tc.ok || ok && (p.Status != StatusDisproved || p.How != "reply" || p.PN != Infinite || p.DN != 0) {
			t.Errorf("%s: %+v %v, want refuted %v", tc.name, p, ok, tc.ok)
		}
	}
}

// Defender to move (White, after "e5 a1a2 e4e6"), attacker Black.
func TestAndProof(t *testing.T) {
	b := rulesBoard(t, "e5 a1a2 e4e6")
	cert := &proofcheck.Cert{Attacker: engine.Black}
	item := rulesMove(t, "e3e7")
	item2 := rulesMove(t, "e2e8")
	zone := []engine.Square{rulesR.Sq(8, 8)}
	open := func(items ...engine.Move) *Verdict {
		v := &Verdict{Attacker: engine.Black, Status: StatusOpen, Order: 2, Lambda: 2, Cert: cert, Zone: []engine.Square{rulesR.Sq(4, 4)}}
		for _, m := range items {
			v.Unsolved = append(v.Unsolved, Unsolved{Move: m})
		}
		return v
	}
	seminull := open()
	seminull.OpenSeminull = []Unsolved{{Move: rulesMove(t, "e3")}}
	proved := &Verdict{Attacker: engine.Black, Status: StatusProved, Order: 1, Lambda: 2, Cert: cert, Zone: []engine.Square{rulesR.Sq(4, 4)}}
	uncertified := *proved
	uncertified.Cert = nil
	otherTol := *proved
	otherTol.Tolerance = 1
	forWhite := *proved
	forWhite.Attacker = engine.White
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
		{"a closed seminull stone leaving no move: order 3", []ProofChild{provedKid(t, "e3", 2, []engine.Square{})}, seminull, StatusProved, "verdict", 3, 0, Infinite, 0},
	} {
		p, missing, err := andProof(b.Clone(), engine.Black, tc.kids, tc.v)
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
