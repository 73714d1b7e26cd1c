package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"c6book"
	"c6book/engine/board"
	"c6book/engine/game"
	"c6book/session"
)

// gamesPanel is the Games tab: the games through the shown position, read
// a page at a time as the list scrolls down; a click opens one.
type gamesPanel struct {
	wb         *Workbench
	box        fyne.CanvasObject
	gamesL     *widget.Label
	gamesList  *keyList
	games      []c6book.GameInfo
	gamesTotal int64
	gamesPos   *board.Board // the position the games were listed for
	gamesMore  bool         // a page is being read
}

// gamesPage is how many games the Games pane reads at a time.
const gamesPage = 100

func newGamesPanel(wb *Workbench) *gamesPanel {
	gp := &gamesPanel{wb: wb}
	// The games through the shown position, read a page at a time as the
	// list scrolls down.
	gp.gamesL = widget.NewLabel("Games")
	gp.gamesList = wb.newList(
		func() int { return len(gp.games) },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i >= len(gp.games) {
				return
			}
			o.(*widget.Label).SetText(gameText(gp.games[i]))
			if i == len(gp.games)-1 && int64(len(gp.games)) < gp.gamesTotal {
				gp.moreGames()
			}
		})
	gp.gamesList.OnSelected = func(i widget.ListItemID) {
		gp.gamesList.UnselectAll()
		if i < len(gp.games) {
			wb.s.Cursor().OpenGame(gp.games[i].ID)
		}
	}
	help := widget.NewLabel("A game is won when its last turn makes six in a row. " + undecidedShort + ".")
	help.Wrapping = fyne.TextWrapWord
	help.Importance = widget.LowImportance
	games := container.NewBorder(container.NewVBox(gp.gamesL, help), nil, nil, nil, gp.gamesList)
	gp.box = games
	return gp
}

// undecidedShort says what an undecided game is, in a line.
const undecidedShort = "Undecided: the record ends without six in a row (resigned, lost on time, abandoned, or drawn at 150 turns)"

// gameText is a row of the Games pane: source, id, length, result (won by
// six in a row, or undecided).
func gameText(g c6book.GameInfo) string {
	res := "undecided"
	switch g.Result {
	case game.Black:
		res = "Black won"
	case game.White:
		res = "White won"
	}
	return fmt.Sprintf("%s %s · %s · %s", g.Source, g.ExtID, session.Plural(g.Turns, "turn", "turns"), res)
}

// showGames lists the games through the shown position (when the Games
// pane is shown and the list is another position's).
func (gp *gamesPanel) showGames() {
	if gp.wb.ui.tabs.Selected() != gp.wb.ui.gamesTab {
		return
	}
	p := gp.wb.s.Cursor().Position()
	if p == gp.gamesPos {
		if gp.gamesTotal > 0 { // the position's counts may have come since
			gp.gamesL.SetText(gamesHeader(gp.gamesTotal, gp.wb.s.Cursor().Info().Games))
		}
		return
	}
	gp.gamesPos, gp.games, gp.gamesTotal, gp.gamesMore = p, nil, 0, true
	gp.gamesL.SetText("Games: reading…")
	gp.gamesList.Refresh()
	gp.gamesList.ScrollToTop()
	gp.wb.s.Cursor().LoadGames(0, gamesPage, func(gs []c6book.GameInfo, total int64) {
		if gp.gamesPos != p {
			return
		}
		gp.games, gp.gamesTotal, gp.gamesMore = gs, total, false
		gp.gamesL.SetText(gamesHeader(total, gp.wb.s.Cursor().Info().Games))
		gp.gamesList.Refresh()
	})
}

// moreGames reads the next page of games.
func (gp *gamesPanel) moreGames() {
	if gp.gamesMore {
		return
	}
	p, n := gp.gamesPos, len(gp.games)
	gp.gamesMore = true
	gp.wb.s.Cursor().LoadGames(n, gamesPage, func(gs []c6book.GameInfo, total int64) {
		if gp.gamesPos != p || len(gp.games) != n {
			return
		}
		gp.games, gp.gamesTotal, gp.gamesMore = append(gp.games, gs...), total, false
		gp.gamesList.Refresh()
	})
}

// gamesHeader is the Games pane's title: the games listed, by result when
// the position's counts are those games'.
func gamesHeader(total int64, g c6book.GameStats) string {
	text := "Games through this position: " + thousands(total)
	if g.Games == total && total > 0 {
		text += fmt.Sprintf(" · B %s · W %s · %s undecided", thousands(g.BlackWins), thousands(g.WhiteWins), thousands(g.Unfinished))
	}
	return text
}
