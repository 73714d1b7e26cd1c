package engine

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"
)

// fakeTree is a scripted JobTree: nodes are names; a job turns a node into
// its scripted outcome, an expansion adds the next scripted batch.
type fakeTree struct {
	mu      sync.Mutex
	nodes   map[string]*fakeNode
	order   []string // "run X" and "expand X", in the order the search asked
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
}

func (t *fakeTree) Look(_ context.Context, k string) (JobNode[string], error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := t.nodes[k]
	if n == nil {
		return JobNode[string]{}, fmt.Errorf("no node %q", k)
	}
	out := JobNode[string]{OR: n.or, Result: n.result, Children: n.kids}
	if n.held {
		out.Result = JobHeld
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

func (t *fakeTree) Expand(_ context.Context, k string) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.order = append(t.order, "expand "+k)
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
// position left to the expert is never touched: the search ends "stuck"
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
	ft.gate = make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		// The first job is let through once two run at once.
		for {
			ft.mu.Lock()
			n := len(ft.running)
			ft.mu.Unlock()
			if n == 2 {
				break
			}
			runtime.Gosched()
		}
		for i := 0; i < 3; i++ {
			ft.gate <- struct{}{}
		}
	}()
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
	if res.Status != "stuck" || len(res.Frontier) != 1 || res.Frontier[0].Key != "H" || res.Frontier[0].Why != "held" {
		t.Fatalf("status %s frontier %+v, want stuck at H (held)", res.Status, res.Frontier)
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
