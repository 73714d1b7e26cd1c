// Command verifycheck runs the verifier on one position, as `c6 verify`
// does, and checks the verdict's certificate with proofcheck (which shares
// no search code with the engine): a measurement aid for issue 24, so that
// every verdict of a speed comparison is also a checked one.
//
//	go run ./tools/verifycheck --turns "j10 i9k9 j8h9" --lambda 3
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
	"c6book/proofcheck"
)

func main() {
	turns := flag.String("turns", "", "the game so far in LittleGolem turn notation (the attacker has just moved)")
	lambda := flag.Int("lambda", 3, "2 or 3")
	maxNodes := flag.Int64("max-nodes", 200000, "node budget of each solver call")
	workers := flag.Int("workers", 0, "parallel solver calls (0: all cores)")
	flag.Parse()
	if err := run(*turns, *lambda, *maxNodes, *workers); err != nil {
		fmt.Fprintln(os.Stderr, "verifycheck:", err)
		os.Exit(1)
	}
}

func run(turns string, lambda int, maxNodes int64, workers int) error {
	r := game.Connect6()
	b, err := board.ReplayText(r, turns)
	if err != nil {
		return err
	}
	a := b.ToMove().Opp()
	tol, ok := b.DefenderDeficit(a)
	if !ok {
		return fmt.Errorf("the stone counts do not fit full turns of %s", a)
	}
	ctx := context.Background()
	opts := verify.VerifyOptions{Lambda: lambda, Limits: threat.Limits{MaxNodes: maxNodes}, Workers: workers, Tolerance: tol}
	vd, err := verify.Verify(ctx, b, opts, nil)
	if err != nil {
		return err
	}
	v := c6book.FromEngine(r, 0, vd, lambda)
	res, err := proofcheck.CheckVerdict(ctx, r, b.StoneList(game.Black), b.StoneList(game.White), b.ToMove(), tol, v.Cert)
	if err != nil {
		return fmt.Errorf("certificate of %q: %w", turns, err)
	}
	fmt.Printf("turns %q status %s order %d unsolved %d open-seminull %d covered %d seminull-zones %d calls %d nodes %d; certificate checked (zone %d squares)\n",
		turns, vd.Status, vd.Order, len(vd.Unsolved), len(vd.OpenSeminull), len(vd.Covered), len(vd.SeminullZones), vd.Calls, vd.Nodes, len(res.Zone))
	return nil
}
