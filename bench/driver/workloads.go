package main

// A workload is one package's benchmarks, run at a fixed iteration count.
type workload struct {
	Name      string // short name used in tables, file names and -workloads
	Module    string // module path on the proxy; empty for in-repo workloads
	Version   string // module version
	Pkg       string // package directory relative to the module root
	Bench     string // -test.bench regular expression
	Benchtime string // -test.benchtime, always Nx
	Note      string // set when preparing: how the copy differs from the module
}

// InRepo reports whether w lives in racegen's own module.
func (w *workload) InRepo() bool { return w.Module == "" }

// Source describes where w comes from, for the report.
func (w *workload) Source() string {
	if w.InRepo() {
		return "racegen/" + w.Pkg
	}
	p := w.Module + "@" + w.Version
	if w.Pkg != "." {
		p += "/" + w.Pkg
	}
	return p
}

// workloads is the suite, in report order. Iteration counts are chosen
// so that each uninstrumented run takes at least a second on a 2-core
// machine: a run of a few tenths of a second measures start-up and the
// machine's noise more than the program (at 8x, msort's uninstrumented
// run took 0.14 s and its rate-0 runs 0.59-1.22 times that). The counts
// were last set on 2026-11-27, when the earlier ones gave 0.44-0.89 s
// for nine of the twelve; with these, the uninstrumented configuration
// alone (go run ./bench/driver -reps 3 -race=false, with -modes and
// every -*rates flag set to "") measured 1.11-1.61 s for every workload.
// The machine's speed varies from day to day by a third.
var workloads = []workload{
	// In-repo workloads: the hot loops are racegen's user code.
	{Name: "msort", Pkg: "bench/workloads/msort", Bench: "^BenchmarkSort$", Benchtime: "128x"},
	{Name: "hashpool", Pkg: "bench/workloads/hashpool", Bench: "^BenchmarkHashAll$", Benchtime: "2000x"},
	{Name: "shardmap", Pkg: "bench/workloads/shardmap", Bench: "^BenchmarkMixed$", Benchtime: "280x"},
	{Name: "pipeline", Pkg: "bench/workloads/pipeline", Bench: "^BenchmarkRun$", Benchtime: "250x"},
	{Name: "matmul", Pkg: "bench/workloads/matmul", Bench: "^BenchmarkMul$", Benchtime: "320x"},

	// Real modules from the proxy, copied out of the module cache so that
	// they are the main module and racegen instruments them.
	{Name: "x-sync-syncmap", Module: "golang.org/x/sync", Version: "v0.24.0", Pkg: "syncmap",
		Bench: "^Benchmark(LoadMostlyHits|LoadOrStoreBalanced)$", Benchtime: "2500000x"},
	{Name: "x-sync-errgroup", Module: "golang.org/x/sync", Version: "v0.24.0", Pkg: "errgroup",
		Bench: "^BenchmarkGo$", Benchtime: "4000000x"},
	{Name: "go-cache", Module: "github.com/patrickmn/go-cache", Version: "v2.1.0+incompatible", Pkg: ".",
		Bench: "^Benchmark(CacheGetConcurrentExpiring|RWMutexMapGetConcurrent|CacheSetDelete|IncrementInt)$", Benchtime: "10000000x"},
	{Name: "ristretto", Module: "github.com/dgraph-io/ristretto/v2", Version: "v2.4.2", Pkg: ".",
		Bench: "^BenchmarkStore(Get|Set|Update)$", Benchtime: "6000000x"},
	{Name: "fastcache", Module: "github.com/VictoriaMetrics/fastcache", Version: "v1.13.0", Pkg: ".",
		Bench: "^BenchmarkCache(Set|Get|SetGet)$", Benchtime: "70x"},
	{Name: "bigcache", Module: "github.com/allegro/bigcache/v3", Version: "v3.1.0", Pkg: ".",
		Bench: "^Benchmark(WriteToCache|ReadFromCache)$/^1024-shards$", Benchtime: "800000x"},
	{Name: "fasthttp", Module: "github.com/valyala/fasthttp", Version: "v1.70.0", Pkg: ".",
		Bench: "^Benchmark(ServerGet10ReqPerConn|ClientGetEndToEnd10Inmemory)$", Benchtime: "450000x"},
}
