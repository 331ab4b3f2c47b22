"""Database migrations (Alembic), shipped inside the pbem package."""
