package assets

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// The bundled games are the shared data file byte for byte.
func TestBundledGamesAreTheSharedFile(t *testing.T) {
	shared, err := os.ReadFile(filepath.Join("..", "..", "shared", "data", LittleGolemGamesFile))
	if err != nil {
		t.Skipf("the shared data is not here: %v", err)
	}
	if got, want := sha256.Sum256(LittleGolemGames()), sha256.Sum256(shared); got != want {
		t.Fatalf("bundled games sha256 %x, shared file %x", got, want)
	}
}

// LittleGolemGamesCount (the welcome panel's label) is the file's count.
func TestBundledGamesCount(t *testing.T) {
	zr, err := gzip.NewReader(bytes.NewReader(LittleGolemGames()))
	if err != nil {
		t.Fatal(err)
	}
	var games map[string]json.RawMessage
	if err := json.NewDecoder(zr).Decode(&games); err != nil {
		t.Fatal(err)
	}
	if len(games) != LittleGolemGamesCount {
		t.Fatalf("the bundled file holds %d games, LittleGolemGamesCount says %d", len(games), LittleGolemGamesCount)
	}
}
