"""Database backends of the project's own (see ``sqlite3``)."""
