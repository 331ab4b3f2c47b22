"""club ladders and tournaments: ladders, rungs, challenges, round-robin tournaments and their games, and the
replay table of game-less club commands (issue 20)

Revision ID: 0010
Revises: 0009
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def _s(n: int | None = None):
    return sqlmodel.sql.sqltypes.AutoString(length=n) if n else sqlmodel.sql.sqltypes.AutoString()


def upgrade() -> None:
    op.create_table(
        'club_command',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('signed_sha256', _s(64), nullable=False),
        sa.Column('fingerprint', _s(80), nullable=False),
        sa.Column('ladder', _s(64), nullable=False),
        sa.Column('text', sa.Text(), nullable=False),
        sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('fingerprint', 'signed_sha256'),
    )
    op.create_table(
        'ladder',
        sa.Column('name', _s(64), nullable=False),
        sa.Column('ruleset', _s(64), nullable=False),
        sa.Column('scenario', _s(64), nullable=False),
        sa.Column('above', sa.Integer(), nullable=False),
        sa.Column('open_max', sa.Integer(), nullable=False),
        sa.Column('cooldown_days', sa.Float(), nullable=False),
        sa.Column('expire_days', sa.Float(), nullable=False),
        sa.Column('min_reliability', sa.Float(), nullable=False),
        sa.Column('sides', _s(16), nullable=False),
        sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint('name'),
    )
    op.create_table(
        'ladder_rung',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('ladder', _s(64), nullable=False),
        sa.Column('fingerprint', _s(80), nullable=False),
        sa.Column('place', sa.Integer(), nullable=False),
        sa.Column('joined_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['ladder'], ['ladder.name']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('ladder', 'fingerprint'),
    )
    op.create_index(op.f('ix_ladder_rung_ladder'), 'ladder_rung', ['ladder'], unique=False)
    op.create_table(
        'ladder_challenge',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('ladder', _s(64), nullable=False),
        sa.Column('challenger', _s(80), nullable=False),
        sa.Column('challenged', _s(80), nullable=False),
        sa.Column('status', _s(16), nullable=False),
        sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column('expires_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column('decided_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column('game_id', _s(64), nullable=False),
        sa.Column('first_seat', _s(80), nullable=False),
        sa.Column('winner', _s(80), nullable=False),
        sa.ForeignKeyConstraint(['ladder'], ['ladder.name']),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index(op.f('ix_ladder_challenge_ladder'), 'ladder_challenge', ['ladder'], unique=False)
    op.create_table(
        'tournament',
        sa.Column('name', _s(64), nullable=False),
        sa.Column('ruleset', _s(64), nullable=False),
        sa.Column('scenario', _s(64), nullable=False),
        sa.Column('schedule_json', sa.Text(), nullable=False),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('status', _s(16), nullable=False),
        sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint('name'),
    )
    op.create_table(
        'tournament_game',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('tournament', _s(64), nullable=False),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('game_id', _s(64), nullable=False),
        sa.Column('first', _s(80), nullable=False),
        sa.Column('second', _s(80), nullable=False),
        sa.Column('done', sa.Boolean(), nullable=False),
        sa.Column('winner', _s(80), nullable=False),
        sa.ForeignKeyConstraint(['tournament'], ['tournament.name']),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index(op.f('ix_tournament_game_tournament'), 'tournament_game', ['tournament'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_tournament_game_tournament'), table_name='tournament_game')
    op.drop_table('tournament_game')
    op.drop_table('tournament')
    op.drop_index(op.f('ix_ladder_challenge_ladder'), table_name='ladder_challenge')
    op.drop_table('ladder_challenge')
    op.drop_index(op.f('ix_ladder_rung_ladder'), table_name='ladder_rung')
    op.drop_table('ladder_rung')
    op.drop_table('ladder')
    op.drop_table('club_command')
