package wholeprog

// Races between a sort, whose reads and writes of the elements happen
// inside std, and a goroutine that writes an element.

import (
	"slices"
	"sort"
	"testing"
)

func TestRaceSortInts(t *testing.T) {
	s := []int{3, 1, 2}
	done := make(chan bool)
	go func() {
		sort.Ints(s) // race
		done <- true
	}()
	s[0] = 5 // race
	<-done
}

func TestRaceSlicesSort(t *testing.T) {
	s := []float64{3, 1, 2}
	done := make(chan bool)
	go func() {
		slices.Sort(s) // race
		done <- true
	}()
	s[1] = 0.5 // race
	<-done
}

func TestNoRaceSortAfterChannel(t *testing.T) {
	s := []int{3, 1, 2}
	done := make(chan bool)
	go func() {
		s[0] = 5
		done <- true
	}()
	<-done
	sort.Ints(s)
	if !slices.Equal(s, []int{1, 2, 5}) {
		t.Errorf("sorted %v", s)
	}
}
