package main

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
	"testing"
)

// The book subcommands' --json objects were printed from maps, whose keys
// encoding/json sorts; their typed structs must keep that order (and so
// the bytes). Each object's keys, as marshalled with every optional field
// set, are pinned here and must be sorted.
func TestBookJSONKeysSorted(t *testing.T) {
	s := "x"
	items, why := []string{}, []unsolvedJSON{}
	cases := []struct {
		name string
		v    any
		keys string
	}{
		{"init", bookInitJSON{}, "book rules"},
		{"import", bookImportJSON{}, "files"},
		{"import-games", bookImportGamesJSON{}, "already games longest_tx_ms moves ms positions repaired skipped skipped_by_reason skipped_games transactions"},
		{"export", bookExportJSON{Out: &s, SGF: &s}, "id nodes out sgf truncated"},
		{"stats", bookStatsJSON{}, "bytes disproved games moves notes open positions proofs_checked proved proved_by_order rules schema unchecked verdicts"},
		{"show", bookShowJSON{OpenItems: &items, UnsolvedWhy: &why, Verdict: &verdictJSON{}}, "black children comment games id label open_items proofs_checked to_move unsolved_why verdict white"},
		{"games --game", bookGameJSON{}, "ext_id game length result source turns"},
		{"games", bookGamesJSON{}, "games id offset stats total"},
		{"annotate", bookAnnotateJSON{}, "id updated"},
		{"verify", bookVerifyJSON{}, "book_status id open_items unsolved_why verdict"},
		{"prove", bookProveJSON{}, "added again attacker book_proved calls dn expansions family finishing frontier held id learn max_held nodes open order pn proved proved_during_run queue refused result schedule search_proved seconds status"},
		{"prove family", familyJSON{}, "calls jobs proved"},
		{"prove learn", learnJSON{}, "postponed promoted shapes shapes_proved"},
		{"next", bookNextJSON{}, "auto_pilot_stuck dn id pn status to_move turns"},
		{"next stuck", stuckJSON{}, "id why"},
		{"open", bookOpenJSON{Other: &otherJSON{}}, "attacker other positions proofs_checked proved"},
		{"open other", otherJSON{}, "attacker count"},
		{"search", bookSearchJSON{}, "hits text"},
		{"check", bookCheckJSON{}, "digest_recorded moves ok outside_change positions problems proofs_rechecked proved seconds statuses"},
		{"backup", bookBackupJSON{}, "backup"},
		{"merge", bookMergeJSON{}, "from ms summary"},
		{"split", bookSplitJSON{}, "ms summary to"},
		{"merge summary", mergeJSON{}, "auto_moves bad_moves bad_positions disproofs first_bad games games_already games_skipped games_without_turns holds moves notes positions refused refused_count transactions uncertified verdicts verdicts_already verdicts_kept"},
		{"merge refused", refusedJSON{}, "attacker line reason"},
		{"export-proof", bookExportProofJSON{Out: &s, SGF: &s}, "attacker id leaves nodes out sgf truncated"},
		{"stats by colour", byColor{}, "B W"},
		{"stats by colour and order", byColorOrder{}, "B W"},
	}
	for _, c := range cases {
		got := strings.Join(topKeys(t, c.v), " ")
		if got != c.keys {
			t.Errorf("%s: keys %q, want %q", c.name, got, c.keys)
		}
		if !sort.StringsAreSorted(strings.Fields(got)) {
			t.Errorf("%s: keys %q are not sorted: the bytes differ from the map this object was printed from", c.name, got)
		}
	}
}

// topKeys are the keys of the JSON object v marshals to, in order.
func topKeys(t *testing.T, v any) []string {
	t.Helper()
	var buf bytes.Buffer
	if err := writeJSON(&buf, v); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(&buf)
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("%T: not a JSON object: %v %v", v, tok, err)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// A typed output struct and the map it replaced marshal to the same bytes
// (the sorted-keys argument above, checked once on real values).
func TestBookJSONSameBytesAsMap(t *testing.T) {
	v := bookOpenJSON{Attacker: "B", Other: &otherJSON{Attacker: "W", Count: 3}, Positions: []entryJSON{}, ProofsChecked: true}
	m := map[string]any{"attacker": "B", "proved": false, "positions": []entryJSON{}, "proofs_checked": true,
		"other": map[string]any{"attacker": "W", "count": int64(3)}}
	var a, b bytes.Buffer
	if err := writeJSON(&a, v); err != nil {
		t.Fatal(err)
	}
	if err := writeJSON(&b, m); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Errorf("struct %s\nmap    %s", a.String(), b.String())
	}
}
