"""club play: players as keys, and their ratings (issue 20)

Revision ID: 0008
Revises: 0007

Existing games' seats become players the first time the club reads them (pbem.club.players.sync),
so this migration only makes the tables.
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'player',
        sa.Column('fingerprint', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
        sa.Column('pubkey', sa.Text(), nullable=False),
        sa.Column('email', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column('name', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column('tz', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column('prefs_json', sa.Text(), nullable=False),
        sa.Column('replaced_by', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
        sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column('updated_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint('fingerprint'),
    )
    op.create_index(op.f('ix_player_replaced_by'), 'player', ['replaced_by'], unique=False)
    op.create_table(
        'rating',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('fingerprint', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column('scope', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('last_game', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column('last_played', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column('computed_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('fingerprint', 'scope'),
    )
    op.create_index(op.f('ix_rating_fingerprint'), 'rating', ['fingerprint'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_rating_fingerprint'), table_name='rating')
    op.drop_table('rating')
    op.drop_index(op.f('ix_player_replaced_by'), table_name='player')
    op.drop_table('player')
