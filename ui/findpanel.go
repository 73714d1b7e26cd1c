package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"c6book/engine/game"
	"c6book/session"
)

// findPanel is the Search tab (comments) and the Solved tab (the proved
// positions of λ order at least the one chosen).
type findPanel struct {
	wb         *Workbench
	searchBox  fyne.CanvasObject
	solvedBox  fyne.CanvasObject
	searchE    *widget.Entry
	searchRes  []session.Entry
	searchList *keyList
	solvedRes  []session.Entry
	solvedList *keyList
	solvedMin  *keySelect // the Solved list's least λ order
}

func newFindPanel(wb *Workbench) *findPanel {
	fp := &findPanel{wb: wb}
	// Search in comments and the solved browser.
	entryList := func(res *[]session.Entry) *keyList {
		l := wb.newList(
			func() int { return len(*res) },
			newEntryRow, // (midtext.go)
			func(i widget.ListItemID, o fyne.CanvasObject) {
				if i >= len(*res) {
					return
				}
				setEntryRow(o, (*res)[i].Status, entryLine(wb.Cursor().MoveText, (*res)[i]), entryNote((*res)[i]))
			})
		l.OnSelected = func(i widget.ListItemID) {
			l.UnselectAll()
			if i < len(*res) {
				wb.Cursor().OpenEntry((*res)[i])
			}
		}
		return l
	}
	fp.searchE = widget.NewEntry()
	fp.searchE.SetPlaceHolder("search comments")
	fp.searchE.OnSubmitted = func(q string) { wb.Search(q) }
	fp.searchList = entryList(&fp.searchRes)
	search := container.NewBorder(container.NewBorder(nil, nil, nil,
		widget.NewButtonWithIcon("", theme.SearchIcon(), func() { wb.Search(fp.searchE.Text) }), fp.searchE),
		nil, nil, nil, fp.searchList)
	fp.solvedList = entryList(&fp.solvedRes)
	// The least λ order listed (README, "Orders").
	minOrders := []string{"order ≥ 1", "order ≥ 2", "order 3", "order ≥ 0 (wins at once too)"}
	fp.solvedMin = wb.newSelect(minOrders, nil)
	fp.solvedMin.SetSelectedIndex(0) // the session's default, 1
	fp.solvedMin.OnChanged = func(s string) {
		for i, o := range minOrders {
			if o == s {
				wb.SetSolvedMinOrder((i + 1) % 4)
			}
		}
	}
	solved := container.NewBorder(container.NewHBox(widget.NewButtonWithIcon("Refresh", theme.ViewRefreshIcon(), func() { wb.LoadSolved() }), fp.solvedMin),
		nil, nil, nil, fp.solvedList)
	fp.searchBox, fp.solvedBox = search, solved
	return fp
}

func (fp *findPanel) setSearch(es []session.Entry) {
	fp.searchRes = es
	fp.searchList.Refresh()
}

func (fp *findPanel) setSolved(es []session.Entry) {
	fp.solvedRes = es
	fp.solvedList.Refresh()
}

// entryLine is an entry's line for its row: from the root, in turn
// notation (the session gave it the user's orientation), each move named
// by name (the stones in the order the user entered them).
func entryLine(name func(game.Move) string, e session.Entry) string {
	switch {
	case e.Line == nil && e.Ref != 0:
		return fmt.Sprintf("position #%d, %s", e.Ref, session.Plural(e.Stones, "stone", "stones"))
	case len(e.Line) == 0:
		return "root"
	}
	parts := make([]string, len(e.Line))
	for i, m := range e.Line {
		parts[i] = name(m)
	}
	return strings.Join(parts, " ")
}

// entryNote is the label and comment shown beside an entry's line.
func entryNote(e session.Entry) string {
	text := ""
	if e.Label != "" {
		text = "[" + e.Label + "]"
	}
	if e.Text != "" {
		if text != "" {
			text += " "
		}
		text += firstLine(e.Text, 60)
	}
	return text
}

func firstLine(s string, n int) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if r := []rune(s); len(r) > n {
		s = string(r[:n]) + "…"
	}
	return s
}
