"""Alembic's environment, run programmatically by :func:`spielcenter.store.db.migrate`.

There is no alembic.ini: the caller passes an open connection in ``config.attributes``.
Batch mode lets the same migrations alter tables on SQLite, which cannot ALTER most things.
"""

from alembic import context

from spielcenter.store.models import Base

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=True,
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
