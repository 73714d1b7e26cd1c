package ui

import (
	"image"
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"c6book/engine/board"
	"c6book/engine/game"
)

// boardTheme answers some board colours itself, the rest as Fyne's.
type boardTheme struct {
	fyne.Theme
	colours map[fyne.ThemeColorName]color.Color
}

func (t boardTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if c, ok := t.colours[n]; ok {
		return c
	}
	return t.Theme.Color(n, v)
}

// count is the number of pixels of img of colour c.
func count(img image.Image, c color.NRGBA) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA) == c {
				n++
			}
		}
	}
	return n
}

// The board draws its wood, grid and stones in the theme's named colours,
// and in new ones when the theme changes (no new view needed).
func TestBoardColoursFromTheme(t *testing.T) {
	a := test.NewTempApp(t)
	pos, err := board.ReplayText(game.Connect6(), "j10 i9k9")
	if err != nil {
		t.Fatal(err)
	}
	b := NewBoard(pos)
	w := test.NewWindow(b)
	defer w.Close()
	w.Resize(fyne.NewSize(400, 400))
	light, _ := BoardColor(ColorNameBoard, theme.VariantLight)
	if count(w.Canvas().Capture(), light) == 0 {
		t.Fatal("no wood in c6book's light colour under a theme that does not name it")
	}
	wood := color.NRGBA{0x20, 0x40, 0x60, 0xff}
	stone := color.NRGBA{0x70, 0x10, 0x70, 0xff}
	a.Settings().SetTheme(boardTheme{Theme: theme.DefaultTheme(), colours: map[fyne.ThemeColorName]color.Color{
		ColorNameBoard: wood, colorNameStoneBlack: stone}})
	b.Refresh()
	img := w.Canvas().Capture()
	if count(img, wood) == 0 || count(img, light) != 0 {
		t.Fatalf("after the theme change: %d pixels of its wood, %d of the old", count(img, wood), count(img, light))
	}
	if count(img, stone) == 0 {
		t.Fatal("the black stone is not in the theme's colour")
	}
}

// Every board colour has a light and a dark value, the dark wood darker.
func TestBoardColorVariants(t *testing.T) {
	for _, n := range []fyne.ThemeColorName{ColorNameBoard, colorNameBoardGrid, colorNameStoneBlack, colorNameStoneWhite, colorNameLastTurn} {
		for _, v := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
			if c, ok := BoardColor(n, v); !ok || c.A == 0 {
				t.Fatalf("%s in variant %d: %v %v", n, v, c, ok)
			}
		}
	}
	l, _ := BoardColor(ColorNameBoard, theme.VariantLight)
	d, _ := BoardColor(ColorNameBoard, theme.VariantDark)
	if int(d.R)+int(d.G)+int(d.B) >= int(l.R)+int(l.G)+int(l.B) {
		t.Fatalf("dark wood %v is not darker than light %v", d, l)
	}
	if _, ok := BoardColor(theme.ColorNameBackground, theme.VariantLight); ok {
		t.Fatal("BoardColor answers a colour that is not the board's")
	}
}
