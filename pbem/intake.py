"""The intake pipeline: from raw mail to a stored submission and a queued reply.

Each step is a small handler with a name and one method, run in the order
of :data:`PIPELINE`.  A handler stops the message by raising
:class:`Reject` (the sender is told every reason) or :class:`Discard`
(nothing is sent: loops, bounces, duplicates), or :class:`Confirmed` (a copy
of the server's own mail, which confirms its delivery).  The raw message is stored
before any handler runs, so nothing is ever lost whatever the verdict.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime, UTC
from typing import Any, Callable

from sqlalchemy import bindparam, or_, true
from sqlmodel import Session, SQLModel, col, select

from pbem.core.errors import Code, OrderProblem
from pbem.core.orders import OrderFile, parse_order_file
from pbem.core.ruleset import Checked, Ruleset
from pbem.crypto import sshsig
from pbem.commands import GM_VERBS, PLAYER_VERBS, ArgumentError, arguments
from pbem.journal import local_time
from pbem.mail.inbound import (HEADER_CAP, Capped, Inbound, MailError, SignedText, header_block, read_message,
                               size_of)
from pbem.store.claim import claim_game_for_intake
from pbem.store.models import Campaign, ClubCommand, Game, Journal, Ladder, Player, Seat, Submission
from pbem.store.times import aware


class PipelineStop(Exception):
    """Stops the pipeline for one message."""


class Reject(PipelineStop):
    def __init__(self, problems: list[OrderProblem], *, hint: str = "") -> None:
        super().__init__("; ".join(map(str, problems)))
        self.problems = problems
        self.hint = hint


class Confirmed(PipelineStop):
    """The message is a copy of the server's own mail: the outbox row it confirms as delivered."""

    def __init__(self, outbox_id: int, message_id: str) -> None:
        super().__init__(f"a copy of {message_id}, sent by this server: delivery confirmed")
        self.outbox_id = outbox_id
        self.reason = str(self)


class Discard(PipelineStop):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def problem(code: Code, message: str, *, line_no: int = 0, text: str = "", rule: str = "") -> OrderProblem:
    return OrderProblem(line_no, text, code, message, rule)


@dataclass
class Message:
    """What the pipeline knows about one message so far (typed, instead of a dict of magic keys)."""

    raw: bytes
    max_bytes: int
    mail: Inbound | None = None
    signed: SignedText | None = None
    file: OrderFile | None = None
    game: Game | None = None
    seat: Seat | None = None
    ruleset: Ruleset | None = None
    state: Any = None
    key: sshsig.PublicKey | None = None
    signed_sha256: str = ""
    checked: Checked | None = None
    replaced: Held | None = None  # the current orders these replace
    unchanged: bool = False
    notes: list[str] = field(default_factory=list)
    commands: list[tuple[str, list[str]]] = field(default_factory=list)
    by_gm: bool = False
    # Why the header's game or side was not found; told only once the signer is known (see VerifySignature).
    unknown: OrderProblem | None = None
    # A club command file (a ``Ladder:`` header, no game): the ladder named, and the signer's player row.
    ladder: str = ""
    player: Player | None = None
    # A campaign's administrative order file (``Phase: admin``, the campaign's id as its Game:), and the
    # address of the seat's player once the signature has shown who sent it (pbem.campaign.orders).
    campaign: Campaign | None = None
    campaign_to: str = ""

    @property
    def size(self) -> int:
        """The size of the whole message (a reader may have kept only its beginning)."""
        return size_of(self.raw)

    @property
    def oversize(self) -> bool:
        # A message its reader cut short (under a smaller limit than ours) is never parsed either.
        return self.size > self.max_bytes or isinstance(self.raw, Capped)

    @property
    def reply_to(self) -> str:
        """Where a reply goes: the registered address once the signer is known, else the sender."""
        if self.seat is not None and self.key is not None:
            return self.seat.email
        if self.player is not None and self.key is not None:
            return self.player.email
        if self.campaign_to and self.key is not None:
            return self.campaign_to
        return self.mail.sender if self.mail and not self.mail.automatic else ""


class Handler:
    name = ""
    description = ""

    def process(self, msg: Message, ctx: "IntakeContext") -> None:  # pragma: no cover - abstract
        raise NotImplementedError


# the tables' columns (SQLModel types the class attributes as values, not columns)
_SUB = SQLModel.metadata.tables["submission"].c
#: Built once (this runs for every order message): only the rows that matter, this very file and the
#: current orders, however often the seat resubmitted.
_SEAT_PHASE_ORDERS = (
    select(_SUB.id, _SUB.signed_sha256, _SUB.current, _SUB.created_at)
    .where(_SUB.game_id == bindparam("game"), _SUB.turn == bindparam("turn"), _SUB.phase == bindparam("phase"),
           _SUB.seat == bindparam("seat"), or_(_SUB.current == true(), _SUB.signed_sha256 == bindparam("sha"))))
#: A whole phase's stored orders, every seat's, read once per batch (see IntakeContext.phase_orders).
_PHASE_ORDERS = (
    select(_SUB.id, _SUB.seat, _SUB.signed_sha256, _SUB.current, _SUB.created_at)  # type: ignore[call-overload]  # SQLModel types up to 4 columns; it takes more
    .where(_SUB.game_id == bindparam("game"), _SUB.turn == bindparam("turn"), _SUB.phase == bindparam("phase")))


@dataclass
class IntakeContext:
    """What handlers may use: the session and how to load a game's ruleset and state."""

    session: Session
    load_game: Callable[[Game], tuple[Ruleset, Any]]
    gm_key: sshsig.PublicKey | None = None
    view_of: Callable[[Game, str], Any] | None = None
    seats: dict[str, dict[str, Seat]] = field(default_factory=dict)  # per game, for one batch
    locked: set[str] = field(default_factory=set)  # games whose row this transaction has locked
    # What earlier messages of the batch will write (the fast path writes a batch at its end):
    pending: dict[tuple[str, str, int, str], list[dict[str, Any]]] = field(default_factory=dict)
    pending_signed: set[tuple[str, str]] = field(default_factory=set)  # (game, signed sha256)
    retired: set[int] = field(default_factory=set)  # stored orders replaced in this batch
    now: datetime | None = None  # when the batch arrived (the server's clock), for late files
    campaigns_taken: set[str] = field(default_factory=set)  # campaigns with an admin file earlier in the batch
    # The fast path writes nothing until the batch's end, so what is stored for a phase cannot change
    # under it (the game's row is claimed first): read each phase's orders once per batch, not once per
    # message; a round trip costs more than the rows.  The careful path writes as it goes: no cache.
    cache_phases: bool = False
    phases: dict[tuple[str, int, str], list[Any]] = field(default_factory=dict)

    def game(self, game_id: str) -> Game | None:
        """The game row, claimed for the rest of the transaction (see :mod:`pbem.store.claim`).

        The claim serialises intake per game, so two daemons cannot both make orders current.
        """
        return claim_game_for_intake(self.session, game_id, self.locked)

    def seat(self, game_id: str, name: str) -> Seat | None:
        if game_id not in self.seats:
            rows = self.session.exec(select(Seat).where(Seat.game_id == game_id)).all()
            self.seats[game_id] = {row.name: row for row in rows}
        return self.seats[game_id].get(name)

    def seat_orders(self, game_id: str, seat: str, turn: int, phase: str, signed_sha256: str) -> list[Held]:
        """The seat's orders for the phase that matter to a new file: the current ones, and any
        earlier copy of this very file; stored ones and those taken earlier in this batch."""
        if self.cache_phases:
            stored = [r for r in self.phase_orders(game_id, turn, phase)
                      if r.seat == seat and (r.current or r.signed_sha256 == signed_sha256)]
        else:
            stored = list(self.session.connection().execute(_SEAT_PHASE_ORDERS, {
                "game": game_id, "seat": seat, "turn": turn, "phase": phase, "sha": signed_sha256}))
        rows = [Held(r.id, r.signed_sha256, r.current and r.id not in self.retired, r.created_at) for r in stored]
        for values in self.pending.get((game_id, seat, turn, phase), ()):
            if values["current"] or values["signed_sha256"] == signed_sha256:
                rows.append(Held(None, values["signed_sha256"], values["current"], values["created_at"], values))
        return rows

    def phase_orders(self, game_id: str, turn: int, phase: str) -> list[Any]:
        """Every seat's stored orders for a phase (id, seat, signed_sha256, current, created_at), as
        stored before this batch; read once per batch when ``cache_phases``."""
        key = (game_id, turn, phase)
        if key not in self.phases:
            self.phases[key] = list(self.session.connection().execute(
                _PHASE_ORDERS, {"game": game_id, "turn": turn, "phase": phase}))
        return self.phases[key]

    def current_seats(self, game_id: str, turn: int, phase: str, among: set[str]) -> set[str]:
        """Which of ``among`` have current orders stored for the phase (those of this batch not counted)."""
        if self.cache_phases:
            return {r.seat for r in self.phase_orders(game_id, turn, phase) if r.current and r.seat in among}
        return set(self.session.exec(select(Submission.seat).where(
            Submission.game_id == game_id, Submission.turn == turn, Submission.phase == phase,
            Submission.current == True, col(Submission.seat).in_(among))).all())  # noqa: E712

    def signed_before(self, game_id: str, signed_sha256: str) -> bool:
        """Whether this signed file was taken before in the game (commands are carried out once)."""
        if (game_id, signed_sha256) in self.pending_signed:
            return True
        return self.session.exec(select(Submission.id).where(Submission.game_id == game_id,
                                                             Submission.signed_sha256 == signed_sha256)).first() is not None

    def taken(self, submissions: list[dict[str, Any]], retire: Held | None) -> None:
        """Remember what a message of this batch will write, for the checks of the messages after it."""
        if retire is not None:
            if retire.values is not None:
                retire.values["current"] = False
            elif retire.id is not None:
                self.retired.add(retire.id)
        for values in submissions:
            key = (values["game_id"], values["seat"], values["turn"], values["phase"])
            self.pending.setdefault(key, []).append(values)
            self.pending_signed.add((values["game_id"], values["signed_sha256"]))


@dataclass
class Held:
    """One of a seat's orders for a phase, stored (``id``) or taken earlier in this batch (``values``)."""

    id: int | None
    signed_sha256: str
    current: bool
    created_at: Any
    values: dict[str, Any] | None = None


class CheckSize(Handler):
    name = "check-size"
    description = "refuse messages over the configured size, before parsing them"

    def process(self, msg, ctx):
        if msg.oversize:
            try:  # read just the headers (at most HEADER_CAP bytes of them), to answer the sender
                head = header_block(msg.raw)
                msg.mail = read_message(head if head.endswith(b"\n\n") or head.endswith(b"\r\n\r\n")
                                        else head + b"\n\n")
            except MailError:
                pass
            if msg.mail is not None:  # our own sitrep coming back may be larger than players may send
                ConfirmCopy().process(msg, ctx)
            raise Reject([problem(Code.MAIL_TOO_LARGE, f"the message is {msg.size:,} bytes; the limit "
                                  f"is {msg.max_bytes:,} — send the orders as plain text without pictures")])


class ParseMime(Handler):
    name = "parse-mime"
    description = "read the message and find order files and signatures in it"

    def process(self, msg, ctx):
        try:
            msg.mail = read_message(msg.raw)
        except MailError as exc:
            raise Reject([problem(Code(exc.code), exc.message)]) from None


_OUTBOX = SQLModel.metadata.tables["outbox"].c
_SENT_AS = select(_OUTBOX.id, _OUTBOX.raw).where(_OUTBOX.message_id == bindparam("mid"))


class ConfirmCopy(Handler):
    name = "confirm-copy"
    description = ("a copy of the server's own mail coming back proves the relay took it: "
                   "its outbox row is sent, whatever a crash left it as")

    def process(self, msg, ctx):
        assert msg.mail is not None
        if not msg.mail.from_server or not msg.mail.message_id:
            return
        row = ctx.session.connection().execute(_SENT_AS, {"mid": msg.mail.message_id}).first()
        # Only the very bytes we sent count (after the header lines relays put on top): a message
        # that merely claims to be ours must not stop a real one from going out.
        if row is not None and row.raw is not None and _is_copy(msg.raw, row.raw):
            raise Confirmed(row.id, msg.mail.message_id)


def _is_copy(received: bytes, sent: bytes) -> bool:
    def lf(b: bytes) -> bytes:
        return b.replace(b"\r\n", b"\n")

    # A copy may have CR LF for each LF (twice the bytes) and the relays' header lines on top, never
    # more: a forged 30 MB "copy" naming one of our Message-IDs is refused before it is copied.
    if len(received) > 2 * len(sent) + HEADER_CAP:
        return False
    received, sent = lf(received), lf(sent)
    return received.endswith(sent) and (len(received) == len(sent) or received[-len(sent) - 1:-len(sent)] == b"\n")


class DropAutomatic(Handler):
    name = "drop-automatic"
    description = "never answer auto-replies, bounces or the server's own mail (no loops)"

    def process(self, msg, ctx):
        assert msg.mail is not None
        if msg.mail.from_server:
            raise Discard("the message is the server's own mail")
        if msg.mail.automatic:
            raise Discard(f"machine-generated message ({msg.mail.automatic})")


class FindOrders(Handler):
    name = "find-orders"
    description = "exactly one order file, with a signature"

    def process(self, msg, ctx):
        assert msg.mail is not None
        found = msg.mail.found
        if not found:
            raise Reject([problem(Code.MAIL_NO_ORDERS, "no order file found: the orders must start with the line "
                                  "'PBEM-ORDERS 1', in the message body or in an attached .txt file")],
                         hint="Reply to your latest sitrep: it carries the order form as orders.txt.")
        if len(found) > 1:
            raise Reject([problem(Code.MAIL_NO_ORDERS, f"{len(found)} order files found "
                                  f"({', '.join(f.where for f in found)}); send one order file per message")])
        msg.signed = found[0]
        f, problems = parse_order_file(msg.signed.text)
        if f is None:
            raise Reject(problems)
        msg.file = f


#: The answer to a file whose signer the server does not know: the same whether the game and the side
#: exist or not, so that nobody learns from it which games and sides there are.
STRANGER = ("this is not a signed order file of a game and side this server knows, or the signing key "
            "({fingerprint}) is not the key registered for that side")


class IdentifyGame(Handler):
    name = "identify-game"
    description = "the game named in the header exists (told only to a known signer)"

    def process(self, msg, ctx):
        assert msg.file is not None
        if msg.file.kind == "command" and "Ladder" in msg.file.header:
            msg.ladder = msg.file.header["Ladder"]  # a club command file: no game, no side
            if msg.file.game or msg.file.side:
                msg.unknown = problem(Code.HEADER_BAD, "a club command file names a ladder and no game or "
                                      "side: leave out the Game: and Side: lines")
            return
        if msg.file.kind == "orders" and msg.file.phase == CAMPAIGN_PHASE:
            msg.campaign = ctx.session.get(Campaign, msg.file.game)
            if msg.campaign is not None:
                return  # a campaign's administrative orders: its seat and signer are checked by VerifySignature
        game = ctx.game(msg.file.game)
        if game is None:
            msg.unknown = problem(Code.GAME_UNKNOWN, f"there is no game {msg.file.game!r} on this server "
                                  "(check the Game: line of the header)")
            return
        msg.game = game


class IdentifySeat(Handler):
    name = "identify-seat"
    description = "the side named in the header plays in the game (told only to a known signer)"

    def process(self, msg, ctx):
        assert msg.file is not None
        if msg.ladder or msg.campaign is not None or msg.game is None or (msg.file.kind == "command" and not msg.file.side):
            return  # an unknown game, told after the signature; or a GM command: the GM's key decides
        seat = ctx.seat(msg.game.id, msg.file.side)
        if seat is None:
            names = list(ctx.seats[msg.game.id])
            msg.unknown = problem(Code.SEAT_UNKNOWN, f"game {msg.game.id} has no side {msg.file.side!r} "
                                  f"(its sides: {', '.join(sorted(names))})")
            return
        msg.seat = seat


class VerifySignature(Handler):
    name = "verify-signature"
    description = ("the canonical text is signed by the key registered for that side; until the signer is "
                   "known, no answer says which games or sides exist")

    def process(self, msg, ctx):
        assert msg.signed is not None and msg.file is not None
        key = self._signer(msg)  # what a signature says on its own, the same for every game
        msg.signed_sha256 = hashlib.sha256(msg.file.text.encode()).hexdigest()
        if msg.ladder:
            self._club_signer(msg, ctx, key)
            return
        if msg.campaign is not None and self._campaign_signer(msg, key):
            return
        if msg.unknown is None and msg.game is not None:
            if msg.seat is None:  # a GM command
                if ctx.gm_key is not None and key.fingerprint == ctx.gm_key.fingerprint:
                    msg.key, msg.by_gm = key, True
                    return
            elif key.fingerprint == msg.seat.fingerprint:
                msg.key = key
                return
        self._refuse(msg, ctx, key)

    @staticmethod
    def _signer(msg: Message) -> sshsig.PublicKey:
        """The key that made the signature, or a rejection that depends on the signature alone."""
        assert msg.signed is not None and msg.file is not None
        if not msg.signed.signature:
            raise Reject([problem(Code.SIG_MISSING, "the orders are not signed: put the armored signature "
                                  "after the orders, or attach it as orders.txt.sig")],
                         hint="Sign with `pbem sign orders.txt --key KEY` or "
                              "`ssh-keygen -Y sign -n pbem -f KEY orders.txt`.")
        text = msg.file.text
        # What was signed may be the canonical text or the file as the player saved it; both are
        # accepted, since a client may have stripped the final newline or trailing spaces in transit.
        candidates = [text.encode(), text.rstrip("\n").encode(), text.replace("\n", "\r\n").encode()]
        error: sshsig.SignatureError | None = None
        for candidate in candidates:
            try:
                return sshsig.verify(msg.signed.signature, candidate, sshsig.ORDERS_NAMESPACE)
            except sshsig.SignatureError as exc:
                error = exc
                if exc.code != "signature/bad":
                    break
        assert error is not None
        raise Reject([problem(Code(error.code), error.message)])

    @staticmethod
    def _club_signer(msg: Message, ctx: IntakeContext, key: sshsig.PublicKey) -> None:
        """A club command file is signed by a club member's current key; a stranger gets :data:`STRANGER`."""
        player = ctx.session.get(Player, key.fingerprint) if key.fingerprint else None
        if player is None and key.fingerprint and ctx.session.exec(
                select(Seat.id).where(Seat.fingerprint == key.fingerprint)).first() is not None:
            from pbem.club.players import sync  # a seated key the club has not read yet

            sync(ctx.session, ctx.now or datetime.now(UTC))
            player = ctx.session.get(Player, key.fingerprint)
        if player is None or player.replaced_by:
            raise Reject([problem(Code.SIG_WRONG_KEY, STRANGER.format(fingerprint=key.fingerprint))])
        msg.key, msg.player = key, player
        if msg.unknown is not None:
            raise Reject([msg.unknown])

    @staticmethod
    def _campaign_signer(msg: Message, key: sshsig.PublicKey) -> bool:
        """Whether the file is signed by the key of the campaign seat it names.  A player of the campaign
        who signed for another seat is told so at their own address; anyone else is refused as for a game."""
        assert msg.campaign is not None and msg.file is not None
        players = json.loads(msg.campaign.players_json)["players"]
        named = players.get(msg.file.side)
        if named is not None and key.fingerprint == named["fingerprint"]:
            msg.key, msg.campaign_to = key, named["email"]
            return True
        own = sorted(seat for seat, p in players.items() if p["fingerprint"] == key.fingerprint)
        if not own:
            msg.campaign = None  # refused below as a stranger or a player of other games, learning nothing
            return False
        msg.key, msg.campaign_to = key, players[own[0]]["email"]
        raise Reject([problem(Code.SIG_WRONG_KEY, f"you signed with the key of seat {own[0]!r} of campaign "
                              f"{msg.campaign.id} but the header says Side: {msg.file.side[:40]}; a seat may only "
                              "send its own orders")])

    @staticmethod
    def _refuse(msg: Message, ctx: IntakeContext, key: sshsig.PublicKey) -> None:
        """Refuse a valid signature that does not fit the header.

        A signer the server knows (the GM, or a player of any game) is told exactly what is wrong, at
        their own registered address, never the claimed side's; a stranger gets :data:`STRANGER`,
        whatever the game and side named, and learns nothing.
        """
        assert msg.file is not None
        claimed = msg.game
        if msg.unknown is not None and msg.file.kind == "command" and not msg.file.side \
                and ctx.gm_key is not None and key.fingerprint == ctx.gm_key.fingerprint:
            msg.key, msg.by_gm = key, True
            raise Reject([msg.unknown])
        seats = ctx.session.exec(select(Seat).where(Seat.fingerprint == key.fingerprint)
                                 .order_by(col(Seat.game_id), col(Seat.name))).all() if key.fingerprint else []
        own = [x for x in seats if claimed is not None and x.game_id == claimed.id]
        if own:  # a player of the very game: the side, or the key, is wrong
            msg.seat, msg.key = own[0], key
            other = repr(own[0].name)
            if msg.unknown is not None:
                raise Reject([msg.unknown])
            if msg.file.kind == "command" and not msg.file.side:
                raise Reject([problem(Code.COMMAND_FORBIDDEN,
                                      f"GM commands must be signed with the GM's key; you signed with the key "
                                      f"of side {other}. Players may send only {', '.join(sorted(PLAYER_VERBS))}, "
                                      "with a Side: line naming their side")])
            raise Reject([problem(Code.SIG_WRONG_KEY,
                                  f"you signed with the key of side {other} but the header says Side: "
                                  f"{msg.file.side}; a side may only send its own orders")])
        if seats:  # a player of other games: say where the key plays, nothing about the game named
            msg.seat, msg.key = seats[0], key
            msg.game = ctx.session.get(Game, seats[0].game_id)
            where = ", ".join(f"side {x.name} of game {x.game_id}" for x in seats[:5])
            raise Reject([problem(Code.SIG_WRONG_KEY, f"your key is not registered in a game "
                                  f"{msg.file.game!r}; it is registered for {where}. Check the Game: line "
                                  "of the header")])
        msg.seat, msg.key = None, None
        raise Reject([problem(Code.SIG_WRONG_KEY, STRANGER.format(fingerprint=key.fingerprint))])


class CheckCommands(Handler):
    name = "check-commands"
    description = "command files: known verbs with their arguments, allowed to the signer, never replayed"

    def process(self, msg, ctx):
        assert msg.file is not None
        if msg.file.kind != "command":
            return
        if msg.ladder:
            self._club(msg, ctx)
            return
        assert msg.game is not None
        allowed = GM_VERBS if msg.by_gm else PLAYER_VERBS
        problems = []
        for line in msg.file.lines:
            verb, args = line.verb, list(line.words[1:])
            if verb not in allowed:
                who = "the GM" if msg.by_gm else "a player"
                problems.append(problem(Code.COMMAND_UNKNOWN if verb not in {**GM_VERBS, **PLAYER_VERBS}
                                        else Code.COMMAND_FORBIDDEN,
                                        f"{verb or 'an empty line'} is not a command {who} may send "
                                        f"(allowed: {', '.join(sorted(allowed))})", line_no=line.line_no,
                                        text=line.text))
                continue
            # Every argument is checked before any line runs: a file with a malformed line does nothing.
            try:
                parsed = arguments(verb, args)
                if verb in ("REPLACE", "RESEND") and ctx.seat(msg.game.id, parsed[0]) is None:
                    names = ", ".join(sorted(ctx.seats[msg.game.id]))
                    raise ArgumentError(f"game {msg.game.id} has no side {parsed[0]!r} (its sides: {names})")
            except ArgumentError as exc:
                problems.append(problem(Code.COMMAND_UNKNOWN, str(exc), line_no=line.line_no, text=line.text))
            msg.commands.append((verb, args))
        if not msg.file.lines:
            problems.append(problem(Code.COMMAND_UNKNOWN, "the command file holds no command"))
        if ctx.signed_before(msg.game.id, msg.signed_sha256):
            problems.append(problem(Code.REPLAY, "this signed command file was already carried out once; "
                                    "sign a new one to repeat it"))
        if problems:
            raise Reject(problems)

    @staticmethod
    def _club(msg: Message, ctx: IntakeContext) -> None:
        """A club command file: known ladder verbs with their arguments, a ladder that exists, never replayed."""
        from pbem.club.ladder import arguments_problem  # on use: the club imports the services

        assert msg.file is not None
        problems = []
        if ctx.session.get(Ladder, msg.ladder) is None:
            problems.append(problem(Code.COMMAND_UNKNOWN, f"there is no ladder {msg.ladder[:64]!r} on this server "
                                    "(check the Ladder: line of the header)"))
        for line in msg.file.lines:
            verb, args = line.verb, list(line.words[1:])
            why = arguments_problem(verb, args)
            if why:
                problems.append(problem(Code.COMMAND_UNKNOWN, why, line_no=line.line_no, text=line.text))
            msg.commands.append((verb, args))
        if not msg.file.lines:
            problems.append(problem(Code.COMMAND_UNKNOWN, "the command file holds no command"))
        assert msg.key is not None
        fp = msg.key.fingerprint
        if (fp, msg.signed_sha256) in ctx.pending_signed or ctx.session.exec(
                select(ClubCommand.id).where(ClubCommand.fingerprint == fp,
                                             ClubCommand.signed_sha256 == msg.signed_sha256)).first() is not None:
            problems.append(problem(Code.REPLAY, "this signed command file was already carried out once; to "
                                    "repeat it, change it (a comment line will do) and sign it again"))
        if problems:
            raise Reject(problems)


class CheckPhase(Handler):
    name = "check-phase"
    description = "the header's turn and phase are the current ones, and this side owes or may send orders"

    def process(self, msg, ctx):
        if msg.file is not None and msg.file.kind != "orders" or msg.campaign is not None:
            return
        assert msg.game is not None and msg.file is not None and msg.seat is not None
        game = msg.game
        if game.status in ("over", "archived"):  # an archived game was over first
            raise Reject([problem(Code.GAME_OVER, f"game {game.id} is over; no more orders are taken")])
        seat = msg.seat.name
        awaiting = set(json.loads(game.awaiting_json))
        msg.ruleset, msg.state = ctx.load_game(game)
        phase = msg.ruleset.phase(msg.state)
        current = phase is not None and (msg.file.turn, msg.file.phase) == (phase.turn, phase.name)
        if not current:
            earlier = ctx.session.exec(select(Submission).where(
                Submission.game_id == game.id, Submission.seat == seat,
                Submission.signed_sha256 == msg.signed_sha256)).first()
            what = f"turn {msg.file.turn}, phase {msg.file.phase}"
            if earlier is not None:
                raise Reject([problem(Code.REPLAY, f"this signed order file ({what}) was already received and "
                                      "that phase is resolved; an old file cannot be sent again")])
            resolved = _resolution(ctx.session, game.id, msg.file.turn, msg.file.phase)
            if resolved is not None:
                owes = seat in awaiting or (phase is not None and seat in phase.optional)
                raise _late(msg, ctx, resolved, phase, owes)
            if seat in awaiting and phase is not None:
                due = f"your orders are due for turn {phase.turn}, phase {phase.name}"
            else:
                due = "no orders are due from you now; your latest sitrep says when they are"
            raise Reject([problem(Code.STALE, f"these orders are for {what}, which is not the current phase: "
                                  f"{due}. Orders signed for one phase cannot be used in another",
                                  rule=phase.rule if phase is not None else "")],
                         hint="Use the order form of your latest sitrep; its header is filled in.")
        if game.status in ("paused", "held"):
            msg.notes.append(f"the game is {game.status}; your orders are kept and count when it resumes")
        if seat not in awaiting and seat not in phase.optional:
            raise Reject([problem(Code.SEAT_NOT_AWAITED, f"side {seat} has no orders to give in {phase.name}; "
                                  "your latest sitrep says when you do", rule=phase.rule)])


def _resolution(s: Session, game_id: str, turn: int, phase: str) -> Journal | None:
    """The journal entry that resolved a phase, unless a roll-back has since undone it."""
    entry = s.exec(select(Journal).where(Journal.game_id == game_id, Journal.kind == "resolve", Journal.turn == turn,
                                         Journal.phase == phase).order_by(col(Journal.seq).desc())).first()
    if entry is None:
        return None
    for payload in s.exec(select(Journal.payload_json).where(
            Journal.game_id == game_id, Journal.kind == "rollback", Journal.seq > entry.seq)).all():
        if json.loads(payload).get("to_seq", entry.seq) < entry.seq:
            return None  # played again after the roll-back: the file is for a phase still to come
    return entry


def _late(msg: Message, ctx: IntakeContext, resolved: Journal, current, owes_now: bool) -> Reject:
    """The answer to orders for a phase that was resolved before they came: when they came, when the
    deadline was, what the side got instead, and where the form for what is due now is."""
    s, game, seat, f = ctx.session, msg.game, msg.seat, msg.file
    assert game is not None and seat is not None and f is not None
    tz = seat.tz
    payload = json.loads(resolved.payload_json)
    arrived = ctx.now or datetime.now(UTC)
    resolved_at = aware(resolved.created_at)
    deadline = _deadline_before(s, game.id, resolved.seq)
    what = f"turn {f.turn}, phase {f.phase}"
    if deadline is not None and resolved_at < deadline:
        when = (f"That phase was resolved at {local_time(resolved_at, tz)}, as soon as every side's orders were in "
                f"(its deadline was {local_time(deadline, tz)})")
    elif deadline is not None:
        when = (f"The deadline was {local_time(deadline, tz)}; the phase was resolved at "
                f"{local_time(resolved_at, tz)}")
    else:
        when = f"That phase was resolved at {local_time(resolved_at, tz)}"
    if seat.name in payload.get("missing", ()):
        instead = ("You sent no orders in time, so the rules' default for missing orders was applied to "
                   f"side {seat.name}")
    elif seat.name in payload.get("orders", {}):
        used = s.exec(select(Submission.created_at).where(
            Submission.game_id == game.id, Submission.seat == seat.name, Submission.turn == f.turn,
            Submission.phase == f.phase, Submission.current == True)).first()  # noqa: E712
        instead = "Your earlier orders for that phase" + (f" (received {local_time(aware(used), tz)})" if used else "") \
            + " were used"
    else:
        instead = f"Side {seat.name} had no orders to give in that phase, so nothing was missed"
    problems = [problem(Code.STALE, f"these orders for {what} arrived late, at {local_time(arrived, tz)}. {when}. "
                        f"{instead}; these orders were not applied.")]
    if current is not None and owes_now:
        due = f" by {local_time(aware(game.deadline), tz)}" if game.deadline else ""
        hint = (f"Orders are due now for turn {current.turn}, phase {current.name}{due}: use the order form of "
                "your latest sitrep (its header is filled in), sign it and send it.")
    else:
        hint = "No orders are due from you now; your latest sitrep says when they are, and carries the form."
    return Reject(problems, hint=hint)


def _deadline_before(s: Session, game_id: str, seq: int) -> datetime | None:
    """The deadline in force when entry ``seq`` was written: the last one an earlier entry set."""
    for payload in s.exec(select(Journal.payload_json).where(
            Journal.game_id == game_id, Journal.seq < seq).order_by(col(Journal.seq).desc()).limit(20)).all():
        data = json.loads(payload)
        if "deadline" in data:
            return aware(datetime.fromisoformat(data["deadline"])) if data["deadline"] else None
    return None


class CheckReplay(Handler):
    name = "check-replay"
    description = "a signed file seen before cannot bring back orders that were replaced"

    def process(self, msg, ctx):
        if msg.file is not None and msg.file.kind != "orders" or msg.campaign is not None:
            return
        assert msg.game is not None and msg.seat is not None and msg.file is not None
        rows = ctx.seat_orders(msg.game.id, msg.seat.name, msg.file.turn, msg.file.phase, msg.signed_sha256)
        for row in rows:
            if row.signed_sha256 == msg.signed_sha256:
                if row.current:
                    msg.unchanged = True
                    msg.replaced = row
                    return
                raise Reject([problem(Code.REPLAY, "this exact signed file was received before and was then "
                                      "replaced by newer orders; to go back to it, change it (a comment line "
                                      "will do) and sign it again")])
            if row.current:
                msg.replaced = row


class CheckOrders(Handler):
    name = "check-orders"
    description = "the ruleset parses and validates every line against the side's view"

    def process(self, msg, ctx):
        if msg.file is not None and msg.file.kind != "orders" or msg.campaign is not None:
            return
        assert msg.ruleset is not None and msg.seat is not None and msg.file is not None
        view = ctx.view_of(msg.game, msg.seat.name) if ctx.view_of else msg.ruleset.view(msg.state, msg.seat.name)
        checked = msg.ruleset.check_orders(view, msg.seat.name, msg.file.lines)
        if checked.problems:
            raise Reject(list(checked.problems),
                         hint="Fix every line listed, sign again and resend; until then your earlier "
                              "orders (if any) stand.")
        msg.checked = checked


class CheckCampaignOrders(Handler):
    name = "check-campaign-orders"
    description = ("a campaign's administrative orders: its step is open, the file is new, every line legal "
                   "[campaign §C3-C6]; taken once the batch is stored")

    def process(self, msg, ctx):
        if msg.campaign is None:
            return
        from pbem.campaign.orders import check  # on use: the campaign package reads the club's results

        assert msg.file is not None and msg.signed is not None
        if msg.campaign.id in ctx.campaigns_taken:
            return  # a second file of the batch for this campaign: checked when it is taken, in order
        got = check(ctx.session, msg.campaign, msg.file, msg.signed.signature, signer_checked=True)
        if got.problems:
            raise Reject(got.problems, hint="Fix every line listed, sign again and resend; until then your "
                                            "earlier administrative orders (if any) stand.")
        ctx.campaigns_taken.add(msg.campaign.id)


#: The phase of a campaign's administrative order file (pbem.campaign.orders.PHASE).
CAMPAIGN_PHASE = "admin"

PIPELINE: tuple[Handler, ...] = (
    CheckSize(), ParseMime(), ConfirmCopy(), DropAutomatic(), FindOrders(), IdentifyGame(), IdentifySeat(),
    VerifySignature(), CheckCommands(), CheckCampaignOrders(), CheckPhase(), CheckReplay(), CheckOrders(),
)


def run_pipeline(msg: Message, ctx: IntakeContext, pipeline: tuple[Handler, ...] = PIPELINE) -> None:
    """Run the handlers in order; :class:`Reject` or :class:`Discard` propagate to the caller."""
    for handler in pipeline:
        handler.process(msg, ctx)

