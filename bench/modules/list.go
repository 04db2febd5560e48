package main

import "strings"

// A module is one entry of the pinned list: a module from the proxy whose
// test suite the harness runs in every form.
type module struct {
	Path    string `json:"path"`
	Version string `json:"version"`
	// Pkgs are the package patterns to test; nil means ./... .
	Pkgs []string `json:"pkgs,omitempty"`
	// Skip is a go test -skip regular expression, for tests that cannot
	// run here at all.
	Skip string `json:"skip,omitempty"`
	// Narrowed says why Pkgs or Skip leave part of the suite out.
	Narrowed string `json:"narrowed,omitempty"`
	// Why says what the module's tests exercise.
	Why string `json:"why"`
}

// Name is the module's short name in tables: its path without the host.
func (m module) Name() string {
	_, rest, ok := strings.Cut(m.Path, "/")
	if !ok || strings.HasPrefix(m.Path, "golang.org/") || strings.HasPrefix(m.Path, "go.uber.org/") {
		return m.Path
	}
	return rest
}

// patterns returns the package patterns to test.
func (m module) patterns() []string {
	if len(m.Pkgs) == 0 {
		return []string{"./..."}
	}
	return m.Pkgs
}

// moduleList is the pinned list, in report order. Versions are the newest
// the module proxy served when the list was made (go list -m -versions);
// for the two modules the workplace's package list records (fasthttp,
// goleak) that is also the version go get accepted there. Several go
// lines are below go 1.24 on purpose: racegen must build them without
// changing their language version. A module's go line is read from its
// go.mod when it is prepared, not written here.
var moduleList = []module{
	{Path: "github.com/hashicorp/golang-lru/v2", Version: "v2.0.7",
		Why: "LRU, 2Q and ARC caches, an expirable LRU whose tests race a janitor goroutine against readers"},
	{Path: "github.com/sourcegraph/conc", Version: "v0.3.0",
		Why: "structured concurrency: wait groups, pools, streams and iterators that catch panics across goroutines"},
	{Path: "go.uber.org/atomic", Version: "v1.12.0",
		Why: "typed atomics; its tests hammer every type from many goroutines (issue 18 item 3's false report)"},
	{Path: "github.com/gorilla/websocket", Version: "v1.5.3",
		Why: "WebSocket client and server over loopback connections; go 1.12, the oldest language version in the list"},
	{Path: "github.com/allegro/bigcache/v3", Version: "v3.1.0",
		Why: "sharded byte cache with a cleanup goroutine and an HTTP server; go 1.16"},
	{Path: "github.com/dgraph-io/ristretto/v2", Version: "v2.4.2",
		Why: "concurrent cache with ring buffers and a policy goroutine (TestCacheMaxCost, issue 18 item 4) and the z allocator package"},
	{Path: "golang.org/x/sync", Version: "v0.24.0",
		Why: "errgroup, semaphore, singleflight and syncmap"},
	{Path: "github.com/valyala/fasthttp", Version: "v1.78.0",
		Skip:     "^TestDialerGetDialFunc$",
		Narrowed: "TestDialerGetDialFunc resolves github.com, which the tests' network namespace cannot reach, and fails alike in every form",
		Why:      "HTTP server and client with worker pools, connection pools and many goroutines per test, over loopback and in-memory listeners"},
	{Path: "go.uber.org/zap", Version: "v1.28.0",
		Why: "logging; its root and zapcore packages check for leaked goroutines with goleak.VerifyTestMain (issue 18 item 8)"},
	{Path: "github.com/patrickmn/go-cache", Version: "v2.1.0+incompatible",
		Why: "map cache behind an RWMutex with a janitor goroutine; no go.mod upstream"},
	{Path: "github.com/panjf2000/ants/v2", Version: "v2.12.1",
		Why: "goroutine pool: workers recycled through a lock-free queue, a spin lock and sync.Cond"},
	{Path: "github.com/alitto/pond/v2", Version: "v2.7.1",
		Why: "worker pool with task groups, result futures and context cancellation"},
}
