package bookmerge

import (
	"fmt"
	"strings"

	"c6book/engine/game"
	"c6book/proofbook"
)

// Phase is a step of a merge or split, in order.
type Phase string

// The steps of a merge or split.
const (
	PhasePositions Phase = "positions" // positions, moves and notes
	PhaseGames     Phase = "games"     // the games through them
	PhaseVerdicts  Phase = "verdicts"  // verdicts, each certificate re-checked
	PhaseFlags     Phase = "flags"     // the expert's disproof flags and holds
)

// Progress is how far a merge or split is: the phase and how much of it
// is done. The last report has Final set (Err says how it ended when it
// did not finish).
type Progress struct {
	Phase Phase
	Done  int
	Total int
	Final bool
	Err   error
}

// Refusal is why a merge or split did not store a verdict.
type Refusal int

const (
	// RefusedOther: the store refused it for another reason (it forgets
	// a defender move, claims more than it proves...).
	RefusedOther Refusal = iota
	// RefusedCertificate: its certificate does not check (proofcheck).
	RefusedCertificate
	// RefusedUnreadable: the source's verdict or certificate cannot be
	// read.
	RefusedUnreadable
	// RefusedNoPosition: its position was not merged.
	RefusedNoPosition
)

func (r Refusal) String() string {
	switch r {
	case RefusedCertificate:
		return "certificate does not check"
	case RefusedUnreadable:
		return "unreadable"
	case RefusedNoPosition:
		return "position not merged"
	}
	return "refused by the book"
}

// RefusedVerdict is a verdict of the source book that was not stored:
// where (the source's position, and the line from the empty board to it
// as its games were played), for whom, and why.
type RefusedVerdict struct {
	Rules    game.Rules      // the books' rules (for Line)
	Pos      proofbook.PosID // the position in the source book
	Turns    []game.Move     // the line to it (HasLine: one was found)
	HasLine  bool
	Attacker game.Color // Empty: the verdict could not be read
	Why      Refusal
	// Err is the store's (or the reader's) error; nil for
	// RefusedNoPosition.
	Err error
}

// Line is the line to the refused verdict's position: its turns, "(empty
// board)", or "position N" when no stored line reaches it.
func (r RefusedVerdict) Line() string {
	switch {
	case !r.HasLine:
		return fmt.Sprintf("position %d", r.Pos)
	case len(r.Turns) == 0:
		return "(empty board)"
	}
	return game.FormatTurns(r.Rules, r.Turns)
}

// Reason says why in a line: the store's words, or that its position was
// not merged.
func (r RefusedVerdict) Reason() string {
	if r.Err == nil {
		return "its position was not merged"
	}
	return oneLine(r.Err.Error())
}

// String is "line (attacker): reason".
func (r RefusedVerdict) String() string {
	return fmt.Sprintf("%s (%s): %s", r.Line(), r.Attacker, r.Reason())
}

// oneLine puts s on one line of at most 200 bytes.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		s = s[:199] + "…"
	}
	return s
}

// MaxRefusedListed bounds Summary.Refused (the count is exact).
const MaxRefusedListed = 1000

// Summary says what a merge (or a split) added to the receiving book.
type Summary struct {
	Positions int // new positions (moves and games)
	Moves     int // new moves (moves and games)
	Notes     int // notes added or extended
	// Games stored, games the book had already, and games the source
	// holds without their turns (an old book's), which cannot be merged.
	Games        int
	GamesAlready int
	GamesSkipped int
	GamesNoTurns int
	// Verdicts stored (their certificates checked), of which Uncertified
	// carry no certificate (stored, proving nothing, as the source held
	// them); VerdictsAlready: the same verdict was there; VerdictsKept:
	// the book's own verdict was kept (it proves as much or more).
	Verdicts        int
	Uncertified     int
	VerdictsAlready int
	VerdictsKept    int
	// RefusedCount verdicts were not stored (their certificate does not
	// check, ...); Refused lists the first MaxRefusedListed of them.
	RefusedCount int
	Refused      []RefusedVerdict
	// Moves and positions of the source that were not copied (a move
	// illegal on its position, stones not in canonical form): their count
	// and the first reason.
	BadMoves     int
	BadPositions int
	FirstBad     string
	Disproofs    int // expert disproof flags set
	Holds        int // expert holds set
	AutoMoves    int // new moves marked as the auto-pilot's, as in the source
	Transactions int
}

// Counts says what a merge or split added, in a few lines for a person:
// the counts, and last either "no verdict refused" or the heading of the
// refused verdicts (Refused lists them: RefusedVerdict.String).
func (s Summary) Counts() []string {
	out := []string{
		fmt.Sprintf("%s, %s, %s added or extended", count(s.Positions, "new position"), count(s.Moves, "new move"), count(s.Notes, "note")),
		fmt.Sprintf("%s added, %d already in the book", count(s.Games, "game"), s.GamesAlready),
		fmt.Sprintf("%s imported (certificates re-checked by proofcheck), %d already there, %d kept (the book's own proves as much)",
			count(s.Verdicts, "verdict"), s.VerdictsAlready, s.VerdictsKept),
	}
	if s.Uncertified > 0 {
		out = append(out, fmt.Sprintf("%d of the imported verdicts carry no certificate: stored, they prove nothing", s.Uncertified))
	}
	if s.GamesSkipped > 0 || s.GamesNoTurns > 0 {
		out = append(out, fmt.Sprintf("%s skipped (illegal moves), %d without their turns (an old book's) not merged", count(s.GamesSkipped, "game"), s.GamesNoTurns))
	}
	if s.Disproofs > 0 || s.Holds > 0 {
		out = append(out, fmt.Sprintf("%s and %s carried", count(s.Disproofs, "expert disproof"), count(s.Holds, "hold")))
	}
	if s.AutoMoves > 0 {
		out = append(out, fmt.Sprintf("%s marked as the auto-pilot's, as in the other book", count(s.AutoMoves, "new move")))
	}
	if s.BadMoves > 0 || s.BadPositions > 0 {
		out = append(out, fmt.Sprintf("%s and %s of the other book not copied (first: %s)", count(s.BadMoves, "move"), count(s.BadPositions, "position"), s.FirstBad))
	}
	if s.RefusedCount == 0 {
		return append(out, "no verdict refused")
	}
	return append(out, fmt.Sprintf("%s REFUSED (the proof does not check; not imported):", count(s.RefusedCount, "verdict")))
}

// Describe is Counts followed by the refused verdicts, indented, at most
// maxRefused of them (0: all listed), then how many more there are.
func (s Summary) Describe(maxRefused int) []string {
	out := s.Counts()
	for i, r := range s.Refused {
		if maxRefused > 0 && i >= maxRefused {
			return append(out, fmt.Sprintf("  ... and %d more", s.RefusedCount-i))
		}
		out = append(out, "  "+r.String())
	}
	if s.RefusedCount > len(s.Refused) {
		out = append(out, fmt.Sprintf("  ... and %d more", s.RefusedCount-len(s.Refused)))
	}
	return out
}

// count is "1 verdict", "2 verdicts".
func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
