package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"c6book/engine/threat"
	"c6book/ui"
)

// Every bad field is a one-line error naming it; good ones are read.
func TestSettingsFormParse(t *testing.T) {
	good := defaultSettings().form()
	s, err := good.parse()
	if err != nil {
		t.Fatal(err)
	}
	if s != defaultSettings() {
		t.Fatalf("the defaults' form reads back as %+v", s)
	}
	f := good
	f.theme, f.lambda, f.autoJobs, f.solverNodes, f.solverTime, f.playTime = "Dark", "λ3", " 4 ", "50,000", "2s", "300ms"
	f.queueURL = "nats://127.0.0.1:4222"
	if s, err = f.parse(); err != nil {
		t.Fatal(err)
	}
	want := settings{theme: themeDark, lambda: 3, autoJobs: 4, solverNodes: 50_000, solverTime: 2 * time.Second,
		playTime: 300 * time.Millisecond, queue: queueSetting{url: "nats://127.0.0.1:4222"}}
	if s != want {
		t.Fatalf("parsed %+v, want %+v", s, want)
	}
	for _, bad := range []struct {
		set  func(*settingsForm)
		word string
	}{
		{func(f *settingsForm) { f.theme = "sepia" }, "theme"},
		{func(f *settingsForm) { f.lambda = "λ4" }, "λ"},
		{func(f *settingsForm) { f.autoJobs = "0" }, "verifier jobs"},
		{func(f *settingsForm) { f.autoJobs = "many" }, "verifier jobs"},
		{func(f *settingsForm) { f.autoJobs = "257" }, "verifier jobs"},
		{func(f *settingsForm) { f.solverNodes = "10" }, "solver nodes"},
		{func(f *settingsForm) { f.solverNodes = "1e9x" }, "solver nodes"},
		{func(f *settingsForm) { f.solverTime = "-1s" }, "solver time"},
		{func(f *settingsForm) { f.solverTime = "soon" }, "solver time"},
		{func(f *settingsForm) { f.playTime = "" }, "player time"},
		{func(f *settingsForm) { f.playTime = "2h" }, "player time"},
		{func(f *settingsForm) { f.queueURL = "localhost" }, "verifier queue"},
		{func(f *settingsForm) { f.queueCreds = "team.creds" }, "verifier queue"},
	} {
		f := good
		bad.set(&f)
		_, err := f.parse()
		if err == nil || !strings.Contains(err.Error(), bad.word) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v: error %v, want one line about %q", f, err, bad.word)
		}
	}
	// No solver time is no limit.
	f = good
	f.solverTime = ""
	if s, err := f.parse(); err != nil || s.solverTime != 0 {
		t.Fatalf("empty solver time: %v %v", s.solverTime, err)
	}
}

// A hand-edited preferences file with bad values starts on the defaults.
func TestLoadSettingsBadValues(t *testing.T) {
	a := test.NewTempApp(t)
	p := a.Preferences()
	p.SetString(prefTheme, "sepia")
	p.SetInt(prefLambda, 7)
	p.SetInt(prefAutoJobs, -3)
	p.SetString(prefSolverNodes, "lots")
	p.SetString(prefSolverTime, "-5s")
	p.SetString(prefPlayTime, "0s")
	if s := loadSettings(p); s != defaultSettings() {
		t.Fatalf("bad saved values read as %+v", s)
	}
}

// The Preferences: opened by Ctrl+, (and Edit → Preferences…), they list
// the menus' shortcuts; a bad field is refused with a one-line error and
// nothing changes; Save applies every setting at once and keeps it for
// the next start, where a --lambda given wins.
func TestPreferencesWindow(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	a := test.NewTempApp(t)
	o := options{book: filepath.Join(dir, "b.c6book"), flagSet: map[string]bool{}}
	ta := startApp(t, a, o)
	wa := ta.wa
	wa.win.Canvas().(fyne.Shortcutable).TypedShortcut(preferencesShortcut())
	if wa.win.Canvas().Overlays().Top() == nil {
		t.Fatal("Ctrl+, shows no Preferences")
	}
	clearOverlays(wa.win)
	var item *fyne.MenuItem
	for _, m := range wa.win.MainMenu().Items {
		for _, it := range m.Items {
			if it.Label == "Preferences…" {
				item = it
			}
		}
	}
	if item == nil || item.Shortcut == nil || item.Shortcut.ShortcutName() != preferencesShortcut().ShortcutName() {
		t.Fatal("no Edit → Preferences… with its shortcut")
	}

	p := wa.showPreferences()
	keys := p.shortcuts.Text
	for _, want := range []string{"Engine → Play engine move", "Ctrl+E", "Edit → Preferences", "Ctrl+,", "Edit → Undo last edit", "Ctrl+Z"} {
		if !strings.Contains(keys, want) {
			t.Fatalf("shortcuts listed:\n%s\nno %q", keys, want)
		}
	}
	if p.theme.Selected != "System" || p.lambda.Selected != "λ2" || p.jobs.Text != "2" {
		t.Fatalf("the defaults shown: %q %q %q", p.theme.Selected, p.lambda.Selected, p.jobs.Text)
	}

	// A bad field: a one-line error in the window, nothing applied or kept.
	p.lambda.SetSelected("λ3")
	p.jobs.SetText("0")
	test.Tap(p.save)
	if !p.errL.Visible() || !strings.Contains(p.errL.Text, "verifier jobs") || strings.Contains(p.errL.Text, "\n") {
		t.Fatalf("error line %q (shown %v)", p.errL.Text, p.errL.Visible())
	}
	if wa.win.Canvas().Overlays().Top() == nil {
		t.Fatal("a bad field closed the Preferences")
	}
	if wa.wb.Lambda() != 2 || a.Preferences().Int(prefLambda) != 0 {
		t.Fatal("a refused form changed the settings")
	}

	// Dark is seen at once; Save keeps and applies the rest.
	p.theme.SetSelected("Dark")
	if th, ok := a.Settings().Theme().(appTheme); !ok || th.choice != themeDark {
		t.Fatalf("theme %T %v after choosing Dark", a.Settings().Theme(), a.Settings().Theme())
	}
	if c := a.Settings().Theme().Color(ui.ColorNameBoard, theme.VariantLight); c == nil {
		t.Fatal("the app theme has no board colour")
	} else if dark, _ := ui.BoardColor(ui.ColorNameBoard, theme.VariantDark); c != dark {
		t.Fatalf("the dark theme's wood %v, want %v", c, dark)
	}
	p.jobs.SetText("3")
	p.nodes.SetText("50000")
	p.solverTime.SetText("2s")
	p.playTime.SetText("3s")
	p.queueURL.SetText("nats://127.0.0.1:4999")
	test.Tap(p.save)
	if p.errL.Visible() || wa.win.Canvas().Overlays().Top() != nil {
		t.Fatalf("Save refused a good form: %q", p.errL.Text)
	}
	if wa.wb.Lambda() != 3 || wa.wb.AutoJobs() != 3 || wa.wb.Prover().PlayBudget() != 3*time.Second {
		t.Fatalf("applied: λ%d, %d jobs, player %v", wa.wb.Lambda(), wa.wb.AutoJobs(), wa.wb.Prover().PlayBudget())
	}
	if got := wa.budget.get(); got != (threat.Limits{MaxNodes: 50_000, Timeout: 2 * time.Second}) {
		t.Fatalf("solver budget %+v", got)
	}
	if s := loadSettings(a.Preferences()); s.theme != themeDark || s.lambda != 3 || s.autoJobs != 3 || s.solverNodes != 50_000 ||
		s.queue.url != "nats://127.0.0.1:4999" {
		t.Fatalf("kept: %+v", s)
	}
	wa.queue.mu.Lock()
	q := wa.queue.setting
	wa.queue.mu.Unlock()
	if q.url != "nats://127.0.0.1:4999" {
		t.Fatalf("the verifier queue's setting %+v", q)
	}
	// File → Verifier queue… is the same Preferences.
	for _, it := range wa.win.MainMenu().Items[0].Items {
		if it.Label == "Verifier queue…" {
			it.Action()
		}
	}
	if got := overlayTexts(wa.win); !strings.Contains(got, "Engine → Play engine move") {
		t.Fatalf("File → Verifier queue… shows %q", got)
	}
	clearOverlays(wa.win)

	// Close without saving puts the saved theme back.
	p = wa.showPreferences()
	p.theme.SetSelected("Light")
	test.Tap(p.closeB)
	if wa.win.Canvas().Overlays().Top() != nil {
		t.Fatal("Close left the Preferences shown")
	}
	if th := a.Settings().Theme().(appTheme); th.choice != themeDark {
		t.Fatalf("Close left the theme %q", th.choice)
	}
	wa.close()

	// The next start: the saved settings, a --lambda given winning.
	ta2 := startApp(t, a, options{book: filepath.Join(dir, "b.c6book"), flagSet: map[string]bool{}})
	if ta2.wa.wb.Lambda() != 3 || ta2.wa.wb.AutoJobs() != 3 || ta2.wa.budget.get().MaxNodes != 50_000 {
		t.Fatalf("next start: λ%d, %d jobs, %+v", ta2.wa.wb.Lambda(), ta2.wa.wb.AutoJobs(), ta2.wa.budget.get())
	}
	ta2.wa.close()
	ta3 := startApp(t, a, options{book: filepath.Join(dir, "b.c6book"), lambda: 2, flagSet: map[string]bool{"lambda": true}})
	if ta3.wa.wb.Lambda() != 2 {
		t.Fatalf("--lambda 2 given: λ%d", ta3.wa.wb.Lambda())
	}
}

// The shortcut list comes from the menus as they are: a new item with a
// shortcut shows; a submenu's too.
func TestMenuShortcuts(t *testing.T) {
	sub := fyne.NewMenuItem("Deep", nil)
	sub.Shortcut = &fyne.ShortcutCopy{}
	parent := fyne.NewMenuItem("More", nil)
	parent.ChildMenu = fyne.NewMenu("", sub)
	plain := fyne.NewMenuItem("Plain", nil)
	keyed := fyne.NewMenuItem("Keyed…", nil)
	keyed.Shortcut = preferencesShortcut()
	got := menuShortcuts(fyne.NewMainMenu(fyne.NewMenu("File", plain, fyne.NewMenuItemSeparator(), keyed, parent)))
	if len(got) != 2 || !strings.HasPrefix(got[0], "File → Keyed ") || !strings.HasSuffix(got[0], "Ctrl+,") ||
		!strings.HasPrefix(got[1], "File → More → Deep ") || !strings.HasSuffix(got[1], "Ctrl+C") {
		t.Fatalf("%q", got)
	}
}

// The saved theme is applied on its own (main does it before any widget
// is made); the system theme leaves Fyne's in place.
func TestApplySavedTheme(t *testing.T) {
	a := test.NewTempApp(t)
	before := a.Settings().Theme()
	applySavedTheme(a)
	if a.Settings().Theme() != before {
		t.Fatal("the system theme replaced Fyne's")
	}
	a.Preferences().SetString(prefTheme, string(themeDark))
	applySavedTheme(a)
	if th, ok := a.Settings().Theme().(appTheme); !ok || th.choice != themeDark {
		t.Fatalf("theme %v after a saved dark", a.Settings().Theme())
	}
	if c := a.Settings().Theme().Color(theme.ColorNameBackground, theme.VariantLight); c != theme.DefaultTheme().Color(theme.ColorNameBackground, theme.VariantDark) {
		t.Fatal("the dark theme does not force the dark variant")
	}
}

// Saving the Preferences changes only what was changed: a new theme alone
// keeps the λ chosen on the Prove tab (λ3) and writes no λ; a λ changed in
// the Preferences is applied and kept.
func TestPreferencesSaveKeepsLambda(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	a := test.NewTempApp(t)
	ta := startApp(t, a, options{book: filepath.Join(dir, "b.c6book"), flagSet: map[string]bool{}})
	wa := ta.wa
	defer wa.close()
	wa.wb.SetLambda(3) // the Prove tab's λ3
	wa.wb.SetAutoJobs(5)
	p := wa.showPreferences()
	p.theme.SetSelected("Dark")
	test.Tap(p.save)
	if p.errL.Visible() {
		t.Fatalf("Save refused: %q", p.errL.Text)
	}
	if wa.wb.Lambda() != 3 || wa.wb.AutoJobs() != 5 {
		t.Fatalf("saving a theme reset the workbench: λ%d, %d jobs", wa.wb.Lambda(), wa.wb.AutoJobs())
	}
	if got := a.Preferences().Int(prefLambda); got != 0 {
		t.Fatalf("saving a theme wrote λ%d", got)
	}
	if s := loadSettings(a.Preferences()); s.theme != themeDark {
		t.Fatalf("theme kept %q", s.theme)
	}
	// The λ changed in the Preferences: applied and kept; then the
	// Prove tab's λ2 stays through a save that leaves it.
	p = wa.showPreferences()
	p.lambda.SetSelected("λ3")
	wa.wb.SetLambda(2)
	test.Tap(p.save)
	if wa.wb.Lambda() != 3 || a.Preferences().Int(prefLambda) != 3 {
		t.Fatalf("λ3 saved: workbench λ%d, kept λ%d", wa.wb.Lambda(), a.Preferences().Int(prefLambda))
	}
	wa.wb.SetLambda(2)
	p = wa.showPreferences()
	p.jobs.SetText("7")
	test.Tap(p.save)
	if wa.wb.Lambda() != 2 || wa.wb.AutoJobs() != 7 {
		t.Fatalf("saving the jobs: λ%d, %d jobs", wa.wb.Lambda(), wa.wb.AutoJobs())
	}
}
