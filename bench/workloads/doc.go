// Package workloads holds racegen's in-repository cost workloads: small
// concurrent programs whose hot loops are user code, so that an
// instrumenting detector pays for every access they make. Each
// subdirectory is one workload with Benchmark functions only; the bench
// driver (bench/driver) runs them at a fixed -benchtime=Nx.
package workloads
