#!/usr/bin/env bash
# killprove.sh: kill -9 `c6 book prove` at varied moments and run it again,
# KILLS times (default 10): after every kill `c6 book check` must pass, and
# every book the runs finish must hold the same proof as an uninterrupted
# run (root status and the proved positions count). A book that finishes
# before the kills are done is followed by a fresh one.
#
#   tools/killprove/killprove.sh [C6 binary] [KILLS]
#
# The target: Connect(8,8,5,2,1), Black's first move, λ2, 3000 nodes per
# solver call, one job, one solver worker (deterministic).
set -euo pipefail
c6=${1:-bin/c6}
kills_wanted=${2:-10}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
args=(--attacker B --lambda 2 --max-nodes 3000 --workers 1 --jobs 1)
summary() { # root status for Black, and the proved and open counts
	"$c6" book show --book "$1" --json | grep -o '"black":"[a-z]*' | head -1
	"$c6" book stats --book "$1" --json | grep -o '"proved":{"B":[0-9]*\|"open":{"B":[0-9]*\|"verdicts":[0-9]*'
}
"$c6" book init --book "$dir/ref.c6book" --rules 8,8,5,2,1 >/dev/null
start=$(date +%s.%N)
"$c6" book prove --book "$dir/ref.c6book" "${args[@]}" >/dev/null
ref_s=$(echo "$(date +%s.%N) - $start" | bc)
want=$(summary "$dir/ref.c6book")
echo "uninterrupted run: $(echo "$want" | tr '\n' ' ') in ${ref_s}s"
kills=0 runs=0 books=0 finished=1 book=""
start=$(date +%s.%N)
while [ "$kills" -lt "$kills_wanted" ] || [ "$finished" -eq 0 ]; do
	if [ "$finished" -eq 1 ]; then
		books=$((books + 1))
		book="$dir/killed$books.c6book"
		"$c6" book init --book "$book" --rules 8,8,5,2,1 >/dev/null
		finished=0
	fi
	runs=$((runs + 1))
	"$c6" book prove --book "$book" "${args[@]}" >"$dir/out" 2>&1 &
	pid=$!
	if [ "$kills" -lt "$kills_wanted" ]; then
		sleep "0.$(printf '%03d' $((RANDOM % 900 + 50)))"
		kill -9 "$pid" 2>/dev/null || true
	fi
	rc=0
	wait "$pid" 2>/dev/null || rc=$?
	case $rc in
	0) finished=1 ;;
	137) kills=$((kills + 1)) ;; # killed by SIGKILL
	*) echo "run $runs: exit $rc"; cat "$dir/out"; exit 1 ;;
	esac
	"$c6" book check --book "$book" >"$dir/check" 2>&1 || { echo "check failed after run $runs:"; cat "$dir/check"; exit 1; }
	if [ "$finished" -eq 1 ]; then
		got=$(summary "$book")
		if [ "$got" != "$want" ]; then
			echo "book $books differs from the uninterrupted run: $got vs $want"
			exit 1
		fi
	fi
done
echo "$kills kills in $runs runs over $books books ($(echo "$(date +%s.%N) - $start" | bc)s): check passed after every run, every finished book equals the uninterrupted run"
