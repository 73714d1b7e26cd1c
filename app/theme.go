package main

import (
	"fmt"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"c6book/ui"
)

// themeChoice is the Preferences' theme: the system's variant, or light or
// dark whatever the system says.
type themeChoice string

const (
	themeSystem themeChoice = "system"
	themeLight  themeChoice = "light"
	themeDark   themeChoice = "dark"
)

// themeChoices in the order the Preferences list them.
func themeChoices() []themeChoice { return []themeChoice{themeSystem, themeLight, themeDark} }

func parseThemeChoice(s string) (themeChoice, error) {
	for _, c := range themeChoices() {
		if string(c) == s {
			return c, nil
		}
	}
	return "", fmt.Errorf("theme %q: want system, light or dark", s)
}

// label is the choice as the Preferences show it.
func (c themeChoice) label() string {
	switch c {
	case themeLight:
		return "Light"
	case themeDark:
		return "Dark"
	}
	return "System"
}

// appTheme is Fyne's default theme with the variant forced (or the
// system's) and c6book's board colours (ui.BoardColor) for that variant.
type appTheme struct {
	choice themeChoice
}

var _ fyne.Theme = appTheme{}

// variant is the variant the theme draws in, v being the system's.
func (t appTheme) variant(v fyne.ThemeVariant) fyne.ThemeVariant {
	switch t.choice {
	case themeLight:
		return theme.VariantLight
	case themeDark:
		return theme.VariantDark
	}
	return v
}

func (t appTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	v = t.variant(v)
	if c, ok := ui.BoardColor(n, v); ok {
		return c
	}
	return theme.DefaultTheme().Color(n, v)
}

func (t appTheme) Font(s fyne.TextStyle) fyne.Resource     { return theme.DefaultTheme().Font(s) }
func (t appTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return theme.DefaultTheme().Icon(n) }
func (t appTheme) Size(n fyne.ThemeSizeName) float32       { return theme.DefaultTheme().Size(n) }

// applyTheme makes choice the app's theme (every window is redrawn).
func applyTheme(a fyne.App, choice themeChoice) {
	if cur, ok := a.Settings().Theme().(appTheme); ok && cur == (appTheme{choice}) {
		return
	}
	a.Settings().SetTheme(appTheme{choice: choice})
}
