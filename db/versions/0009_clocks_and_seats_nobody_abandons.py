"""time banks per seat, rest days, civil disorder and scripted seats (issue 21)

Revision ID: 0009
Revises: 0007
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0009'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # games made before keep their windows and slots (no clock), and nobody is ever abandoned in them
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('clock', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False,
                                      server_default=sa.text("''")))
        batch_op.add_column(sa.Column('abandon_after', sa.Integer(), nullable=False, server_default=sa.text("'0'")))
        batch_op.add_column(sa.Column('vacation_earn', sa.Float(), nullable=False, server_default=sa.text("'0'")))

    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.add_column(sa.Column('bank', sa.Float(), nullable=True))
        batch_op.add_column(sa.Column('clock_start', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
        batch_op.add_column(sa.Column('clock_grant', sa.Float(), nullable=False, server_default=sa.text("'0'")))
        batch_op.add_column(sa.Column('clock_due', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
        batch_op.add_column(sa.Column('rest_days', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False,
                                      server_default=sa.text("''")))
        batch_op.add_column(sa.Column('rest_next', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False,
                                      server_default=sa.text("''")))
        batch_op.add_column(sa.Column('rest_from', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
        batch_op.add_column(sa.Column('missed', sa.Integer(), nullable=False, server_default=sa.text("'0'")))
        batch_op.add_column(sa.Column('bot', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False,
                                      server_default=sa.text("''")))
        batch_op.add_column(sa.Column('vacation_balance', sa.Float(), nullable=False, server_default=sa.text("'0'")))


def downgrade() -> None:
    with op.batch_alter_table('seat', schema=None) as batch_op:
        for name in ('vacation_balance', 'bot', 'missed', 'rest_from', 'rest_next', 'rest_days', 'clock_due', 'clock_grant',
                     'clock_start', 'bank'):
            batch_op.drop_column(name)

    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('vacation_earn')
        batch_op.drop_column('abandon_after')
        batch_op.drop_column('clock')
