package main

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
)

func runVerify(t *testing.T, args ...string) (verifyOutput, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"verify"}, args...), &out, &errb)
	if code != 0 {
		t.Fatalf("c6 verify %v: exit %d: %s", args, code, errb.String())
	}
	var v verifyOutput
	if err := json.Unmarshal(out.Bytes(), &v); err != nil {
		t.Fatalf("c6 verify %v: bad JSON %q: %v", args, out.String(), err)
	}
	return v, errb.String()
}

func TestVerifyCommandProvedThreat(t *testing.T) {
	out, _ := runVerify(t, "--rules", "9,9,5,2,1", "--turns", "e5 e4e6 d5f5", "--json")
	v := out.Verdict
	if v.Status != c6book.StatusProved || v.Order != 1 || v.Threats != 2 || len(v.Unsolved) != 0 || v.Calls == 0 || v.Names.Attacker != "B" || out.ToMove != "W" || !v.Certificate {
		t.Fatalf("verdict: %+v", out)
	}
	if len(v.Covered) == 0 {
		t.Fatal("no covered defender moves listed")
	}
}

func TestVerifyCommandProvedQuiet(t *testing.T) {
	for _, lambda := range []string{"2", "3"} {
		out, _ := runVerify(t, "--rules", "9,9,5,2,1", "--turns", "e5 a1a2 e4d4", "--lambda", lambda, "--json")
		v := out.Verdict
		if v.Status != c6book.StatusProved || v.Order != 2 || v.Threats != 0 || len(v.NullZone) == 0 || len(v.Names.NullZone) != len(v.NullZone) || len(v.SeminullZones) == 0 {
			t.Fatalf("λ%s verdict: %+v", lambda, v)
		}
		if v.Lambda != int(lambda[0]-'0') {
			t.Fatalf("lambda %d, asked %s", v.Lambda, lambda)
		}
	}
}

// An open verdict lists unsolved defender moves as legal moves of the
// position, with a reason each, and does not depend on the worker count.
func TestVerifyCommandOpen(t *testing.T) {
	r, _ := game.ParseRules("9,9,5,2,1")
	turns := "e5 e4e6 d5d4"
	b, err := board.ReplayText(r, turns)
	if err != nil {
		t.Fatal(err)
	}
	var prev *verdictJSON
	for _, w := range []string{"1", "2"} {
		out, _ := runVerify(t, "--rules", "9,9,5,2,1", "--turns", turns, "--workers", w, "--max-nodes", "20000", "--json")
		v := out.Verdict
		if v.Status != c6book.StatusOpen || v.Order != 2 || len(v.Unsolved) == 0 || len(v.Unsolved) != len(v.Names.Unsolved) || v.AllUnsolved {
			t.Fatalf("verdict: %+v", v)
		}
		for i, u := range v.Names.Unsolved {
			m, err := game.ParseMove(r, u)
			if err != nil || m.Len() != 2 {
				t.Fatalf("unsolved %q: %v", u, err)
			}
			for j := 0; j < m.Len(); j++ {
				if b.At(m.At(j)) != game.Empty {
					t.Fatalf("unsolved %q: occupied square", u)
				}
			}
			if m != v.Unsolved[i].Move {
				t.Fatalf("unsolved %q is not the verdict's move %v", u, v.Unsolved[i].Move)
			}
			if r := v.Unsolved[i].Reason; r != threat.ReasonBudget && r != threat.ReasonExhausted {
				t.Fatalf("reason %q", r)
			}
		}
		if prev != nil {
			a, b := *prev, v
			a.Millis, b.Millis = 0, 0
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			if !bytes.Equal(ja, jb) {
				t.Fatalf("workers 1 and 2 differ:\n%s\n%s", ja, jb)
			}
		}
		prev = &v
	}
}

func TestVerifyCommandText(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"verify", "--rules", "9,9,5,2,1", "--turns", "e5 a1a2 e4d4"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "proved: B wins (λ2)") || errb.Len() != 0 {
		t.Fatalf("stdout %q, stderr %q (no progress when stderr is not a terminal)", out.String(), errb.String())
	}
}

func TestVerifyCommandErrors(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"--turns", "j10", "--lambda", "4"},
		{"--turns", "j10", "--max-nodes", "0"},
		{"--turns", "j10", "--workers", "-1"},
		{"--turns", "j10 j10k10"},
		{"--rules", "9,9,5,2", "--turns", "e5"},
		{"--turns", "j10", "extra"},
	} {
		var out, errb bytes.Buffer
		code := run(append([]string{"verify"}, args...), &out, &errb)
		if code == 0 || out.Len() != 0 || errb.Len() == 0 {
			t.Errorf("c6 verify %v: exit %d, stdout %q, stderr %q", args, code, out.String(), errb.String())
		}
	}
}

// The prover runs in one frame: a position entered in any of its 8
// orientations gets the same verdict, mapped, from c6 verify and from
// c6 book verify.
func TestVerifyOrientationIndependent(t *testing.T) {
	r, _ := game.ParseRules("9,9,5,2,1")
	base, err := game.ParseTurns(r, "e5 e4e6 d5d4")
	if err != nil {
		t.Fatal(err)
	}
	book := t.TempDir() + "/o.c6book"
	runBook(t, false, "init", "--book", book, "--rules", "9,9,5,2,1")
	set := func(names []string, sym int) string {
		var out []string
		for _, n := range names {
			n = strings.TrimSuffix(n, " (seminull)")
			m, err := game.ParseMove(r, n)
			if err != nil {
				t.Fatalf("%q: %v", n, err)
			}
			out = append(out, game.MoveName(r, r.TransformMove(game.InverseSymmetry(sym), m)))
		}
		sort.Strings(out)
		return strings.Join(out, " ")
	}
	var want, wantBook string
	for sym := 0; sym < r.SymmetryCount(); sym++ {
		turns := make([]game.Move, len(base))
		for i, m := range base {
			turns[i] = r.TransformMove(sym, m)
		}
		text := game.FormatTurns(r, turns)
		v, _ := runVerify(t, "--rules", "9,9,5,2,1", "--turns", text, "--max-nodes", "20000", "--workers", "1", "--json")
		got := v.Verdict.Status.String() + ": " + set(v.Verdict.Names.Unsolved, sym) + " | " + set(v.Verdict.Names.OpenSeminull, sym)
		out, _ := runBook(t, false, "verify", "--book", book, "--turns", text, "--max-nodes", "20000", "--workers", "1", "--json")
		var bv struct {
			Verdict struct {
				Status string `json:"status"`
			} `json:"verdict"`
			Items []string `json:"open_items"`
		}
		if err := json.Unmarshal([]byte(out), &bv); err != nil {
			t.Fatalf("book verify JSON %q: %v", out, err)
		}
		gotBook := bv.Verdict.Status + ": " + set(bv.Items, sym)
		if sym == 0 {
			want, wantBook = got, gotBook
			if v.Verdict.Status != c6book.StatusOpen || len(v.Verdict.Unsolved) == 0 {
				t.Fatalf("the sample verdict is not open with unsolved moves: %+v", v)
			}
			continue
		}
		if got != want {
			t.Fatalf("symmetry %d: c6 verify gives %q, the original %q", sym, got, want)
		}
		if gotBook != wantBook {
			t.Fatalf("symmetry %d: c6 book verify gives %q, the original %q", sym, gotBook, wantBook)
		}
	}
}
