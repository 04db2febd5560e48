// Package globals holds package-level variables that are never written
// after package initialization, whose reads the analysis must find local
// (no goroutine writes them), and variables that narrowly miss that rule,
// whose accesses it must not. Annotations as in package local.
package globals

import (
	"sync"
	_ "unsafe" // for go:linkname
)

func use(...any) {}

type pair struct{ a, b int }

func (p *pair) set(a int) { p.a = a } // shared: p.a
func (p pair) sum() int   { return p.a + p.b }

// Eligible: unexported, written only by their declarations.

var (
	table  = [4]byte{1, 2, 3, 4}
	name   = []byte("name")
	limit  = 10
	origin pair
	zero   int
	byKey  = map[string]int{"a": 1}
)

func reads(i int) {
	go func() {
		use(table[i], table, limit, origin.a, origin.sum(), zero) // local: table[i]; table; limit; origin.a; origin; zero
	}()
	use(name, len(name)) // local: name
}

// The variable is read-only, what it refers to is not: a slice's
// elements and a map's entries are other memory.
func writesThrough() {
	name[0] = 'N'   // local: name; shared: name[0]
	byKey["b"] = 2  // local: byKey; shared: byKey["b"]
	use(byKey["a"]) // local: byKey; shared: byKey["a"]
}

// Not eligible.

var Exported = 1

func readExported() {
	use(Exported) // shared: Exported
}

var (
	counter int
	arr     [4]int
	rec     pair
	viaAddr int
	viaPtr  pair
	viaIdx  [2]pair
	mu      sync.Mutex
	sliced  [8]byte
	inInit  int
	ranged  int
	bumped  int
)

func writes() {
	counter = 1                      // shared: counter
	arr[2] = 3                       // shared: arr[2]
	rec.b = 4                        // shared: rec.b
	bumped++                         // shared: bumped
	for _, ranged = range []int{1} { // shared: ranged
	}
	use(counter, arr[0], rec.a, bumped, ranged) // shared: counter; arr[0]; rec.a; bumped; ranged
}

func addresses() {
	p := &viaAddr
	*p = 1
	viaPtr.set(2)
	viaIdx[1].set(3)
	mu.Lock()
	use(sliced[:])
	use(viaAddr, viaPtr.a, viaIdx[0].b, mu, sliced[1]) // shared: viaAddr; viaPtr.a; viaIdx[0].b; mu; sliced[1]
}

func init() {
	inInit = 5
}

func readInInit() {
	use(inInit) // shared: inInit
}

//go:linkname linked
var linked int

func readLinked() {
	use(linked) // shared: linked
}
