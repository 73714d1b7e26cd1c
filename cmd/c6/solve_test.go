package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
)

type solveOut struct {
	Rules  string         `json:"rules"`
	Turns  string         `json:"turns"`
	ToMove string         `json:"to_move"`
	Mode   string         `json:"mode"`
	Result string         `json:"result"`
	Reason string         `json:"reason"`
	Move   string         `json:"move"`
	Line   []string       `json:"line"`
	Nodes  int64          `json:"nodes"`
	MS     int64          `json:"ms"`
	Zone   []string       `json:"zone"`
	Tree   *solveTreeJSON `json:"tree"`
}

// A public LittleGolem position (White to move wins by double threats).
const solveWinTurns = "j10 j11k10 l9k11 i9l11 j9i12 m9m10 m8m12 k12n10 l13o10 o11p12 l8q13"

func runSolve(t *testing.T, args ...string) solveOut {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append(append([]string{"solve"}, args...), "--json"), &out, &errb)
	if code != 0 {
		t.Fatalf("c6 solve %v: exit %d, stderr %q", args, code, errb.String())
	}
	if errb.Len() != 0 {
		t.Fatalf("c6 solve %v wrote to stderr (not a terminal): %q", args, errb.String())
	}
	var v solveOut
	dec := json.NewDecoder(&out)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("c6 solve %v: not the expected JSON: %v", args, err)
	}
	return v
}

// strategyFromJSON rebuilds the engine's tree from the JSON, so that the
// printed tree itself is checked against every defender move.
func strategyFromJSON(t *testing.T, r game.Rules, tj *solveTreeJSON) *threat.Strategy {
	t.Helper()
	if tj == nil {
		return nil
	}
	m, err := game.ParseMove(r, tj.Move)
	if err != nil {
		t.Fatalf("tree move %q: %v", tj.Move, err)
	}
	st := &threat.Strategy{Move: m, Threats: tj.Threats, Six: tj.Six}
	for key, sub := range tj.Replies {
		dm, err := game.ParseMove(r, key)
		if err != nil {
			t.Fatalf("reply key %q: %v", key, err)
		}
		if semi := dm.Len() < r.P; semi != sub.Seminull {
			t.Fatalf("reply %q: seminull=%v for a %d-stone reply", key, sub.Seminull, dm.Len())
		}
		if sub.Seminull && sub.SeminullZone == nil {
			t.Fatalf("seminull reply %q without seminull_zone", key)
		}
		st.Replies = append(st.Replies, threat.Reply{Move: dm, Seminull: sub.Seminull, Then: strategyFromJSON(t, r, sub)})
	}
	return st
}

func TestSolveWinJSON(t *testing.T) {
	for _, mode := range []string{"vcdt", "vcst"} {
		v := runSolve(t, "--turns", solveWinTurns, "--mode", mode)
		if v.Result != "win" || v.Reason != "" || v.ToMove != "W" || v.Mode != mode || v.Rules != "19,19,6,2,1" {
			t.Fatalf("%s: %+v", mode, v)
		}
		if v.Tree == nil || v.Tree.Move != v.Move || len(v.Line) == 0 || v.Line[0] != v.Move || v.Nodes <= 0 || len(v.Zone) == 0 {
			t.Fatalf("%s: inconsistent result: move %q line %v tree %+v nodes %d zone %v", mode, v.Move, v.Line, v.Tree, v.Nodes, v.Zone)
		}
		r := game.Connect6()
		zone := map[string]bool{}
		for _, z := range v.Zone {
			if _, err := game.ParseSquare(r, z); err != nil {
				t.Fatalf("zone square %q: %v", z, err)
			}
			zone[z] = true
		}
		m, _ := game.ParseMove(r, v.Move)
		for i := 0; i < m.Len(); i++ {
			if !zone[game.SquareName(r, m.At(i))] {
				t.Errorf("zone %v misses the winning move's stone %s", v.Zone, game.SquareName(r, m.At(i)))
			}
		}
		b, err := board.ReplayText(r, solveWinTurns)
		if err != nil {
			t.Fatal(err)
		}
		if err := threat.CheckStrategy(context.Background(), b, strategyFromJSON(t, r, v.Tree), 0); err != nil {
			t.Fatalf("%s: the printed tree does not win: %v", mode, err)
		}
	}
}

func TestSolveUnknown(t *testing.T) {
	v := runSolve(t, "--turns", "j10")
	if v.Result != "unknown" || v.Reason != string(threat.ReasonExhausted) || v.Tree != nil || v.Move != "" {
		t.Fatalf("one stone on the board: %+v", v)
	}
	v = runSolve(t, "--turns", "j10 j11k10 l9k11 i9l11", "--max-nodes", "3", "--mode", "vcst")
	if v.Result != "unknown" || (v.Reason != string(threat.ReasonBudget) && v.Reason != string(threat.ReasonExhausted)) || v.Tree != nil {
		t.Fatalf("3 nodes: %+v", v)
	}
	if v.Nodes > 3+400 { // the node check runs between expansions
		t.Errorf("3-node budget used %d nodes", v.Nodes)
	}
}

// Seminull replies print as one-stone keys with their zone, and the JSON
// tree still wins against every defender move.
func TestSolveTreeSeminullJSON(t *testing.T) {
	r := game.Rules{M: 8, N: 8, K: 5, P: 2, Q: 1}
	sq := func(names ...string) []game.Square {
		var out []game.Square
		for _, n := range names {
			s, err := game.ParseSquare(r, n)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		}
		return out
	}
	b, err := board.SetUp(r, sq("a1", "d1", "h6"), sq("f1", "a3", "g3", "f4", "b6"), game.Black)
	if err != nil {
		t.Fatal(err)
	}
	res, err := threat.Solve(context.Background(), b, threat.Params{Mode: threat.VCST, Limits: threat.Limits{MaxNodes: 60000}})
	if err != nil || res.Outcome != threat.Win {
		t.Fatalf("fixture not solved: %v %v", res.Reason, err)
	}
	tj := solveTree(r, res.Tree)
	data, err := json.Marshal(tj)
	if err != nil {
		t.Fatal(err)
	}
	var back solveTreeJSON
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	semi := 0
	var walk func(*solveTreeJSON)
	walk = func(n *solveTreeJSON) {
		for k, sub := range n.Replies {
			if len(k) <= 3 && sub.Seminull {
				semi++
			}
			walk(sub)
		}
	}
	walk(&back)
	if semi == 0 {
		t.Fatalf("no seminull reply in the JSON tree: %s", data)
	}
	if err := threat.CheckStrategy(context.Background(), b, strategyFromJSON(t, r, &back), 0); err != nil {
		t.Fatalf("JSON tree does not win: %v", err)
	}
}

func TestSolveBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{}, "--turns"},
		{[]string{"--turns", "j10 zz"}, "zz"},
		{[]string{"--turns", "j10", "--mode", "vcxt"}, "mode"},
		{[]string{"--turns", "j10", "--max-nodes", "0"}, "max-nodes"},
		{[]string{"--turns", "j10", "--timeout", "-1s"}, "timeout"},
		{[]string{"--turns", "j10", "--free", "some"}, "free"},
		{[]string{"--turns", "j10", "--tolerance", "-1"}, "tolerance"},
		{[]string{"--turns", "j10", "--rules", "19,19,6"}, "rules"},
		{[]string{"--turns", "j10", "--bogus"}, "bogus"},
		{[]string{"--turns", "a1 b1b2 a2a3 b3b4 a4a5 b5b6 a6a7"}, "over"},
		{[]string{"--turns", "a1a2 b1"}, "turn"},
	} {
		var out, errb bytes.Buffer
		code := run(append([]string{"solve"}, tc.args...), &out, &errb)
		msg := errb.String()
		if code == 0 {
			t.Errorf("c6 solve %v: exit 0, want an error", tc.args)
			continue
		}
		if strings.Count(strings.TrimRight(msg, "\n"), "\n") != 0 || !strings.Contains(msg, tc.want) {
			t.Errorf("c6 solve %v: want one line naming %q, got %q", tc.args, tc.want, msg)
		}
		if out.Len() != 0 {
			t.Errorf("c6 solve %v: wrote to stdout on error: %q", tc.args, out.String())
		}
	}
}

func TestSolveText(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"solve", "--turns", solveWinTurns}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if s := out.String(); !strings.Contains(s, "W wins by vcdt") || !strings.Contains(s, "line: ") || !strings.Contains(s, "nodes") {
		t.Fatalf("text output: %q", s)
	}
}
