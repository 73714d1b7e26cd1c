package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// The board's colours are named theme colours: a theme (the app's, which
// forces light or dark) may answer them; one that does not (Fyne's default
// theme answers an unknown name with transparent) gets BoardColor's, for
// the variant shown.
const (
	ColorNameBoard      fyne.ThemeColorName = "c6book.board"      // the wood
	colorNameBoardGrid  fyne.ThemeColorName = "c6book.boardGrid"  // lines, star points, coordinates
	colorNameStoneBlack fyne.ThemeColorName = "c6book.stoneBlack" // black stones, text on white ones and on the wood
	colorNameStoneWhite fyne.ThemeColorName = "c6book.stoneWhite" // white stones, text on black ones
	colorNameLastTurn   fyne.ThemeColorName = "c6book.lastTurn"   // the last turn's rings and numbers
)

// BoardColor is c6book's own colour for a board colour name in variant
// (ok false when name is not one of the board's).
func BoardColor(name fyne.ThemeColorName, variant fyne.ThemeVariant) (color.NRGBA, bool) {
	dark := variant == theme.VariantDark
	switch name {
	case ColorNameBoard:
		if dark {
			return color.NRGBA{0x9c, 0x7a, 0x50, 0xff}, true // darker wood: no bright patch in a dark window
		}
		return color.NRGBA{0xde, 0xb8, 0x87, 0xff}, true
	case colorNameBoardGrid:
		if dark {
			return color.NRGBA{0x22, 0x18, 0x0e, 0xff}, true
		}
		return color.NRGBA{0x3a, 0x2a, 0x1a, 0xff}, true
	case colorNameStoneBlack:
		return color.NRGBA{0x10, 0x10, 0x10, 0xff}, true
	case colorNameStoneWhite:
		if dark {
			return color.NRGBA{0xec, 0xec, 0xe6, 0xff}, true
		}
		return color.NRGBA{0xf8, 0xf8, 0xf4, 0xff}, true
	case colorNameLastTurn:
		if dark {
			return color.NRGBA{0xff, 0x38, 0x30, 0xff}, true
		}
		return color.NRGBA{0xe0, 0x20, 0x20, 0xff}, true
	}
	return color.NRGBA{}, false
}

// boardPalette is the board's colours as the current theme gives them.
type boardPalette struct {
	wood, grid, black, white, last color.NRGBA
}

// currentPalette looks the board's colours up in the current theme.
func currentPalette() boardPalette {
	v := theme.VariantLight
	if a := fyne.CurrentApp(); a != nil {
		v = a.Settings().ThemeVariant()
	}
	look := func(name fyne.ThemeColorName) color.NRGBA {
		if c := theme.Color(name); c != nil {
			if n := color.NRGBAModel.Convert(c).(color.NRGBA); n.A != 0 {
				return n
			}
		}
		c, _ := BoardColor(name, v)
		return c
	}
	return boardPalette{
		wood:  look(ColorNameBoard),
		grid:  look(colorNameBoardGrid),
		black: look(colorNameStoneBlack),
		white: look(colorNameStoneWhite),
		last:  look(colorNameLastTurn),
	}
}
