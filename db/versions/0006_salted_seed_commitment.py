"""a game's seed commitment is salted: the salt, revealed with the seed at the end

Revision ID: 0006
Revises: 0005
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # games made before keep an empty salt: their commitment is SHA-256 of the seed alone
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('seed_salt', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False,
                                      server_default=sa.text("''")))


def downgrade() -> None:
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('seed_salt')
