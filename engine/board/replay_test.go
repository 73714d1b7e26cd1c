package board

import (
	"errors"
	"runtime/debug"
	"testing"

	"c6book/internal/testenv"

	"c6book/engine/game"
)

// makesRow reports, by walking the lines through the stones of m, whether
// they give c k or more in a row (independent of the board's window counts).
func makesRow(b *Board, m game.Move, c game.Color) bool {
	r := b.rules
	for i := 0; i < m.Len(); i++ {
		x0, y0 := r.XY(m.At(i))
		for _, dv := range [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
			n := 1
			for _, sgn := range []int{1, -1} {
				for j := 1; ; j++ {
					x, y := x0+sgn*dv[0]*j, y0+sgn*dv[1]*j
					if !r.OnBoard(x, y) || b.At(r.Sq(x, y)) != c {
						break
					}
					n++
				}
			}
			if n >= r.K {
				return true
			}
		}
	}
	return false
}

// raceEnabled reports whether the test binary was built with -race (read
// from the build settings, so no build tags are needed).
func raceEnabled() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range bi.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}

// Every LittleGolem game replays legally, nobody has won before the last
// turn, and a last turn that makes six is detected as the mover's win.
//
// Without the race detector the whole file is replayed (about 2 s). Under
// -race, where every memory access is instrumented, a fixed half of it
// (every second game by gid) is: the same assertions on 18k games.
func TestReplayLittleGolemGames(t *testing.T) {
	testenv.Heavy(t)
	gids, games := LoadLGGames(t)
	if len(gids) < 30000 {
		t.Fatalf("only %d games in the file", len(gids))
	}
	if raceEnabled() {
		half := gids[:0:0]
		for i := 0; i < len(gids); i += 2 {
			half = append(half, gids[i])
		}
		gids = half
		t.Logf("race detector on: replaying every second game")
	}
	r := game.Connect6()
	start := MustNewBoard(r)
	empty := boardSnapshot(start)
	sixes, resigned, stones := 0, 0, 0
	for gi, gid := range gids {
		turns := games[gid]
		b := start.Clone()
		for i, text := range turns {
			m, err := game.ParseMove(r, text)
			if err != nil {
				t.Fatalf("game %s turn %d %q: %v", gid, i+1, text, err)
			}
			if w := b.Winner(); w != game.Empty {
				t.Fatalf("game %s: %s has won before turn %d", gid, w, i+1)
			}
			mover := b.ToMove()
			if err := b.Play(m); err != nil {
				var me *MoveError
				if !errors.As(err, &me) {
					t.Fatalf("game %s turn %d: %v is not a *MoveError", gid, i+1, err)
				}
				t.Fatalf("game %s turn %d %q: %v", gid, i+1, text, err)
			}
			stones += m.Len()
			if i == len(turns)-1 {
				if makesRow(b, m, mover) {
					sixes++
					if b.Winner() != mover {
						t.Fatalf("game %s: the last turn %s makes six for %s but Winner() = %s", gid, text, mover, b.Winner())
					}
				} else {
					resigned++
					if b.Winner() != game.Empty {
						t.Fatalf("game %s: Winner() = %s without a six", gid, b.Winner())
					}
				}
			}
		}
		// Every 16th game is taken back turn by turn to the empty board.
		if gi%16 == 0 {
			for b.Turn() > 0 {
				if err := b.Undo(); err != nil {
					t.Fatal(err)
				}
			}
			if d := boardSnapshot(b).diff(empty); d != "" {
				t.Fatalf("game %s: undoing every turn did not restore the empty board: %s", gid, d)
			}
		}
	}
	t.Logf("%d games, %d stones: %d end with a six, %d without", len(gids), stones, sixes, resigned)
	if len(gids) < 15000 {
		t.Fatalf("only %d games replayed", len(gids))
	}
	if sixes < len(gids)/10 {
		t.Fatalf("only %d games end with a six: the detection is suspect", sixes)
	}
}
