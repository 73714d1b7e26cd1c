package main

import (
	"bytes"
	"flag"
	"os"
	"testing"

	"c6book/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite testdata/sample_gen.golden")

// The generator's core (reading, the split by id, SGD in the seeded order,
// quantisation, the held-out measure and the Go file) run on a fixed sample
// of 400 games writes the same file as the one stored, byte for byte: the
// training is reproducible. Regenerate with -update after a deliberate
// change, then regenerate engine/patterns_gen.go with go run ./tools/train.
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
