package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"time"

	"c6book/engine"
)

// Connect(6,2,3): Black's first turn places three stones. connect623
// searches the three-stone shapes inside a small square around the centre
// (up to symmetry), verifies each (λ3), and runs AutoProve on the most
// promising ones; the best result is written as a proof file.

// proofFile is the fixture format: the rules, Black's first turn, the
// verifier options and the tree.
type proofFile struct {
	Rules    string     `json:"rules"`
	Turns    string     `json:"turns"`
	Lambda   int        `json:"lambda"`
	MaxNodes int64      `json:"max_nodes"`
	Proved   bool       `json:"proved"`
	Calls    int        `json:"verifier_calls"`
	Solver   int        `json:"solver_calls"`
	MS       int64      `json:"ms"`
	Root     *proofNode `json:"root"`
}

type proofNode struct {
	Move     string               `json:"move,omitempty"` // the attacker's move leading here
	Status   engine.VerdictStatus `json:"status"`
	Unsolved []string             `json:"unsolved,omitempty"`
	Replies  []proofReply         `json:"replies,omitempty"`
}

type proofReply struct {
	Move   string     `json:"move"` // the defender's move
	Answer *proofNode `json:"answer,omitempty"`
}

func toProofNode(r engine.Rules, n *engine.ProofNode) *proofNode {
	if n == nil {
		return nil
	}
	out := &proofNode{Move: engine.MoveName(r, n.Move), Status: n.Verdict.Status}
	if n.Move.Len() == 0 {
		out.Move = ""
	}
	for _, u := range n.Verdict.Unsolved {
		out.Unsolved = append(out.Unsolved, engine.MoveName(r, u.Move))
	}
	for _, rep := range n.Replies {
		out.Replies = append(out.Replies, proofReply{Move: engine.MoveName(r, rep.Move), Answer: toProofNode(r, rep.Answer)})
	}
	return out
}

func connect623(w io.Writer, outFile string, area int, maxNodes int64, maxCalls int, workers int, shapeTimeout time.Duration) error {
	r := engine.Rules{M: 19, N: 19, K: 6, P: 2, Q: 3}
	ctx := context.Background()
	// Shapes: three squares in an area×area box at the centre, one per
	// symmetry class.
	c := (r.M - area) / 2
	var box []engine.Square
	for y := c; y < c+area; y++ {
		for x := c; x < c+area; x++ {
			box = append(box, r.Sq(x, y))
		}
	}
	seen := map[uint64]bool{}
	var shapes []engine.Move
	for i := range box {
		for j := i + 1; j < len(box); j++ {
			for k := j + 1; k < len(box); k++ {
				m := engine.NewMove(box[i], box[j], box[k])
				b, err := engine.Replay(r, []engine.Move{m})
				if err != nil {
					return err
				}
				key, _ := b.CanonicalKey()
				if !seen[key] {
					seen[key] = true
					shapes = append(shapes, m)
				}
			}
		}
	}
	fmt.Fprintf(w, "Connect(6,2,3): %d three-stone shapes in a %dx%d box up to symmetry\n", len(shapes), area, area)
	vopts := engine.VerifyOptions{Lambda: 3, Limits: engine.Limits{MaxNodes: maxNodes}, Workers: workers}
	// Rank the shapes by the null move: refuted by VCDT before VCST, then
	// by the size of its zone (fewer seminull moves to verify).
	type scored struct {
		m    engine.Move
		mode engine.Mode
		zone int
	}
	var ok []scored
	start := time.Now()
	for _, m := range shapes {
		b, _ := engine.Replay(r, []engine.Move{m})
		b.SetToMove(engine.Black) // the null move: White passes
		s := scored{m: m}
		for _, mode := range []engine.Mode{engine.VCDT, engine.VCST} {
			res, err := engine.Solve(ctx, b, engine.Params{Mode: mode, Tolerance: r.P, Limits: engine.Limits{MaxNodes: maxNodes}})
			if err != nil {
				return err
			}
			if res.Outcome == engine.Win {
				s.mode, s.zone = mode, len(res.Zone)
				break
			}
		}
		if s.mode == 0 {
			fmt.Fprintf(w, "  %-9s null move not refuted\n", engine.MoveName(r, m))
			continue
		}
		fmt.Fprintf(w, "  %-9s null move refuted by %s, zone %d\n", engine.MoveName(r, m), s.mode, s.zone)
		ok = append(ok, s)
	}
	fmt.Fprintf(w, "null moves: %d of %d shapes refuted, %v\n", len(ok), len(shapes), time.Since(start).Round(time.Millisecond))
	if len(ok) == 0 {
		return fmt.Errorf("no shape's null move is refuted at %d nodes per solver call: nothing for AutoProve to start from", maxNodes)
	}
	sort.SliceStable(ok, func(i, j int) bool {
		if ok[i].mode != ok[j].mode {
			return ok[i].mode < ok[j].mode
		}
		return ok[i].zone < ok[j].zone
	})
	var best *proofFile
	for _, s := range ok {
		b, _ := engine.Replay(r, []engine.Move{s.m})
		sctx, cancel := context.WithTimeout(ctx, shapeTimeout)
		res, err := engine.AutoProve(sctx, b, engine.AutoProveOptions{Verify: vopts, MaxCalls: maxCalls, MaxDepth: 6, Candidates: 6}, nil)
		cancel()
		if errors.Is(err, context.DeadlineExceeded) {
			fmt.Fprintf(w, "AutoProve %s: no result in %v, next shape\n", engine.MoveName(r, s.m), shapeTimeout)
			continue
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "AutoProve %s: proved %v (%s), %d verifier calls, %d solver calls, %d positions, %v\n",
			engine.MoveName(r, s.m), res.Proved, res.Reason, res.Calls, res.SolverCalls, res.Positions, res.Elapsed.Round(time.Millisecond))
		pf := &proofFile{Rules: r.String(), Turns: engine.MoveName(r, s.m), Lambda: 3, MaxNodes: maxNodes, Proved: res.Proved,
			Calls: res.Calls, Solver: res.SolverCalls, MS: res.Elapsed.Milliseconds(), Root: toProofNode(r, res.Root)}
		if best == nil || res.Proved {
			best = pf
		}
		if res.Proved {
			break
		}
	}
	if outFile != "" && best != nil {
		data, err := json.MarshalIndent(best, "", " ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(outFile, append(data, '\n'), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(w, "wrote %s (proved: %v)\n", outFile, best.Proved)
	}
	return nil
}

func nullText(vd engine.Verdict) string {
	if vd.NullTree == nil {
		return "not refuted"
	}
	return fmt.Sprintf("%s, zone %d", vd.NullMode, len(vd.NullZone))
}
