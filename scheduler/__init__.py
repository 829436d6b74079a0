"""Periodic jobs (evolve, watchlist scans, status sync, digest) and the single-scheduler guard."""
