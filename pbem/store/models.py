"""The tables.

Raw inbound mail is kept as received and never changed; the journal is
append-only and hash-chained; the outbox is written in the same transaction
as the resolution that produced it, and sending is a separate, retried step
(the outbox pattern), so a crash neither loses an order nor sends twice.
JSON is stored as text so the same schema works on SQLite and PostgreSQL.
"""
from __future__ import annotations

from datetime import datetime
from typing import Optional

from sqlalchemy import Column, Index, LargeBinary, Table, Text, UniqueConstraint
from sqlmodel import Field, SQLModel


class Game(SQLModel, table=True):
    id: str = Field(primary_key=True, max_length=64)
    ruleset: str = Field(max_length=64)
    scenario: str = Field(max_length=64)
    title: str = ""
    options_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    seed_hex: str = Field(max_length=128)  # secret until the game ends
    seed_commitment: str = Field(max_length=64)  # SHA-256 of seed_salt + seed
    seed_salt: str = Field(default="", max_length=64)  # hex; revealed with the seed; "" in games made before 0006
    status: str = Field(default="active", index=True, max_length=16)  # active | paused | held | over
    held_reason: str = Field(default="", sa_column=Column(Text, nullable=False))
    turn: int = 0
    phase: str = Field(default="", max_length=128)
    phase_title: str = ""
    window: str = Field(default="orders", max_length=16)
    prompt: str = Field(default="", sa_column=Column(Text, nullable=False))
    awaiting_json: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    deadline: Optional[datetime] = Field(default=None, index=True)
    hours: float = 48.0  # the game's schedule: hours per ordinary phase
    interrupt_hours: float = 12.0
    wait_for_deadline: bool = False  # resolve early when all are in, unless the GM says wait
    schedule: str = ""  # "mon,thu 20:00 Europe/Warsaw"; empty: a fixed window of `hours`
    min_hours: float = 12.0  # with a schedule, the least time a phase stays open
    grace_hours: float = 0.0  # after the deadline, how long before missing orders are defaulted
    remind_hours: float = 12.0  # remind the sides still owing orders this long before the deadline
    max_missing: int = 1  # circuit breaker: more sides than this missing at once holds the turn
    vacation_hours: float = 72.0  # how much vacation each player may take in this game
    paused_remaining: float = 0.0  # seconds left on the clock when the game was paused
    state_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    journal_seq: int = 0
    journal_head: str = Field(default="", max_length=64)
    outcome_json: str = Field(default="", sa_column=Column(Text, nullable=False))
    templates_dir: str = ""  # GM override folder for this game's templates
    # the game's corrections to its ruleset's data files, read once at creation (pbem.gamedata): {file: document}
    data_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    created_at: datetime
    updated_at: datetime
    # issue 21: "bank:3d+1d/5d" runs a time bank per seat (pbem.clocks.bank); "" a window or weekly slots
    clock: str = Field(default="", max_length=64)
    abandon_after: int = 0  # missed phases in a row before a seat is in civil disorder; 0: never
    vacation_earn: float = 0.0  # hours of vacation a player earns a day of play, up to vacation_hours; 0: all at once
    # issue 22: a campaign game's fixed campaign facts (pbem.campaign.chain), shown in its sitreps; "" otherwise
    campaign_json: str = Field(default="", sa_column=Column(Text, nullable=False))


class Seat(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("game_id", "name"),)
    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True, max_length=64)
    name: str = Field(max_length=64)
    side: str = Field(max_length=64)
    title: str = ""
    email: str = ""
    pubkey: str = Field(default="", sa_column=Column(Text, nullable=False))
    fingerprint: str = Field(default="", index=True, max_length=80)
    tz: str = "UTC"
    vacation_used: float = 0.0  # hours
    # the seat's clock (pbem.clocks), in games with a time bank: seconds in the bank when its clock started
    # this phase (None before its first phase), when it started, what was granted beside the bank, when it ends
    bank: Optional[float] = None
    clock_start: Optional[datetime] = None
    clock_grant: float = 0.0
    clock_due: Optional[datetime] = None
    rest_days: str = Field(default="", max_length=32)  # weekdays its clock rests, "5,6" (Monday 0), seat's zone
    rest_next: str = Field(default="", max_length=32)  # the rest days asked for, in force from rest_from
    rest_from: Optional[datetime] = None
    missed: int = 0  # phases in a row it owed orders and sent none
    bot: str = Field(default="", max_length=16)  # "" | "disorder" (abandoned) | "scripted" (from the start)
    vacation_balance: float = 0.0  # hours of vacation earned and not spent (games with vacation_earn)
    # the language its player reads (pbem.i18n: "en", "ru", "pl"); "" the server's default ([server] lang)
    lang: str = Field(default="", max_length=16)


class Inbound(SQLModel, table=True):
    """Every message received, as received, with the verdict.

    One exception: a copy of the server's own mail coming back (status ``confirmed``) keeps only
    its header lines; the outbox row it confirms holds the bytes.
    """

    id: Optional[int] = Field(default=None, primary_key=True)
    received_at: datetime
    sha256: str = Field(index=True, unique=True, max_length=64)
    message_id: str = Field(default="", index=True, max_length=998)
    sender: str = ""
    size: int = 0
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    status: str = Field(default="new", index=True, max_length=16)  # accepted | rejected | discarded | confirmed | error
    game_id: str = Field(default="", index=True, max_length=64)
    seat: str = ""
    verdict: str = Field(default="", sa_column=Column(Text, nullable=False))


class Submission(SQLModel, table=True):
    """One seat's orders for one phase; a resubmission supersedes the earlier one."""

    # intake looks up a seat's orders for the phase on every message, resolution the phase's orders
    __table_args__ = (Index("ix_submission_game_phase", "game_id", "turn", "phase", "seat"),)
    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True, max_length=64)
    seat: str = Field(max_length=64)
    turn: int
    phase: str = Field(max_length=128)
    text: str = Field(sa_column=Column(Text, nullable=False))  # canonical signed text
    signed_sha256: str = Field(index=True, max_length=64)
    signature: str = Field(default="", sa_column=Column(Text, nullable=False))
    inbound_id: Optional[int] = Field(default=None, foreign_key="inbound.id")
    current: bool = True
    created_at: datetime


class Journal(SQLModel, table=True):
    """The hash-chained record of everything that changed a game."""

    __table_args__ = (UniqueConstraint("game_id", "seq"),)
    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True, max_length=64)
    seq: int
    kind: str = Field(max_length=32)  # setup | resolve | gm
    turn: int = 0
    phase: str = ""
    payload_json: str = Field(sa_column=Column(Text, nullable=False))
    events_json: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    rolls_json: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    state_json: str = Field(sa_column=Column(Text, nullable=False))
    state_hash: str = Field(max_length=64)
    prev_hash: str = Field(max_length=64)
    hash: str = Field(max_length=64)
    created_at: datetime


class Sitrep(SQLModel, table=True):
    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True, max_length=64)
    seat: str = Field(max_length=64)
    seq: int  # the last journal entry it reports on
    from_seq: int = 0  # the first; the sitrep shows the events of entries from_seq..seq
    turn: int
    phase: str = ""
    view_json: str = Field(sa_column=Column(Text, nullable=False))
    text: str = Field(sa_column=Column(Text, nullable=False))
    html: str = Field(sa_column=Column(Text, nullable=False))
    png: Optional[bytes] = Field(default=None, sa_column=Column(LargeBinary, nullable=True))
    message_id: str = ""
    renderer: str = ""  # pbem and Pillow versions that rendered it: replay compares bytes only under the same
    created_at: datetime


class Outbox(SQLModel, table=True):
    """Mail waiting to go, or gone.

    Queued mail holds its parts; the message is composed when it is sent (composing is the
    slow part of mail, and it need not hold up intake or resolution) and ``raw`` then keeps
    exactly the bytes that went out.
    """

    id: Optional[int] = Field(default=None, primary_key=True)
    created_at: datetime
    game_id: str = Field(default="", index=True, max_length=64)
    kind: str = Field(default="", max_length=16)  # ack | reject | sitrep | notice
    to_addr: str = ""
    subject: str = ""
    message_id: str = Field(index=True, unique=True, max_length=998)
    parts_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))  # text, html, form, in_reply_to
    png: Optional[bytes] = Field(default=None, sa_column=Column(LargeBinary, nullable=True))
    raw: Optional[bytes] = Field(default=None, sa_column=Column(LargeBinary, nullable=True))
    state: str = Field(default="queued", index=True, max_length=16)  # queued | sending | sent | failed
    attempts: int = 0
    not_before: Optional[datetime] = None
    sent_at: Optional[datetime] = None
    last_error: str = Field(default="", sa_column=Column(Text, nullable=False))


def table(model: type[SQLModel]) -> Table:
    """The SQLAlchemy table of a model declared with ``table=True``, for Core statements."""
    # SQLModel sets __table__ on every such class; its types do not declare it
    return model.__table__  # type: ignore[attr-defined]


# ---------------------------------------------------------------- club play (pbem.club)
class Player(SQLModel, table=True):
    """A club member: one OpenSSH key (a player is their key), with an address, a name, a zone and preferences.

    Seats name their player by the key's fingerprint; a player appears here the first time the club reads
    the seats (``pbem.club.players.sync``).  A key replaced by ``NEWKEY`` keeps its row, pointing at the new
    fingerprint in ``replaced_by``, so that finished games (which keep the old fingerprint) stay theirs.
    """

    fingerprint: str = Field(primary_key=True, max_length=80)
    pubkey: str = Field(default="", sa_column=Column(Text, nullable=False))
    email: str = ""
    name: str = ""
    tz: str = "UTC"
    kind: str = Field(default="human", max_length=16)  # human | bot: only games of humans are rated
    prefs_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    replaced_by: str = Field(default="", index=True, max_length=80)
    created_at: datetime
    updated_at: datetime


class Rating(SQLModel, table=True):
    """A stored rating: a player's (or a side's advantage, fingerprint ``side:RULESET/SCENARIO/SIDE``) in one
    scope (``overall`` or a ruleset's name), as `pbem ratings --update` computed it from the journals."""

    __table_args__ = (UniqueConstraint("fingerprint", "scope"),)
    id: Optional[int] = Field(default=None, primary_key=True)
    fingerprint: str = Field(index=True, max_length=200)
    scope: str = Field(max_length=64)
    mu: float
    sigma: float
    games: int = 0
    last_game: str = Field(default="", max_length=64)
    last_played: Optional[datetime] = None
    computed_at: datetime


class ClubCommand(SQLModel, table=True):
    """A signed club command file (one naming a ladder, not a game), kept once: the same text signed by the
    same key sent again is a replay and is refused, whatever it asked for."""

    __tablename__ = "club_command"
    __table_args__ = (UniqueConstraint("fingerprint", "signed_sha256"),)
    id: Optional[int] = Field(default=None, primary_key=True)
    signed_sha256: str = Field(max_length=64)
    fingerprint: str = Field(max_length=80)
    ladder: str = Field(default="", max_length=64)
    text: str = Field(default="", sa_column=Column(Text, nullable=False))
    created_at: datetime


class Ladder(SQLModel, table=True):
    """A club ladder for one ruleset (and scenario): players climb it by challenging those above them."""

    name: str = Field(primary_key=True, max_length=64)
    ruleset: str = Field(max_length=64)
    scenario: str = Field(default="", max_length=64)
    above: int = 3  # a player may challenge at most this many places above their own
    open_max: int = 2  # open challenges a player may have at once (made or received)
    cooldown_days: float = 7.0  # before challenging the same player again
    expire_days: float = 7.0  # an unanswered challenge lapses after this
    min_reliability: float = 0.0  # the reliability score (0-100) a challenger needs
    sides: str = Field(default="alternate", max_length=16)
    created_at: datetime


class LadderRung(SQLModel, table=True):
    """A player's place on a ladder (1 is the top)."""

    __tablename__ = "ladder_rung"
    __table_args__ = (UniqueConstraint("ladder", "fingerprint"),)
    id: Optional[int] = Field(default=None, primary_key=True)
    ladder: str = Field(foreign_key="ladder.name", index=True, max_length=64)
    fingerprint: str = Field(max_length=80)
    place: int
    joined_at: datetime


class LadderChallenge(SQLModel, table=True):
    """A challenge on a ladder: open, then declined, expired or accepted (a game), then done."""

    __tablename__ = "ladder_challenge"
    id: Optional[int] = Field(default=None, primary_key=True)
    ladder: str = Field(foreign_key="ladder.name", index=True, max_length=64)
    challenger: str = Field(max_length=80)
    challenged: str = Field(max_length=80)
    status: str = Field(default="open", max_length=16)  # open | accepted | declined | expired | done
    created_at: datetime
    expires_at: datetime
    decided_at: Optional[datetime] = None
    game_id: str = Field(default="", max_length=64)
    first_seat: str = Field(default="", max_length=80)  # who holds the game's first seat (alternates per pair)
    winner: str = Field(default="", max_length=80)  # a fingerprint; "" for a draw


class Tournament(SQLModel, table=True):
    """A tournament, round-robin or Swiss: each pairing is two games with the sides swapped
    (``schedule_json``: the round-robin's rounds of pairs, or for Swiss the system, rounds and players)."""

    name: str = Field(primary_key=True, max_length=64)
    ruleset: str = Field(max_length=64)
    scenario: str = Field(default="", max_length=64)
    schedule_json: str = Field(default="[]", sa_column=Column(Text, nullable=False))  # see the class docstring
    round: int = 0  # the round being played (1 is the first); past the last once finished
    status: str = Field(default="playing", max_length=16)  # playing | finished
    created_at: datetime


class TournamentGame(SQLModel, table=True):
    """One game of a tournament: its round, who holds the first seat and who the second, and the result."""

    __tablename__ = "tournament_game"
    id: Optional[int] = Field(default=None, primary_key=True)
    tournament: str = Field(foreign_key="tournament.name", index=True, max_length=64)
    round: int
    game_id: str = Field(max_length=64)
    first: str = Field(max_length=80)
    second: str = Field(max_length=80)
    done: bool = False
    winner: str = Field(default="", max_length=80)  # a fingerprint; "" for a draw


# ---------------------------------------------------------------- notices that fit real lives (pbem.notices)
class Webhook(SQLModel, table=True):
    """A post to a player's (or the club's) web hook, queued like mail: "your move in game X, due …".

    Built from the game id, the seat, the phase title and the deadline only (nothing a seat may not know);
    ``key`` makes it once per seat and phase opening; ``shown`` records that a failure was told to the player.
    """

    id: Optional[int] = Field(default=None, primary_key=True)
    created_at: datetime
    key: str = Field(index=True, unique=True, max_length=400)
    fingerprint: str = Field(default="", index=True, max_length=80)  # the player's; "" for the club's hook
    game_id: str = Field(default="", index=True, max_length=64)
    url: str = Field(sa_column=Column(Text, nullable=False))
    format: str = Field(default="json", max_length=16)  # discord | slack | matrix | json
    body: str = Field(sa_column=Column(Text, nullable=False))  # the JSON posted
    state: str = Field(default="queued", index=True, max_length=16)  # queued | sending | sent | failed
    attempts: int = 0
    not_before: Optional[datetime] = None
    sent_at: Optional[datetime] = None
    last_error: str = Field(default="", sa_column=Column(Text, nullable=False))
    shown: bool = False


class NoticeMark(SQLModel, table=True):
    """When a player was last sent a notice of a kind (``digest``): a digest covers the sitreps since."""

    fingerprint: str = Field(primary_key=True, max_length=80)
    kind: str = Field(primary_key=True, max_length=16)
    at: datetime


# ---------------------------------------------------------------- campaigns (pbem.campaign)
class Campaign(SQLModel, table=True):
    """A campaign: linked games of one ruleset whose rosters, replacements and VP carry over.

    ``standing_json`` is the fold of its entries (pbem.campaign.standing); ``players_json`` maps each seat to
    its player (email, public key, zone); ``definition_json`` is the definition document as read at creation.
    """

    id: str = Field(primary_key=True, max_length=64)
    title: str = ""
    ruleset: str = Field(max_length=64)
    definition_json: str = Field(sa_column=Column(Text, nullable=False))
    players_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    standing_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    status: str = Field(default="playing", max_length=16)  # playing | admin | over
    game_id: str = Field(default="", max_length=64)  # the game being played, or the last one
    seq: int = 0
    head: str = Field(default="", max_length=64)
    created_at: datetime
    updated_at: datetime


class CampaignEntry(SQLModel, table=True):
    """The campaign's own hash-chained record: games started and ended, admin orders, GM edits, confirmations."""

    __tablename__ = "campaign_entry"
    __table_args__ = (UniqueConstraint("campaign_id", "seq"),)
    id: Optional[int] = Field(default=None, primary_key=True)
    campaign_id: str = Field(foreign_key="campaign.id", index=True, max_length=64)
    seq: int
    kind: str = Field(max_length=32)  # new | game | result | orders | gm | confirm | end
    payload_json: str = Field(sa_column=Column(Text, nullable=False))
    prev_hash: str = Field(max_length=64)
    hash: str = Field(max_length=64)
    created_at: datetime
