"""The moderators' use cases, written once: Slack, Discord and the CLI only translate."""
