package session

import (
	"testing"

	"c6book"
)

func TestMostPlayed(t *testing.T) {
	kids := []Child{{Games: c6book.GameStats{Games: 1}}, {Games: c6book.GameStats{Games: 5}}, {Games: c6book.GameStats{Games: 5}}}
	if i := mostPlayed(kids); i != 1 {
		t.Fatalf("mostPlayed = %d, want 1 (the first of the most played)", i)
	}
	if i := mostPlayed(nil); i != -1 {
		t.Fatalf("mostPlayed(nil) = %d", i)
	}
}
