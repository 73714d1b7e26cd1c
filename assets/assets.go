// Package assets embeds c6book's icons, images and the bundled games.
package assets

import _ "embed" // the files below

//go:embed icon.png
var icon []byte

//go:embed littlegolem-connect6-games.json.gz
var littleGolemGames []byte

// IconPNG is the application icon (256×256 PNG): six black stones in a row
// on a corner of the board, the last turn ringed.
func IconPNG() []byte { return icon }

// LittleGolemGamesFile is the bundled games file's name.
const LittleGolemGamesFile = "littlegolem-connect6-games.json.gz"

// LittleGolemGamesCount is how many games LittleGolemGames holds (a test
// counts them in the file).
const LittleGolemGamesCount = 37336

// LittleGolemGames is the bundled LittleGolem Connect6 games file (gzip'd
// JSON, {"gid": [turns]}): a copy of the shared data file, so that a first
// start has an opening book to browse. The caller must not modify it.
func LittleGolemGames() []byte { return littleGolemGames }
