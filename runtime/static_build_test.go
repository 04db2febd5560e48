package runtime_test

import (
	"os/exec"
	"testing"
)

// TestStaticBuild runs tests of this package in test binaries built as
// racegen builds the runtime for -mode=static and -mode=collide: in this
// binary, a dynamic build, the constant staticSync compiles the static
// paths away. A static build runs the watchpoint tests, whose scenarios
// go through the synchronization wrappers, and the test of the gate that
// keeps those wrappers from calling into the detector while nothing is
// armed; a collide build runs the gate's test only, since its sampled
// accesses wait out their watchpoints, which the watchpoint tests do not
// expect.
func TestStaticBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs this package's tests twice")
	}
	goCmd := goCommand(t)
	for _, tt := range []struct{ mode, tests string }{
		{"static", "Watch|Collide|StaticSync"},
		{"collide", "StaticSync"},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			ov := modeOverlay(t, t.TempDir(), tt.mode)
			cmd := exec.Command(goCmd, "test", "-count=1", "-timeout=5m", "-overlay", ov, "-run", tt.tests, ".")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("go test -run '%s' in a %s build: %v\n%s", tt.tests, tt.mode, err, out)
			}
		})
	}
}
