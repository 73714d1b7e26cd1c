package game

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Notation follows LittleGolem: a square is a column letter a..z (the letter
// i is used, not skipped) and a row number from 1 at the bottom: "j10" is the
// centre of 19×19. A turn writes its stones together ("j11k10"); a game is the
// turns separated by spaces. Upper case ("J10") is read too. A null move is
// written "-" (a defender turn that places no stone).

// SquareName returns the notation of s ("j10").
func SquareName(r Rules, s Square) string {
	if s < 0 || int(s) >= r.Squares() {
		return fmt.Sprintf("?%d", s)
	}
	x, y := r.XY(s)
	return string(rune('a'+x)) + strconv.Itoa(y+1)
}

// ParseSquare reads one square ("j10" or "J10").
func ParseSquare(r Rules, text string) (Square, error) {
	s, rest, err := ParseSquarePrefix(r, strings.TrimSpace(text))
	if err != nil {
		return NoSquare, err
	}
	if rest != "" {
		return NoSquare, fmt.Errorf("square %q: unexpected %q", ClipText(text, 24), ClipText(rest, 24))
	}
	return s, nil
}

func ParseSquarePrefix(r Rules, t string) (Square, string, error) {
	if t == "" {
		return NoSquare, "", fmt.Errorf("empty square")
	}
	c := t[0]
	if c >= 'A' && c <= 'Z' {
		c += 'a' - 'A'
	}
	if c < 'a' || c > 'z' {
		return NoSquare, "", fmt.Errorf("square %q: column must be a letter a..%c", ClipText(t, 24), 'a'+r.M-1)
	}
	i := 1
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 1 {
		return NoSquare, "", fmt.Errorf("square %q: missing row number", ClipText(t, 24))
	}
	row, err := strconv.Atoi(t[1:i])
	if err != nil || i-1 > 3 {
		return NoSquare, "", fmt.Errorf("square %q: bad row", ClipText(t[:i], 24))
	}
	x, y := int(c-'a'), row-1
	if !r.OnBoard(x, y) {
		return NoSquare, "", fmt.Errorf("square %q is off the %dx%d board", t[:i], r.M, r.N)
	}
	return r.Sq(x, y), t[i:], nil
}

// MoveName writes a turn ("j11k10", "-" for the null move). Stones are
// written in sorted order.
func MoveName(r Rules, m Move) string {
	if m.Len() == 0 {
		return "-"
	}
	var sb strings.Builder
	for i := 0; i < m.Len(); i++ {
		sb.WriteString(SquareName(r, m.At(i)))
	}
	return sb.String()
}

// ParseMove reads one turn ("j11k10", "J11K10", "j10", "-" for null).
func ParseMove(r Rules, text string) (Move, error) {
	sq, err := ParseSquares(r, text)
	if err != nil {
		return Move{}, err
	}
	return MakeMove(sq...)
}

// ParseSquares reads one turn as ParseMove does, its stones in the order
// written ("h12k11": h12, k11; a Move sorts them). "-" has none.
func ParseSquares(r Rules, text string) ([]Square, error) {
	t := strings.TrimSpace(text)
	if t == "-" || t == "" {
		if t == "" {
			return nil, fmt.Errorf("empty move")
		}
		return nil, nil
	}
	var sq []Square
	for t != "" {
		s, rest, err := ParseSquarePrefix(r, t)
		if err != nil {
			return nil, fmt.Errorf("move %q: %w", ClipText(text, 40), err)
		}
		if len(sq) == MaxPerTurn {
			return nil, fmt.Errorf("move %q: more than %d stones", ClipText(text, 40), MaxPerTurn)
		}
		sq = append(sq, s)
		t = rest
	}
	return sq, nil
}

// ParseTurns reads a LittleGolem turn list ("j10 j11k10 ...").
func ParseTurns(r Rules, text string) ([]Move, error) {
	fields := strings.FieldsFunc(text, func(c rune) bool {
		return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ','
	})
	out := make([]Move, 0, len(fields))
	for i, f := range fields {
		m, err := ParseMove(r, f)
		if err != nil {
			return nil, fmt.Errorf("turn %d: %w", i+1, err)
		}
		out = append(out, m)
	}
	return out, nil
}

// FormatTurns writes turns in LittleGolem notation separated by spaces.
func FormatTurns(r Rules, turns []Move) string {
	parts := make([]string, len(turns))
	for i, m := range turns {
		parts[i] = MoveName(r, m)
	}
	return strings.Join(parts, " ")
}

// clipText cuts s to about n bytes (on a rune boundary) with an ellipsis.
func ClipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}
