// Package assets embeds c6book's icons and images.
package assets

import _ "embed" // the icon below

//go:embed icon.png
var icon []byte

// IconPNG is the application icon (256×256 PNG): six black stones in a row
// on a corner of the board, the last turn ringed.
func IconPNG() []byte { return icon }
