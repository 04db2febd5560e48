package runtime

import _ "unsafe" // go:linkname

// runtimeEnvs returns a copy of the environment the program started
// with, as "key=value" strings. The Go runtime provides it to package
// syscall under this name (runtime.syscall_runtime_envs in
// $GOROOT/src/runtime/runtime.go); os.Getenv reads the same list.
//
//go:linkname runtimeEnvs syscall.runtime_envs
func runtimeEnvs() []string

// getenv returns the value of the environment variable key as the
// program started with it, or "" if it is not set. As in os.Getenv, the
// first definition of a key wins; unlike os.Getenv on Windows, case
// matters.
func getenv(key string) string {
	for _, kv := range runtimeEnvs() {
		if k, v, ok := cut(kv, "="); ok && k == key {
			return v
		}
	}
	return ""
}
