"""Reading public web pages safely: address checks, guarded fetch, extraction, caching."""

DEFAULT_USER_AGENT = "EvoNoteBot/0.1 (fact-checking drafts for Community Notes)"
