package bookfile

import (
	"c6book/internal/booktest"
	"context"
	"testing"

	"c6book/engine/game"
)

// An SGF game record (PB, PW or RE on its root) counts its main line as a
// game, with the result on the board or in RE; an opening tree without
// them counts nothing; importing a record again changes nothing.
func TestSGFGameRecords(t *testing.T) {
	ctx := context.Background()
	bk := booktest.NewBook(t, game.Connect6())
	const records = `(;FF[4]SZ[19]PB[alice]PW[bob]RE[W+R];B[j10];W[j11k10](;B[l11m9];W[k12l12])(;B[h8h9]))
(;FF[4]SZ[19]RE[B+R];B[j10];W[j11k10];B[h8h9])`
	st, err := ImportSGF(ctx, bk, records)
	if err != nil {
		t.Fatal(err)
	}
	if st.Recorded != 2 || st.Already != 0 {
		t.Fatalf("first import: %+v, want 2 game records", st)
	}
	wantGames(t, bk, "", 2, 1, 1)
	wantGames(t, bk, "j10 j11k10", 2, 1, 1)
	wantGames(t, bk, "j10 j11k10 l11m9 k12l12", 1, 0, 1) // the first record's main line
	wantGames(t, bk, "j10 j11k10 h8h9", 1, 1, 0)         // a variation of the first, the second's line
	id, _ := booktest.Locate(t, bk, "j10 j11k10 h8h9")
	gs, total, err := bk.GamesThrough(ctx, id, GamesQuery{})
	if err != nil || total != 1 || gs[0].Source != sgfGameSource || gs[0].Turns != 3 || gs[0].Result != game.Black {
		t.Fatalf("games through the second record's end: %+v (%d) %v", gs, total, err)
	}
	// Again, and an opening tree without a player or a result.
	st, err = ImportSGF(ctx, bk, records+`(;FF[4]SZ[19];B[j10];W[i9k11];B[h8h9])`)
	if err != nil {
		t.Fatal(err)
	}
	if st.Recorded != 0 || st.Already != 2 {
		t.Fatalf("second import: %+v, want the 2 records already there and none new", st)
	}
	wantGames(t, bk, "", 2, 1, 1)
	wantGames(t, bk, "j10 i9k11", 0, 0, 0)
	// A six on the board decides the result whatever RE says.
	bk2 := booktest.NewBook(t, game.Rules{M: 9, N: 9, K: 4, P: 2, Q: 1})
	if _, err := ImportSGF(ctx, bk2, `(;FF[4]SZ[9]RU[9,9,4,2,1]PB[x]RE[W+R];B[aa];W[iaic];B[bbcc];W[ieig];B[ddhh])`); err != nil {
		t.Fatal(err)
	}
	wantGames(t, bk2, "", 1, 1, 0)
	booktest.MustCheck(t, bk)
	booktest.MustCheck(t, bk2)
}
