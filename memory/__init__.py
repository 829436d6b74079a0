"""The experience memory (EvoNote): lessons distilled from finished episodes.

Until the memory issue lands, episodes run with `pipeline.ports.NoMemory`.
"""
