package main

import (
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2/test"

	"c6book/ui"
)

// An empty (or blank) preferences file is removed before Fyne reads it; a
// missing file stays missing and a file with content is left as it is.
func TestDropEmptyPreferences(t *testing.T) {
	dir := t.TempDir()
	for _, blank := range []string{"", "\n \n"} {
		p := filepath.Join(dir, "preferences.json")
		if err := os.WriteFile(p, []byte(blank), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := dropEmptyPreferences(p); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Fatalf("blank preferences %q: still there (%v)", blank, err)
		}
	}
	missing := filepath.Join(dir, "none", "preferences.json")
	if err := dropEmptyPreferences(missing); err != nil {
		t.Fatalf("missing file: %v", err)
	}
	if _, err := os.Stat(filepath.Dir(missing)); !os.IsNotExist(err) {
		t.Fatal("a missing file's folder was created")
	}
	full := filepath.Join(dir, "full.json")
	const data = `{"lastBook":"/x.c6book"}`
	if err := os.WriteFile(full, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := dropEmptyPreferences(full); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(full); err != nil || string(got) != data {
		t.Fatalf("preferences with content changed: %q, %v", got, err)
	}
	// The path is Fyne's: under the user config dir, in the app's folder.
	t.Setenv("XDG_CONFIG_HOME", dir)
	if p, err := preferencesPath(); err != nil || p != filepath.Join(dir, "fyne", appID, "preferences.json") {
		t.Fatalf("preferencesPath %q, %v", p, err)
	}
}

// The Replies filter the user chose is kept in the preferences and
// applied at the next start; --replies wins over it; a bad stored value
// shows all replies.
func TestReplyFilterRemembered(t *testing.T) {
	dir := t.TempDir()
	a := test.NewTempApp(t)
	a.Preferences().SetString(prefReplyFilter, "book")
	ta := startApp(t, a, options{book: filepath.Join(dir, "b.c6book")})
	if f := ta.wa.wb.ReplyFilter(); f != (ui.ReplyFilter{BookOnly: true}) {
		t.Fatalf("started with %v, want the stored book moves only", f)
	}
	ta.wa.wb.OnReplyFilter(ui.ReplyFilter{MinGames: 5})
	if got := a.Preferences().String(prefReplyFilter); got != "games:5" {
		t.Fatalf("stored %q, want games:5", got)
	}

	b := test.NewTempApp(t)
	b.Preferences().SetString(prefReplyFilter, "book")
	tb := startApp(t, b, options{book: filepath.Join(dir, "c.c6book"), replies: "games:20", flagSet: map[string]bool{"replies": true}})
	if f := tb.wa.wb.ReplyFilter(); f != (ui.ReplyFilter{MinGames: 20}) {
		t.Fatalf("--replies games:20 gave %v", f)
	}

	c := test.NewTempApp(t)
	c.Preferences().SetString(prefReplyFilter, "games:x")
	tc := startApp(t, c, options{book: filepath.Join(dir, "d.c6book")})
	if f := tc.wa.wb.ReplyFilter(); f != (ui.ReplyFilter{}) {
		t.Fatalf("a bad stored filter gave %v", f)
	}
}
