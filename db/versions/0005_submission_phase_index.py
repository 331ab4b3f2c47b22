"""an index for a seat's orders in a phase (looked up on every order message)

Revision ID: 0005
Revises: 0004
"""
from alembic import op


revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index('ix_submission_game_phase', 'submission', ['game_id', 'turn', 'phase', 'seat'])


def downgrade() -> None:
    op.drop_index('ix_submission_game_phase', table_name='submission')
