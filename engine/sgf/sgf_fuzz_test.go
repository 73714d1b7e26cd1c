package sgf

import (
	"errors"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
)

// FuzzParseSGF: any input either parses or gives an *SGFError, never a
// panic; a parsed tree writes out as SGF that parses to the same tree; and
// GameFromSGF on it either fails with an error or returns turns that replay
// legally.
func FuzzParseSGF(f *testing.F) {
	seeds := []string{
		littleGolemSGF,
		"(;FF[4]SZ[19];B[jj];W[JIKJ];B[resign])",
		"(;FF[4];B[j10](;W[j11k10];B[a1a2])(;W[s1s2]))\n(;FF[4];B[a1])",
		"(;FF[4]RU[7,7,4,2,1]SZ[7];B[d4];W[a1a2];B[b2c3])",
		"(;FF[4]SZ[15:11];B[h6];W[])",
		"(;FF[4]C[a \\] b \\\\ c];B[j10])",
		"(;FF[4]SZ[26];B[z26];W[a1a26])",
		"(;B[j10",
		"(;B[\u212a\u212a])",
		"(;FF[4]SZ[4];B[aa];W[bbcc];B[ddcd])",
		"(;FF[4]RU[19,19,6,7,1];B[j10])",
		"(;FF[4]SZ[0])",
		";;;((()))",
		"(;GM[1]SZ[19];B[jj];W[aa][ab];B[jk][jl])",
		"(;SZ[19];B[jj];W[aa:ab];B[j9][jl])",
		"(;SZ[19]AB[jj];W[aa][ab])",
		"(;FF[4]SZ[19];B[];W[j11k10])",
		"(;FF[4]SZ[19];B[ ];W[j11k10])",
		"(;FF[4]SZ[19];B[A1];W[j011k10])",
		"(;B[j10](;W[a1a2]);B[c1])",
		"(;C[a\nb]B[pass])",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		roots, err := ParseSGF(data)
		if err != nil {
			var se *SGFError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not an *SGFError", err)
			}
			if se.Offset < 0 || se.Offset > len(data) {
				t.Fatalf("error offset %d outside the input (%d bytes)", se.Offset, len(data))
			}
			return
		}
		if len(roots) == 0 {
			t.Fatal("no error and no game tree")
		}
		for _, root := range roots {
			out := WriteSGF(root)
			again, err := ParseSGF(out)
			if err != nil || len(again) != 1 {
				t.Fatalf("WriteSGF output does not parse: %v\n%q", err, out)
			}
			if WriteSGF(again[0]) != out {
				t.Fatalf("write/parse/write is not stable:\n%q\n%q", out, WriteSGF(again[0]))
			}
			r, turns, err := GameFromSGF(root, game.Connect6())
			if err != nil {
				continue
			}
			b, err := board.Replay(r, turns)
			if err != nil {
				t.Fatalf("GameFromSGF accepted turns that do not replay: %v", err)
			}
			// And the game written by GameToSGF reads back the same.
			back, err := ParseSGF(GameToSGF(r, turns))
			if err != nil {
				t.Fatal(err)
			}
			r2, turns2, err := GameFromSGF(back[0], game.Connect6())
			if err != nil || r2 != r || len(turns2) != len(turns) {
				t.Fatalf("GameToSGF round trip: %v %v %d/%d", err, r2, len(turns2), len(turns))
			}
			for i := range turns {
				if turns[i] != turns2[i] {
					t.Fatalf("GameToSGF round trip: turn %d differs", i+1)
				}
			}
			_ = b
		}
	})
}
