"""Rule texts in the reader's language: a message marked once, kept with its arguments, translated when read.

A ruleset writes what it says in English, marked for translation::

    w.say(t_("%(ship)s sighted in %(hex)s", ship=x.id, hex=h))
    raise IllegalOrderError(t_("no unit of yours is called %(name)s", name=name), rule="2.3")
    tn_("%(n)d ship", "%(n)d ships", count)

``t_`` and ``tn_`` return a :class:`Text`: a ``str`` whose value is the English text exactly as an f-string
would have written it (so journals, goldens and replays of English games do not change), which also remembers
its message and arguments as JSON (:attr:`Text.msg`).  Wherever a ``str`` goes, a ``Text`` goes; the engine
keeps its message beside the English (an event's ``msg`` in the journal, a refusal, a view field, an order
form) and writes it in the reader's language at render time (:func:`render`, with pbem.i18n's catalog).

An argument may itself be a ``Text`` (a weather name, "success"): it is translated too.  Other arguments (unit
ids, hexes, numbers) stay as they are.  :func:`join` makes one ``Text`` of several (the lines of a battle).
Anything that builds a new ``str`` from a ``Text`` (``+``, f-strings, ``.upper()``) gets plain English back:
build the whole sentence as one message instead.

The marks are what Babel extracts (``babel.cfg``, keywords ``t_`` and ``tn_:1,2``); the msgid uses
``%(name)s`` placeholders, so the catalog check sees a translation that drops one.  This module is pure:
the translation functions come from the caller.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

#: a message as JSON: {"id", "args"[, "plural", "n"]} or {"join", "parts"}; a plain string is itself
Msg = Mapping[str, Any]
Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]


class Text(str):
    """English text that remembers the message it was made from (:attr:`msg`), to be read in another language."""

    msg: Msg

    def __new__(cls, english: str, msg: Msg) -> Text:
        obj = super().__new__(cls, english)
        obj.msg = msg
        return obj

    def __reduce__(self):  # copies and pickles keep the message
        return (Text, (str(self), self.msg))


def _arg(value: Any) -> Any:
    return value.msg if isinstance(value, Text) else value


def t_(msgid: str, **args: Any) -> Text:
    """A marked message with named ``%(name)s`` arguments (JSON values or Texts)."""
    msg = {"id": msgid, "args": {k: _arg(v) for k, v in args.items()}}
    return Text(render(msg), msg)


def tn_(singular: str, plural: str, n: int, **args: Any) -> Text:
    """A marked message with plural forms chosen by ``n`` (also an argument, ``%(n)d``, unless given)."""
    args.setdefault("n", n)
    msg = {"id": singular, "plural": plural, "n": n, "args": {k: _arg(v) for k, v in args.items()}}
    return Text(render(msg), msg)


def join(sep: str, parts: Iterable[str]) -> Text:
    """``sep.join(parts)`` that keeps each part's message (and the separator's, if it is a Text: " or ")."""
    items = [_arg(p) for p in parts]
    msg = {"join": _arg(sep), "parts": items}
    return Text(render(msg), msg)


def from_json(value: Any) -> Any:
    """A stored message (as :attr:`Text.msg`) made a Text again; anything else is returned as it is."""
    if isinstance(value, Mapping) and ("id" in value or "join" in value):
        return Text(render(value), value)
    return value


def msg_of(value: Any) -> Msg | None:
    """The message behind a value, or None for plain text."""
    return value.msg if isinstance(value, Text) else None


def _english(msgid: str) -> str:
    return msgid


def _english_n(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def render(msg: Any, one: Gettext = _english, many: Ngettext = _english_n) -> str:
    """A message written with a catalog's ``gettext`` (``one``) and ``ngettext`` (``many``); by default in
    English, the messages themselves."""
    if isinstance(msg, str):
        return msg
    if not isinstance(msg, Mapping):
        return str(msg)
    if "join" in msg:
        return render(msg["join"], one, many).join(render(p, one, many) for p in msg["parts"])
    args = {k: render(v, one, many) if isinstance(v, Mapping) else v for k, v in msg.get("args", {}).items()}
    pattern = many(msg["id"], msg["plural"], int(msg["n"])) if "plural" in msg else one(msg["id"])
    return pattern % args if args else pattern


def local(value: Any, one: Gettext, many: Ngettext) -> Any:
    """``value`` in the catalog's language if it is a :class:`Text`; anything else as it is."""
    return render(value.msg, one, many) if isinstance(value, Text) else value


__all__ = ["Msg", "Text", "from_json", "join", "local", "msg_of", "render", "t_", "tn_"]
