package proofbook

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// mapGames is a GameSource over games in memory.
type mapGames struct {
	ids   []string
	games map[string][]string
}

func (m mapGames) Len() int                      { return len(m.ids) }
func (m mapGames) ID(i int) string               { return m.ids[i] }
func (m mapGames) Turns(i int) ([]string, error) { return m.games[m.ids[i]], nil }

// importGames stores games held in memory, in the order of ids.
func (bk *Book) importGames(ctx context.Context, ids []string, games map[string][]string, opts ImportOptions) (ImportStats, error) {
	return bk.StoreGames(ctx, mapGames{ids, games}, opts)
}

// importMap stores games held in memory in the order a games file's
// import stores them (fileOrder).
func (bk *Book) importMap(ctx context.Context, games map[string][]string, opts ImportOptions) (ImportStats, error) {
	return bk.importGames(ctx, fileOrder(games), games, opts)
}

// fileOrder is the order the games file import stores games in: numeric
// ids first, by value, then the others by text.
func fileOrder(games map[string][]string) []string {
	ids := make([]string, 0, len(games))
	for id := range games {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b string) int {
		x, ex := strconv.ParseInt(a, 10, 64)
		y, ey := strconv.ParseInt(b, 10, 64)
		switch {
		case ex == nil && ey == nil:
			if c := cmp.Compare(x, y); c != 0 {
				return c
			}
		case ex == nil:
			return -1
		case ey == nil:
			return 1
		}
		return cmp.Compare(a, b)
	})
	return ids
}

// readGamesFile reads a games file (plain or gzip) into memory, the ids in
// fileOrder (the benchmarks' shared games).
func readGamesFile(r io.Reader) ([]string, map[string][]string, error) {
	br := bufio.NewReader(r)
	var in io.Reader = br
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, nil, err
		}
		defer zr.Close()
		in = zr
	}
	games := map[string][]string{}
	if err := json.NewDecoder(in).Decode(&games); err != nil {
		return nil, nil, err
	}
	return fileOrder(games), games, nil
}

// bookState is every stored row of the book, as text.
func bookState(t *testing.T, bk *Book) string {
	t.Helper()
	ctx := context.Background()
	var sb strings.Builder
	for _, q := range []string{
		"SELECT id, key, hex(stones), to_move FROM position ORDER BY id",
		"SELECT parent, move, child FROM edge ORDER BY parent, move",
		"SELECT pos, comment, label, marks, updated_at FROM note ORDER BY pos",
		"SELECT pos, attacker, status, ord, pn, dn FROM status ORDER BY pos, attacker",
		"SELECT source, ext_id, leaf, nturns, result, hex(turns), rebuilt FROM game ORDER BY source, ext_id",
		"SELECT id, games, bwins, wwins FROM position ORDER BY id",
		"SELECT pos, game FROM game_pos ORDER BY pos, game",
	} {
		rows, err := bk.r.QueryContext(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for _, v := range vals {
				switch x := v.(type) {
				case []byte:
					sb.Write(x)
				default:
					fmt.Fprint(&sb, x)
				}
				sb.WriteByte('|')
			}
			sb.WriteByte('\n')
		}
		rows.Close()
	}
	return sb.String()
}
