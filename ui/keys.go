package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// Navigation keys work whatever has the focus, text entries aside.
//
// Fyne (v2.7.1) gives a key to the focused widget's TypedKey, and to the
// canvas's OnTypedKey only when nothing has the focus; a shortcut without
// a modifier (desktop.CustomShortcut{KeyName: fyne.KeyLeft}) never fires,
// as the driver looks shortcuts up only for keys pressed with Ctrl, Alt or
// Super. A click on a list row or a check box focuses it, and a click on a
// button leaves the focus where it was, so after a click in the Games,
// Line or Replies list the arrows went to the list. Hence: the workbench's
// lists, check boxes and selects are the types below, whose TypedKey
// gives the navigation keys to the workbench first (keyList, keyCheck,
// keySelect); the board and the canvas (nothing focused) do the same;
// a radio item, which Fyne makes, gives the focus up once clicked
// (releaseFocus); entries keep their keys (the arrows move the
// caret). The keys are one table, navKeys, which the handler and the app's
// Navigate menu both read (the menu shows them as accelerators).

// navBinding is a navigation key: its menu label, its key and what it does.
type navBinding struct {
	Label string
	Key   fyne.KeyName
	Run   func()
	// Menu: the Navigate menu lists it (Escape, which drops the pending
	// stone, is not navigation a menu would offer).
	Menu bool
}

// shortcut is the key as a menu accelerator. Fyne shows it but does not
// fire it (no modifier): the workbench's handler does.
func (k navBinding) shortcut() fyne.Shortcut {
	return &desktop.CustomShortcut{KeyName: k.Key}
}

// navKeys is the table of navigation keys, in menu order.
func (wb *Workbench) navKeys() []navBinding {
	c := wb.s.Cursor()
	return []navBinding{
		// (While a proof is shown, ← and → step through it.)
		{Label: "Back", Key: fyne.KeyLeft, Run: func() {
			if !wb.s.ProofStep(-1) {
				c.Back()
			}
		}, Menu: true},
		{Label: "Forward", Key: fyne.KeyRight, Run: func() {
			if !wb.s.ProofStep(+1) {
				c.Forward()
			}
		}, Menu: true},
		{Label: "Previous reply", Key: fyne.KeyUp, Run: func() { c.Sibling(-1) }, Menu: true},
		{Label: "Next reply", Key: fyne.KeyDown, Run: func() { c.Sibling(+1) }, Menu: true},
		{Label: "Start of line", Key: fyne.KeyHome, Run: c.Home, Menu: true},
		{Label: "End of line", Key: fyne.KeyEnd, Run: c.End, Menu: true},
		{Label: "Drop the pending stone", Key: fyne.KeyEscape, Run: c.DropPending},
	}
}

// NavMenu is the Navigate menu: the navigation keys with their
// accelerators, then extra (Next position to prove…).
func (wb *Workbench) NavMenu(extra ...*fyne.MenuItem) *fyne.Menu {
	var items []*fyne.MenuItem
	for _, k := range wb.navKeys() {
		if !k.Menu {
			continue
		}
		it := fyne.NewMenuItem(k.Label, k.Run)
		it.Shortcut = k.shortcut()
		items = append(items, it)
	}
	if len(extra) > 0 {
		items = append(items, fyne.NewMenuItemSeparator())
		items = append(items, extra...)
	}
	return fyne.NewMenu("Navigate", items...)
}

// navKey runs the navigation key ev names, if it is one (a key with a
// modifier is not).
func (wb *Workbench) navKey(ev *fyne.KeyEvent) bool {
	for _, k := range wb.navKeys() {
		if k.Key == ev.Name {
			k.Run()
			return true
		}
	}
	return false
}

// releaseFocus takes the focus from a radio item (the attacker's), which
// Fyne makes and so cannot give the navigation keys to the workbench:
// after a click on one (its change, or the next render) the arrows
// navigate again. Nothing else loses the focus: an entry, in the
// workbench or in a dialog, keeps it while the user types.
func (wb *Workbench) releaseFocus() {
	if wb.win == nil {
		return
	}
	c := wb.win.Canvas()
	if f := c.Focused(); f != nil && fmt.Sprintf("%T", f) == "*widget.radioItem" {
		c.Unfocus()
	}
}

// keyList is a widget.List that gives the navigation keys to the
// workbench (↑/↓ too: the list's own keyboard highlight gives way to the
// reply siblings).
//
// It keeps the rows it made. fyne 2.7.1's list makes a row to measure
// its height at every Refresh and drops its unused rows at every
// Refresh; a row made anew must be put in the compact theme, and fyne
// clears its text measures and icon caches for every widget put in a
// theme (cache.ResetThemeCaches): every label of the window was then
// measured again (text shaping) after every key. So the measuring row is
// one kept probe, and a row fyne no longer shows is given back to the
// list the next time it asks for one.
type keyList struct {
	widget.List
	nav func(*fyne.KeyEvent) bool
	// wide keeps the rows in the app's theme (not compact: layout.go).
	wide bool
	keep compactKeeper

	rows      map[fyne.CanvasObject]int // the rows fyne may show: the Refresh that last updated each (0: none)
	free      []fyne.CanvasObject       // rows fyne dropped, to give again
	probe     fyne.CanvasObject         // the row the list measures at each Refresh (never shown)
	refresh   bool                      // in Refresh
	measuring bool                      // in Refresh, before the list asked for its length: a row asked for is measured only
	pass      int                       // Refreshes done
	updated   int                       // rows updated in this Refresh
	length    int                       // the length the list last asked for
	scrolling bool                      // in ScrollTo, before it asked for the length (a check only)
	given     []fyne.CanvasObject       // rows given again in this refresh
}

func (wb *Workbench) newList(length func() int, create func() fyne.CanvasObject, update func(widget.ListItemID, fyne.CanvasObject)) *keyList {
	l := &keyList{nav: wb.navKey, rows: map[fyne.CanvasObject]int{}}
	l.Length = func() int {
		if l.scrolling {
			l.scrolling = false
		} else {
			l.measuring = false
		}
		l.length = length()
		return l.length
	}
	l.UpdateItem = func(i widget.ListItemID, o fyne.CanvasObject) {
		if _, ok := l.rows[o]; ok {
			l.rows[o] = l.pass
			l.updated++
		}
		if l.refresh {
			l.measuring = true // (the list's update is done: a row asked for next is measured)
		}
		update(i, o)
		if !l.wide {
			l.keep.check(o)
		}
	}
	// Rows in the compact theme (layout.go) from their creation: the list
	// measures its row height on the first one.
	fresh := func() fyne.CanvasObject {
		if l.wide {
			return create()
		}
		return compactRow(create())
	}
	l.CreateItem = func() fyne.CanvasObject {
		if l.measuring {
			if l.probe == nil {
				l.probe = fresh()
			} else if !l.wide {
				l.keep.check(l.probe)
			}
			return l.probe
		}
		var o fyne.CanvasObject
		if n := len(l.free); n > 0 && l.refresh {
			o, l.free = l.free[n-1], l.free[:n-1]
			l.given = append(l.given, o)
		} else {
			o = fresh()
		}
		l.rows[o] = 0
		return o
	}
	l.ExtendBaseWidget(l)
	return l
}

// Refresh implements fyne.Widget: the list's Refresh, then the rows it no
// longer shows are kept for the next ones it asks for. After fyne's full
// update of a list (widget.List's Refresh, fyne 2.7.1) it shows exactly
// the rows it updated and keeps no others; when it could not lay its rows
// out (no size yet) it updated none, and only the rows it never showed
// are taken back. A row is given again only in these refreshes, and not
// to the list's measure (the row asked for before the list asks for its
// length, or right after it updated its rows): that one is the probe,
// whose text is empty like a new row's. The list's own updates (a tap on
// a row, the mouse wheel) get new rows, kept after the next refresh.
func (l *keyList) Refresh() { l.refreshing(l.List.Refresh) }

// ScrollTo, ScrollToTop, Select, Unselect and UnselectAll refresh the
// whole list too (widget.List's own Refresh): the same bookkeeping.

// ScrollTo implements widget.List's ScrollTo.
func (l *keyList) ScrollTo(id widget.ListItemID) {
	l.refreshing(func() {
		l.scrolling = true
		l.List.ScrollTo(id)
		l.scrolling = false
	})
}

// ScrollToTop implements widget.List's ScrollToTop.
func (l *keyList) ScrollToTop() { l.refreshing(l.List.ScrollToTop) }

// Select implements widget.List's Select.
func (l *keyList) Select(id widget.ListItemID) { l.refreshing(func() { l.List.Select(id) }) }

// Unselect implements widget.List's Unselect.
func (l *keyList) Unselect(id widget.ListItemID) { l.refreshing(func() { l.List.Unselect(id) }) }

// UnselectAll implements widget.List's UnselectAll.
func (l *keyList) UnselectAll() { l.refreshing(l.List.UnselectAll) }

func (l *keyList) refreshing(refresh func()) {
	refreshWas, measuringWas, givenWas := l.refresh, l.measuring, l.given
	l.pass++
	l.updated = 0
	l.refresh, l.measuring, l.given = true, true, nil
	refresh()
	// A row given again and not updated was measured (it was not the
	// probe): its text may widen the list's measure; measure again.
	var measured bool
	for _, o := range l.given {
		measured = measured || l.rows[o] == 0
	}
	l.refresh, l.measuring, l.given = refreshWas, measuringWas, givenWas
	full := l.updated > 0 || l.length == 0
	for o, p := range l.rows {
		if p != l.pass && (full || p == 0) {
			delete(l.rows, o)
			l.free = append(l.free, o)
		}
	}
	if measured {
		l.refreshing(l.List.Refresh)
	}
}

// TypedKey implements fyne.Focusable.
func (l *keyList) TypedKey(ev *fyne.KeyEvent) {
	if !l.nav(ev) {
		l.List.TypedKey(ev)
	}
}

// keyCheck is a widget.Check that gives the navigation keys to the
// workbench.
type keyCheck struct {
	widget.Check
	nav func(*fyne.KeyEvent) bool
}

func (wb *Workbench) newCheck(label string, changed func(bool)) *keyCheck {
	c := &keyCheck{nav: wb.navKey}
	c.Text, c.OnChanged = label, changed
	c.ExtendBaseWidget(c)
	return c
}

// TypedKey implements fyne.Focusable.
func (c *keyCheck) TypedKey(ev *fyne.KeyEvent) {
	if !c.nav(ev) {
		c.Check.TypedKey(ev)
	}
}

// keySelect is a widget.Select that gives the navigation keys to the
// workbench (its list pops up with Space or a click).
type keySelect struct {
	widget.Select
	nav func(*fyne.KeyEvent) bool
}

func (wb *Workbench) newSelect(options []string, changed func(string)) *keySelect {
	s := &keySelect{nav: wb.navKey}
	s.Options, s.OnChanged = options, changed
	s.ExtendBaseWidget(s)
	return s
}

// TypedKey implements fyne.Focusable.
func (s *keySelect) TypedKey(ev *fyne.KeyEvent) {
	if !s.nav(ev) {
		s.Select.TypedKey(ev)
	}
}
