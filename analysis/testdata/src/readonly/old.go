//go:build go1.21

package readonly

// Before Go 1.22 a range clause with := declares one variable for the
// whole loop and writes it every iteration.
func rangeOld(s []int) {
	for _, v := range s {
		go func() {
			use(v) // shared: v
		}()
	}
}
