package proofbook

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"c6book/engine"
	"c6book/proofcheck"
)

// Verdict is the stored form of a verifier verdict: the fields the book
// needs, with moves and squares in the position's canonical frame. It is
// kept as JSON so the verifier can evolve without schema changes.
type Verdict struct {
	Attacker      engine.Color    `json:"attacker"`
	Status        string          `json:"status"` // engine.StatusProved or engine.StatusOpen
	Order         int             `json:"order"`
	Lambda        int             `json:"lambda,omitempty"`
	Unsolved      []Unsolved      `json:"unsolved,omitempty"`
	AllUnsolved   bool            `json:"all_unsolved,omitempty"`
	OpenSeminull  []Unsolved      `json:"open_seminull,omitempty"`
	NullZone      []engine.Square `json:"null_zone,omitempty"`
	SeminullZones []Zone          `json:"seminull_zones,omitempty"`
	Calls         int             `json:"calls"`
	Nodes         int64           `json:"nodes"`
	Millis        int64           `json:"ms"`
	Engine        string          `json:"engine"`
	Note          string          `json:"note,omitempty"`
	// Tolerance is the number of extra defender stones the verdict's zone
	// tolerates: the position's defender stone deficit when it was
	// verified (a verdict at another tolerance proves nothing here).
	Tolerance int `json:"tol,omitempty"`
	// Zone is the verdict's relevance zone at Tolerance (see
	// engine.Verdict.Zone), united with the zone the checker computed.
	Zone []engine.Square `json:"zone,omitempty"`
	// Covered lists the full defender moves refuted one by one (packed).
	Covered []int64 `json:"covered,omitempty"`
	// Cert is the certificate, stored apart (verdict.cert): without it the
	// verdict proves nothing.
	Cert    *proofcheck.Cert `json:"-"`
	Created time.Time        `json:"-"`
}

// Unsolved is a defender move the verifier could not refute.
type Unsolved struct {
	Move   engine.Move `json:"move"`
	Reason string      `json:"reason,omitempty"`
}

// ReasonText says in words why a defender move is unsolved (the reason
// codes of engine.Result.Reason and of the verifier).
func ReasonText(reason string) string {
	switch reason {
	case engine.ReasonBudget:
		return "out of budget (the node or time limit of its solver call)"
	case engine.ReasonExhausted:
		return "no win in the threat space (the solver searched it all)"
	case engine.ReasonLoss:
		return "the defender threatens more than the attacker can block"
	case engine.ReasonCancelled:
		return "cancelled before it was solved"
	case "":
		return "not refuted (no reason recorded)"
	}
	return reason
}

// Why says in words why the move is unsolved.
func (u Unsolved) Why() string { return ReasonText(u.Reason) }

// Zone is the zone of a refuted seminull reply.
type Zone struct {
	Stone engine.Square   `json:"stone"`
	Zone  []engine.Square `json:"zone"`
}

// Items are the moves the stored verdict leaves to the book: every unsolved
// reply and every open seminull position. A defender-to-move position is
// proved when its verdict is proved and each item is a stored, proved child.
func (v *Verdict) Items() []engine.Move {
	out := make([]engine.Move, 0, len(v.Unsolved)+len(v.OpenSeminull))
	for _, u := range v.Unsolved {
		out = append(out, u.Move)
	}
	for _, u := range v.OpenSeminull {
		out = append(out, u.Move)
	}
	return out
}

// Closed reports whether the verdict's zone argument bounds the defence:
// the verifier ran to the end and did not leave every move open.
func (v *Verdict) Closed() bool {
	return !v.AllUnsolved && (v.Status == engine.StatusProved || v.Status == engine.StatusOpen)
}

// Certified reports whether the verdict can count in a proof: it bounds the
// defence, carries a certificate, and was made at tolerance tol.
func (v *Verdict) Certified(tol int) bool {
	return v.Closed() && v.Cert != nil && v.Tolerance == tol
}

// refutes reports whether the verdict itself accounts for the full defender
// move (s, x) where s is one of its open seminull stones: x is a refuted
// seminull stone whose zone does not hold s, or the move was refuted one
// by one. (Neither stone being outside the null zone, the null strategy
// never applies; s blocks every threat window, so no immediate win does.)
func (v *Verdict) refutes(s, x engine.Square) bool {
	if _, ok := slices.BinarySearch(v.Covered, packMove(engine.NewMove(s, x))); ok {
		return true
	}
	for _, z := range v.SeminullZones {
		if z.Stone == x && !slices.Contains(z.Zone, s) {
			return true
		}
	}
	return false
}

// FromEngine converts an engine verdict for a board whose CanonicalKey
// symmetry is sym into the stored form (canonical frame).
func FromEngine(r engine.Rules, sym int, v engine.Verdict, lambda int) Verdict {
	sq := func(list []engine.Square) []engine.Square {
		out := make([]engine.Square, len(list))
		for i, s := range list {
			out[i] = r.Transform(sym, s)
		}
		return out
	}
	out := Verdict{
		Attacker: v.Attacker, Status: v.Status, Order: v.Order, Lambda: lambda,
		AllUnsolved: v.AllUnsolved, NullZone: sq(v.NullZone),
		Calls: v.Calls, Nodes: v.Nodes, Millis: v.Elapsed.Milliseconds(),
		Engine: v.Engine, Note: v.Note, Tolerance: v.Tolerance, Zone: sq(v.Zone),
		Cert: proofcheck.FromVerdict(&v).Transform(r, sym),
	}
	for _, c := range v.Covered {
		out.Covered = append(out.Covered, packMove(r.TransformMove(sym, c.Move)))
	}
	slices.Sort(out.Covered)
	slices.Sort(out.Zone)
	slices.Sort(out.NullZone)
	for _, u := range v.Unsolved {
		out.Unsolved = append(out.Unsolved, Unsolved{Move: r.TransformMove(sym, u.Move), Reason: u.Reason})
	}
	for _, u := range v.OpenSeminull {
		out.OpenSeminull = append(out.OpenSeminull, Unsolved{Move: r.TransformMove(sym, u.Move), Reason: u.Reason})
	}
	for _, z := range v.SeminullZones {
		out.SeminullZones = append(out.SeminullZones, Zone{Stone: r.Transform(sym, z.Stone), Zone: sq(z.Zone)})
	}
	return out
}

func marshalVerdict(v Verdict) (string, error) {
	data, err := json.Marshal(v)
	return string(data), err
}

func unmarshalVerdict(data string) (Verdict, error) {
	var v Verdict
	if err := json.Unmarshal([]byte(data), &v); err != nil {
		return Verdict{}, fmt.Errorf("stored verdict: %w", err)
	}
	return v, nil
}

// MarshalJSON stores the move packed (see packMove).
func (u Unsolved) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Move   int64  `json:"move"`
		Reason string `json:"reason,omitempty"`
	}{packMove(u.Move), u.Reason})
}

// UnmarshalJSON reads a packed move.
func (u *Unsolved) UnmarshalJSON(data []byte) error {
	var j struct {
		Move   int64  `json:"move"`
		Reason string `json:"reason,omitempty"`
	}
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	m, err := unpackMove(j.Move)
	if err != nil {
		return err
	}
	u.Move, u.Reason = m, j.Reason
	return nil
}
