package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"c6book/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite testdata/sample_gen.golden")

// The generator's core (reading, the split by id, SGD in the seeded order,
// quantisation, the held-out measure and the Go file) run on a fixed sample
// of 400 games writes the same file as the one stored, byte for byte: the
// training is reproducible. Regenerate with -update after a deliberate
// change, then regenerate engine/player/patterns_gen.go with go run ./tools/train.
func TestTrainRegeneratesByteForByte(t *testing.T) {
	testenv.Heavy(t)
	src := trainSample(t)
	if *update {
		if err := os.WriteFile("testdata/sample_gen.golden", src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/sample_gen.golden")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(src, want) {
		t.Fatalf("the generated file differs from testdata/sample_gen.golden (%d bytes, want %d)", len(src), len(want))
	}
	if again := trainSample(t); !bytes.Equal(again, src) {
		t.Fatal("two runs on the same sample differ")
	}
}

func trainSample(t *testing.T) []byte {
	t.Helper()
	games, _, err := readGames("testdata/sample.json")
	if err != nil {
		t.Fatal(err)
	}
	cfg := defaultConfig()
	cfg.Epochs = 2
	trainSet, testSet := split(games, cfg.HoldOut)
	if len(trainSet) == 0 || len(testSet) == 0 {
		t.Fatalf("split: %d training, %d held-out games", len(trainSet), len(testSet))
	}
	w := train(trainSet, cfg, func(string, ...any) {}).quantize()
	return writeGo(w, cfg, len(trainSet), evaluate(testSet, w, 300, false))
}

// A bad games file is one error, and nothing is written.
func TestTrainBadInput(t *testing.T) {
	out := t.TempDir() + "/gen.go"
	var so, se bytes.Buffer
	if err := run([]string{"--games", "testdata/missing.json", "--out", out}, &so, &se); err == nil {
		t.Fatal("missing games file: want an error")
	}
	bad := t.TempDir() + "/bad.json"
	os.WriteFile(bad, []byte("{\"1\": [\"j10\""), 0o644)
	if err := run([]string{"--games", bad, "--out", out}, &so, &se); err == nil {
		t.Fatal("truncated JSON: want an error")
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatal("a failed run wrote the output")
	}
}

// The games' opening table: `go run ./tools/train --book` run now on the
// shared games file writes engine/player/gamebook_gen.go byte for byte, and the
// same run on the 400-game sample its golden file, twice alike (the map
// order of the counts does not reach the bytes). Regenerate the golden
// file with -update after a deliberate change.
func TestBookRegeneratesByteForByte(t *testing.T) {
	testenv.Heavy(t)
	sample := func() []byte {
		var so, se bytes.Buffer
		if err := run([]string{"--book", "--games", "testdata/sample.json", "--book-games", "3", "--book-move-games", "2", "--out", "-"}, &so, &se); err != nil {
			t.Fatal(err)
		}
		return so.Bytes()
	}
	src := sample()
	if *update {
		if err := os.WriteFile("testdata/book_gen.golden", src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/book_gen.golden")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(src, want) || !bytes.Equal(sample(), src) {
		t.Fatalf("the sample's table differs from testdata/book_gen.golden (%d bytes, want %d)", len(src), len(want))
	}
	if !bytes.Contains(src, []byte(`\x`)) {
		t.Fatal("the sample's table is empty")
	}

	games := filepath.Join("..", "..", "..", "shared", "data", "littlegolem-connect6-games.json.gz")
	if _, err := os.Stat(games); err != nil {
		t.Fatalf("the shared games file: %v", err)
	}
	var so, se bytes.Buffer
	if err := run([]string{"--book", "--games", games, "--out", "-"}, &so, &se); err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile(filepath.Join("..", "..", "engine", "gamebook_gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(so.Bytes(), committed) {
		t.Fatalf("go run ./tools/train --book writes %d bytes that differ from engine/player/gamebook_gen.go (%d bytes)", so.Len(), len(committed))
	}
}

// Bad --book settings are one error, and nothing is written.
func TestBookBadInput(t *testing.T) {
	out := t.TempDir() + "/gen.go"
	for _, args := range [][]string{{"--book-turns", "0"}, {"--book-games", "0"}, {"--book-move-games", "-1"}} {
		var so, se bytes.Buffer
		if err := run(append([]string{"--book", "--games", "testdata/sample.json", "--out", out}, args...), &so, &se); err == nil {
			t.Fatalf("%v: want an error", args)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatal("a failed run wrote the output")
	}
}
