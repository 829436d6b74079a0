"""X: posts by URL (tweepy AsyncClient, API v2)."""
