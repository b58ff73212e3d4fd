// Refrain's micro-benchmarks (make bench); filled in by the benchmark work.
print("refrain-bench")
