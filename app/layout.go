package main

import (
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
)

// prefSplits keeps where the user left the workbench's splits (the board,
// the Line/Replies pane, the tabs, the Prove tab's report and lists), as
// "name=offset" pairs separated by commas.
const prefSplits = "splits"

// formatSplits writes offsets as prefSplits keeps them, in the order of
// names.
func formatSplits(names []string, offsets map[string]float64) string {
	parts := make([]string, 0, len(names))
	for _, n := range names {
		if o, ok := offsets[n]; ok {
			parts = append(parts, n+"="+strconv.FormatFloat(o, 'f', 4, 64))
		}
	}
	return strings.Join(parts, ",")
}

// parseSplits reads prefSplits; a malformed pair is skipped (a hand-edited
// file), the workbench ignores unknown names and offsets outside (0, 1).
func parseSplits(text string) map[string]float64 {
	out := map[string]float64{}
	for _, p := range strings.Split(text, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(p), "=")
		if !ok {
			continue
		}
		if o, err := strconv.ParseFloat(val, 64); err == nil {
			out[name] = o
		}
	}
	return out
}

// restoreLayout puts the splits where the user left them.
func (wa *workbenchApp) restoreLayout(p fyne.Preferences) {
	wa.wb.SetSplitOffsets(parseSplits(p.String(prefSplits)))
}

// saveLayout keeps where the splits are (at quit).
func (wa *workbenchApp) saveLayout(p fyne.Preferences) {
	if wa.wb == nil {
		return
	}
	p.SetString(prefSplits, formatSplits(wa.wb.SplitNames(), wa.wb.SplitOffsets()))
}
