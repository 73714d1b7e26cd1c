package main

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"c6book/engine/threat"
	"c6book/service"
	"c6book/ui"
)

// The Preferences window (Edit → Preferences…, Ctrl+,): theme, the λ
// Verify starts with (the auto-pilot is λ3), the verifier's jobs and budget, the engine
// player's time, the verifier queue, and the menus' shortcuts as the menus
// hold them. Save checks every field (a bad one: a one-line error, nothing
// changes), stores them in Fyne's preferences and applies them at once.
//
// No coordinate style: the notation has one (LittleGolem's, engine
// notation.go: columns a..s with the letter i, rows from 1 at the bottom),
// which the book's files, the lines, the search and the games all use; a
// board lettered otherwise would disagree with every line shown beside it.

// PreferencesShortcut is Edit → Preferences…'s key (Ctrl+,; ⌘, on a Mac).
func preferencesShortcut() *desktop.CustomShortcut {
	return &desktop.CustomShortcut{KeyName: fyne.KeyComma, Modifier: fyne.KeyModifierShortcutDefault}
}

// prefsDialog is the Preferences shown (tests reach its fields).
type prefsDialog struct {
	dialog                            *dialog.CustomDialog
	theme, lambda                     *widget.RadioGroup
	jobs, nodes, solverTime, playTime *ui.DialogEntry
	queueURL, queueCreds              *ui.DialogEntry
	errL                              *widget.Label
	shortcuts                         *widget.Label
	save, closeB                      *widget.Button
}

// form is what the fields hold.
func (p *prefsDialog) form() settingsForm {
	return settingsForm{theme: p.theme.Selected, lambda: p.lambda.Selected, autoJobs: p.jobs.Text,
		solverNodes: p.nodes.Text, solverTime: p.solverTime.Text, playTime: p.playTime.Text,
		queueURL: p.queueURL.Text, queueCreds: p.queueCreds.Text}
}

// attachPrefs registers the Preferences' shortcut on the window.
func (wa *workbenchApp) attachPrefs() {
	wa.win.Canvas().AddShortcut(preferencesShortcut(), func(fyne.Shortcut) { wa.showPreferences() })
}

// startSettings applies the saved settings at start; a flag given on the
// command line (--lambda, --play-time, --replies) wins over its setting. (Options not
// read from a command line, the tests', count as all given.) The system
// theme leaves Fyne's own in place.
func (wa *workbenchApp) startSettings(o options) {
	given := func(name string) bool { return o.flagSet == nil || o.flagSet[name] }
	s := loadSettings(wa.app.Preferences())
	if given("lambda") {
		s.lambda = o.lambda
	}
	if given("play-time") {
		s.playTime = wa.wb.Prover().PlayBudget()
	}
	if s.theme != themeSystem {
		applyTheme(wa.app, s.theme)
	}
	wa.applyWork(s)
	p := wa.app.Preferences()
	wa.restoreLayout(p)
	f, err := ui.ParseReplyFilter(p.String(prefReplyFilter)) // a bad value: all replies
	if given("replies") && o.replies != "" {
		f, err = ui.ParseReplyFilter(o.replies) // (checked by parseFlags)
	}
	if err == nil {
		wa.wb.SetReplyFilter(f)
	}
	wa.wb.OnReplyFilter = func(f ui.ReplyFilter) { p.SetString(prefReplyFilter, f.String()) }
	if o.showPrefs {
		wa.showPreferences()
	}
	if o.bundled && wa.bk.ReadOnly() == "" {
		wa.importBundledGames()
	}
}

// applySavedTheme applies the theme the Preferences keep (the system
// theme leaves Fyne's own in place).
func applySavedTheme(a fyne.App) {
	if s := loadSettings(a.Preferences()); s.theme != themeSystem {
		applyTheme(a, s.theme)
	}
}

// applyWork applies the settings other than the theme and the queue
// (which startQueue reads at start).
func (wa *workbenchApp) applyWork(s settings) {
	wa.wb.SetLambda(s.lambda)
	wa.wb.SetPlayBudget(s.playTime)
	wa.wb.SetAutoJobs(s.autoJobs)
	wa.budget.set(threat.Limits{MaxNodes: s.solverNodes, Timeout: s.solverTime})
}

// showPreferences shows the Preferences.
func (wa *workbenchApp) showPreferences() *prefsDialog {
	s := loadSettings(wa.app.Preferences())
	s.playTime = wa.wb.Prover().PlayBudget() // as chosen on the Engine tab since
	f := s.form()
	p := &prefsDialog{}
	labels := make([]string, len(themeChoices()))
	for i, c := range themeChoices() {
		labels[i] = c.label()
	}
	p.theme = widget.NewRadioGroup(labels, func(sel string) {
		if c, err := parseThemeChoice(strings.ToLower(sel)); err == nil {
			applyTheme(wa.app, c) // seen at once; Close without saving puts the saved one back
		}
	})
	p.theme.Horizontal = true
	p.theme.Required = true
	p.theme.SetSelected(f.theme)
	p.lambda = widget.NewRadioGroup([]string{"λ2", "λ3"}, nil)
	p.lambda.Horizontal = true
	p.lambda.Required = true
	p.lambda.SetSelected(f.lambda)
	entry := func(text, hint string) *ui.DialogEntry {
		e := ui.NewDialogEntry(wa.win.Canvas()) // Enter saves, Esc closes
		e.SetText(text)
		e.SetPlaceHolder(hint)
		return e
	}
	p.jobs = entry(f.autoJobs, "1 to 256")
	p.nodes = entry(f.solverNodes, fmt.Sprintf("default %d", service.DefaultVerifyNodes))
	p.solverTime = entry(f.solverTime, "none (e.g. 10s)")
	p.playTime = entry(f.playTime, "e.g. 1s")
	p.queueURL = entry(f.queueURL, "empty: the queue beside the book, on this computer")
	p.queueCreds = entry(f.queueCreds, "credentials file, if the server wants one")
	p.errL = widget.NewLabel("")
	p.errL.Importance = widget.DangerImportance
	p.errL.Wrapping = fyne.TextWrapWord
	p.errL.Hide()
	p.shortcuts = widget.NewLabel(strings.Join(menuShortcuts(wa.win.MainMenu()), "\n"))
	p.shortcuts.TextStyle.Monospace = true

	note := func(text string) fyne.CanvasObject {
		l := widget.NewLabel(text)
		l.Importance = widget.LowImportance
		l.Wrapping = fyne.TextWrapWord
		return l
	}
	form := widget.NewForm(
		widget.NewFormItem("Theme", p.theme),
		widget.NewFormItem("Verify λ", p.lambda),
		widget.NewFormItem("Verifier jobs", p.jobs),
		widget.NewFormItem("", note("auto-pilot verifier jobs at once")),
		widget.NewFormItem("Solver nodes", p.nodes),
		widget.NewFormItem("Solver time", p.solverTime),
		widget.NewFormItem("", note("per solver call of the verifier (Verify, the auto-pilot)")),
		widget.NewFormItem("Player time", p.playTime),
		widget.NewFormItem("", note("the engine's time for a move (Suggest, Play engine move)")),
		widget.NewFormItem("NATS server URL", p.queueURL),
		widget.NewFormItem("Credentials file", p.queueCreds),
	)
	saved := s.theme
	var d *dialog.CustomDialog
	closeB := widget.NewButtonWithIcon("Close", theme.CancelIcon(), func() {
		applyTheme(wa.app, saved)
		d.Hide()
	})
	p.save = widget.NewButtonWithIcon("Save", theme.DocumentSaveIcon(), func() {
		if err := wa.savePreferences(f, p.form()); err != nil {
			p.errL.SetText(err.Error())
			p.errL.Show()
			return
		}
		p.errL.Hide()
		saved, _ = parseThemeChoice(strings.ToLower(p.theme.Selected))
		d.Hide()
	})
	p.save.Importance = widget.HighImportance
	keys := widget.NewCard("", "Shortcuts (from the menus)", p.shortcuts)
	body := container.NewVBox(form, p.errL, keys)
	d = dialog.NewCustomWithoutButtons("Preferences", container.NewVScroll(body), wa.win)
	d.SetButtons([]fyne.CanvasObject{closeB, p.save})
	d.Resize(fyne.NewSize(640, 720))
	p.dialog, p.closeB = d, closeB
	d.Show()
	return p
}

// savePreferences checks the form, then stores and applies what was
// changed in it since it was shown (was): a setting left alone keeps its
// saved value and the workbench keeps its own (the Prove tab's λ chosen
// there is not reset by saving a new theme).
func (wa *workbenchApp) savePreferences(was, f settingsForm) error {
	s, err := f.parse()
	if err != nil {
		return err
	}
	old, err := was.parse()
	ch := changedSettings(old, s)
	if err != nil {
		ch = allSettings // (the form shown did not read: keep all)
	}
	s.saveChanged(wa.app.Preferences(), ch)
	wa.applyChanged(s, ch)
	return nil
}

// applyChanged applies the settings in ch.
func (wa *workbenchApp) applyChanged(s settings, ch settingSet) {
	if ch&setTheme != 0 {
		applyTheme(wa.app, s.theme)
	}
	if ch&setLambda != 0 {
		wa.wb.SetLambda(s.lambda)
	}
	if ch&setPlayTime != 0 {
		wa.wb.SetPlayBudget(s.playTime)
	}
	if ch&setAutoJobs != 0 {
		wa.wb.SetAutoJobs(s.autoJobs)
	}
	if ch&setSolver != 0 {
		wa.budget.set(threat.Limits{MaxNodes: s.solverNodes, Timeout: s.solverTime})
	}
	if ch&setQueue != 0 {
		wa.setQueueSetting(s.queue)
	}
}

// menuShortcuts lists the menu items that have a shortcut, as "Menu →
// Item    Key", walking the menus (and their submenus) as they are.
func menuShortcuts(mm *fyne.MainMenu) []string {
	if mm == nil {
		return nil
	}
	var rows [][2]string
	var walk func(path string, items []*fyne.MenuItem)
	walk = func(path string, items []*fyne.MenuItem) {
		for _, it := range items {
			if it == nil || it.IsSeparator {
				continue
			}
			if it.Shortcut != nil {
				rows = append(rows, [2]string{path + " → " + strings.TrimSuffix(it.Label, "…"), shortcutText(it.Shortcut)})
			}
			if it.ChildMenu != nil {
				walk(path+" → "+it.Label, it.ChildMenu.Items)
			}
		}
	}
	for _, m := range mm.Items {
		walk(m.Label, m.Items)
	}
	width := 0
	for _, r := range rows {
		width = max(width, len([]rune(r[0])))
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r[0] + strings.Repeat(" ", width-len([]rune(r[0]))+2) + r[1]
	}
	if len(out) == 0 {
		out = []string{"(no menu item has a shortcut)"}
	}
	return out
}

// shortcutText writes a shortcut as its keys ("Ctrl+E").
func shortcutText(s fyne.Shortcut) string {
	k, ok := s.(fyne.KeyboardShortcut)
	if !ok {
		return s.ShortcutName()
	}
	var parts []string
	m := k.Mod()
	for _, p := range []struct {
		mod  fyne.KeyModifier
		name string
	}{{fyne.KeyModifierControl, "Ctrl"}, {fyne.KeyModifierAlt, "Alt"}, {fyne.KeyModifierShift, "Shift"}, {fyne.KeyModifierSuper, "Super"}} {
		if m&p.mod != 0 {
			parts = append(parts, p.name)
		}
	}
	return strings.Join(append(parts, string(k.Key())), "+")
}
