package runtime

import "testing"

// TestForkShares checks what a go statement hands its child: the
// creator's vclock itself, not a copy, at every go statement. In a
// sampling period, where the creator's clock ticks at each go statement,
// the creator's epoch goes beside the vclock (thread.inh); outside one,
// where the clock stands still, the vclock holds the creator's entry,
// written once, and the children inherit nothing apart, so that a child
// that stores its clock into an object shares the vclock as it is.
func TestForkShares(t *testing.T) {
	for _, on := range []bool{true, false} {
		name := "outside sampling"
		if on {
			name = "sampling"
		}
		t.Run(name, func(t *testing.T) {
			setSampling(t, on)
			inGoroutine(func() {
				p := current()
				e1 := p.epoch()
				u1 := fork(p)
				e2 := p.epoch()
				u2 := fork(p)
				if u1.vc != u2.vc || u1.vc != p.vc {
					t.Errorf("the children do not share their creator's vclock")
				}
				if on {
					if e1 == e2 {
						t.Fatalf("the creator's clock did not tick at a go statement in a sampling period")
					}
					if u1.inh != e1 || u2.inh != e2 {
						t.Errorf("inherited epochs %v and %v, want the creator's %v and %v", u1.inh, u2.inh, e1, e2)
					}
					return
				}
				if u1.inh != 0 || u2.inh != 0 {
					t.Errorf("inherited epochs %v and %v outside a sampling period, want none", u1.inh, u2.inh)
				}
				if c := p.vc.get(p.tid); c != e2.clock() {
					t.Errorf("the shared vclock holds %d for the creator, want its clock %d", c, e2.clock())
				}
			})
		})
	}
}
