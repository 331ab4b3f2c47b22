"""Storage: SQLModel tables and the database connection (SQLite by default, PostgreSQL alike)."""
