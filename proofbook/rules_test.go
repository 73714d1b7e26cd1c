package proofbook

import (
	"slices"
	"testing"

	"c6book"
	"c6book/engine"
	"c6book/proofcheck"
)

// The proof rules as pure functions of loaded facts, table-tested without
// a database (the database paths run them through recompute: status_test,
// and Check re-derives every stored status with them).

var rulesR = engine.Rules{M: 9, N: 9, K: 5, P: 2, Q: 1}

func rulesBoard(t *testing.T, turns string) (*engine.Board, []stone) {
	t.Helper()
	b, err := engine.ReplayText(rulesR, turns)
	if err != nil {
		t.Fatal(err)
	}
	return b, canonStones(rulesR, b, 0)
}

func rulesMove(t *testing.T, text string) engine.Move {
	t.Helper()
	ms, err := engine.ParseTurns(rulesR, text)
	if err != nil || len(ms) != 1 {
		t.Fatalf("move %q: %v", text, err)
	}
	return ms[0]
}

func provedKid(t *testing.T, move string, ord int, zone []engine.Square) childRow {
	return childRow{move: rulesMove(t, move), proof: c6book.Proof{Attacker: engine.Black, Status: c6book.StatusProved, Order: ord, How: "verdict", PN: 0, DN: c6book.Infinite, Zone: zone}}
}

func kid(t *testing.T, move string, st c6book.Status, pn, dn int64) childRow {
	return childRow{move: rulesMove(t, move), proof: c6book.Proof{Attacker: engine.Black, Status: st, PN: pn, DN: dn}}
}

func TestTerminalProof(t *testing.T) {
	a := engine.Black
	for _, tc := range []struct {
		name            string
		winner          engine.Color
		expert, ok      bool
		status          c6book.Status
		how             string
		pn, dn, order   int64
		zoneEmptyNotNil bool
	}{
		{"attacker won", engine.Black, false, true, c6book.StatusProved, "win", 0, c6book.Infinite, 0, true},
		{"attacker won, expert mark", engine.Black, true, true, c6book.StatusProved, "win", 0, c6book.Infinite, 0, true},
		{"defender won", engine.White, false, true, c6book.StatusDisproved, "loss", c6book.Infinite, 0, 0, false},
		{"expert", engine.Empty, true, true, c6book.StatusDisproved, "expert", c6book.Infinite, 0, 0, false},
		{"undecided", engine.Empty, false, false, c6book.StatusUnknown, "", 0, 0, 0, false},
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
	b, _ := rulesBoard(t, "e5 a1a2")
	zone := []engine.Square{rulesR.Sq(0, 8)}
	for _, tc := range []struct {
		name   string
		kids   []childRow
		status c6book.Status
		how    string
		order  int
		pn, dn int64
	}{
		{"open and unknown moves: pn min, dn sum", []childRow{kid(t, "e4e6", c6book.StatusOpen, 3, 2), kid(t, "d5f5", c6book.StatusUnknown, 1, 1)}, c6book.StatusOpen, "", 0, 1, 3},
		{"unknown moves only", []childRow{kid(t, "e4e6", c6book.StatusUnknown, 2, 5)}, c6book.StatusUnknown, "", 0, 2, 5},
		{"every move refuted: 1/1", []childRow{kid(t, "e4e6", c6book.StatusDisproved, c6book.Infinite, 0), kid(t, "d5f5", c6book.StatusDisproved, c6book.Infinite, 0)}, c6book.StatusUnknown, "", 0, 1, 1},
		{"a proved move", []childRow{kid(t, "e4e6", c6book.StatusOpen, 3, 2), provedKid(t, "d5f5", 2, zone)}, c6book.StatusProved, "move", 2, 0, c6book.Infinite},
		{"the smallest order", []childRow{provedKid(t, "e4e6", 3, zone), provedKid(t, "d5f5", 1, zone)}, c6book.StatusProved, "move", 1, 0, c6book.Infinite},
		{"proved without a zone does not count", []childRow{provedKid(t, "e4e6", 2, nil)}, c6book.StatusUnknown, "", 0, 0, c6book.Infinite},
	} {
		p := orProof(rulesR, b.Clone(), engine.Black, tc.kids)
		if p.Status != tc.status || p.How != tc.how || p.Order != tc.order || p.PN != tc.pn || p.DN != tc.dn {
			t.Errorf("%s: %s %q order %d pn %d dn %d, want %s %q order %d pn %d dn %d", tc.name,
				p.Status, p.How, p.Order, p.PN, p.DN, tc.status, tc.how, tc.order, tc.pn, tc.dn)
		}
		if p.Status == c6book.StatusProved {
			// The zone holds the proving move's squares and the child's zone.
			for _, c := range tc.kids {
				if c.proof.Status == c6book.StatusProved && c.proof.Order == p.Order {
					for _, s := range c.move.Squares() {
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
		kids []childRow
		ok   bool
	}{
		{"no reply", nil, false},
		{"a refuted full reply", []childRow{kid(t, "a3a4", c6book.StatusDisproved, c6book.Infinite, 0)}, true},
		{"a refuted seminull reply does not count", []childRow{kid(t, "a3", c6book.StatusDisproved, c6book.Infinite, 0)}, false},
		{"a seminull reply that wins for the defender", []childRow{{move: rulesMove(t, "a3"), proof: c6book.Proof{Status: c6book.StatusDisproved, How: "loss"}}}, true},
		{"a proved reply", []childRow{provedKid(t, "a3a4", 1, []engine.Square{})}, false},
	} {
		p, ok := refutedProof(rulesR, engine.Black, 3, tc.kids)
		if ok != tc.ok || ok && (p.Status != c6book.StatusDisproved || p.How != "reply" || p.PN != c6book.Infinite || p.DN != 0) {
			t.Errorf("%s: %+v %v, want refuted %v", tc.name, p, ok, tc.ok)
		}
	}
}

// Defender to move (White, after "e5 a1a2 e4e6"), attacker Black.
func TestAndProof(t *testing.T) {
	b, list := rulesBoard(t, "e5 a1a2 e4e6")
	cert := &proofcheck.Cert{Attacker: engine.Black}
	item := rulesMove(t, "e3e7")
	item2 := rulesMove(t, "e2e8")
	zone := []engine.Square{rulesR.Sq(8, 8)}
	open := func(items ...engine.Move) *c6book.Verdict {
		v := &c6book.Verdict{Attacker: engine.Black, Status: c6book.StatusOpen, Order: 2, Lambda: 2, Cert: cert, Zone: []engine.Square{rulesR.Sq(4, 4)}}
		for _, m := range items {
			v.Unsolved = append(v.Unsolved, c6book.Unsolved{Move: m})
		}
		return v
	}
	seminull := open()
	seminull.OpenSeminull = []c6book.Unsolved{{Move: rulesMove(t, "e3")}}
	proved := &c6book.Verdict{Attacker: engine.Black, Status: c6book.StatusProved, Order: 1, Lambda: 2, Cert: cert, Zone: []engine.Square{rulesR.Sq(4, 4)}}
	uncertified := *proved
	uncertified.Cert = nil
	otherTol := *proved
	otherTol.Tolerance = 1
	forWhite := *proved
	forWhite.Attacker = engine.White
	for _, tc := range []struct {
		name    string
		kids    []childRow
		v       *c6book.Verdict
		status  c6book.Status
		how     string
		order   int
		pn, dn  int64
		missing int
	}{
		{"no verdict: a leaf for the verifier", nil, nil, c6book.StatusUnknown, "", 0, 1, 1, 0},
		{"the other attacker's verdict", nil, &forWhite, c6book.StatusUnknown, "", 0, 1, 1, 0},
		{"no certificate", nil, &uncertified, c6book.StatusOpen, "", 0, 1, 1, 0},
		{"another tolerance", nil, &otherTol, c6book.StatusOpen, "", 0, 1, 1, 0},
		{"a proved verdict", nil, proved, c6book.StatusProved, "verdict", 1, 0, c6book.Infinite, 0},
		{"an open verdict, its item not stored", nil, open(item), c6book.StatusOpen, "", 0, 1, 1, 1},
		{"an open verdict, its item open", []childRow{kid(t, "e3e7", c6book.StatusOpen, 4, 3)}, open(item), c6book.StatusOpen, "", 0, 4, 3, 0},
		{"items: pn sum, dn min", []childRow{kid(t, "e3e7", c6book.StatusOpen, 4, 3), kid(t, "e2e8", c6book.StatusUnknown, 2, 7)}, open(item, item2), c6book.StatusOpen, "", 0, 6, 3, 0},
		{"its item proved", []childRow{provedKid(t, "e3e7", 2, zone)}, open(item), c6book.StatusProved, "verdict", 2, 0, c6book.Infinite, 0},
		{"an item of a higher order raises it", []childRow{provedKid(t, "e3e7", 3, zone)}, open(item), c6book.StatusProved, "verdict", 3, 0, c6book.Infinite, 0},
		{"an item proved without a zone does not count", []childRow{provedKid(t, "e3e7", 2, nil)}, open(item), c6book.StatusOpen, "", 0, 1, c6book.Infinite, 0},
		{"an open verdict without items", nil, open(), c6book.StatusOpen, "", 0, 1, 1, 0},
		{"an open seminull stone: its position first", nil, seminull, c6book.StatusOpen, "", 0, 1, 1, 1},
		{"a closed seminull stone leaving no move: order 3", []childRow{provedKid(t, "e3", 2, []engine.Square{})}, seminull, c6book.StatusProved, "verdict", 3, 0, c6book.Infinite, 0},
	} {
		p, missing, err := andProof(rulesR, b.Clone(), engine.Black, list, tc.kids, tc.v)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if p.Status != tc.status || p.How != tc.how || p.Order != tc.order || p.PN != tc.pn || p.DN != tc.dn || len(missing) != tc.missing {
			t.Errorf("%s: %s %q order %d pn %d dn %d, %d missing; want %s %q order %d pn %d dn %d, %d missing", tc.name,
				p.Status, p.How, p.Order, p.PN, p.DN, len(missing), tc.status, tc.how, tc.order, tc.pn, tc.dn, tc.missing)
		}
		if p.Status == c6book.StatusProved {
			// The zone: the verdict's and the items'.
			for _, s := range tc.v.Zone {
				if !slices.Contains(p.Zone, s) {
					t.Errorf("%s: zone %v lacks the verdict's square %d", tc.name, p.Zone, s)
				}
			}
			if len(tc.kids) > 0 && len(tc.kids[0].proof.Zone) > 0 && len(p.Zone) < len(tc.v.Zone)+len(zone) {
				t.Errorf("%s: zone %v lacks the item's", tc.name, p.Zone)
			}
		}
	}
}
