"""`SearchEngine` backends: SearXNG, Serper, Brave, Tavily, keyless DDGS (the local corpus
lives in `adapters.local_corpus`)."""
