//! Nothing: the benchmarks are in `benches/`.
