package session

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
)

// How a run of the verifier or the auto-pilot ended: every run ends with a
// RunSummary (Prover.Summary) saying where it stopped and what it changed
// in the book below its position, read from the book before and after it.

// stopReason is why a run of the verifier or the auto-pilot ended.
type stopReason string

// Stop reasons.
const (
	stopDone      stopReason = "done"      // the verifier gave its verdict
	stopProved    stopReason = "proved"    // the auto-pilot proved the position
	stopFailed    stopReason = "failed"    // every attacker move the auto-pilot tried failed
	stopBudget    stopReason = "budget"    // the auto-pilot's time budget ran out
	stopStuck     stopReason = "stuck"     // nothing left the auto-pilot may work on
	stopCancelled stopReason = "cancelled" // Stop, or another book was opened
	stopError     stopReason = "error"
)

// runCounts is what the book knows about a run's position, before or after
// the run.
type runCounts struct {
	Status   c6book.Status
	Unsolved int // the stored verdict's unsolved items (-1: no verdict)
	Replies  int // replies stored
	Proved   int // replies proved for the attacker
}

// ReplyChange is a reply of the run's position whose status changed (or
// that the run added).
type ReplyChange struct {
	Move          game.Move
	Before, After c6book.Status
	New           bool
}

// RunSummary is how a run of the verifier (kind verify) or the auto-pilot
// (kind auto) ended.
type RunSummary struct {
	Kind     JobKind
	Line     []game.Move // to the position the run worked on
	Attacker game.Color
	Lambda   int
	Stop     stopReason
	Err      string // the error, when Stop is stopError
	Before   runCounts
	After    runCounts
	// The auto-pilot's counts (the verifier: Calls only).
	Calls, Proved, Open, Added int
	Elapsed                    time.Duration
	Changed                    []ReplyChange // replies that changed, proved ones first
	AfterRead                  bool          // After and Changed were read from the book
	// Left is, after an auto-pilot run that did not prove its position,
	// the most-proving open position below it (Line from the run's
	// position) with where the auto-pilot is stuck on the way (nil when
	// none is open).
	Left *Entry
	// Undone: the verdict the run stored was taken back (Undo); the
	// replies it added are gone from the book and from Changed.
	Undone bool

	edit edit // the run's edit on the undo stack (nil: none)
}

// takeBack notes that the run's verdict was undone: removed are the
// replies it had added (now gone from the book).
func (sum *RunSummary) takeBack(removed []game.Move) {
	sum.Undone, sum.edit = true, nil
	var kept []ReplyChange
	for _, c := range sum.Changed {
		if !slices.Contains(removed, c.Move) {
			kept = append(kept, c)
		}
	}
	sum.Changed = kept
}

// readCounts reads what the book knows about b for attacker, and its
// replies.
func readCounts(ctx context.Context, store BookStore, b *board.Board, a game.Color) (runCounts, []Child, error) {
	info, err := store.Position(ctx, b, a)
	if err != nil {
		return runCounts{}, nil, err
	}
	ch, err := store.Children(ctx, b, a)
	if err != nil {
		return runCounts{}, nil, err
	}
	rc := runCounts{Status: info.Status, Unsolved: -1, Replies: len(ch)}
	if info.Verdict != nil {
		rc.Unsolved = len(info.Verdict.Items())
	}
	for _, c := range ch {
		if c.Status == c6book.StatusProved {
			rc.Proved++
		}
	}
	return rc, ch, nil
}

// changes lists the replies whose status changed from before to after, or
// that are new; proved ones first.
func changes(before, after []Child) []ReplyChange {
	was := make(map[game.Move]c6book.Status, len(before))
	for _, c := range before {
		was[c.Move] = c.Status
	}
	var proved, other []ReplyChange
	for _, c := range after {
		st, ok := was[c.Move]
		if ok && st == c.Status {
			continue
		}
		rc := ReplyChange{Move: c.Move, Before: st, After: c.Status, New: !ok}
		if c.Status == c6book.StatusProved {
			proved = append(proved, rc)
		} else {
			other = append(other, rc)
		}
	}
	return append(proved, other...)
}

// summaryRun reads the run's position before work runs and again after it
// (even when it was cancelled: what it stored stays), filling sum.
func summaryRun(ctx context.Context, store BookStore, b *board.Board, sum *RunSummary, left bool, work func() error) error {
	start := time.Now()
	before, bch, berr := readCounts(ctx, store, b, sum.Attacker)
	err := work()
	sum.Elapsed = time.Since(start)
	if berr != nil {
		return err
	}
	// (The book is open until the job returns: a switch waits for it.)
	actx := context.WithoutCancel(ctx)
	after, ach, aerr := readCounts(actx, store, b, sum.Attacker)
	if aerr == nil {
		sum.Before, sum.After, sum.Changed, sum.AfterRead = before, after, changes(bch, ach), true
	}
	if left && aerr == nil && after.Status != c6book.StatusProved {
		if e, ok, nerr := store.Next(actx, b, sum.Attacker); nerr == nil && ok {
			sum.Left = &e
		}
	}
	return err
}

// ended sets how the run ended from its error (when it failed or was
// cancelled).
func (sum *RunSummary) ended(err error) bool {
	switch {
	case err == nil:
		return false
	case errors.Is(err, context.Canceled):
		sum.Stop = stopCancelled
	default:
		sum.Stop, sum.Err = stopError, err.Error()
	}
	return true
}

// title is the summary's first line: what ran, where and how it ended.
func (sum RunSummary) title(name func(game.Move) string) string {
	what := "Verify"
	if sum.Kind == jobAuto {
		what = "Auto-pilot"
	}
	where := "the empty board"
	if len(sum.Line) > 0 {
		where = lineEnd(name, sum.Line)
	}
	return fmt.Sprintf("%s (%s, λ%d) at %s: %s", what, ColourName(sum.Attacker), sum.Lambda, where, sum.stopText())
}

// stopText says how the run ended.
func (sum RunSummary) stopText() string {
	switch sum.Stop {
	case stopDone:
		if sum.AfterRead && sum.After.Status == c6book.StatusProved {
			return "proved"
		}
		return "verdict stored"
	case stopProved:
		return c6book.ProveProved.Describe()
	case stopFailed:
		return c6book.ProveFailed.Describe()
	case stopBudget:
		return "stopped: out of time (its time budget ran out)"
	case stopStuck:
		return "stopped: " + c6book.ProveStuck.Describe() + " (Next shows where)"
	case stopCancelled:
		return "stopped by the user; what it stored stays"
	case stopError:
		return "failed: " + sum.Err
	}
	return string(sum.Stop)
}

// maxChangesNamed is how many changed replies the summary's text names.
const maxChangesNamed = 20

// TextNamed is the summary for people: its title, the counts before →
// after, and the replies that changed, with the moves named by name (the line's order of a
// turn's stones: Cursor.MoveText).
func (sum RunSummary) TextNamed(name func(game.Move) string) string {
	var sb strings.Builder
	sb.WriteString(sum.title(name))
	sb.WriteString("\n")
	if sum.Undone {
		sb.WriteString("undone: the verdict it stored was taken back, the replies it added removed; as the run left it:\n")
	}
	if sum.AfterRead {
		b, a := sum.Before, sum.After
		fmt.Fprintf(&sb, "status %s → %s · unsolved %s → %s · proved replies %d → %d of %s",
			b.Status, a.Status, unsolvedText(b.Unsolved), unsolvedText(a.Unsolved), b.Proved, a.Proved,
			Plural(a.Replies, "reply", "replies"))
	} else {
		sb.WriteString("(the book could not be read before and after the run)")
	}
	fmt.Fprintf(&sb, "\n%s", Plural(sum.Calls, "verifier call", "verifier calls"))
	if sum.Kind == jobAuto {
		fmt.Fprintf(&sb, " · %d proved · %d open · %d added", sum.Proved, sum.Open, sum.Added)
	}
	fmt.Fprintf(&sb, " · %s", roundElapsed(sum.Elapsed))
	if e := sum.Left; e != nil {
		sb.WriteString("\nleft to prove: ")
		full := append(append([]game.Move(nil), sum.Line...), e.Line...)
		if len(e.Line) == 0 {
			sb.WriteString("this position")
		} else {
			sb.WriteString(lineEnd(name, full))
		}
		for _, st := range e.Stuck {
			where := "there"
			if st.Ply < len(e.Line) {
				where = "at the empty board"
				if k := len(sum.Line) + st.Ply; k > 0 {
					where = "after " + lineEnd(name, full[:k])
				}
			}
			fmt.Fprintf(&sb, " · stuck %s: %s", where, st.Why.Describe())
		}
	}
	if len(sum.Changed) > 0 {
		parts := make([]string, 0, min(len(sum.Changed), maxChangesNamed)+1)
		for i, c := range sum.Changed {
			if i == maxChangesNamed {
				parts = append(parts, fmt.Sprintf("and %d more", len(sum.Changed)-i))
				break
			}
			parts = append(parts, c.text(name))
		}
		fmt.Fprintf(&sb, "\nchanged: %s", strings.Join(parts, ", "))
	} else if sum.AfterRead {
		sb.WriteString("\nno reply changed")
	}
	return sb.String()
}

// text names a change: "k10l11 proved", "k10l11 new (unknown)".
func (c ReplyChange) text(name func(game.Move) string) string {
	if c.New {
		return fmt.Sprintf("%s new (%s)", name(c.Move), c.After)
	}
	return fmt.Sprintf("%s %s → %s", name(c.Move), c.Before, c.After)
}

func unsolvedText(n int) string {
	if n < 0 {
		return "no verdict"
	}
	return fmt.Sprint(n)
}

func roundElapsed(d time.Duration) time.Duration {
	if d < time.Second {
		return d.Round(time.Millisecond)
	}
	return d.Round(100 * time.Millisecond)
}

// lineEnd names a line from the root, its turns numbered: "1. j10 2. i9k9
// 3. i7j9"; a long one keeps its first and last turns with "…" between
// ("1. j10 2. i9k9 3. i7j9 … 9. k9l9 10. m10m11 …"), never cut at the
// start: the opening is what the user recognises.
func lineEnd(name func(game.Move) string, line []game.Move) string {
	const head, tail = 3, 5
	parts := make([]string, 0, min(len(line), head+tail+1))
	for i := range line {
		if len(line) > head+tail+1 && i >= head && i < len(line)-tail {
			if i == head {
				parts = append(parts, "…")
			}
			continue
		}
		parts = append(parts, fmt.Sprintf("%d. %s", i+1, name(line[i])))
	}
	return strings.Join(parts, " ")
}

// Plural is "1 stored reply", "2 stored replies": n with the singular or
// the plural.
func Plural[N ~int | ~int32 | ~int64](n N, one, many string) string {
	if n == 1 || n == -1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
