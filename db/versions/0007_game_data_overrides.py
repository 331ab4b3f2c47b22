"""a game may carry corrections to its ruleset's data files (issue 15)

Revision ID: 0007
Revises: 0006
"""
from alembic import op
import sqlalchemy as sa


revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # games made before have no corrections: the packaged data, as they were played
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('data_json', sa.Text(), nullable=False, server_default=sa.text("'{}'")))


def downgrade() -> None:
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('data_json')
