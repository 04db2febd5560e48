package testfuncs

import "testing"

func TestShared(t *testing.T) {
	Shared++
}

func TestUnnamed(*testing.T) {}

func BenchmarkShared(b *testing.B) {
	for b.Loop() {
		Shared++
	}
}

func FuzzShared(f *testing.F) {}

func Testlower(t *testing.T) {} // not a test
