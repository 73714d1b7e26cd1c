package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
)

// threatsOut is the part of `c6 threats --json` the tests read.
type threatsOut struct {
	Rules   string         `json:"rules"`
	Turn    int            `json:"turn"`
	ToMove  string         `json:"to_move"`
	Threats map[string]int `json:"threats"`
	Winner  *string        `json:"winner"`
	Players map[string]struct {
		Windows []struct {
			Dir     string   `json:"dir"`
			Squares []string `json:"squares"`
			Empties []string `json:"empties"`
		} `json:"windows"`
		Normal   []string `json:"critical_normal"`
		Relaxed  []string `json:"critical_relaxed"`
		Stones   int      `json:"stones"`
		WinsNext bool     `json:"wins_next_turn"`
	} `json:"players"`
}

// runThreats runs `c6 threats args... --json` and decodes the object.
func runThreats(t *testing.T, args ...string) threatsOut {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append(append([]string{"threats"}, args...), "--json"), &out, &errb)
	if code != 0 {
		t.Fatalf("c6 threats %v: exit %d, stderr %q", args, code, errb.String())
	}
	if errb.Len() != 0 {
		t.Fatalf("c6 threats %v wrote to stderr: %q", args, errb.String())
	}
	var v threatsOut
	dec := json.NewDecoder(&out)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("c6 threats %v: output is not the expected JSON object: %v", args, err)
	}
	if dec.More() {
		t.Fatalf("c6 threats %v: more than one JSON value", args)
	}
	return v
}

// runFail runs c6 with args and expects a non-zero exit with a one-line
// error on stderr that contains every word of want.
func runFail(t *testing.T, args []string, want ...string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	if code == 0 {
		t.Fatalf("c6 %v: exit 0, want an error", args)
	}
	msg := errb.String()
	if strings.Count(strings.TrimRight(msg, "\n"), "\n") != 0 || msg == "" {
		t.Fatalf("c6 %v: error is not one line: %q", args, msg)
	}
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("c6 %v: error %q does not mention %q", args, msg, w)
		}
	}
	if out.Len() != 0 {
		t.Errorf("c6 %v: failed but printed %q", args, out.String())
	}
}

// engineThreats replays turns with the engine.
func engineBoard(t *testing.T, r game.Rules, turns string) *board.Board {
	t.Helper()
	b, err := board.ReplayText(r, turns)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkAgainstEngine compares the JSON with the engine's view of b.
func checkAgainstEngine(t *testing.T, v threatsOut, b *board.Board) {
	t.Helper()
	r := b.Rules()
	if v.Rules != r.String() || v.Turn != b.Turn() || v.ToMove != b.ToMove().String() {
		t.Fatalf("rules %s turn %d to_move %s, engine %s %d %s", v.Rules, v.Turn, v.ToMove, r, b.Turn(), b.ToMove())
	}
	if len(v.Threats) != 2 {
		t.Fatalf("threats %v: want exactly B and W", v.Threats)
	}
	for _, c := range []game.Color{game.Black, game.White} {
		n, ok := v.Threats[c.String()]
		if !ok || n != b.Threats(c) {
			t.Fatalf("threats[%s] = %d, engine %d", c, n, b.Threats(c))
		}
		if n < 0 || n > r.P+1 {
			t.Fatalf("threats[%s] = %d not capped at p+1 = %d", c, n, r.P+1)
		}
		pl := v.Players[c.String()]
		if len(pl.Windows) != len(b.ThreatWindows(c)) || pl.Stones != b.Stones(c) || pl.WinsNext != b.HasThreat(c) {
			t.Fatalf("player %s: %d windows, %d stones, wins next %v; engine %d, %d, %v", c,
				len(pl.Windows), pl.Stones, pl.WinsNext, len(b.ThreatWindows(c)), b.Stones(c), b.HasThreat(c))
		}
		normal, relaxed := b.CriticalDefences(c)
		if len(pl.Normal) != len(normal) || len(pl.Relaxed) != len(relaxed) {
			t.Fatalf("player %s: %d/%d critical defences, engine %d/%d", c, len(pl.Normal), len(pl.Relaxed), len(normal), len(relaxed))
		}
		for i, m := range normal {
			if pl.Normal[i] != game.MoveName(r, m) {
				t.Fatalf("player %s: critical defence %s, engine %s", c, pl.Normal[i], game.MoveName(r, m))
			}
		}
	}
	switch w := b.Winner(); {
	case w == game.Empty && v.Winner != nil:
		t.Fatalf("winner %q, engine none", *v.Winner)
	case w != game.Empty && (v.Winner == nil || *v.Winner != w.String()):
		t.Fatalf("winner %v, engine %s", v.Winner, w)
	}
}

func TestThreatsJSON(t *testing.T) {
	r := game.Connect6()
	cases := []struct {
		name, turns string
		toMove      string
		b, w        int
		winner      string
	}{
		{"opening", "j10 j11k10", "B", 0, 0, ""},
		{"one threat", "j10 a1a3 k10l10 b1b3", "B", 0, 0, ""},
		{"black four: one threat", "j10 a1a3 k10l10 s1s3", "B", 0, 0, ""},
		{"open five: two threats", "j10 a1a3 k10l10 b1b3 m10n10", "W", 2, 0, ""},
		{"five blocked on one side: one threat", "j10 i10a1 k10l10 b1b3 m10n10", "W", 1, 0, ""},
		{"two lines of four: two threats", "j10 a1a3 k10l10 b1b3 j11j12 c1c3 j13k11", "W", 2, 0, ""},
		{"capped at p+1", "j10 a1a3 k10l10 b1b3 j11j12 c1c3 j13k11 a19b19 k12k13", "W", 3, 0, ""},
		{"six wins", "j10 a1a3 k10l10 b1b3 m10n10 c1c3 o10", "W", 3, 0, "B"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := runThreats(t, "--turns", tc.turns)
			b := engineBoard(t, r, tc.turns)
			checkAgainstEngine(t, v, b)
			if v.ToMove != tc.toMove || v.Threats["B"] != tc.b || v.Threats["W"] != tc.w {
				t.Errorf("to_move %s threats %v, want %s B=%d W=%d", v.ToMove, v.Threats, tc.toMove, tc.b, tc.w)
			}
			if (tc.winner == "") != (v.Winner == nil) || v.Winner != nil && *v.Winner != tc.winner {
				t.Errorf("winner %v, want %q", v.Winner, tc.winner)
			}
		})
	}
}

// The raw output has the documented field names and JSON null for no winner.
func TestThreatsJSONFieldNames(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"threats", "--turns", "j10 j11k10", "--json"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(out.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	if string(raw["to_move"]) != `"B"` || string(raw["winner"]) != "null" || string(raw["threats"]) != `{"B":0,"W":0}` {
		t.Fatalf("fields: to_move %s winner %s threats %s", raw["to_move"], raw["winner"], raw["threats"])
	}
}

func TestThreatsOtherRules(t *testing.T) {
	r := game.Rules{M: 7, N: 7, K: 4, P: 2, Q: 1}
	turns := "d4 a1a2 d5d6 g1g2"
	v := runThreats(t, "--rules", "7,7,4,2,1", "--turns", turns)
	b := engineBoard(t, r, turns)
	checkAgainstEngine(t, v, b)
	// Three in a column (d4-d6) with k=4, p=2: windows d2-d5, d3-d6, d4-d7
	// need d3 and d7; a1a2 and g1g2 give W two more.
	if v.Threats["B"] != 2 || v.Threats["W"] != 2 || v.Rules != "7,7,4,2,1" {
		t.Fatalf("7x7 k=4: %v", v)
	}
	// p=1: threats capped at 2.
	v = runThreats(t, "--rules", "8,8,4,1,1", "--turns", "d4 a1 d5 a2 d6 b1 e5 b2 f6")
	if v.Threats["B"] != 2 || v.Threats["W"] != 0 {
		t.Fatalf("8x8 p=1: threats %v", v.Threats)
	}
}

func TestThreatsText(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"threats", "--turns", "j10 i10a1 k10l10 b1b3 m10n10"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, w := range []string{"W to move", "B: 1 threats", "critical defences [o10]", "W: 0 threats"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("text output %q does not mention %q", out.String(), w)
		}
	}
}

func TestThreatsSGF(t *testing.T) {
	dir := t.TempDir()
	sgf := filepath.Join(dir, "game.sgf")
	const game = "(;FF[4]EV[connect6.ch.1]PB[a]PW[b]SO[http://www.littlegolem.com];B[j10];W[a1a3];B[k10l10];W[b1b3];B[m10n10])"
	if err := os.WriteFile(sgf, []byte(game), 0o644); err != nil {
		t.Fatal(err)
	}
	v := runThreats(t, "--sgf", sgf)
	w := runThreats(t, "--turns", "j10 a1a3 k10l10 b1b3 m10n10")
	vj, _ := json.Marshal(v)
	wj, _ := json.Marshal(w)
	if !bytes.Equal(vj, wj) {
		t.Fatalf("--sgf and --turns differ:\n%s\n%s", vj, wj)
	}
	// RU in the file sets the rules.
	small := filepath.Join(dir, "small.sgf")
	if err := os.WriteFile(small, []byte("(;FF[4]SZ[7]RU[7,7,4,2,1];B[d4];W[a1a2];B[d5d6])"), 0o644); err != nil {
		t.Fatal(err)
	}
	if v := runThreats(t, "--sgf", small); v.Rules != "7,7,4,2,1" || v.Threats["B"] != 2 || v.Threats["W"] != 1 {
		t.Fatalf("RU ignored: %s %v", v.Rules, v.Threats)
	}
	// Bad files.
	bad := filepath.Join(dir, "bad.sgf")
	if err := os.WriteFile(bad, []byte("(;FF[4];B[j10];W[j10k10])"), 0o644); err != nil {
		t.Fatal(err)
	}
	runFail(t, []string{"threats", "--sgf", bad, "--json"}, "bad.sgf", "occupied")
	broken := filepath.Join(dir, "broken.sgf")
	if err := os.WriteFile(broken, []byte("(;FF[4];B[j10"), 0o644); err != nil {
		t.Fatal(err)
	}
	runFail(t, []string{"threats", "--sgf", broken}, "broken.sgf", "unterminated")
	runFail(t, []string{"threats", "--sgf", filepath.Join(dir, "missing.sgf")}, "missing.sgf")
	runFail(t, []string{"threats", "--sgf", sgf, "--turns", "j10"}, "not both")
}

func TestThreatsBadInput(t *testing.T) {
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"threats", "--turns", "j10 j10k10", "--json"}, []string{"--turns", "turn 2", "occupied", "j10"}},
		{[]string{"threats", "--turns", "j10 t10k10"}, []string{"turn 2", "t10", "off the 19x19 board"}},
		{[]string{"threats", "--turns", "j10k10"}, []string{"turn 1", "2 stones", "places 1"}},
		{[]string{"threats", "--turns", "j10 k10"}, []string{"turn 2", "1 stones"}},
		{[]string{"threats", "--turns", "j10 a1a3 k10l10 b1b3 m10n10 c1c3 o10 d1d2"}, []string{"over", "B has won"}},
		{[]string{"threats", "--turns", "j10 zz"}, []string{"turn 2", "zz"}},
		{[]string{"threats", "--rules", "19,19,6,2", "--turns", "j10"}, []string{"rules", "m,n,k,p,q"}},
		{[]string{"threats", "--rules", "30,30,6,2,1", "--turns", "j10"}, []string{"rules", "out of range"}},
		{[]string{"threats", "--rules", "7,7,4,2,1", "--turns", "j10"}, []string{"j10", "off the 7x7 board"}},
		{[]string{"threats", "--json"}, []string{"--turns or --sgf"}},
		{[]string{"threats", "--turns", "j10", "extra"}, []string{"unexpected argument", "extra"}},
	}
	for _, tc := range cases {
		runFail(t, tc.args, tc.want...)
	}
	// Flag errors are one-line errors too.
	runFail(t, []string{"threats", "--bogus"}, "bogus", "-h")
	runFail(t, []string{"threats", "--turns"}, "needs an argument", "turns")
	// -h prints the flags and exits 2.
	var out, errb bytes.Buffer
	if code := run([]string{"threats", "-h"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "-turns") || !strings.Contains(errb.String(), "-sgf") {
		t.Fatalf("-h: exit %d, stderr %q", code, errb.String())
	}
}

// findShared locates ../shared (from the repository root) by walking up.
func findShared(t *testing.T, rel string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		p := filepath.Join(dir, "shared", rel)
		if _, err := os.Stat(p); err == nil {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("shared/%s not found above the working directory", rel)
		}
		dir = parent
	}
}

// For the 120 public positions, `c6 threats` agrees with the engine, the
// side to move is the file's attacker, and nobody has won yet.
func TestThreatsPublicPositions(t *testing.T) {
	f, err := os.Open(findShared(t, "positions/littlegolem-public.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	seen := map[int]int{}
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 4 {
			t.Fatalf("bad line %q", line)
		}
		v := runThreats(t, "--turns", cols[3])
		b := engineBoard(t, game.Connect6(), cols[3])
		checkAgainstEngine(t, v, b)
		if v.ToMove != cols[2] || v.Winner != nil {
			t.Fatalf("position %s: to_move %s winner %v, file says %s to move", cols[0], v.ToMove, v.Winner, cols[2])
		}
		seen[v.Threats[v.ToMove]]++
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n != 120 {
		t.Fatalf("%d public positions, want 120", n)
	}
	t.Logf("attacker threat counts: %v", seen)
}
