package session

import (
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
)

// A picture without the overlay holds the stones only; with it, the
// verdict's items and null-move zone, the replies and the marks.
func TestPictureOf(t *testing.T) {
	r := game.Connect6()
	b, err := board.ReplayText(r, "j10 i9k9")
	if err != nil {
		t.Fatal(err)
	}
	item := game.NewMove(r.Sq(1, 1), r.Sq(2, 2))
	info := Position{Found: true, Marks: map[game.Square]string{r.Sq(0, 0): "A"},
		Verdict: &c6book.Verdict{Attacker: game.Black, Status: c6book.StatusOpen, Unsolved: []c6book.Unsolved{{Move: item}}, NullZone: []game.Square{r.Sq(3, 3)}}}
	kids := []Child{{Move: game.NewMove(r.Sq(4, 4), r.Sq(5, 5))}}
	bare := PictureOf(b, info, kids, false)
	if bare.Pos != b || bare.Overlay || bare.Children != nil || bare.Marks != nil || bare.Unsolved != nil || bare.Zone != nil {
		t.Fatalf("without the overlay: %+v", bare)
	}
	p := PictureOf(b, info, kids, true)
	if !p.Overlay || len(p.Children) != 1 || p.Marks[r.Sq(0, 0)] != "A" || len(p.Unsolved) != 1 || p.Unsolved[0] != item || len(p.Zone) != 1 || p.Zone[0] != r.Sq(3, 3) {
		t.Fatalf("with the overlay: %+v", p)
	}
}
