package runtime

import (
	"slices"
	"testing"
)

func vc(c ...uint64) *vclock { return &vclock{c: c} }

func TestVclockLeq(t *testing.T) {
	tests := []struct {
		name string
		v, w *vclock
		want bool
	}{
		{"nil, nil", nil, nil, true},
		{"nil, any", nil, vc(1), true},
		{"any, nil", vc(1), nil, false},
		{"zeros, nil", vc(0, 0), nil, true},
		{"equal", vc(1, 2, 3), vc(1, 2, 3), true},
		{"below", vc(1, 2, 3), vc(2, 2, 4), true},
		{"above in one entry", vc(1, 3, 3), vc(1, 2, 3), false},
		{"above in the last entry", vc(1, 2, 4), vc(1, 2, 3), false},
		{"shorter", vc(1, 2), vc(1, 2, 3), true},
		{"shorter, above", vc(2, 2), vc(1, 2, 3), false},
		{"longer, zeros past w", vc(1, 2, 3, 0, 0), vc(1, 2, 3), true},
		{"longer, an entry past w", vc(1, 2, 3, 0, 1), vc(1, 2, 3), false},
		{"empty", vc(), vc(), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.v.leq(tt.w); got != tt.want {
				t.Errorf("leq = %v, want %v", got, tt.want)
			}
		})
	}
	same := vc(5, 6)
	if !same.leq(same) {
		t.Error("a vclock is not leq itself")
	}
}

func TestVclockJoin(t *testing.T) {
	tests := []struct {
		name        string
		v, w        []uint64
		want        []uint64
		wantChanged bool
	}{
		{"nothing new", []uint64{3, 2, 1}, []uint64{1, 2, 1}, []uint64{3, 2, 1}, false},
		{"one entry higher", []uint64{3, 2, 1}, []uint64{1, 5, 1}, []uint64{3, 5, 1}, true},
		{"w longer", []uint64{3}, []uint64{1, 0, 4}, []uint64{3, 0, 4}, true},
		{"w longer, zeros", []uint64{3}, []uint64{1, 0, 0}, []uint64{3, 0, 0}, false},
		{"w shorter", []uint64{1, 2, 3}, []uint64{2}, []uint64{2, 2, 3}, true},
		{"w empty", []uint64{1}, nil, []uint64{1}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := vc(slices.Clone(tt.v)...)
			changed := v.join(vc(tt.w...))
			if !slices.Equal(v.c, tt.want) || changed != tt.wantChanged {
				t.Errorf("join = %v, changed %v; want %v, changed %v", v.c, changed, tt.want, tt.wantChanged)
			}
		})
	}
	v := vc(1, 2)
	if v.join(nil) || v.join(v) || !slices.Equal(v.c, []uint64{1, 2}) {
		t.Errorf("join of nil or of itself changed v: %v", v.c)
	}
}

// benchClocks returns two vclocks of n slots, the first below the second.
func benchClocks(n int) (*vclock, *vclock) {
	v, w := &vclock{c: make([]uint64, n)}, &vclock{c: make([]uint64, n)}
	for i := range n {
		v.c[i], w.c[i] = uint64(i), uint64(i+1)
	}
	return v, w
}

// BenchmarkVclockLeq compares clocks of defaultSlots entries, as an
// acquire does when versions do not answer it.
func BenchmarkVclockLeq(b *testing.B) {
	v, w := benchClocks(defaultSlots)
	for b.Loop() {
		if !v.leq(w) {
			b.Fatal("not leq")
		}
	}
}

// BenchmarkVclockJoin joins clocks of defaultSlots entries.
func BenchmarkVclockJoin(b *testing.B) {
	v, w := benchClocks(defaultSlots)
	for b.Loop() {
		v.join(w)
	}
}
