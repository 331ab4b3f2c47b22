"""What a command line may say: the verbs of a ``PBEM-COMMAND 1`` file, who may send each, and how
their arguments are checked (their form only; which sides and journal entries exist is the game's to say).

Pure checks, shared by the intake pipeline (every line is checked before any runs) and :mod:`pbem.gm`.
"""
from __future__ import annotations

import math
import re
from typing import Any

from pbem.clocks.bank import ClockError, parse_rest_days
from pbem.contact import ContactError, check_address
from pbem.core.errors import PbemError
from pbem.crypto import sshsig

#: Verbs a command file may carry, with how many arguments, and who may send them.
GM_VERBS = {"PAUSE": (0, 0), "RESUME": (0, 0), "EXTEND": (1, 1), "RESOLVE": (0, 0), "ROLLBACK": (1, 1),
            "REPLACE": (3, 99), "RESEND": (1, 1), "END": (0, 99)}
# club play (pbem.club.players): NEWKEY <public key line>; PROFILE name|tz|email <value>, PROFILE pref <name> [<value>]
# clocks (pbem.clocks): REST <weekday>... | REST none
PLAYER_VERBS = {"VACATION": (1, 1), "NEWKEY": (2, 20), "PROFILE": (2, 40), "REST": (1, 7)}
PROFILE_FIELDS = ("name", "tz", "email", "pref", "lang")

#: The most hours one EXTEND or VACATION may add (sixty days), and the largest journal sequence number.
MAX_HOURS = 24 * 60
MAX_SEQ = 2**31 - 1
MAX_TEXT = 2000

_DECIMAL = re.compile(r"^[0-9]{1,9}(\.[0-9]{1,6})?$")
_SEQ = re.compile(r"^[0-9]{1,10}$")
_SIDE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
# An address as a GM types one (local@domain), never a display name, a list or a header's line break.


class ArgumentError(PbemError):
    """A command's argument is malformed; the message says which and what is expected."""


def hours_argument(text: str, verb: str) -> float:
    """A number of hours as a command file writes it: plain decimal, more than 0, at most 1440."""
    if not _DECIMAL.match(text):
        raise ArgumentError(f"{verb} takes a number of hours like 24 or 1.5, not {text[:40]!r}")
    return checked_hours(float(text), verb)


def checked_hours(hours: float, verb: str) -> float:
    if not (math.isfinite(hours) and 0 < hours <= MAX_HOURS):
        raise ArgumentError(f"{verb} {hours:g}: give a number of hours more than 0 and at most {MAX_HOURS}")
    return hours


def seq_argument(text: str) -> int:
    if not _SEQ.match(text) or int(text) > MAX_SEQ:
        raise ArgumentError(f"ROLLBACK takes a journal entry number like 3 (see `pbem gm journal`), "
                            f"not {text[:40]!r}")
    return int(text)


def side_argument(text: str, verb: str) -> str:
    if not _SIDE.match(text):
        raise ArgumentError(f"{verb}: {text[:40]!r} is not a side's name")
    return text


def address_argument(text: str) -> str:
    if len(text) > 254:
        raise ArgumentError(f"{text[:80]!r}...: longer than a mail address may be")
    try:  # one address rule for `player add`, `gm replace` and the mail commands
        return check_address(text)
    except ContactError as exc:
        raise ArgumentError(str(exc)) from None


def key_argument(text: str) -> sshsig.PublicKey:
    try:
        return sshsig.PublicKey.parse(text)
    except ValueError as exc:
        raise ArgumentError(f"the public key does not parse: {exc}") from None


def arguments(verb: str, args: list[str]) -> list[Any]:
    """Check and convert one command line's arguments (their form only: which sides and journal entries
    exist is the game's to say).  :raises ArgumentError: naming the argument and what is expected."""
    low, high = {**GM_VERBS, **PLAYER_VERBS}.get(verb, (0, 99))
    if not low <= len(args) <= high:
        raise ArgumentError(f"{verb} takes {low if low == high else f'{low} or more'} argument(s), got {len(args)}")
    if verb in ("EXTEND", "VACATION"):
        return [hours_argument(args[0], verb)]
    if verb == "ROLLBACK":
        return [seq_argument(args[0])]
    if verb == "REST":
        try:
            return [parse_rest_days(args)]
        except ClockError as exc:
            raise ArgumentError(str(exc)) from None
    if verb == "REPLACE":
        return [side_argument(args[0], verb), address_argument(args[1]), key_argument(" ".join(args[2:])).line()]
    if verb == "NEWKEY":
        return [key_argument(" ".join(args)).line()]
    if verb == "PROFILE":
        return profile_arguments(args)
    if verb == "RESEND":
        return [side_argument(args[0], verb)]
    if verb == "END":
        text = " ".join(args)
        if len(text) > MAX_TEXT:
            raise ArgumentError(f"END: the text is {len(text):,} characters; at most {MAX_TEXT:,}")
        return [text]
    return []


def profile_arguments(args: list[str]) -> list[str]:
    """PROFILE's field and value: ``name Jan Kowalski``, ``tz Europe/Warsaw``, ``email a@b``, ``pref NAME [VALUE]``
    (no value removes the preference)."""
    field = args[0].lower()
    if field not in PROFILE_FIELDS:
        raise ArgumentError(f"PROFILE changes {', '.join(PROFILE_FIELDS)}, not {args[0][:40]!r}")
    if field == "pref":
        return [field, args[1], " ".join(args[2:])]
    value = " ".join(args[1:])
    if field == "email":
        value = address_argument(value)
    if field == "lang":  # the language the player reads (pbem.i18n)
        from pbem.i18n import LanguageError, check_lang

        try:
            value = check_lang(value)
        except LanguageError as exc:
            raise ArgumentError(f"PROFILE lang: {exc}") from None
    if len(value) > 200:
        raise ArgumentError(f"PROFILE {field}: at most 200 characters")
    return [field, value]
