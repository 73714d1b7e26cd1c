package c6book

import (
	"fmt"
	"time"

	"c6book/engine/game"
)

// Status is the proof status of a position for one attacker. Its JSON is
// its name ("unknown", "open", "proved", "disproved").
type Status int

// Proof statuses.
const (
	StatusUnknown   Status = iota // nothing known
	StatusOpen                    // work in progress: a verdict with unsolved replies below
	StatusProved                  // the attacker wins (by the stored verdicts and moves)
	StatusDisproved               // an expert (or a stored defender win) says the attacker does not win
	// StatusUnchecked is never stored: the book shows a stored proof so
	// when its proofs were changed outside the program since the last
	// check (their digest does not match), until `check` re-checks them.
	StatusUnchecked
)

func (s Status) String() string {
	switch s {
	case StatusOpen:
		return "open"
	case StatusProved:
		return "proved"
	case StatusDisproved:
		return "disproved"
	case StatusUnchecked:
		return "unchecked"
	}
	return "unknown"
}

// MarshalText writes the status's name.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a status's name.
func (s *Status) UnmarshalText(text []byte) error {
	for st := StatusUnknown; st <= StatusUnchecked; st++ {
		if st.String() == string(text) {
			*s = st
			return nil
		}
	}
	return fmt.Errorf("unknown status %q", text)
}

// Infinite is the proof (or disproof) number of a disproved (or proved)
// position.
const Infinite int64 = 1 << 40

// Proof is a position's proof status for one attacker, with its proof and
// disproof numbers over the book's DAG (a position nobody worked on is a
// leaf, 1/1).
type Proof struct {
	Attacker game.Color `json:"attacker"`
	Status   Status     `json:"status"`
	Order    int        `json:"order"`         // λ order of the proof when proved (0: the attacker has already won)
	How      ProofHow   `json:"how,omitempty"` // what it rests on (HowWin…); HowNone when undecided
	Expert   bool       `json:"expert,omitempty"`
	PN       int64      `json:"pn"`
	DN       int64      `json:"dn"`
	Updated  time.Time  `json:"-"`
	// Zone is the relevance zone of a proved position (canonical frame) at
	// its tolerance, the defender's stone deficit; nil when not proved.
	Zone []game.Square `json:"zone,omitempty"`
}
