package instrument

import (
	"go/token"
	"go/types"
	"testing"
)

// TestOneComponent checks which values R and W record by their first
// word: those that go build -race records by their start address.
func TestOneComponent(t *testing.T) {
	const src = `package p

type S []int
type I interface{ M() }

var (
	str   string
	named S
	iface I
	empty any
	cplx  complex128
	small complex64
	word  int
	ptr   *int
	arr   [2]string
	strct struct{ s string }
	m     map[int]int
	ch    chan int
	fn    func()
)

func G[T any, E ~[]int](t T, e E) {}
`
	_, pkg, _ := checkSrc(t, token.NewFileSet(), mapImporter{}, "p", src)
	g := pkg.Scope().Lookup("G").Type().(*types.Signature)
	tests := []struct {
		name string
		typ  types.Type
		want bool
	}{
		{"string", pkg.Scope().Lookup("str").Type(), true},
		{"named slice", pkg.Scope().Lookup("named").Type(), true},
		{"interface", pkg.Scope().Lookup("iface").Type(), true},
		{"any", pkg.Scope().Lookup("empty").Type(), true},
		{"complex128", pkg.Scope().Lookup("cplx").Type(), true},
		{"complex64", pkg.Scope().Lookup("small").Type(), true},
		{"int", pkg.Scope().Lookup("word").Type(), false},
		{"pointer", pkg.Scope().Lookup("ptr").Type(), false},
		{"array of strings", pkg.Scope().Lookup("arr").Type(), false},
		{"struct of a string", pkg.Scope().Lookup("strct").Type(), false},
		{"map", pkg.Scope().Lookup("m").Type(), false},
		{"chan", pkg.Scope().Lookup("ch").Type(), false},
		{"func", pkg.Scope().Lookup("fn").Type(), false},
		// A type parameter's size is its shape's, unknown here, even
		// when its core type is a slice.
		{"type parameter", g.TypeParams().At(0), false},
		{"type parameter ~[]int", g.TypeParams().At(1), false},
		{"nil", nil, false},
	}
	for _, tt := range tests {
		if got := oneComponent(tt.typ); got != tt.want {
			t.Errorf("oneComponent(%s %v) = %v, want %v", tt.name, tt.typ, got, tt.want)
		}
	}
}
