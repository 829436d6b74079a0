"""Exit codes, as the README lists them."""

EXIT_OK = 0
EXIT_ERROR = 1  # unexpected
EXIT_CONFIG = 2  # the model server or a setting is unusable
EXIT_INPUT = 3  # the input cannot be processed (also a bad command line)
EXIT_FAILED = 4  # the episode failed for another reason
EXIT_STORAGE = 5  # the database is locked past its wait, full or unreachable (try again)
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143  # SIGTERM
