package jobsearch

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"c6book/engine/player"
)

// fakeTree is a scripted JobTree: nodes are names; a job turns a node into
// its scripted outcome, an expansion adds the next scripted batch.
type fakeTree struct {
	mu      sync.Mutex
	nodes   map[string]*fakeNode
	order   []string // "run X" and "expand X", in the order the search asked
	stamps  []int64  // Selected(ctx) of each, -1 when missing
	running map[string]bool
	maxPar  int
	gate    chan struct{} // when not nil, every job waits for a token
}

type fakeNode struct {
	or      bool
	held    bool
	result  JobResult
	kids    []string
	run     bool       // needs a job
	outcome *fakeNode  // what the job makes of it
	batches [][]string // an OR node's candidate batches
	pn, dn  int64      // expected numbers (JobNode.PN, DN)
	after   int64      // JobNode.After
}

func (t *fakeTree) Look(_ context.Context, k string) (JobNode[string], error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := t.nodes[k]
	if n == nil {
		return JobNode[string]{}, fmt.Errorf("no node %q", k)
	}
	out := JobNode[string]{OR: n.or, Result: n.result, Children: n.kids, PN: n.pn, DN: n.dn, After: n.after}
	if n.held {
		out.Result = JobExcluded
	}
	switch {
	case n.run:
		out.Work = JobRun
	case n.or && n.batches != nil:
		out.Work = JobExpand
	case n.or && len(n.kids) == 0 && n.result == JobUnsettled:
		out.Result = JobFailed
	}
	return out, nil
}

func (t *fakeTree) stamp(ctx context.Context) {
	v, ok := Selected(ctx)
	if !ok {
		v = -1
	}
	t.stamps = append(t.stamps, v)
}

func (t *fakeTree) Expand(ctx context.Context, k string) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.order = append(t.order, "expand "+k)
	t.stamp(ctx)
	n := t.nodes[k]
	if len(n.batches) == 0 {
		n.batches = nil
		return 0, nil
	}
	b := n.batches[0]
	n.batches = n.batches[1:]
	if len(n.batches) == 0 {
		n.batches = [][]string{} // one more Expand says "no more"
	}
	n.kids = append(n.kids, b...)
	return len(b), nil
}

func (t *fakeTree) Run(ctx context.Context, k string) (func(), error) {
	t.mu.Lock()
	t.order = append(t.order, "run "+k)
	t.stamp(ctx)
	if t.running[k] {
		t.mu.Unlock()
		return nil, fmt.Errorf("%s run twice at once", k)
	}
	t.running[k] = true
	t.maxPar = max(t.maxPar, len(t.running))
	t.mu.Unlock()
	defer func() {
		t.mu.Lock()
		delete(t.running, k)
		t.mu.Unlock()
	}()
	if t.gate != nil {
		select {
		case <-t.gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		n := t.nodes[k]
		o := n.outcome
		n.run, n.result, n.kids = false, o.result, o.kids
	}, nil
}

// openGate makes every job wait for a token (gate) and hands out tokens
// ones once running jobs run at once; the channel it returns is closed
// when they are all taken.
func (t *fakeTree) openGate(running, tokens int) <-chan struct{} {
	t.gate = make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			t.mu.Lock()
			all := len(t.running) == running
			t.mu.Unlock()
			if all {
				for range tokens {
					t.gate <- struct{}{}
				}
				return
			}
			runtime.Gosched()
		}
	}()
	return done
}

func newFake(nodes map[string]*fakeNode) *fakeTree {
	for _, n := range nodes {
		if n.run && n.outcome == nil {
			n.outcome = &fakeNode{result: JobProved}
		}
	}
	return &fakeTree{nodes: nodes, running: map[string]bool{}}
}

// leafOR is an attacker-to-move node whose one candidate move a job proves.
func leafOR(name string, nodes map[string]*fakeNode) {
	nodes[name] = &fakeNode{or: true, batches: [][]string{{name + "a"}}}
	nodes[name+"a"] = &fakeNode{run: true}
}

// The search verifies the most-proving position first: ties in the tree's
// order, a move with one item before one with three, and it widens (asks
// for more candidates) only when the best move's proof number exceeds the
// count of moves that have not failed.
func TestJobSearchSelectionOrder(t *testing.T) {
	nodes := map[string]*fakeNode{
		"root": {or: true, batches: [][]string{{"X", "Y"}, {"Z"}}},
		"X":    {run: true, outcome: &fakeNode{kids: []string{"x1", "x2", "x3"}}},
		"Y":    {run: true, outcome: &fakeNode{kids: []string{"y1"}}},
		"Z":    {run: true},
	}
	for _, k := range []string{"x1", "x2", "x3", "y1"} {
		leafOR(k, nodes)
	}
	ft := newFake(nodes)
	res, err := JobSearch[string](context.Background(), ft, "root", JobOptions{Jobs: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"expand root", "run X", "run Y", "expand y1", "run y1a"}
	if res.Status != "proved" || !slices.Equal(ft.order, want) {
		t.Fatalf("status %s, order %v, want proved and %v", res.Status, ft.order, want)
	}
	if res.Jobs != 3 || res.Expanded != 2 {
		t.Fatalf("jobs %d expansions %d", res.Jobs, res.Expanded)
	}
	// Each job and expansion knows when it was selected, the first
	// selected with the lowest stamp (a worker's priority).
	for i, s := range ft.stamps {
		if s <= 0 || i > 0 && s <= ft.stamps[i-1] {
			t.Fatalf("Selected stamps %v for %v: want positive and increasing", ft.stamps, ft.order)
		}
	}
}

// JobOptions.Widen: with the default the root asks for a second move as
// soon as its one move's proof number (2) exceeds the count of moves (1);
// at Widen 2 it digs into that move and proves it without a second one.
func TestJobSearchWidenFactor(t *testing.T) {
	for _, c := range []struct {
		widen int
		want  []string
	}{
		{0, []string{"expand root", "run X", "expand root", "run Z"}},
		{1, []string{"expand root", "run X", "expand root", "run Z"}},
		{2, []string{"expand root", "run X", "expand x1", "expand x2", "run x1a", "run x2a"}},
	} {
		nodes := map[string]*fakeNode{
			"root": {or: true, batches: [][]string{{"X"}, {"Z"}}},
			"X":    {run: true, outcome: &fakeNode{kids: []string{"x1", "x2"}}},
			"Z":    {run: true},
		}
		leafOR("x1", nodes)
		leafOR("x2", nodes)
		ft := newFake(nodes)
		res, err := JobSearch[string](context.Background(), ft, "root", JobOptions{Jobs: 1, Widen: c.widen}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != SearchProved || !slices.Equal(ft.order, c.want) {
			t.Errorf("Widen %d: status %s, order %v, want proved and %v", c.widen, res.Status, ft.order, c.want)
		}
	}
}

// When every move fails the search asks for more, and reports "disproved"
// when there are no more.
func TestJobSearchWidensAfterFailures(t *testing.T) {
	nodes := map[string]*fakeNode{
		"root": {or: true, batches: [][]string{{"X"}, {"Y"}}},
		"X":    {run: true, outcome: &fakeNode{result: JobFailed}},
		"Y":    {run: true, outcome: &fakeNode{result: JobFailed}},
	}
	ft := newFake(nodes)
	res, err := JobSearch[string](context.Background(), ft, "root", JobOptions{Jobs: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"expand root", "run X", "expand root", "run Y", "expand root"}
	if res.Status != "disproved" || !slices.Equal(ft.order, want) {
		t.Fatalf("status %s, order %v, want disproved and %v", res.Status, ft.order, want)
	}
}

// With two jobs, two different positions are in flight at once (never one
// twice), the siblings of an AND node are worked on in parallel, and a
// node the tree excludes is never touched: the search ends "stuck"
// and names it in the frontier.
func TestJobSearchInFlightAndHeld(t *testing.T) {
	nodes := map[string]*fakeNode{
		"root": {kids: []string{"A", "B", "C", "H"}},
		"H":    {or: true, held: true, batches: [][]string{{"Ha"}}},
		"Ha":   {run: true},
	}
	for _, k := range []string{"A", "B", "C"} {
		leafOR(k, nodes)
	}
	ft := newFake(nodes)
	done := ft.openGate(2, 3) // the first job is let through once two run at once
	res, err := JobSearch[string](context.Background(), ft, "root", JobOptions{Jobs: 2}, nil)
	<-done
	if err != nil {
		t.Fatal(err)
	}
	if ft.maxPar != 2 {
		t.Fatalf("at most %d jobs ran at once, want 2 (order %v)", ft.maxPar, ft.order)
	}
	for _, o := range ft.order {
		if o == "expand H" || o == "run Ha" {
			t.Fatalf("the held position was worked on: %v", ft.order)
		}
	}
	if res.Status != "stuck" || len(res.Frontier) != 1 || res.Frontier[0].Key != "H" || res.Frontier[0].Why != FrontierExcluded {
		t.Fatalf("status %s frontier %+v, want stuck at H (excluded)", res.Status, res.Frontier)
	}
	if res.Jobs != 3 {
		t.Fatalf("%d jobs, want 3", res.Jobs)
	}
}

// A done context stops the search: the job in flight is cancelled, the
// result says "stopped" and the error is the context's.
func TestJobSearchStops(t *testing.T) {
	nodes := map[string]*fakeNode{"root": {run: true}}
	ft := newFake(nodes)
	ft.gate = make(chan struct{}) // never opened
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	var once sync.Once
	go func() {
		<-started
		cancel()
	}()
	res, err := JobSearch[string](ctx, ft, "root", JobOptions{Jobs: 1}, func(p JobProgress[string]) {
		if len(p.InFlight) == 1 {
			once.Do(func() { close(started) })
		}
	})
	if !errors.Is(err, context.Canceled) || res.Status != "stopped" || res.Jobs != 0 {
		t.Fatalf("status %s jobs %d err %v", res.Status, res.Jobs, err)
	}
}

// Once the root is settled the jobs still in flight are cancelled, not
// waited for: two moves of the root each prove it, the gate lets one job
// through, and the other (which would wait for ever) ends with the search.
// Without the cancel the search never returns and the test binary's
// timeout fails it.
// A job that ended while the root was being settled by another is not
// lost: both jobs end (two tokens), the first one taken in proves the
// root, and the second one's apply still runs and it counts. A tree that
// stores its results itself (the book) counts its calls in apply; seen
// failing on a busy machine, where the search's refresh saw the stored
// result and settled the root before the job's apply ran.
func TestJobSearchKeepsJobsThatEnded(t *testing.T) {
	nodes := map[string]*fakeNode{"root": {or: true, kids: []string{"A", "B"}},
		"A": {run: true}, "B": {run: true}}
	ft := newFake(nodes)
	ft.openGate(2, 2) // two tokens, once both jobs are running
	res, err := JobSearch[string](context.Background(), ft, "root", JobOptions{Jobs: 2}, nil)
	if err != nil || res.Status != SearchProved || res.Jobs != 2 {
		t.Fatalf("status %s jobs %d err %v; want proved, 2 jobs", res.Status, res.Jobs, err)
	}
	ft.mu.Lock()
	defer ft.mu.Unlock()
	for _, k := range []string{"A", "B"} {
		if n := ft.nodes[k]; n.run || n.result != JobProved {
			t.Errorf("%s: its job ended but its apply did not run", k)
		}
	}
}

func TestJobSearchCancelsJobsOnceSettled(t *testing.T) {
	nodes := map[string]*fakeNode{"root": {or: true, kids: []string{"A", "B"}},
		"A": {run: true}, "B": {run: true}}
	ft := newFake(nodes)
	ft.openGate(2, 1) // one token, once both jobs are running: one job finishes
	res, err := JobSearch[string](context.Background(), ft, "root", JobOptions{Jobs: 2}, nil)
	if err != nil || res.Status != SearchProved || res.Jobs != 1 {
		t.Fatalf("status %s jobs %d err %v", res.Status, res.Jobs, err)
	}
}

// A budget of jobs stops the search after that many (expansions are not
// jobs): the frontier is the one move left to verify.
func TestJobSearchBudget(t *testing.T) {
	nodes := map[string]*fakeNode{"root": {kids: []string{"A", "B", "C"}}}
	for _, k := range []string{"A", "B", "C"} {
		leafOR(k, nodes)
	}
	ft := newFake(nodes)
	res, err := JobSearch[string](context.Background(), ft, "root", JobOptions{Jobs: 1, MaxJobs: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != "budget" || res.Jobs != 2 || len(res.Frontier) != 1 || res.Frontier[0].Key != "Ca" {
		t.Fatalf("status %s jobs %d frontier %+v", res.Status, res.Jobs, res.Frontier)
	}
}

// expectNode is a frontier node with expected numbers.
func expectNode(pn, dn int64) *fakeNode {
	return &fakeNode{run: true, pn: pn, dn: dn, outcome: &fakeNode{result: JobFailed}}
}

// Evaluation-based initialisation: frontier nodes count at their expected
// numbers, so the search verifies the one expected best first (pn, then
// the larger dn), not the first listed.
func TestJobSearchExpectedNumbersOrder(t *testing.T) {
	nodes := map[string]*fakeNode{
		"root": {or: true, kids: []string{"R", "Q", "P"}},
		"R":    expectNode(2, 1),
		"Q":    expectNode(1, 2),
		"P":    expectNode(1, 4),
	}
	ft := newFake(nodes)
	if _, err := JobSearch[string](context.Background(), ft, "root", JobOptions{Jobs: 1}, nil); err != nil {
		t.Fatal(err)
	}
	if want := []string{"run P", "run Q", "run R"}; !slices.Equal(ft.order, want) {
		t.Fatalf("order %v, want %v", ft.order, want)
	}
}

// Virtual equivalence with flagging: a job in flight keeps its node's
// expected numbers (so its subtree stays the most-proving, and the numbers
// do not move when the tree is evaluated again) and is flagged (never
// selected again); when every job of a subtree is in flight the next
// subtree is taken. A: AND of a1, a2 (expected 1/1, pn 2); B: AND of b1
// (expected pn 3). Three jobs at once start a1, a2, b1 in this order: a
// virtual loss would take b1 second, and 1/1 for every leaf would take b1
// first. (The selection is driven here as JobSearch drives it, select and
// begin, because the jobs' goroutines record their start in any order.)
func TestJobSearchVirtualEquivalence(t *testing.T) {
	nodes := map[string]*fakeNode{
		"root": {or: true, kids: []string{"B", "A"}},
		"A":    {kids: []string{"a1", "a2"}},
		"B":    {kids: []string{"b1"}},
		"a1":   expectNode(1, 1),
		"a2":   expectNode(1, 1),
		"b1":   expectNode(3, 1),
	}
	ft := newFake(nodes)
	ctx := context.Background()
	s := newJobSearch[string](ft, "root", 0, 0)
	var order []string
	for i := 0; i < 4; i++ {
		if err := s.evaluate(ctx); err != nil {
			t.Fatal(err)
		}
		if rn := s.nodes["root"]; rn.pn != 2 || rn.dn != 2 {
			t.Fatalf("after %v in flight the root is %d/%d, want 2/2 (their expected numbers)", order, rn.pn, rn.dn)
		}
		k, w, path, _, ok, err := s.selectNode(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		if w != JobRun {
			t.Fatalf("selected %s for work %v", k, w)
		}
		s.begin(k, w, path)
		order = append(order, k)
		s.invalidate("root", nil) // looked at again, as after another job: the numbers stay
	}
	if want := []string{"a1", "a2", "b1"}; !slices.Equal(order, want) {
		t.Fatalf("jobs started %v, want %v", order, want)
	}
}

// The mapping from an evaluation to expected numbers: neutral is 1/1,
// better for the attacker never raises pn nor lowers dn, and the levels
// are bounded.
func TestExpectedNumbers(t *testing.T) {
	if pn, dn := player.ExpectedNumbers(0); pn != 1 || dn != 1 {
		t.Fatalf("neutral: %d/%d", pn, dn)
	}
	ppn, pdn := player.ExpectedNumbers(-100)
	if ppn != 1+player.EvalLevels || pdn != 1 {
		t.Fatalf("lost-looking: %d/%d", ppn, pdn)
	}
	for s := -3.0; s <= 3; s += 0.1 {
		pn, dn := player.ExpectedNumbers(s)
		if pn > ppn || dn < pdn || pn < 1 || dn < 1 || pn > 1+player.EvalLevels || dn > 1+player.EvalLevels {
			t.Fatalf("score %.1f: %d/%d after %d/%d", s, pn, dn, ppn, pdn)
		}
		ppn, pdn = pn, dn
	}
}

// A job to run again: an AND node with children whose Work is JobRun
// counts by its children (X: three open replies, pn 3), not as a fresh
// frontier (1/1), and selection reaching it runs its job again instead of
// descending into the children; after that job the search descends as
// usual. Y (expected pn 2) is run first; its job leaves four replies (pn
// 4), so X (pn 3) is the most-proving and is run again, never expanding
// x2 or x3; its job leaves x1 alone, which is then worked on.
func TestJobSearchRunAgain(t *testing.T) {
	nodes := map[string]*fakeNode{
		"root": {or: true, kids: []string{"X", "Y"}},
		"X":    {run: true, kids: []string{"x1", "x2", "x3"}, outcome: &fakeNode{kids: []string{"x1"}}},
		"Y":    {run: true, pn: 2, outcome: &fakeNode{kids: []string{"y1", "y2", "y3", "y4"}}},
	}
	for _, k := range []string{"x1", "x2", "x3", "y1", "y2", "y3", "y4"} {
		leafOR(k, nodes)
	}
	ft := newFake(nodes)
	res, err := JobSearch[string](context.Background(), ft, "root", JobOptions{Jobs: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"run Y", "run X", "expand x1", "run x1a"}
	if res.Status != "proved" || !slices.Equal(ft.order, want) {
		t.Fatalf("status %s, order %v, want proved and %v", res.Status, ft.order, want)
	}
	// Before its job runs again, X counts 3/1 from its children and is
	// open work (with the three replies' own expansions).
	ft = newFake(map[string]*fakeNode{"X": {run: true, kids: []string{"x1", "x2", "x3"}}})
	for _, k := range []string{"x1", "x2", "x3"} {
		leafOR(k, ft.nodes)
	}
	s := newJobSearch[string](ft, "X", 0, 0)
	if err := s.evaluate(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := s.nodes["X"]; n.pn != 3 || n.dn != 1 || s.open != 4 {
		t.Fatalf("X is %d/%d with %d open, want 3/1 with 4 open", n.pn, n.dn, s.open)
	}
	if k, w, _, _, ok, _ := s.selectNode(context.Background()); !ok || k != "X" || w != JobRun {
		t.Fatalf("selected %s %v %v, want X's job", k, w, ok)
	}
}

// wideTree is an AND root with n attacker-to-move children, each asking
// for its candidates (JobExpand); an expansion adds one move to verify.
// block makes every expansion wait until its context is done.
type wideTree struct {
	n        int
	block    bool
	mu       sync.Mutex
	expanded map[int]bool
	calls    int // Expand calls
}

func (t *wideTree) Look(_ context.Context, k int) (JobNode[int], error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case k == 0:
		kids := make([]int, t.n)
		for i := range kids {
			kids[i] = i + 1
		}
		return JobNode[int]{Children: kids}, nil
	case k <= t.n && t.expanded[k]:
		return JobNode[int]{OR: true, Children: []int{-k}, Work: JobExpand}, nil
	case k <= t.n && k > 0:
		return JobNode[int]{OR: true, Work: JobExpand}, nil
	}
	return JobNode[int]{Work: JobRun}, nil // a move to verify
}

func (t *wideTree) Expand(ctx context.Context, k int) (int, error) {
	t.mu.Lock()
	t.calls++
	t.mu.Unlock()
	if t.block {
		// Until the search cancels it at its time limit: a search that
		// did not would never return (go test's -timeout reports it).
		<-ctx.Done()
		return 0, ctx.Err()
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.expanded[k] {
		return 0, nil
	}
	t.expanded[k] = true
	return 1, nil
}

func (t *wideTree) Run(ctx context.Context, k int) (func(), error) {
	<-ctx.Done() // never settles: the time limit ends it
	return nil, ctx.Err()
}

// The time limit holds while the search only expands: at an AND node with
// many children each asking for candidates, every selection is an
// expansion (the least expanded child has the smallest disproof number),
// and the search once went on expanding past MaxTime without looking at
// the clock (85 s for a 40 s budget on a public position whose first
// verdict left 480 replies). An expansion in progress is cancelled at the
// limit, and the search ends with "budget", not an error.
func TestJobSearchTimeLimitWhileExpanding(t *testing.T) {
	// No wall-clock deadline decides the test: a search that ignored its
	// limit would expand all n children (caught below) or, blocked in an
	// expansion, never return (go test's -timeout ends it). How much it
	// did in 20 ms depends on the machine, so nothing asks for a minimum.
	for _, block := range []bool{false, true} {
		tree := &wideTree{n: 5000, block: block, expanded: map[int]bool{}}
		res, err := JobSearch[int](context.Background(), tree, 0, JobOptions{Jobs: 2, MaxTime: 20 * time.Millisecond}, nil)
		if err != nil || res.Status != SearchBudget || res.Expanded >= tree.n {
			t.Fatalf("block %v: status %s, err %v, %d of %d children expanded (%d calls)", block, res.Status, err, res.Expanded, tree.n, tree.calls)
		}
		t.Logf("block %v: %d expansions, %d jobs started", block, res.Expanded, res.Started)
	}
}

// gateTree is an AND root with n attacker-to-move children, each asking
// for its candidates; an expansion adds one move a job proves. Every
// Expand call waits until another one has started (or its context ends),
// so a search that expands on its own goroutine, one at a time, never
// gets past the first: the test sees one call at most at once.
type gateTree struct {
	n        int
	mu       sync.Mutex
	expanded map[int]bool
	proved   map[int]bool
	now, max int // Expand calls running, the most at once
	calls    int
	second   chan struct{} // closed when a second Expand call has started
}

func (t *gateTree) Look(_ context.Context, k int) (JobNode[int], error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case k == 0:
		kids := make([]int, t.n)
		for i := range kids {
			kids[i] = i + 1
		}
		return JobNode[int]{Children: kids}, nil
	case k > 0 && t.expanded[k]:
		return JobNode[int]{OR: true, Children: []int{-k}, Work: JobExpand}, nil
	case k > 0:
		return JobNode[int]{OR: true, Work: JobExpand}, nil
	case t.proved[k]:
		return JobNode[int]{Result: JobProved}, nil
	}
	return JobNode[int]{Work: JobRun}, nil
}

func (t *gateTree) Expand(ctx context.Context, k int) (int, error) {
	t.mu.Lock()
	t.now++
	t.calls++
	t.max = max(t.max, t.now)
	if t.calls == 2 {
		close(t.second)
	}
	t.mu.Unlock()
	defer func() {
		t.mu.Lock()
		t.now--
		t.mu.Unlock()
	}()
	select {
	case <-t.second:
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.expanded[k] {
		return 0, nil
	}
	t.expanded[k] = true
	return 1, nil
}

func (t *gateTree) Run(_ context.Context, k int) (func(), error) {
	return func() {
		t.mu.Lock()
		t.proved[k] = true
		t.mu.Unlock()
	}, nil
}

// Expansions are jobs: with more than one job slot they run at once, in
// the workers, and the search proves the root (every child needs its
// candidates before anything can be verified). A search that expands one
// node at a time waits in the first expansion for ever: go test's
// -timeout reports it with every goroutine's stack.
func TestJobSearchExpandsInParallel(t *testing.T) {
	tree := &gateTree{n: 6, expanded: map[int]bool{}, proved: map[int]bool{}, second: make(chan struct{})}
	res, err := JobSearch[int](context.Background(), tree, 0, JobOptions{Jobs: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tree.max < 2 || res.Status != SearchProved || res.Expanded < tree.n || res.Jobs != tree.n {
		t.Fatalf("%d Expand calls at most at once, want 2 or more; search %s after %d expansions and %d jobs", tree.max, res.Status, res.Expanded, res.Jobs)
	}
	t.Logf("%d expansions, at most %d at once", res.Expanded, tree.max)
}

// While an OR node's expansion runs, its virtual child is in flight but
// the moves it has stay selectable: the other slot verifies one of them.
// The expansion waits until that job has started, so a search that
// flagged the whole node (or expanded on its own goroutine) would wait
// for its time limit and fail.
func TestJobSearchExpandingNodeKeepsItsMoves(t *testing.T) {
	ft := newFake(map[string]*fakeNode{
		// a's proof number 2 exceeds the one move's count: widen first.
		"root": {or: true, kids: []string{"a"}, batches: [][]string{{"b"}}},
		"a":    {run: true, pn: 2, dn: 1},
		"b":    {run: true},
	})
	ex := &expandGate{fakeTree: ft}
	// No time limit: a search that waited for the expansion before it ran
	// a's job would never end, and go test's -timeout reports the hang
	// with every goroutine's stack.
	res, err := JobSearch[string](context.Background(), ex, "root", JobOptions{Jobs: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ft.mu.Lock()
	defer ft.mu.Unlock()
	if res.Status != SearchProved || !slices.Contains(ft.order, "expand root") || !slices.Contains(ft.order, "run a") || ex.cancelled {
		t.Fatalf("search %s, order %v (expansion cancelled: %v)", res.Status, ft.order, ex.cancelled)
	}
}

// expandGate is a fakeTree whose Expand waits until a's job has run.
type expandGate struct {
	*fakeTree
	cancelled bool
}

func (e *expandGate) Expand(ctx context.Context, k string) (int, error) {
	e.fakeTree.mu.Lock()
	e.fakeTree.order = append(e.fakeTree.order, "expand "+k)
	e.fakeTree.mu.Unlock()
	// Wait until a's job has run (its apply need not have).
	for {
		e.fakeTree.mu.Lock()
		ran := slices.Contains(e.fakeTree.order, "run a")
		e.fakeTree.mu.Unlock()
		if ran {
			break
		}
		select {
		case <-ctx.Done():
			// Cancelled before a's job ran: the search ended without it.
			// (Once a's job has proved the root, the search cancels this
			// expansion.)
			e.fakeTree.mu.Lock()
			e.cancelled = !slices.Contains(e.fakeTree.order, "run a")
			e.fakeTree.mu.Unlock()
			return 0, ctx.Err()
		default:
			runtime.Gosched()
		}
	}
	e.fakeTree.mu.Lock()
	defer e.fakeTree.mu.Unlock()
	n := e.fakeTree.nodes[k]
	if len(n.batches) == 0 {
		n.batches = nil
		return 0, nil
	}
	b := n.batches[0]
	n.batches = n.batches[1:]
	if len(n.batches) == 0 {
		n.batches = [][]string{}
	}
	n.kids = append(n.kids, b...)
	return len(b), nil
}

// procTree is a complete tree of branching 3 and depth procDepth, made up
// as it is looked at: node k's children are 3k+1..3k+3, OR nodes at even
// depths; a leaf is a job whose outcome (proved for one in two) and
// expected numbers come from a hash of its key.
type procTree struct {
	mu     sync.Mutex
	done   map[int64]JobResult
	order  []int64
	looked map[int64]bool
}

const procDepth = 9

func procDepthOf(k int64) int {
	d := 0
	for k > 0 {
		k = (k - 1) / 3
		d++
	}
	return d
}

func procHash(k int64) uint64 {
	h := uint64(k)*0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	return h ^ h>>32
}

func (t *procTree) Look(_ context.Context, k int64) (JobNode[int64], error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.looked[k] = true
	d := procDepthOf(k)
	n := JobNode[int64]{OR: d%2 == 0}
	if d == procDepth {
		if r, ok := t.done[k]; ok {
			n.Result = r
			return n, nil
		}
		h := procHash(k)
		n.Work, n.PN, n.DN = JobRun, int64(1+h%4), int64(1+h/4%4)
		return n, nil
	}
	n.Children = []int64{3*k + 1, 3*k + 2, 3*k + 3}
	return n, nil
}

func (t *procTree) Expand(context.Context, int64) (int, error) { return 0, nil }

func (t *procTree) Run(_ context.Context, k int64) (func(), error) {
	return func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		t.order = append(t.order, k)
		t.done[k] = JobProved
		if procHash(k)%2 == 0 {
			t.done[k] = JobFailed
		}
	}, nil
}

// The cache bound holds over a long run: a search held to 64 nodes of a
// tree of 29,524 never holds more than the bound and the selection's
// paths, yet it starts the same jobs in the same order and ends with the
// same numbers as one that holds the whole tree (a node the cache dropped
// counts in its parent with the numbers it had, and is read again when
// the search comes back to it).
func TestJobSearchCacheBound(t *testing.T) {
	const limit = 64
	run := func(cache int) (*procTree, JobSearchResult[int64], int) {
		tree := &procTree{done: map[int64]JobResult{}, looked: map[int64]bool{}}
		var mu sync.Mutex
		held := 0
		res, err := JobSearch[int64](context.Background(), tree, 0, JobOptions{Jobs: 1, MaxJobs: 400, CacheNodes: cache},
			func(p JobProgress[int64]) {
				mu.Lock()
				held = max(held, p.Held)
				mu.Unlock()
			})
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		return tree, res, held
	}
	whole, wres, _ := run(0)
	small, sres, held := run(limit)
	// The bound, besides the nodes on the evaluation's and the
	// selection's stacks (the depth, twice).
	most := limit + 2*(procDepth+1)
	if sres.MaxHeld > most || held > most || sres.Held > most {
		t.Fatalf("held %d nodes at most (%d in the reports, %d at the end), want at most %d", sres.MaxHeld, held, sres.Held, most)
	}
	if wres.MaxHeld < 10*limit || len(small.looked) < 10*limit {
		t.Fatalf("the whole tree is %d nodes (%d looked at): too small to test a bound of %d", wres.MaxHeld, len(small.looked), limit)
	}
	if !slices.Equal(small.order, whole.order) || sres.PN != wres.PN || sres.DN != wres.DN || sres.Status != wres.Status || sres.Jobs != wres.Jobs {
		t.Fatalf("with %d nodes held: %d jobs, %s %d/%d; with the whole tree: %d jobs, %s %d/%d; same order %v",
			limit, sres.Jobs, sres.Status, sres.PN, sres.DN, wres.Jobs, wres.Status, wres.PN, wres.DN, slices.Equal(small.order, whole.order))
	}
	t.Logf("%d jobs, %s %d/%d; held at most %d of %d nodes, %d reads (the whole tree: %d)", sres.Jobs, sres.Status, sres.PN, sres.DN, sres.MaxHeld, wres.MaxHeld, sres.Nodes, wres.Nodes)
}

// JobOptions.Finish: the root's selection takes A (five leaves, pn 5)
// before B (pn 6), though D below B is one job from its proof. Every
// Finish-th job is selected below the near-closed node instead: D (pn 1),
// not F, which has more proved below it but hangs under c5, an OR node
// proved already.
func TestJobSearchFinish(t *testing.T) {
	for _, c := range []struct {
		finish, finishing int
		want              []string
	}{
		{0, 0, []string{"run a1", "run a2"}},
		{1, 1, []string{"run d1", "run a1"}},
		{2, 1, []string{"run a1", "run d1"}},
		{3, 0, []string{"run a1", "run a2"}},
	} {
		nodes := map[string]*fakeNode{
			"root": {or: true, kids: []string{"A", "B"}},
			"A":    {kids: []string{"a1", "a2", "a3", "a4", "a5"}},
			"B":    {kids: []string{"c1", "c2", "c3", "c4", "c5", "c6", "c7"}},
			"c1":   {or: true, kids: []string{"D"}},
			"D":    {kids: []string{"d1"}},
			"c5":   {or: true, kids: []string{"p", "F"}},
			"p":    {result: JobProved},
			"F":    {kids: []string{"f1", "fp"}},
			"fp":   {result: JobProved},
		}
		for _, k := range []string{"a1", "a2", "a3", "a4", "a5", "c2", "c3", "c4", "c6", "c7", "d1", "f1"} {
			nodes[k] = &fakeNode{run: true}
		}
		ft := newFake(nodes)
		res, err := JobSearch[string](context.Background(), ft, "root", JobOptions{Jobs: 1, MaxJobs: 2, Finish: c.finish}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(ft.order, c.want) || res.Finishing != c.finishing {
			t.Errorf("Finish %d: jobs %v, %d by the finishing rule; want %v, %d", c.finish, ft.order, res.Finishing, c.want, c.finishing)
		}
	}
}

// JobNode.After: work known to follow a node's proof counts in its proof
// number while it is unsettled, and never settles anything. The root (OR)
// has P (AND, one child: S, an OR node whose one move s1 proves) and Q
// (AND of two frontier jobs that fail, pn 2), and R (AND, one child: T,
// a frontier job that fails). Ties keep that order. Without After, s1
// runs first and proves the root. With S's After at 1 or 5, P counts pn
// 2 or 6 and goes after R (and Q); with T's After at 5 too, R goes after
// P. When s1 runs, it proves the root all the same: After says nothing
// of the value.
func TestJobSearchAfter(t *testing.T) {
	for _, c := range []struct {
		sAfter, tAfter int64
		want           []string
	}{
		{0, 0, []string{"run s1"}},
		{5, 0, []string{"run T", "run q1", "run s1"}},
		{5, 5, []string{"run q1", "run s1"}},
		{1, 0, []string{"run T", "run s1"}},
	} {
		nodes := map[string]*fakeNode{
			"root": {or: true, kids: []string{"P", "Q", "R"}},
			"P":    {kids: []string{"S"}},
			"S":    {or: true, kids: []string{"s1"}, after: c.sAfter},
			"s1":   {run: true, outcome: &fakeNode{result: JobProved}},
			"Q":    {kids: []string{"q1", "q2"}},
			"q1":   expectNode(1, 1),
			"q2":   expectNode(1, 1),
			"R":    {kids: []string{"T"}},
			"T":    {or: true, run: true, pn: 1, dn: 1, after: c.tAfter, outcome: &fakeNode{result: JobFailed}},
		}
		ft := newFake(nodes)
		res, err := JobSearch[string](context.Background(), ft, "root", JobOptions{Jobs: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != SearchProved {
			t.Errorf("After %d/%d: %v, want proved", c.sAfter, c.tAfter, res.Status)
		}
		if !slices.Equal(ft.order, c.want) {
			t.Errorf("After %d/%d: jobs %v, want %v", c.sAfter, c.tAfter, ft.order, c.want)
		}
	}
}
