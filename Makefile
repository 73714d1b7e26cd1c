# c6book: `make run` sets up and starts the workbench, `make test` sets up
# and runs every check. Both install missing Debian packages first.

GO       ?= go
BIN      := bin
APT_PKGS := libgl1-mesa-dev xorg-dev xvfb xauth
SUDO     := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
export CGO_ENABLED := 1

.PHONY: all deps build run test vet check-exports api-size smoke package bench bench-engine bench-solve bench-verify bench-openings bench-c623 openings bench-book bench-ui clean

all: build

# Install the system packages Fyne needs (OpenGL, X11 headers, Xvfb for the
# headless smoke test) when any is missing: apt-get update once, then install.
deps:
	@missing=""; for p in $(APT_PKGS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing system packages:$$missing"; \
		$(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y $$missing; \
	fi
	@$(GO) mod download

build: deps
	$(GO) build -o $(BIN)/c6book ./app
	$(GO) build -o $(BIN)/c6 ./cmd/c6

run: build
	./$(BIN)/c6book $(ARGS)

vet: deps
	$(GO) vet ./...

# check-exports: every exported identifier of jobqueue, session,
# session/sessiontest and ui is used by another package (tests count;
# the package's own do not). `go run ./tools/unusedexports -fields` lists
# the unused exported struct fields too, to judge by hand.
check-exports: deps
	$(GO) run ./tools/unusedexports

# api-size: exported identifiers per package and the functions over 100
# lines (issue 34's measures); `-max 100` fails on a package over 100.
api-size:
	$(GO) run ./tools/apisize

# Every check: vet, the whole suite without the race detector (every test
# in full), the suite again under -race with -short (the compute-bound
# brute-force samples and proofs skip there: see heavyTest; the detector's
# 5-10x slowdown bought nothing on them), then the real binary under Xvfb
# (smoke). No test depends on the machine's speed: TEST_GUARD only ends a
# run that hangs (go test's -timeout, and the smoke run's).
TEST_GUARD ?= 40m
test: deps vet
	$(GO) test -timeout $(TEST_GUARD) ./...
	$(GO) test -race -short -timeout $(TEST_GUARD) ./...
	$(MAKE) --no-print-directory smoke

# smoke: the real binary under Xvfb on a sample book in a temp dir: store a
# Connect6 line, verify it (open, with unsolved moves), save a window capture
# and quit; the app exits non-zero if the capture is blank. softpipe: Mesa's
# llvmpipe returns an empty front buffer under Xvfb, softpipe does not.
SMOKE_LINE := j10 j9a1 j11j12 a3a5 j13k13
smoke: build
	@tmp=$$(mktemp -d); \
	LANG=en_US.UTF-8 GALLIUM_DRIVER=softpipe XDG_CONFIG_HOME=$$tmp/config timeout $(TEST_GUARD) \
		xvfb-run -a -s "-screen 0 1280x900x24" ./$(BIN)/c6book --book $$tmp/sample.c6book \
		--play "$(SMOKE_LINE)" --lambda 3 --verify --screenshot $$tmp/smoke.png \
		--export-board $$tmp/board.png --quit-after && \
	test $$(stat -c %s $$tmp/smoke.png) -gt 20000 && test $$(stat -c %s $$tmp/board.png) -gt 10000 && \
	cp $$tmp/smoke.png $$tmp/board.png $(BIN)/ && \
	echo "smoke: ok, window capture in $(BIN)/smoke.png, board export in $(BIN)/board.png"; rc=$$?; rm -rf $$tmp; exit $$rc

# The proof book: import all shared games into a fresh book (time and size
# are logged), then time the UI's queries on it, and a position switch in
# the workbench from the key to the rendered answer (target: 16 ms).
BENCH_BOOK ?= $(CURDIR)/$(BIN)/bench.c6book
bench-book: deps
	@mkdir -p $(dir $(BENCH_BOOK))
	rm -f $(BENCH_BOOK) $(BENCH_BOOK)-wal $(BENCH_BOOK)-shm
	C6_BENCH_BOOK=$(BENCH_BOOK) $(GO) test -run '^$$' -bench BookQueries -benchtime 1s ./proofbook
	C6_BENCH_BOOK=$(BENCH_BOOK) $(GO) test -run '^$$' -bench 'ShowPosition|StoreQueries' -benchtime 1s ./app

# Key → repaint in the real window under Xvfb with Mesa's default driver
# (llvmpipe; no GALLIUM_DRIVER): the workbench on a book of all shared games
# (imported into BENCH_UI_BOOK on the first run, about a minute) types ← and
# → alternately from the end of each line below (see app/benchkeys.go for
# what exactly is timed). A run's median lands on one of two values a 60 Hz
# frame apart depending on the run, so the lines are run BENCH_UI_RUNS times
# (the lines alternating): each run prints its medians of the UI
# goroutine's work, the painting and the key → full frame time, and each
# line ends with the median of its runs' full-frame medians. It reports; it
# asserts nothing. Target: full frame under 50 ms. BENCH_UI_RUNS=1
# BENCH_UI_VERBOSE=1 prints a run's whole report (p90, max, first frame).
BENCH_UI_BOOK ?= $(CURDIR)/$(BIN)/bench-ui.c6book
BENCH_UI_KEYS ?= 200
BENCH_UI_RUNS ?= 5
BENCH_UI_VERBOSE ?=
bench-ui: build
	@test -f $(BENCH_UI_BOOK) || { ./$(BIN)/c6 book init --book $(BENCH_UI_BOOK) && \
		./$(BIN)/c6 book import-games --book $(BENCH_UI_BOOK) --games ../shared/data/littlegolem-connect6-games.json.gz; }
	@tmp=$$(mktemp -d); rc=0; \
	for run in $$(seq 1 $(BENCH_UI_RUNS)); do \
		n=0; for line in "j10" "j10 i9k9" "j10 i9k9 j8h9"; do n=$$((n+1)); \
			out=$$tmp/line$$n.run$$run; \
			LANG=en_US.UTF-8 XDG_CONFIG_HOME=$$tmp/config timeout 600 xvfb-run -a -s "-screen 0 1280x900x24" \
				./$(BIN)/c6book --book $(BENCH_UI_BOOK) --play "$$line" --bench-keys $(BENCH_UI_KEYS) >$$out || rc=1; \
			if [ -n "$(BENCH_UI_VERBOSE)" ]; then cat $$out; fi; \
			awk -v run=$$run -v line="$$line" '/UI goroutine work/ {w=$$(NF-7)} /painting the full frame/ {p=$$(NF-7)} \
				/full frame on screen/ {f=$$(NF-7)} END {if (f == "") f = "none"; \
				printf "run %d, line %-14s full frame median %6s ms  (UI work %s ms, painting %s ms)\n", run, line, f, w, p}' $$out; \
		done; \
	done; \
	n=0; for line in "j10" "j10 i9k9" "j10 i9k9 j8h9"; do n=$$((n+1)); \
		cat $$tmp/line$$n.run* | awk '/full frame on screen/ {print $$(NF-7)}' | sort -n | \
			awk -v line="$$line" '{v[NR]=$$1; runs=runs " " $$1} END {if (NR == 0) {print "line " line ": no run finished"; exit} \
				m = NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2; \
				printf "line %-14s median of %d runs: %.1f ms (runs, sorted:%s)\n", line, NR, m, runs}'; \
	done; rm -rf $$tmp; exit $$rc

# The solvers on the public positions: wins, median, p90 and max time,
# nodes/s for VCDT and VCST per per-position budget, the positions each
# misses; then the VCDT/VCST node rates
# (nodes per CPU second, 50,000-node solves). The 10 s budget takes up to
# ~20 min per mode with 2 workers: `make bench-solve SOLVE_BUDGETS=1s`.
SOLVE_BUDGETS ?= 1s,10s
SOLVE_WORKERS ?= 2
bench-solve:
	$(GO) run ./tools/benchsolve -positions ../shared/positions/littlegolem-public.tsv -budgets $(SOLVE_BUDGETS) -workers $(SOLVE_WORKERS)
	$(GO) test -run '^$$' -bench 'VCDTPublic|VCSTPublic' -benchtime 1x ./engine/threat

# The verifier on the public positions after each game's own next attacker
# turn: proved/open counts, unsolved-list sizes, and the speed-up of 2
# workers over 1 on the position with the most solver calls.
VERIFY_NODES ?= 5000
bench-verify:
	$(GO) run ./tools/benchverify -positions ../shared/positions/littlegolem-public.tsv -games ../shared/data/littlegolem-connect6-games.json.gz -max-nodes $(VERIFY_NODES) -speedup
	$(MAKE) --no-print-directory bench-openings

# The benchmark of record: the verifier (λ3) on the opening set (the 40
# most-played three-turn openings of the LittleGolem games, each with its 3
# most-played attacker replies: tools/benchverify/openings.tsv). Per call:
# status, order, unsolved moves, solver calls, nodes, CPU and wall seconds;
# then totals. OPENINGS_N positions (0: all 120), each solver call limited
# to OPENINGS_NODES nodes and OPENINGS_TIMEOUT, OPENINGS_WORKERS at once.
# A full run at 200k nodes / 10 s per call takes hours; the defaults finish
# in minutes on 2 cores.
OPENINGS_N ?= 5
OPENINGS_NODES ?= 20000
OPENINGS_TIMEOUT ?= 1s
OPENINGS_WORKERS ?= 2
bench-openings:
	$(GO) run ./tools/benchverify -openings tools/benchverify/openings.tsv -n $(OPENINGS_N) -lambda 3 \
		-max-nodes $(OPENINGS_NODES) -timeout $(OPENINGS_TIMEOUT) -workers $(OPENINGS_WORKERS)

# The shipped prover on Connect(6,2,3): a new 19,19,6,2,3 book, the
# auto-pilot (autopilot.Prove, as `c6 book prove`) from the empty board,
# then the book's check; fails unless the empty board is proved and every
# proof re-checks. See docs/BENCHMARKS.md.
bench-c623: deps
	@mkdir -p $(BIN) && rm -f $(BIN)/c623.c6book $(BIN)/c623.c6book-wal $(BIN)/c623.c6book-shm
	$(GO) run ./tools/benchverify -connect623 $(BIN)/c623.c6book -max-nodes 200000 -jobs 1 -prove-time 5m

# Regenerate the opening set from the games file; it must equal the
# committed file byte for byte.
openings:
	$(GO) run ./tools/openingset -games ../shared/data/littlegolem-connect6-games.json.gz -o tools/benchverify/openings.tsv
	git diff --exit-code tools/benchverify/openings.tsv

clean:
	rm -rf $(BIN)

# The Linux desktop package: bin/c6book.tar.xz holds the workbench, its icon,
# the .desktop entry (from app/FyneApp.toml's [LinuxAndBSD]) and a Makefile
# (`sudo make install`, or `make user-install` into ~/.local). The fyne
# CLI (FYNE_TOOLS, a version that packages Fyne 2.7 apps) is installed into
# bin/ the first time. Not part of `make test`.
# --executable c6book: fyne package builds the binary under that name (with
# the release tags and the hardening C flags it uses), not after app/.
FYNE_TOOLS ?= v1.7.4
package: deps
	@test -x $(BIN)/fyne || GOBIN=$(CURDIR)/$(BIN) $(GO) install fyne.io/tools/cmd/fyne@$(FYNE_TOOLS)
	cd app && ../$(BIN)/fyne package --os linux --release --executable c6book
	mv app/c6book.tar.xz $(BIN)/c6book.tar.xz
	@echo "package: $(BIN)/c6book.tar.xz; its desktop entry:"
	@tar -xJOf $(BIN)/c6book.tar.xz --wildcards '*.desktop'

# Board, threat and move-generation benchmarks (ns/op, and cpu-ns/op which
# is not inflated when the machine is shared).
bench-engine:
	$(GO) test -run XXX -bench Board -benchtime 1s ./engine/board
