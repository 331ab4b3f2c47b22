"""A player's contact data, checked before it is stored: the mail address and the time zone.

A wrong zone would make every sitrep label UTC times with the wrong name, and a wrong address
loses every mail to the player, so both are refused when they are given, with the reason.
"""
from __future__ import annotations

import re
from email.headerregistry import Address

from pbem.schedule import ScheduleError, check_zone

#: One label of a mail domain: letters (any script), digits and inner hyphens.
_LABEL = re.compile(r"^(?!-)[\w-]{1,63}(?<!-)$")


class ContactError(ValueError):
    """A player's address or zone that cannot be used; the message says why."""


def check_address(text: str) -> str:
    """The address as one bare addr-spec (``local@domain``), or :class:`ContactError`.

    Refused: display names (``Name <a@b>``), several addresses, comments, line breaks
    (header injection) and a missing local part or domain.
    """
    if any(ord(c) < 32 or ord(c) == 127 for c in text):
        raise ContactError(f"mail address {text!r}: line breaks and control characters are not allowed")
    stripped = text.strip()
    if not stripped:
        raise ContactError("the mail address is empty")
    local, _, _ = stripped.rpartition("@")
    if re.search(r"\s", stripped) and not (local.startswith('"') and local.endswith('"')):
        raise ContactError(f"mail address {text!r}: give the bare address only (no name, no spaces), "
                           "like name@example.org")
    # RFC 6532 allows UTF-8 anywhere in an address, but the stdlib parser refuses it in the local part:
    # check the shape with each non-ASCII character standing in as a letter, keep the address as given
    probe = re.sub(r"[^\x00-\x7f]", "x", stripped)
    try:
        parsed = Address(addr_spec=probe)
    except Exception:  # the parser raises several kinds; all mean "not one addr-spec"
        raise ContactError(f"mail address {text!r} is not an address like name@example.org") from None
    if not parsed.username or not parsed.domain:
        raise ContactError(f"mail address {text!r} needs a name, '@' and a domain, like name@example.org")
    if parsed.addr_spec != probe:
        # the parser dropped something (a comment, say): take only what is exactly an address
        raise ContactError(f"mail address {text!r}: give the bare address only, like name@example.org")
    domain = stripped.rpartition("@")[2]
    if not all(_LABEL.match(label) for label in domain.split(".")):
        raise ContactError(f"mail address {text!r}: {domain!r} is not a mail domain")
    return stripped


def check_tz(name: str) -> str:
    """The zone name if the zone database knows it, else :class:`ContactError`."""
    try:
        check_zone(name)
    except ScheduleError as exc:
        raise ContactError(str(exc)) from None
    return name
