"""campaigns (issue 22): the campaign and its hash-chained entries; a game's campaign facts

Revision ID: 0013
Revises: 0012
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None


def _s(n: int | None = None):
    return sqlmodel.sql.sqltypes.AutoString(length=n) if n else sqlmodel.sql.sqltypes.AutoString()


def upgrade() -> None:
    # A plain-string default: SQLite adds the column in place (see 0009); "" is a game outside any campaign.
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('campaign_json', sa.Text(), nullable=False, server_default=""))
    op.create_table(
        'campaign',
        sa.Column('id', _s(64), nullable=False),
        sa.Column('title', _s(), nullable=False),
        sa.Column('ruleset', _s(64), nullable=False),
        sa.Column('definition_json', sa.Text(), nullable=False),
        sa.Column('players_json', sa.Text(), nullable=False),
        sa.Column('standing_json', sa.Text(), nullable=False),
        sa.Column('status', _s(16), nullable=False),
        sa.Column('game_id', _s(64), nullable=False),
        sa.Column('seq', sa.Integer(), nullable=False),
        sa.Column('head', _s(64), nullable=False),
        sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column('updated_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_table(
        'campaign_entry',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('campaign_id', _s(64), nullable=False),
        sa.Column('seq', sa.Integer(), nullable=False),
        sa.Column('kind', _s(32), nullable=False),
        sa.Column('payload_json', sa.Text(), nullable=False),
        sa.Column('prev_hash', _s(64), nullable=False),
        sa.Column('hash', _s(64), nullable=False),
        sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['campaign_id'], ['campaign.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('campaign_id', 'seq'),
    )
    op.create_index(op.f('ix_campaign_entry_campaign_id'), 'campaign_entry', ['campaign_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_campaign_entry_campaign_id'), table_name='campaign_entry')
    op.drop_table('campaign_entry')
    op.drop_table('campaign')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('campaign_json')
