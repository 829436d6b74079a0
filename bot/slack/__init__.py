"""The Slack front end: Bolt listeners, Block Kit cards, throttled progress."""
