"""sitreps record their renderer

Revision ID: 0004
Revises: 0003
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('sitrep', schema=None) as batch_op:
        batch_op.add_column(sa.Column('renderer', sqlmodel.sql.sqltypes.AutoString(), nullable=False, server_default=sa.text("''")))



def downgrade() -> None:
    with op.batch_alter_table('sitrep', schema=None) as batch_op:
        batch_op.drop_column('renderer')

