"""time banks per seat, rest days, civil disorder and scripted seats (issue 21)

Revision ID: 0009
Revises: 0008
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain (not SQL-expression) defaults: SQLite then adds each column in place.  With an expression Alembic
    # copies the table, and dropping the old `game` fails on the seats' foreign keys in a database with games.
    # games made before keep their windows and slots (no clock), and nobody is ever abandoned in them
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('clock', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False,
                                      server_default=""))
        batch_op.add_column(sa.Column('abandon_after', sa.Integer(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column('vacation_earn', sa.Float(), nullable=False, server_default="0"))

    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.add_column(sa.Column('bank', sa.Float(), nullable=True))
        batch_op.add_column(sa.Column('clock_start', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
        batch_op.add_column(sa.Column('clock_grant', sa.Float(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column('clock_due', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
        batch_op.add_column(sa.Column('rest_days', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False,
                                      server_default=""))
        batch_op.add_column(sa.Column('rest_next', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False,
                                      server_default=""))
        batch_op.add_column(sa.Column('rest_from', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
        batch_op.add_column(sa.Column('missed', sa.Integer(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column('bot', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False,
                                      server_default=""))
        batch_op.add_column(sa.Column('vacation_balance', sa.Float(), nullable=False, server_default="0"))


def downgrade() -> None:
    # Dropped in place (SQLite 3.35 and later can), not by copying the tables: copying `game` would fail on the
    # seats' foreign keys in a database with games, as above.
    for name in ('vacation_balance', 'bot', 'missed', 'rest_from', 'rest_next', 'rest_days', 'clock_due',
                 'clock_grant', 'clock_start', 'bank'):
        op.drop_column('seat', name)
    for name in ('vacation_earn', 'abandon_after', 'clock'):
        op.drop_column('game', name)
