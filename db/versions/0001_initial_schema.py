"""initial schema

Revision ID: 0001
Revises: 
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('game',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('ruleset', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('scenario', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('title', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('options_json', sa.Text(), nullable=False),
    sa.Column('seed_hex', sqlmodel.sql.sqltypes.AutoString(length=128), nullable=False),
    sa.Column('seed_commitment', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('held_reason', sa.Text(), nullable=False),
    sa.Column('turn', sa.Integer(), nullable=False),
    sa.Column('phase', sqlmodel.sql.sqltypes.AutoString(length=128), nullable=False),
    sa.Column('phase_title', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('window', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('prompt', sa.Text(), nullable=False),
    sa.Column('awaiting_json', sa.Text(), nullable=False),
    sa.Column('deadline', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.Column('hours', sa.Float(), nullable=False),
    sa.Column('interrupt_hours', sa.Float(), nullable=False),
    sa.Column('wait_for_deadline', sa.Boolean(), nullable=False),
    sa.Column('state_json', sa.Text(), nullable=False),
    sa.Column('journal_seq', sa.Integer(), nullable=False),
    sa.Column('journal_head', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('outcome_json', sa.Text(), nullable=False),
    sa.Column('templates_dir', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('updated_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_game_deadline'), ['deadline'], unique=False)
        batch_op.create_index(batch_op.f('ix_game_status'), ['status'], unique=False)

    op.create_table('inbound',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('received_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('sha256', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('message_id', sqlmodel.sql.sqltypes.AutoString(length=998), nullable=False),
    sa.Column('sender', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('size', sa.Integer(), nullable=False),
    sa.Column('raw', sa.LargeBinary(), nullable=False),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('game_id', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('seat', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('verdict', sa.Text(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('inbound', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_inbound_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_inbound_message_id'), ['message_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_inbound_sha256'), ['sha256'], unique=True)
        batch_op.create_index(batch_op.f('ix_inbound_status'), ['status'], unique=False)

    op.create_table('outbox',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('game_id', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('to_addr', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('subject', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('message_id', sqlmodel.sql.sqltypes.AutoString(length=998), nullable=False),
    sa.Column('raw', sa.LargeBinary(), nullable=False),
    sa.Column('state', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('not_before', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.Column('sent_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.Column('last_error', sa.Text(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_outbox_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_outbox_message_id'), ['message_id'], unique=True)
        batch_op.create_index(batch_op.f('ix_outbox_state'), ['state'], unique=False)

    op.create_table('journal',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('turn', sa.Integer(), nullable=False),
    sa.Column('phase', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('payload_json', sa.Text(), nullable=False),
    sa.Column('events_json', sa.Text(), nullable=False),
    sa.Column('rolls_json', sa.Text(), nullable=False),
    sa.Column('state_json', sa.Text(), nullable=False),
    sa.Column('state_hash', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('prev_hash', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('hash', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'seq')
    )
    with op.batch_alter_table('journal', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_journal_game_id'), ['game_id'], unique=False)

    op.create_table('seat',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('side', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('title', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('email', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('pubkey', sa.Text(), nullable=False),
    sa.Column('fingerprint', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
    sa.Column('tz', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'name')
    )
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_seat_fingerprint'), ['fingerprint'], unique=False)
        batch_op.create_index(batch_op.f('ix_seat_game_id'), ['game_id'], unique=False)

    op.create_table('sitrep',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('seat', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('from_seq', sa.Integer(), nullable=False),
    sa.Column('turn', sa.Integer(), nullable=False),
    sa.Column('phase', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('view_json', sa.Text(), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('html', sa.Text(), nullable=False),
    sa.Column('png', sa.LargeBinary(), nullable=True),
    sa.Column('message_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('sitrep', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_sitrep_game_id'), ['game_id'], unique=False)

    op.create_table('submission',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('seat', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('turn', sa.Integer(), nullable=False),
    sa.Column('phase', sqlmodel.sql.sqltypes.AutoString(length=128), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('signed_sha256', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('signature', sa.Text(), nullable=False),
    sa.Column('inbound_id', sa.Integer(), nullable=True),
    sa.Column('current', sa.Boolean(), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
    sa.ForeignKeyConstraint(['inbound_id'], ['inbound.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('submission', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_submission_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_submission_signed_sha256'), ['signed_sha256'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('submission', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_submission_signed_sha256'))
        batch_op.drop_index(batch_op.f('ix_submission_game_id'))

    op.drop_table('submission')
    with op.batch_alter_table('sitrep', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_sitrep_game_id'))

    op.drop_table('sitrep')
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_seat_game_id'))
        batch_op.drop_index(batch_op.f('ix_seat_fingerprint'))

    op.drop_table('seat')
    with op.batch_alter_table('journal', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_journal_game_id'))

    op.drop_table('journal')
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_outbox_state'))
        batch_op.drop_index(batch_op.f('ix_outbox_message_id'))
        batch_op.drop_index(batch_op.f('ix_outbox_game_id'))

    op.drop_table('outbox')
    with op.batch_alter_table('inbound', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_inbound_status'))
        batch_op.drop_index(batch_op.f('ix_inbound_sha256'))
        batch_op.drop_index(batch_op.f('ix_inbound_message_id'))
        batch_op.drop_index(batch_op.f('ix_inbound_game_id'))

    op.drop_table('inbound')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_status'))
        batch_op.drop_index(batch_op.f('ix_game_deadline'))

    op.drop_table('game')
