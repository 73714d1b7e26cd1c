package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"c6book/engine/game"
	"c6book/proofbook"
	"c6book/service"
)

// BookVerifyCommand is c6 book verify: run the verifier on a position and
// store the verdict.
type BookVerifyCommand struct{ o verifyOpts }

func (c *BookVerifyCommand) flags(fs *flag.FlagSet) {
	o := &c.o
	fs.IntVar(&o.lambda, "lambda", 2, "2 or 3")
	fs.Int64Var(&o.maxNodes, "max-nodes", 200000, "nodes per solver call")
	fs.DurationVar(&o.timeout, "timeout", 0, "time budget of each solver call (0: none)")
	fs.IntVar(&o.workers, "workers", 0, "parallel solver calls (0: all cores)")
	o.nats.register(fs)
}

// validate checks the flags before the book is opened.
func (c *BookVerifyCommand) validate(*bookEnv) error {
	o := &c.o
	if err := o.nats.check(); err != nil {
		return err
	}
	return o.verifyLimits.Validate()
}

func (c *BookVerifyCommand) run(e *bookEnv) error { return bookVerify(e, c.o) }

type verifyOpts struct {
	verifyLimits // --lambda, --max-nodes, --timeout, --workers
	nats         natsFlags
}

func bookVerify(e *bookEnv, o verifyOpts) error {
	ctx, bk := e.ctx, e.bk
	if err := e.f.checkVerifyAttacker(bk); err != nil {
		return err
	}
	id, b, sym, err := e.f.locate(ctx, bk, true)
	if err != nil {
		return err
	}
	// --timeout bounds each solver call, as in `c6 verify`: a call out of
	// time leaves its move unsolved, and the verdict is stored.
	verifier, release, err := o.nats.verifier(ctx, e.stderr)
	if err != nil {
		return err
	}
	// The workbench's Verify's path (service.Book.VerifyAndStore).
	res, err := service.Wrap(bk).VerifyAndStore(ctx, verifier, b, o.verifyLimits.settings().Options(), nil)
	release()
	if err != nil {
		return err
	}
	sv := res.InBook
	p, err := bk.Position(ctx, id)
	if err != nil {
		return err
	}
	r := bk.Rules()
	uns, semi := verdictMoves(r, sym, &sv)
	items, err := itemNames(ctx, bk, id, sv.Attacker, sym)
	if err != nil {
		return err
	}
	why := unsolvedWhy(r, sym, &sv)
	return e.print(bookVerifyJSON{ID: int64(id), Verdict: newVerdictJSON(r, sv.Transform(r, game.InverseSymmetry(sym))),
		OpenItems: items, UnsolvedWhy: why, BookStatus: p.Proof(sv.Attacker).Status},
		func(w io.Writer) {
			fmt.Fprintf(w, "position %d: verdict %s (%s) for %s; %s; %d calls, %d nodes, %d ms\n",
				id, sv.Status, verdictOrderText(&sv), sv.Attacker, unsolvedText(&sv, uns, semi), sv.Calls, sv.Nodes, sv.Millis)
			printUnsolvedWhy(w, why)
			fmt.Fprintf(w, "open items: %d %v\n", len(items), items)
			fmt.Fprintf(w, "book status for %s: %s\n", sv.Attacker, proofText(p.Proof(sv.Attacker)))
		})
}

// itemNames lists the open items of a position's verdict in the user's
// frame (sym: the user's board onto the canonical frame); a one-stone item
// is an open seminull move.
func itemNames(ctx context.Context, bk *proofbook.Book, id proofbook.PosID, a game.Color, sym int) ([]string, error) {
	items, err := bk.Items(ctx, id, a)
	if err != nil {
		return nil, err
	}
	r := bk.Rules()
	out := []string{}
	for _, it := range items {
		name := game.MoveName(r, proofbook.FromCanonical(r, sym, it.Move))
		if it.Move.Len() < r.P {
			name += " (seminull)"
		}
		out = append(out, name)
	}
	return out, nil
}
