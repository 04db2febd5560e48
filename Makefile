GO ?= go

.PHONY: all build test vet fmt check-tidy check-generated bench bench-ops bench-runtime eval-rate eval-fresa eval-corpus eval-wholeprog eval-modules

all: build test

build:
	$(GO) build ./...

# test is what CI runs (see .ci/run): vet, formatting, go.mod and the
# generated files up to date, and every package's tests.
test: vet fmt check-tidy check-generated
	$(GO) test -count=1 -timeout 14m ./...

vet:
	$(GO) vet ./...

fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go' | grep -v testdata/)); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# check-tidy fails if go mod tidy would change go.mod or go.sum. Besides
# the modules that the build and the tests use, tidy reads the tests of
# the packages racegen imports, which import three more modules
# (github.com/google/go-cmp, github.com/sergi/go-diff and
# github.com/dave/jennifer, for x/tools's and dst's tests): without a
# module proxy, they must be in the module cache.
check-tidy:
	$(GO) mod tidy -diff

# check-generated fails if go generate ./... would change a file (such as
# runtime/atomic_gen.go): it runs the generators on a copy of the tree,
# so that the check never writes into it.
check-generated:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	tar -cf - --exclude=./.git . | tar -xf - -C "$$tmp" && \
	(cd "$$tmp" && $(GO) generate ./...) && \
	if ! diff -r -q -x .git . "$$tmp"; then \
		echo "go generate ./... changes the files above: run it and commit them"; exit 1; \
	fi

# bench is the cost harness: every workload (bench/workloads and real
# modules from the proxy) uninstrumented, under go test -race and under
# racegen at several rates, interleaved; writes docs/bench.md and its plots.
# BENCHFLAGS="-modes dynamic -rates 0,0.01,1" took 42 minutes, 21 of them
# building, with the iteration counts before 2026-11-27, which are about
# twice as many since (geometric mean; bench/driver/workloads.go): expect
# its running half to take about twice as long. Every mode takes longer.
# BENCHFLAGS="-reps 1 -workloads msort" is quick.
bench:
	$(GO) run ./bench/driver $(BENCHFLAGS)

# bench-runtime runs the runtime's micro-benchmarks.
bench-runtime:
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./runtime

# bench-ops runs bench/ops, single operations (an access, a mutex, a
# channel, an atomic add, a go statement, a pipe), uninstrumented, under go test
# -race and under racegen at rate 1, one after the other: the
# per-operation view of what make bench measures for whole programs.
# Took 4m24s on 2026-11-30 (7 operations then, 3 runs each, three builds).
bench-ops:
	$(GO) test -run '^$$' -bench . -count 3 ./bench/ops
	$(GO) test -race -run '^$$' -bench . -count 3 ./bench/ops
	$(GO) run ./cmd/racegen -rate=1 test -run '^$$' -bench . -count 3 ./bench/ops

# eval-rate is the proportionality harness: the races of testdata/evalrace,
# many trials per sampling rate in dynamic mode, then the three modes side
# by side (100 runs each at 1%, a new build per run in the static modes) on
# testdata/evalrace and testdata/evalrace/many; writes docs/eval-rate.md
# and its plot. EVALFLAGS="-sweep=false" runs only the modes comparison.
eval-rate:
	$(GO) run ./bench/evalrate $(EVALFLAGS)

# eval-fresa puts uniform dynamic sampling and FRESA (racegen -fresa, cold
# and from a profile) side by side on the evaluation programs: overhead
# and distinct races found at each rate of a ladder, and what each finds
# within an overhead budget (docs/fresa.md). Set FRESAFLAGS to pass flags
# (-runs, -rates, -modes, -programs; see bench/fresa). About 50 minutes at the
# default 100 runs; -runs 40 took 21.
eval-fresa:
	$(GO) run ./bench/fresa $(FRESAFLAGS)

# eval-corpus runs Go's race suite ($(go env GOROOT)/src/runtime/race/testdata)
# under racegen and under go test -race, and prints per-file agreement; then
# every TestNoRace* test and every race-free program of testdata/programs in
# the static and collide modes (collide on hardware watchpoints too, which
# make test leaves out), which must report nothing.
eval-corpus:
	RACEGEN_SUITE=all $(GO) test -count=1 -run 'TestRaceSuite$$|TestNoRaceSuiteStatic$$|TestStaticRaceFreePrograms$$' -v -timeout 60m ./cmd/racegen

# eval-wholeprog runs testdata/wholeprog, the corpus whose races and
# synchronization live in the standard library and in dependencies, under
# racegen test at rate 1 and under go test -race, and prints each test's
# verdict side by side; it fails on every disagreement with the tests'
# names and // race lines.
eval-wholeprog:
	RACEGEN_WHOLEPROG=race $(GO) test -count=1 -run 'TestWholeProgram$$' -v -timeout 30m ./cmd/racegen

# eval-modules runs the test suites of a pinned list of real modules
# (bench/modules/list.go, copied from the module proxy) under go test,
# go test -race and racegen (racegen test and -toolexec at rate 1,
# racegen test at rate 0.01), compares them test by test (verdicts, races,
# wall time, peak memory) and writes docs/modules.md. Takes an hour or
# more; MODULESFLAGS="-modules x/sync -forms go,full" is quick, and
# MODULESFLAGS="-work DIR" keeps the copies, logs and results.json.
eval-modules:
	$(GO) run ./bench/modules $(MODULESFLAGS)
