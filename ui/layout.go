package ui

import (
	"image/color"
	"sort"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// The workbench's layout stays put: the board, the Line/Replies pane, the
// tabs, the Prove tab's report and its lists sit in draggable splits whose
// places the app keeps (SplitOffsets); nothing shown (a long verdict, a
// summary, a label) widens or heightens the workbench, so the window never
// resizes itself and no button moves as the position changes.

// SplitOffsets are the places of the workbench's splits (0 to 1), by name,
// as the user left them.
func (wb *Workbench) SplitOffsets() map[string]float64 {
	out := make(map[string]float64, len(wb.ui.splits))
	for name, s := range wb.ui.splits {
		out[name] = s.Offset
	}
	return out
}

// SetSplitOffsets puts the named splits at their offsets; an unknown name
// or an offset outside (0, 1) is ignored (a hand-edited or older
// preference).
func (wb *Workbench) SetSplitOffsets(offsets map[string]float64) {
	names := make([]string, 0, len(offsets))
	for n := range offsets {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		s, ok := wb.ui.splits[n]
		if o := offsets[n]; ok && o > 0 && o < 1 {
			s.SetOffset(o)
		}
	}
}

// SplitNames are the names SplitOffsets uses, sorted.
func (wb *Workbench) SplitNames() []string {
	out := make([]string, 0, len(wb.ui.splits))
	for n := range wb.ui.splits {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// compactTheme is the app's theme with less padding inside widgets, for
// the lists: more rows in the same height (each list shows eight rows or
// more at 1280×860). It reads the app's theme at each call, so a theme
// chosen in the Preferences applies to the lists too.
type compactTheme struct{}

func (compactTheme) base() fyne.Theme {
	if a := fyne.CurrentApp(); a != nil && a.Settings().Theme() != nil {
		return a.Settings().Theme()
	}
	return theme.DefaultTheme()
}

func (t compactTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	return t.base().Color(n, v)
}

func (t compactTheme) Font(s fyne.TextStyle) fyne.Resource { return t.base().Font(s) }

func (t compactTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return t.base().Icon(n) }

func (t compactTheme) Size(n fyne.ThemeSizeName) float32 {
	switch n {
	case theme.SizeNameInnerPadding:
		return 3
	case theme.SizeNamePadding:
		return 2
	case theme.SizeNameLineSpacing:
		return 2
	}
	return t.base().Size(n)
}

// compactRow puts a list row in the compact theme and returns it. (A
// ThemeOverride around the list does not reach a row the list creates to
// measure its height: the list looks the theme up on itself, not on the
// keyList embedding it.)
func compactRow(o fyne.CanvasObject) fyne.CanvasObject {
	_ = container.NewThemeOverride(o, compactTheme{}) // (sets o's theme; the wrapper is not needed)
	return o
}

// compactKeeper puts a list's rows back in the compact theme when their
// text lost it: a label makes its text anew when its renderer is made
// again (fyne 2.7.1 keeps a theme override on the objects it saw), and the
// text would overflow the row's compact height. Its measures are taken
// once (a row's update stays cheap: the label's kept minimum size).
type compactKeeper struct {
	line map[fyne.TextStyle]float32 // a one-line label's height by style (compact)
}

func (k *compactKeeper) check(o fyne.CanvasObject) {
	l := firstLabel(o)
	if l == nil {
		return
	}
	th := compactTheme{}
	pad := th.Size(theme.SizeNameInnerPadding)
	var lost bool
	if l.Wrapping == fyne.TextWrapOff {
		h, ok := k.line[l.TextStyle]
		if !ok {
			if k.line == nil {
				k.line = map[fyne.TextStyle]float32{}
			}
			h = fyne.MeasureText("Mg", th.Size(theme.SizeNameText), l.TextStyle).Height + 2*pad
			k.line[l.TextStyle] = h
		}
		lost = l.MinSize().Height > h+0.5
	} else {
		lost = l.MinSize().Width > 2*pad+2.5 // (a wrapped label's minimum width is its padding)
	}
	if lost {
		compactRow(o)
	}
}

// compactLineHeight is a one-line label's height in the compact theme.
func compactLineHeight(l *widget.Label) float32 {
	th := compactTheme{}
	return fyne.MeasureText("Mg", th.Size(theme.SizeNameText), l.TextStyle).Height + 2*th.Size(theme.SizeNameInnerPadding)
}

// firstLabel is a row's first label (nil: none).
func firstLabel(o fyne.CanvasObject) *widget.Label {
	switch o := o.(type) {
	case *widget.Label:
		return o
	case *candRow:
		return &o.Label
	case *replyRow:
		return firstLabel(o.box)
	case *menuRow:
		return firstLabel(o.content)
	case *fyne.Container:
		for _, c := range o.Objects {
			if l := firstLabel(c); l != nil {
				return l
			}
		}
	}
	return nil
}

// compact shows o (a list with its title) in the compact theme.
func compact(o fyne.CanvasObject) fyne.CanvasObject {
	return container.NewThemeOverride(o, compactTheme{})
}
