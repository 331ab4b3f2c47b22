"""notices that fit real lives: web hook posts queued like mail, and when each player's digest last went (issue 21)

Revision ID: 0011
Revises: 0010 (written beside the ladder's 0010: the lead re-chains it after 0010)
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('noticemark',
                    sa.Column('fingerprint', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
                    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
                    sa.Column('at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
                    sa.PrimaryKeyConstraint('fingerprint', 'kind'))
    op.create_table('webhook',
                    sa.Column('id', sa.Integer(), nullable=False),
                    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
                    sa.Column('key', sqlmodel.sql.sqltypes.AutoString(length=400), nullable=False),
                    sa.Column('fingerprint', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
                    sa.Column('game_id', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
                    sa.Column('url', sa.Text(), nullable=False),
                    sa.Column('format', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
                    sa.Column('body', sa.Text(), nullable=False),
                    sa.Column('state', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
                    sa.Column('attempts', sa.Integer(), nullable=False),
                    sa.Column('not_before', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
                    sa.Column('sent_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
                    sa.Column('last_error', sa.Text(), nullable=False),
                    sa.Column('shown', sa.Boolean(), nullable=False),
                    sa.PrimaryKeyConstraint('id'))
    op.create_index(op.f('ix_webhook_fingerprint'), 'webhook', ['fingerprint'], unique=False)
    op.create_index(op.f('ix_webhook_game_id'), 'webhook', ['game_id'], unique=False)
    op.create_index(op.f('ix_webhook_key'), 'webhook', ['key'], unique=True)
    op.create_index(op.f('ix_webhook_state'), 'webhook', ['state'], unique=False)


def downgrade() -> None:
    op.drop_table('webhook')  # its indexes go with it
    op.drop_table('noticemark')
