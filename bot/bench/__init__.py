"""`evonote bench`: the paper's evaluation, reproducible on any model server — and a
latency-simulating model server to run it without a GPU."""
