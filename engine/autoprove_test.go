package engine

import (
	"context"
	"math/rand/v2"
	"testing"
)

// AutoProve turns open verdicts into proofs on a small board, and every
// proof it returns is re-verified by CheckProof; a proof with an answer
// removed is rejected.
func TestAutoProveSmallBoard(t *testing.T) {
	ctx := context.Background()
	sc := solverCase{Rules{9, 9, 5, 2, 1}, 6, 6}
	rng := rand.New(rand.NewPCG(17, 23))
	vopts := VerifyOptions{Lambda: 2, Limits: Limits{MaxNodes: 3000}, Workers: 2}
	upgraded, tried := 0, 0
	for tries := 0; tries < 300 && tried < 6; tries++ {
		b := verifyPosition(rng, sc, 1+tries%2)
		if b == nil {
			continue
		}
		vd, err := Verify(ctx, b, vopts, nil)
		if err != nil {
			t.Fatal(err)
		}
		if vd.Status != StatusOpen || vd.AllUnsolved || len(vd.Unsolved) > 6 {
			continue
		}
		tried++
		res, err := AutoProve(ctx, b, AutoProveOptions{Verify: vopts, MaxCalls: 40, MaxDepth: 3, Candidates: 4}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Proved {
			continue
		}
		upgraded++
		calls, err := CheckProof(ctx, b, res.Root, vopts)
		if err != nil {
			t.Fatalf("auto proof does not re-verify: %v\n%s", err, dumpBoard(b))
		}
		if calls < 2 || len(res.Root.Replies) == 0 {
			t.Fatalf("proof of an open verdict with %d calls and %d replies", calls, len(res.Root.Replies))
		}
		// Remove one answer: the proof no longer covers the root.
		broken := *res.Root
		broken.Replies = append([]ProofReply(nil), res.Root.Replies...)
		broken.Replies[0].Answer = nil
		if _, err := CheckProof(ctx, b, &broken, vopts); err == nil {
			t.Fatal("a proof with an answer removed re-verified")
		}
	}
	t.Logf("open verdicts tried %d, proved by AutoProve %d", tried, upgraded)
	if upgraded == 0 {
		t.Fatalf("AutoProve proved none of %d open verdicts", tried)
	}
}
