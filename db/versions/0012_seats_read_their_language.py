"""each seat's language (issue 24): sitreps, replies and reminders in it

Revision ID: 0012
Revises: 0011
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain-string default: SQLite adds the column in place (see 0009).  "" is the server's default language.
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.add_column(sa.Column('lang', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False,
                                      server_default=""))


def downgrade() -> None:
    op.drop_column('seat', 'lang')
