"""The database: SQLModel tables, the async engine, and the episode store."""
