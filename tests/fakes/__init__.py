"""Deterministic test doubles of the ports, and a scripted OpenAI-compatible HTTP server."""
