package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

type atlasOut struct {
	Calls      int    `json:"calls"`
	D          int    `json:"d"`
	Proved     int    `json:"proved"`
	Open       int    `json:"open"`
	NotStarted int    `json:"not_started"`
	Stopped    bool   `json:"stopped"`
	Rules      string `json:"rules"`
	Rows       []struct {
		Row    int    `json:"row"`
		Move   string `json:"move"`
		Turns  string `json:"turns"`
		Pass   bool   `json:"pass"`
		Status string `json:"status"`
		Result string `json:"result"`
		Calls  int    `json:"calls"`
		Order  int    `json:"order"`
		PN     int64  `json:"pn"`
	} `json:"rows"`
}

func atlasRun(t *testing.T, args ...string) atlasOut {
	t.Helper()
	out, _ := runBook(t, false, append([]string{"atlas", "--json"}, args...)...)
	var res atlasOut
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return res
}

func bookVerdicts(t *testing.T, book string) int {
	t.Helper()
	out, _ := runBook(t, false, "stats", "--book", book, "--json")
	var st struct {
		Verdicts int `json:"verdicts"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	return st.Verdicts
}

// c6 book atlas on a small board with one verifier call per row (node
// budgets, no time): the first run proves some rows and leaves others
// open; the second skips the proved rows (no call) and continues the open
// ones from the book (new verdicts, not the first run's again); every
// book checks.
func TestBookAtlasResumes(t *testing.T) {
	book := filepath.Join(t.TempDir(), "a.c6book")
	runBook(t, false, "init", "--book", book, "--rules", "9,9,5,2,1")
	// Refused before anything is stored.
	for _, args := range [][]string{{"--d", "0"}, {"--d", "4"}, {"--rows", "0"}, {"--rows", "3-1"}, {"--d", "1", "--rows", "1-8"}, {"--rows", "x"}, {"--time-each", "-1s"}, {"--jobs", "0"}} {
		runBook(t, true, append([]string{"atlas", "--book", book}, args...)...)
	}
	if n := bookVerdicts(t, book); n != 0 {
		t.Fatalf("refused runs stored %d verdicts", n)
	}
	// --shapes 0: the player's moves alone, whose first one proves some rows in
	// one call at this budget and not others (the shapes would change which).
	flags := []string{"--book", book, "--d", "1", "--lambda", "2", "--max-calls", "1", "--max-nodes", "100", "--player-nodes", "2000", "--shapes", "0", "--workers", "1", "--time-each", "0"}
	first := atlasRun(t, flags...)
	if len(first.Rows) != 7 || first.D != 1 || !first.Rows[6].Pass || first.Rows[6].Move != "a1i9" || first.Rows[0].Turns != "e5 "+first.Rows[0].Move {
		t.Fatalf("rows: %+v", first)
	}
	proved, open := map[int]bool{}, map[int]bool{}
	for _, r := range first.Rows {
		if r.Result == "skipped" || r.Calls != 1 {
			t.Fatalf("first run, row %d: %s with %d calls, want one call", r.Row, r.Result, r.Calls)
		}
		switch r.Status {
		case "proved":
			proved[r.Row] = true
		case "open":
			open[r.Row] = true
		default:
			t.Fatalf("row %d: status %q after a call", r.Row, r.Status)
		}
	}
	if len(proved) == 0 || len(open) == 0 || first.Proved != len(proved) || first.Open != len(open) {
		t.Fatalf("the test wants rows proved and rows open after one call each: %+v", first)
	}
	v1 := bookVerdicts(t, book)
	if v1 != first.Calls {
		t.Fatalf("%d verdicts stored after %d calls", v1, first.Calls)
	}
	second := atlasRun(t, append(flags, "--no-queue")...)
	for _, r := range second.Rows {
		switch {
		case proved[r.Row] && (r.Result != "skipped" || r.Calls != 0 || r.Status != "proved"):
			t.Errorf("second run, row %d proved before: %s, %d calls, %s", r.Row, r.Result, r.Calls, r.Status)
		case open[r.Row] && (r.Result == "skipped" || r.Calls == 0):
			t.Errorf("second run, row %d open before: %s, %d calls", r.Row, r.Result, r.Calls)
		}
	}
	// Continued, not started again: each call stored a verdict the book
	// did not have.
	if v2 := bookVerdicts(t, book); v2 != v1+second.Calls || second.Calls == 0 {
		t.Fatalf("%d verdicts after the second run's %d calls, %d before", v2, second.Calls, v1)
	}
	// --rows: those rows only, numbered as in the whole atlas.
	if r := atlasRun(t, append(flags, "--rows", "2,6-7")...); len(r.Rows) != 3 || r.Rows[0].Row != 2 || r.Rows[1].Row != 6 || r.Rows[2].Row != 7 || !r.Rows[2].Pass {
		t.Errorf("--rows 2,6-7: %+v", r)
	}
	if out, _ := runBook(t, false, "check", "--book", book); !strings.Contains(out, "ok") {
		t.Fatalf("check: %s", out)
	}
	// Text: the summary table names every row.
	out, _ := runBook(t, false, append([]string{"atlas"}, flags...)...)
	if !strings.Contains(out, "pass") || !strings.Contains(out, "status") || strings.Count(out, "\n") < 9 {
		t.Errorf("table: %s", out)
	}
}

// cancelOnWrite cancels when a write holds text (Ctrl-C at a known point).
type cancelOnWrite struct {
	strings.Builder
	text   string
	cancel func()
}

func (w *cancelOnWrite) Write(p []byte) (int, error) {
	if strings.Contains(string(p), w.text) {
		w.cancel()
	}
	return w.Builder.Write(p)
}

// A run stopped after its first row (Ctrl-C: here the context is
// cancelled when the first row's line is written) keeps that row's work,
// says it stopped and lists the other rows as not run, not started.
func TestBookAtlasStopped(t *testing.T) {
	book := filepath.Join(t.TempDir(), "a.c6book")
	runBook(t, false, "init", "--book", book, "--rules", "9,9,5,2,1")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out strings.Builder
	errb := &cancelOnWrite{text: "row 1/7", cancel: cancel}
	code := runContext(ctx, []string{"book", "atlas", "--book", book, "--d", "1", "--json", "--no-queue",
		"--lambda", "2", "--max-calls", "1", "--max-nodes", "100", "--player-nodes", "2000", "--workers", "1"}, stdio{nil, &out, errb})
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var res atlasOut
	if err := json.Unmarshal([]byte(out.String()), &res); err != nil {
		t.Fatal(err, out.String())
	}
	if !res.Stopped || res.Calls != 1 || len(res.Rows) != 7 || res.NotStarted != 6 || res.Rows[0].Calls != 1 {
		t.Fatalf("stopped run: %s", out.String())
	}
	for _, r := range res.Rows[1:] {
		if r.Result != "not run" || r.Status != "not started" {
			t.Fatalf("row %d: %s, %s", r.Row, r.Result, r.Status)
		}
	}
	if n := bookVerdicts(t, book); n != 1 {
		t.Fatalf("%d verdicts kept, want the first row's", n)
	}
}
