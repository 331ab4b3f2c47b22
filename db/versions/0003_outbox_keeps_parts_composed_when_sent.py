"""outbox keeps parts; composed when sent

Revision ID: 0003
Revises: 0002
"""
from alembic import op
import sqlalchemy as sa


revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.add_column(sa.Column('parts_json', sa.Text(), nullable=False, server_default=sa.text("'{}'")))
        batch_op.add_column(sa.Column('png', sa.LargeBinary(), nullable=True))
        batch_op.alter_column('raw',
               existing_type=sa.LargeBinary(),
               nullable=True)



def downgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.alter_column('raw',
               existing_type=sa.LargeBinary(),
               nullable=False)
        batch_op.drop_column('png')
        batch_op.drop_column('parts_json')

