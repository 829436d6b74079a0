"""Reading public web pages safely: address checks, guarded fetch, extraction, caching."""
