"""What an untranslated English sentence is: one of the catalog's own messages, in English, left in a text."""
from __future__ import annotations

import html
import re
from functools import lru_cache
from pathlib import Path

from babel.messages.pofile import read_po

LOCALE = Path(__file__).resolve().parents[2] / "pbem" / "locale"
# placeholders, markup, and commands (`pbem verify`, <code>...</code>), which stay as they are in every language
_PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|<code>.*?</code>|`[^`]*`|<[^>]+>")


@lru_cache(maxsize=4)
def english_fragments(lang: str) -> tuple[str, ...]:
    """The English runs of words of every message the ``lang`` catalog translates differently (placeholders,
    markup and commands cut out; runs of two words of two letters or more, so that 'none', 'orders' or 'on d' do not count)."""
    with open(LOCALE / lang / "LC_MESSAGES" / "pbem.po", "rb") as f:
        cat = read_po(f, locale=lang)
    out = set()
    for m in cat:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        for msgid in ids:
            if msgid in strings:
                continue
            for run in _PLACEHOLDER.split(msgid):
                run = run.strip(" —:;,.()\"'`")
                if len(re.findall(r"[A-Za-z]{2,}", run)) >= 2:
                    out.add(run)
    return tuple(sorted(out, key=len, reverse=True))


def plain(text: str) -> str:
    """A mail part as its reader sees it: HTML without its tags and entities."""
    return html.unescape(re.sub(r"<[^>]+>", "", text))


def untranslated(text: str, lang: str) -> list[str]:
    """The catalog's English sentences found in ``text`` (a text written in ``lang``)."""
    seen = plain(text)
    return [f for f in english_fragments(lang) if f in seen]
