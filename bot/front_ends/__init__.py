"""The chat front ends as `serve` and the worker see them (`registry.PLATFORMS`)."""
