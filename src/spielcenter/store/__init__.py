"""Storage: SQLAlchemy models, repositories and Alembic migrations (portable SQL only)."""
