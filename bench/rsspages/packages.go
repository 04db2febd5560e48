package main

import (
	"debug/elf"
	"fmt"
	"io"
	"sort"
	"strings"
)

// A function is a function symbol of the executable's .text.
type function struct {
	name       string
	addr, size uint64
}

// textFunctions returns the function symbols of f, sorted by address.
func textFunctions(f *elf.File) ([]function, error) {
	syms, err := f.Symbols()
	if err != nil {
		return nil, err
	}
	var fns []function
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) == elf.STT_FUNC && s.Size > 0 {
			fns = append(fns, function{s.Name, s.Value, s.Size})
		}
	}
	sort.Slice(fns, func(i, j int) bool { return fns[i].addr < fns[j].addr })
	return fns, nil
}

// packageOf returns the package path of a Go symbol name: what precedes
// the first dot after its last slash ("runtime" for "runtime.mallocgc",
// "example.com/m/v2" for "example.com/m/v2.(*T).M"). The linker escapes
// a dot in the last element of a package path ("gopkg.in/yaml%2ev3"), so
// the first dot there ends the path.
func packageOf(name string) string {
	slash := strings.LastIndexByte(name, '/')
	if dot := strings.IndexByte(name[slash+1:], '.'); dot >= 0 {
		return name[:slash+1+dot]
	}
	return name
}

// residentByPackage divides the resident pages of .text among the
// packages of the functions in them, by each function's bytes in the
// page, and returns KiB by package. Bytes of a page that no function
// covers (padding) count as "(none)".
func residentByPackage(fns []function, text section, pages map[uint64]bool) map[string]float64 {
	kib := make(map[string]float64)
	for page := range pages {
		lo, hi := max(page, text.addr), min(page+4096, text.addr+text.size)
		if lo >= hi {
			continue
		}
		covered := uint64(0)
		// The first function that may overlap the page: the last one
		// that starts at or before lo, or the first after it.
		i := sort.Search(len(fns), func(i int) bool { return fns[i].addr > lo })
		if i > 0 {
			i--
		}
		for ; i < len(fns) && fns[i].addr < hi; i++ {
			a, b := max(fns[i].addr, lo), min(fns[i].addr+fns[i].size, hi)
			if a < b {
				kib[packageOf(fns[i].name)] += float64(b-a) / 1024
				covered += b - a
			}
		}
		if covered < hi-lo {
			kib["(none)"] += float64(hi-lo-covered) / 1024
		}
	}
	return kib
}

// writePackages writes the n packages with the most resident .text of
// exe, whose sections are secs and whose functions are fns.
func writePackages(w io.Writer, exe string, secs []section, fns []function, pages map[uint64]bool, n int) error {
	var text section
	for _, s := range secs {
		if s.name == ".text" {
			text = s
		}
	}
	if text.size == 0 {
		return fmt.Errorf("%s has no .text section", exe)
	}
	kib := residentByPackage(fns, text, pages)
	names := make([]string, 0, len(kib))
	for p := range kib {
		names = append(names, p)
	}
	sort.Slice(names, func(i, j int) bool {
		if kib[names[i]] != kib[names[j]] {
			return kib[names[i]] > kib[names[j]]
		}
		return names[i] < names[j]
	})
	fmt.Fprintf(w, "resident .text by package (%d of %d):\n", min(n, len(names)), len(names))
	for _, p := range names[:min(n, len(names))] {
		fmt.Fprintf(w, "%8.0f KiB %s\n", kib[p], p)
	}
	return nil
}
