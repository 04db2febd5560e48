GO ?= go

.PHONY: all build test vet fmt bench eval-corpus

all: build test

build:
	$(GO) build ./...

# test is what CI runs (see .ci/run): vet, formatting, and every package's tests.
test: vet fmt
	$(GO) test -count=1 -timeout 14m ./...

vet:
	$(GO) vet ./...

fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go' | grep -v testdata/)); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# bench runs the runtime's micro-benchmarks.
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./runtime

# eval-corpus runs Go's race suite ($(go env GOROOT)/src/runtime/race/testdata)
# under racegen and under go test -race, and prints per-file agreement.
eval-corpus:
	RACEGEN_SUITE=all $(GO) test -count=1 -run 'TestRaceSuite$$' -v -timeout 30m ./cmd/racegen
