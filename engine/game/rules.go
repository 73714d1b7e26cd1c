package game

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxSide is the largest board side supported (columns are lettered a..z).
const MaxSide = 26

// MaxPerTurn is the largest number of stones a single turn may place (p and q).
const MaxPerTurn = 4

// Rules describe Connect(m,n,k,p,q): an M×N board (M columns, N rows), K or
// more in a row wins, P stones a turn, Q stones on Black's first turn.
type Rules struct {
	M, N, K, P, Q int
}

// Connect6 returns the standard rules (19,19,6,2,1).
func Connect6() Rules { return Rules{M: 19, N: 19, K: 6, P: 2, Q: 1} }

// Validate reports whether the rules are supported.
func (r Rules) Validate() error {
	switch {
	case r.M < 1 || r.N < 1 || r.M > MaxSide || r.N > MaxSide:
		return fmt.Errorf("board %dx%d out of range (1..%d)", r.M, r.N, MaxSide)
	case r.K < 2:
		return fmt.Errorf("k=%d: need at least 2 in a row", r.K)
	case r.K > r.M && r.K > r.N:
		return fmt.Errorf("k=%d does not fit on a %dx%d board", r.K, r.M, r.N)
	case r.P < 1 || r.P > MaxPerTurn:
		return fmt.Errorf("p=%d out of range (1..%d)", r.P, MaxPerTurn)
	case r.Q < 1 || r.Q > MaxPerTurn:
		return fmt.Errorf("q=%d out of range (1..%d)", r.Q, MaxPerTurn)
	case r.P >= r.K:
		return fmt.Errorf("p=%d must be less than k=%d", r.P, r.K)
	}
	return nil
}

// String renders the rules as "m,n,k,p,q".
func (r Rules) String() string {
	return fmt.Sprintf("%d,%d,%d,%d,%d", r.M, r.N, r.K, r.P, r.Q)
}

// ParseRules reads "m,n,k,p,q".
func ParseRules(s string) (Rules, error) {
	parts := strings.Split(strings.TrimSpace(s), ",")
	if len(parts) != 5 {
		return Rules{}, fmt.Errorf("rules %q: want m,n,k,p,q", s)
	}
	var v [5]int
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil {
			return Rules{}, fmt.Errorf("rules %q: %q is not a number", s, p)
		}
		v[i] = n
	}
	r := Rules{M: v[0], N: v[1], K: v[2], P: v[3], Q: v[4]}
	if err := r.Validate(); err != nil {
		return Rules{}, fmt.Errorf("rules %q: %w", s, err)
	}
	return r, nil
}

// StonesForTurn is the number of stones turn t places (t = 0 is Black's first turn).
func (r Rules) StonesForTurn(t int) int {
	if t == 0 {
		return r.Q
	}
	return r.P
}

// ThreatLevel is the number of own stones an active window needs to count
// as a threat window: k-p.
func (r Rules) ThreatLevel() int { return r.K - r.P }

// Squares is the number of squares on the board.
func (r Rules) Squares() int { return r.M * r.N }

// Color is the content of a square or a player.
type Color int8

// Colors. Black moves first.
const (
	Empty Color = 0
	Black Color = 1
	White Color = 2
)

// Opp returns the other player (Black <-> White).
func (c Color) Opp() Color { return 3 - c }

// String is "B", "W" or ".".
func (c Color) String() string {
	switch c {
	case Black:
		return "B"
	case White:
		return "W"
	}
	return "."
}

// ParseColor reads "B"/"W" (also "black"/"white", any case).
func ParseColor(s string) (Color, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "b", "black":
		return Black, nil
	case "w", "white":
		return White, nil
	}
	return Empty, fmt.Errorf("colour %q: want B or W", s)
}
