package main

import (
	"database/sql"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/proofcheck"
)

// c6 book show --proof prints the proof line off the stored certificate:
// the JSON's steps are legal turn by turn from --turns and end in a win;
// from the attacker's position above, the proved move leads; a stored
// certificate tampered with (a covered move dropped) shows nothing.
func TestBookShowProof(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "p.c6book")
	runBook(t, false, "init", "--book", book, "--rules", "9,9,5,2,1")
	runBook(t, false, "verify", "--book", book, "--turns", "e5 a1a2 e4d4")
	out, _ := runBook(t, false, "show", "--book", book, "--turns", "e5 a1a2 e4d4", "--proof", "--json")
	var j struct {
		Proof *proofJSON `json:"proof"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil || j.Proof == nil {
		t.Fatalf("%v: %s", err, out)
	}
	r, _ := game.ParseRules("9,9,5,2,1")
	b, err := board.ReplayText(r, "e5 a1a2 e4d4")
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range j.Proof.Steps[1:] {
		m, err := game.ParseMove(r, st.Move)
		if err != nil {
			t.Fatal(err)
		}
		if st.By != b.ToMove().String() {
			t.Fatalf("step %d by %s, %s to move", st.Step, st.By, b.ToMove())
		}
		if err := b.PlayPartial(m); err != nil {
			t.Fatalf("step %d %s: %v", st.Step, st.Move, err)
		}
	}
	last := j.Proof.Steps[len(j.Proof.Steps)-1]
	if !last.Wins || (b.Winner() != game.Black && b.Threats(game.Black) <= r.P) {
		t.Fatalf("the line ends without a win: %+v", last)
	}
	text, _ := runBook(t, false, "show", "--book", book, "--turns", "e5 a1a2", "--attacker", "B", "--proof")
	if !strings.Contains(text, "B d4e4 (the book's proved move)") || !strings.Contains(text, "wins next") && !strings.Contains(text, "wins\n") {
		t.Fatalf("from above:\n%s", text)
	}
	_, errs := runBook(t, true, "show", "--book", book, "--turns", "e5", "--attacker", "B", "--proof")
	if !strings.Contains(errs, "not proved") {
		t.Fatalf("an unproved position: %s", errs)
	}

	// Tamper with the stored certificate: one covered move dropped.
	db, err := sql.Open("sqlite3", book)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var pos int64
	var data []byte
	if err := db.QueryRow("SELECT pos, cert FROM verdict WHERE cert IS NOT NULL").Scan(&pos, &data); err != nil {
		t.Fatal(err)
	}
	var c proofcheck.Cert
	if err := c.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if len(c.Covered) < 2 {
		t.Fatal("the test needs a certificate with covered moves")
	}
	c.Covered = c.Covered[1:]
	if data, err = c.MarshalBinary(); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("UPDATE verdict SET cert = ? WHERE pos = ?", data, pos); err != nil {
		t.Fatal(err)
	}
	db.Close()
	out, errs = runBook(t, true, "show", "--book", book, "--turns", "e5 a1a2 e4d4", "--proof")
	// (The book notices the outside change first: its proofs show as
	// unchecked until `check`; either way nothing is shown.)
	if !strings.Contains(errs, "certificate") && !strings.Contains(errs, "unchecked") || strings.Contains(out, "proof for") {
		t.Fatalf("a tampered certificate: stdout %q stderr %q", out, errs)
	}
}
