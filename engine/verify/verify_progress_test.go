package verify

import (
	"context"
	"errors"
	"testing"

	"c6book/engine/internal/enginetest"
	"c6book/engine/threat"
)

func TestVerifyProgressCallbackNeverBlocks(t *testing.T) {
	b := enginetest.MustReplay(t, "j10 j9l10 k11l9")
	fn, entered, calls := enginetest.StuckCallback[VerifyProgress](t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := Verify(ctx, b, VerifyOptions{Lambda: 3, Limits: threat.Limits{MaxNodes: 5_000_000}, Workers: 2}, fn)
		done <- err
	}()
	<-entered
	cancel()
	if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	if n := calls(); n != 1 {
		t.Fatalf("a stuck callback was called %d times", n)
	}
}
