// Package msort is a parallel merge sort: the two halves of a slice are
// sorted by separate goroutines down to a cutoff depth and then merged
// through a scratch buffer.
package msort

import "sync"

// Sort sorts s in increasing order, forking goroutines for the top depth
// levels of the recursion.
func Sort(s []int, depth int) {
	buf := make([]int, len(s))
	sortRec(s, buf, depth)
}

func sortRec(s, buf []int, depth int) {
	if len(s) <= 32 {
		insertion(s)
		return
	}
	mid := len(s) / 2
	if depth > 0 {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			sortRec(s[:mid], buf[:mid], depth-1)
		}()
		sortRec(s[mid:], buf[mid:], depth-1)
		wg.Wait()
	} else {
		sortRec(s[:mid], buf[:mid], 0)
		sortRec(s[mid:], buf[mid:], 0)
	}
	merge(s, buf, mid)
}

// merge merges the sorted halves s[:mid] and s[mid:] using buf.
func merge(s, buf []int, mid int) {
	copy(buf, s)
	i, j, k := 0, mid, 0
	for i < mid && j < len(s) {
		if buf[i] <= buf[j] {
			s[k] = buf[i]
			i++
		} else {
			s[k] = buf[j]
			j++
		}
		k++
	}
	for i < mid {
		s[k] = buf[i]
		i++
		k++
	}
	for j < len(s) {
		s[k] = buf[j]
		j++
		k++
	}
}

func insertion(s []int) {
	for i := 1; i < len(s); i++ {
		v := s[i]
		j := i
		for j > 0 && s[j-1] > v {
			s[j] = s[j-1]
			j--
		}
		s[j] = v
	}
}
