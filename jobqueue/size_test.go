package jobqueue

import (
	"bytes"
	"compress/flate"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"c6book/engine/game"
	"c6book/engine/threat"
	"c6book/engine/verify"
)

// TestDumpVerdict verifies the position C6_DUMP_TURNS (Connect6, λ
// C6_DUMP_LAMBDA, default 3; C6_DUMP_NODES nodes a solver call, default
// 200,000) and writes its encoded verdict to C6_DUMP_OUT: the real
// verdicts BenchmarkVerdictSize measures. Skipped without C6_DUMP_TURNS.
func TestDumpVerdict(t *testing.T) {
	turns, out := os.Getenv("C6_DUMP_TURNS"), os.Getenv("C6_DUMP_OUT")
	if turns == "" || out == "" {
		t.Skip("C6_DUMP_TURNS and C6_DUMP_OUT not set")
	}
	envInt := func(name string, def int64) int64 {
		if s := os.Getenv(name); s != "" {
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		return def
	}
	tc := testCase{"19,19,6,2,1", turns, verify.VerifyOptions{Lambda: int(envInt("C6_DUMP_LAMBDA", 3)), Limits: threat.Limits{MaxNodes: envInt("C6_DUMP_NODES", 200000)}}}
	b, o := tc.board(t), tc.withTol(t)
	job, _ := newJob(b, o)
	jb, jo, err := job.board()
	if err != nil {
		t.Fatal(err)
	}
	vd, err := verify.Verify(context.Background(), jb, jo, nil)
	if err != nil {
		t.Fatal(err)
	}
	data, err := encodeVerdict(&vd)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %s order %d, %d unsolved, %d open seminull, %d covered, %d seminull zones; %d bytes encoded", turns, vd.Status, vd.Order, len(vd.Unsolved), len(vd.OpenSeminull), len(vd.Covered), len(vd.SeminullZones), len(data))
}

// TestVerdictAnatomy reads the encoded verdicts named in C6_VERDICT_FILES
// (space-separated, TestDumpVerdict's output) and logs what they hold.
func TestVerdictAnatomy(t *testing.T) {
	files := strings.Fields(os.Getenv("C6_VERDICT_FILES"))
	if len(files) == 0 {
		t.Skip("C6_VERDICT_FILES not set")
	}
	r := game.Rules{M: 19, N: 19, K: 6, P: 2, Q: 1}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		vd, err := decodeVerdict(r, data)
		if err != nil {
			t.Fatal(err)
		}
		fr := flate.NewReader(bytes.NewReader(data[1:]))
		payload, _ := io.ReadAll(fr)
		nodes, zoneSq := 0, 0
		distinct := map[string]bool{}
		var key func(st *threat.Strategy) string
		key = func(st *threat.Strategy) string {
			if st == nil {
				return "-"
			}
			nodes++
			zoneSq += len(st.Zone)
			k := fmt.Sprint(st.Move, st.Threats, st.Six, st.Zone)
			for _, rp := range st.Replies {
				k += fmt.Sprint("|", rp.Move, rp.Seminull, "{", key(rp.Then), "}")
			}
			distinct[k] = true
			return k
		}
		key(vd.NullTree)
		for _, s := range vd.SeminullZones {
			key(s.Tree)
		}
		for _, c := range vd.Covered {
			key(c.Tree)
		}
		sizes := ""
		for _, version := range []byte{1, 2} {
			enc, err := encodeVerdictVersion(&vd, version)
			if err != nil {
				t.Fatal(err)
			}
			back, err := decodeVerdict(r, enc)
			if err != nil {
				t.Fatal(err)
			}
			if again, _ := encodeVerdictVersion(&back, version); !bytes.Equal(again, enc) {
				t.Errorf("%s: the version %d encoding does not come back the same", f, version)
			}
			sizes += fmt.Sprintf("; version %d: %d bytes encoded, %d decoded", version, len(enc), payloadLen(t, enc))
		}
		t.Logf("%s%s", f, sizes)
		t.Logf("%s: %d bytes encoded, %d decoded; %d unsolved, %d open seminull, %d covered, %d seminull zones; %d strategy nodes (%d distinct subtrees), %d zone squares",
			f, len(data), len(payload), len(vd.Unsolved), len(vd.OpenSeminull), len(vd.Covered), len(vd.SeminullZones), nodes, len(distinct), zoneSq)
	}
}
