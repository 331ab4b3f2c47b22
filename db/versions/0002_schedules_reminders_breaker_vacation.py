"""schedules, reminders, breaker, vacation

Revision ID: 0002
Revises: 0001
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # server defaults fill the new columns of games that already exist
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('schedule', sqlmodel.sql.sqltypes.AutoString(), nullable=False, server_default=sa.text("''")))
        batch_op.add_column(sa.Column('min_hours', sa.Float(), nullable=False, server_default=sa.text("'12'")))
        batch_op.add_column(sa.Column('grace_hours', sa.Float(), nullable=False, server_default=sa.text("'0'")))
        batch_op.add_column(sa.Column('remind_hours', sa.Float(), nullable=False, server_default=sa.text("'12'")))
        batch_op.add_column(sa.Column('max_missing', sa.Integer(), nullable=False, server_default=sa.text("'1'")))
        batch_op.add_column(sa.Column('vacation_hours', sa.Float(), nullable=False, server_default=sa.text("'72'")))
        batch_op.add_column(sa.Column('paused_remaining', sa.Float(), nullable=False, server_default=sa.text("'0'")))

    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.add_column(sa.Column('vacation_used', sa.Float(), nullable=False, server_default=sa.text("'0'")))



def downgrade() -> None:
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_column('vacation_used')

    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('paused_remaining')
        batch_op.drop_column('vacation_hours')
        batch_op.drop_column('max_missing')
        batch_op.drop_column('remind_hours')
        batch_op.drop_column('grace_hours')
        batch_op.drop_column('min_hours')
        batch_op.drop_column('schedule')

