package proofbook

import (
	"time"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
)

// PosID identifies a position of a book.
type PosID int64

// Child is a stored move of a position and where it leads.
type Child struct {
	Move game.Move // in the parent's canonical frame
	ID   PosID
	// Proofs holds the child's status for Black (index 0) and White (1).
	Proofs [2]c6book.Proof
	Label  string // the child's user label
	Note   bool   // the child has a comment or marks
	// Games counts the imported games through the child position (by any
	// move order or orientation) by result.
	Games c6book.GameStats
}

// Proof returns the child's status for attacker.
func (c Child) Proof(attacker game.Color) c6book.Proof { return c.Proofs[attacker-1] }

// Mark is a board mark or label: a shape and/or a text on a square
// (canonical frame).
type Mark struct {
	Square game.Square      `json:"sq"`
	Shape  c6book.MarkShape `json:"shape,omitempty"`
	Text   string           `json:"text,omitempty"`
}

// Position is everything the book holds about one position. Stones are in
// the canonical frame.
type Position struct {
	ID      PosID
	Key     uint64
	ToMove  game.Color
	Black   []game.Square
	White   []game.Square
	Winner  game.Color
	Comment string
	Label   string
	Marks   []Mark
	Proofs  [2]c6book.Proof // by attacker: index 0 Black, 1 White
	Verdict *c6book.Verdict // the latest verdict, nil if never verified
	Created time.Time
	Updated time.Time // last change of the annotations
}

// Proof returns the position's status for attacker.
func (p Position) Proof(attacker game.Color) c6book.Proof { return p.Proofs[attacker-1] }

// Board returns the position's board in the canonical frame.
func (p Position) Board(r game.Rules) (*board.Board, error) {
	return board.SetUp(r, p.Black, p.White, p.ToMove)
}

// Line is a path of the book: the turns from the empty board in one
// consistent frame (the empty board's), and the positions along it
// (IDs[0] is the root, IDs[i+1] is reached by Turns[i]).
type Line struct {
	Turns []game.Move
	IDs   []PosID
}

// Ranked is a position in a ranked list (open positions by proof number,
// proved positions).
type Ranked struct {
	ID     PosID
	Proof  c6book.Proof
	Label  string
	Stones int
	ToMove game.Color
	// Turns is the line from the root in the position's stable display
	// orientation (see StableTurns; ShortLine for a list row): open the
	// position by playing it.
	Turns []game.Move
}

// Hit is a comment search (or label) result.
type Hit struct {
	ID      PosID
	Comment string
	Label   string
	Stones  int
	ToMove  game.Color
	// Proofs holds the position's status for Black (index 0) and White (1).
	Proofs [2]c6book.Proof
	// Turns is the line from the root in the position's stable display
	// orientation (see StableTurns), in which the comment's squares are
	// meant when it was written on a line from a game.
	Turns []game.Move
}

// Proof returns the hit's status for attacker.
func (h Hit) Proof(attacker game.Color) c6book.Proof { return h.Proofs[attacker-1] }

// Stats counts a book's contents.
type Stats struct {
	Rules     game.Rules
	Positions int64
	Edges     int64
	Games     int64
	Notes     int64
	Verdicts  int64
	Proved    [2]int64 // by attacker, every order (game ends too)
	// ProvedByOrder splits Proved by the proof's λ order (index 0: game
	// ends, the attacker has won; 1..3), so that Proved[a] minus
	// ProvedByOrder[a][0] is what `open --proved` lists by default.
	ProvedByOrder [2][4]int64
	Open          [2]int64
	Disproved     [2]int64
	// Unchecked: the proved positions while the proofs were changed
	// outside the program since the last check (Proved is then zero; see
	// ProofsChecked).
	Unchecked [2]int64
	Schema    int
	FileBytes int64 // main file + WAL
}
