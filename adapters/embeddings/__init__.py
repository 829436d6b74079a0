"""`Embedder` adapters: the local MiniLM model and OpenAI-compatible /v1/embeddings."""
