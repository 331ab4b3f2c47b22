"""The players' languages: gettext catalogs, and dates and numbers in the reader's locale.

Every text a player reads is written in English in the code and templates and marked for translation
(``_("...")`` and ``ngettext`` in Python, ``{{ _("...") }}``/``{% trans %}`` in templates).  Babel extracts the
marked messages (``babel.cfg``) into ``pbem/locale/pbem.pot``; each language has its catalog in
``pbem/locale/<lang>/LC_MESSAGES/pbem.po``, compiled to ``pbem.mo`` beside it (both are committed, so an
installed wheel carries working catalogs without a compile step).  English is the source and has no catalog.

Rule texts (events, refusals, views and order forms a ruleset writes) are marked with ``t_``/``tn_`` of
pbem.core.texts: English text that keeps its message and arguments, written in the reader's language when a
sitrep or reply is rendered (:func:`render`, :func:`local`).

Order keywords, unit identifiers, phase keys and the machine tokens of subjects (``[GAME] REJECTED``) are never
translated: an order file means the same in every language, and replay does not depend on one.

After marking or changing a message (from the checkout, with the dev venv)::

    pybabel extract -F babel.cfg -k _ -k gettext -k ngettext:1,2 -k t_ -k tn_:1,2 --no-location --sort-output \
        --project pbem --copyright-holder pbem -o pbem/locale/pbem.pot .
    pybabel update -i pbem/locale/pbem.pot -d pbem/locale -D pbem --no-fuzzy-matching
    (translate the new empty msgstr entries in each pbem.po)
    pybabel compile -d pbem/locale -D pbem

To add a language (say German): ``pybabel init -i pbem/locale/pbem.pot -d pbem/locale -D pbem -l de``, translate
``pbem/locale/de/LC_MESSAGES/pbem.po`` (Babel writes its plural rule into the header) and compile: the language
is offered as soon as its ``pbem.mo`` exists, and tests/i18n then fail on any message it leaves untranslated.
"""
from __future__ import annotations

import gettext as _gettext
from datetime import UTC, datetime
from functools import lru_cache
from importlib import resources
from zoneinfo import ZoneInfo

#: the source language: its texts are the messages themselves
SOURCE = "en"
DOMAIN = "pbem"


class LanguageError(ValueError):
    """A language pbem has no catalog for."""


def languages() -> tuple[str, ...]:
    """English and every language a catalog is shipped for (adding a catalog adds the language)."""
    base = resources.files("pbem") / "locale"
    found = sorted(d.name for d in base.iterdir()
                   if d.is_dir() and (d / "LC_MESSAGES" / f"{DOMAIN}.mo").is_file()) if base.is_dir() else []
    return (SOURCE, *found)


def check_lang(lang: str) -> str:
    """The language code, checked: one pbem has a catalog for ('' is not one)."""
    code = (lang or "").strip().lower()
    if code not in languages():
        raise LanguageError(f"language {lang[:20]!r}: pbem speaks {', '.join(languages())}")
    return code


def effective(lang: str | None, default: str | None = None) -> str:
    """The language to write in: the seat's, else the server's default, else English (an unknown one: English)."""
    for code in (lang, default):
        if code and code in languages():
            return code
    return SOURCE


def server_default(deps) -> str:
    """The server's default language (``[server] lang``), for seats that chose none."""
    return str(deps.home.section("server").get("lang") or SOURCE)


@lru_cache(maxsize=16)
def translations(lang: str) -> _gettext.NullTranslations:
    """The catalog of a language (English: none, the messages are the texts)."""
    if lang == SOURCE or lang not in languages():
        return _gettext.NullTranslations()
    path = resources.files("pbem") / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    with path.open("rb") as f:
        return _gettext.GNUTranslations(f)


def gettext(lang: str):
    """``_`` for one language."""
    return translations(lang).gettext


def ngettext(lang: str):
    """``ngettext`` for one language (Russian and Polish have three plural forms)."""
    return translations(lang).ngettext


def render(msg, lang: str) -> str:
    """A rule text's message (``Text.msg``, as the journal keeps it) written in ``lang``."""
    from pbem.core.texts import render as write

    return write(msg, gettext(lang), ngettext(lang))


def local(value, lang: str):
    """``value`` in ``lang`` if it is a marked rule text (pbem.core.texts.Text); anything else as it is."""
    from pbem.core.texts import local as write

    return write(value, gettext(lang), ngettext(lang))


def local_time(when: datetime | None, tz: str, lang: str = SOURCE) -> str:
    """A time as its reader writes it: their zone and language, with UTC beside it.

    English keeps the form pbem always wrote (``pbem.journal.local_time``); other languages name the day
    and month in their own words (Babel's CLDR data).
    """
    from pbem.journal import local_time as english

    if lang == SOURCE or when is None:
        return english(when, tz)
    from babel.dates import format_datetime

    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    try:
        zone = ZoneInfo(tz)
    except Exception:  # an unknown zone in the seat record: UTC rather than fail a sitrep
        zone, tz = ZoneInfo("UTC"), "UTC"
    pattern = "EEE d MMM y HH:mm"
    utc = when.astimezone(UTC)
    if tz in ("UTC", ""):
        return f"{format_datetime(utc, pattern, tzinfo=UTC, locale=lang)} UTC"
    return (f"{format_datetime(when, pattern, tzinfo=zone, locale=lang)} {tz} "
            f"({format_datetime(utc, 'HH:mm', tzinfo=UTC, locale=lang)} UTC)")


def number(value: float, lang: str = SOURCE) -> str:
    """A number in the reader's locale (English: as Python writes it with ``:g``)."""
    if lang == SOURCE:
        return f"{value:g}"
    from babel.numbers import format_decimal

    return format_decimal(value, locale=lang)


def set_seat_lang(deps, game_id: str, seat: str, lang: str) -> str:
    """Choose the language SIDE's player reads in GAME_ID (``--lang``); return it, checked."""
    from sqlmodel import select

    from pbem.core.errors import PbemError
    from pbem.store.models import Seat

    try:
        code = check_lang(lang)
    except LanguageError as exc:
        raise PbemError(str(exc)) from None
    with deps.session() as s:
        row = s.exec(select(Seat).where(Seat.game_id == game_id, Seat.name == seat)).first()
        if row is None:
            raise PbemError(f"game {game_id} has no side {seat!r}")
        row.lang = code
        s.add(row)
        s.commit()
    return code


def set_player_lang(s, fingerprint: str, lang: str) -> int:
    """The language of every seat the key ``fingerprint`` holds (a player's ``PROFILE lang``); how many seats."""
    from sqlmodel import select

    from pbem.store.models import Seat

    rows = s.exec(select(Seat).where(Seat.fingerprint == fingerprint)).all()
    for row in rows:
        row.lang = lang
        s.add(row)
    return len(rows)


class Said(str):
    """An English sentence that remembers its message and values, so that a reply can say it again in its
    reader's language (:func:`say`).  It is a ``str`` (the English text), so operators' lines, verdicts and
    journals that print it read as before; code that makes one marks its message with :func:`said_` (imported
    as ``_``) or :func:`said_n` (imported as ``ngettext``), so Babel extracts it like any other."""

    msgid: str
    plural: str
    number: int | None  # the count a plural message is chosen by (not ``count``: str has a method of that name)
    values: dict

    def __new__(cls, msgid: str, plural: str = "", count: int | None = None, values: dict | None = None) -> Said:
        values = dict(values or {})
        text = (msgid if count is None or count == 1 or not plural else plural) % values if values or count \
            is not None else msgid
        self = super().__new__(cls, text)
        self.msgid, self.plural, self.number, self.values = msgid, plural, count, values
        return self

    def in_lang(self, lang: str, tz: str = "UTC") -> str:
        """This sentence in ``lang`` (values that are sentences too are said in it as well, times in ``tz``)."""
        if lang == SOURCE:
            return str(self)
        values = {k: say(v, lang, tz) for k, v in self.values.items()}
        t = translations(lang)
        msg = t.ngettext(self.msgid, self.plural, self.number) if self.plural and self.number is not None \
            else t.gettext(self.msgid)
        return msg % values if values or self.number is not None else msg


def said_(msgid: str, **values) -> Said:
    """A sentence to say in its reader's language later: ``_("you joined ladder %(name)s", name=name)``."""
    return Said(msgid, values=values)


def said_n(singular: str, plural: str, count: int, **values) -> Said:
    """The plural form of :func:`said_`; ``count`` is also the value ``num``."""
    return Said(singular, plural, count, {"num": count, **values})


class When(str):
    """A time in a :class:`Said` sentence: English as the code always wrote it, in another language as its
    reader writes it (:func:`local_time`, in the reader's zone)."""

    at: datetime

    def __new__(cls, at: datetime, english: str) -> When:
        self = super().__new__(cls, english)
        self.at = at
        return self


def say(text, lang: str, tz: str = "UTC"):
    """A text in ``lang``: a :class:`Said` (or an exception carrying one) is translated, a :class:`When`
    written in the reader's zone ``tz``, anything else kept."""
    if isinstance(text, BaseException):
        text = text.args[0] if text.args and isinstance(text.args[0], Said) else str(text)
    if isinstance(text, When):
        return str(text) if lang == SOURCE else local_time(text.at, tz, lang)
    return text.in_lang(lang, tz) if isinstance(text, Said) else text


def player_lang(player, deps) -> str:
    """The language a club player reads (outside a game): his ``PROFILE lang``, else the server's default."""
    import json

    prefs = json.loads(getattr(player, "prefs_json", "") or "{}") if player is not None else {}
    return effective(prefs.get("lang"), server_default(deps))


def from_accept_language(header: str | None) -> str | None:
    """The language a browser prefers most among those pbem speaks (``Accept-Language``), or None."""
    ranked = []
    for i, part in enumerate((header or "")[:1000].split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        code = tag.strip().lower().split("-")[0]
        if code and q > 0:
            ranked.append((-q, i, code))
    spoken = languages()
    return next((code for _, _, code in sorted(ranked) if code in spoken), None)
