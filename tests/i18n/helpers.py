"""What an untranslated English sentence is: one of the catalog's own messages, in English, left in a text."""
from __future__ import annotations

import html
import re
from functools import lru_cache
from pathlib import Path

from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "pbem" / "locale"
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "t_": None, "tn_": (1, 2)}
# placeholders, markup, and commands (`pbem verify`, <code>...</code>), which stay as they are in every language
_PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|<code>.*?</code>|`[^`]*`|<[^>]+>")


@lru_cache(maxsize=32)
def marked_in(*folders: str, rule_texts_only: bool = False) -> frozenset[str]:
    """The msgids marked in these folders of the checkout (as babel.cfg extracts them); only the rule texts
    (``t_``/``tn_`` of pbem.core.texts) with ``rule_texts_only``."""
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    with open(ROOT / "babel.cfg") as f:
        method_map, options_map = parse_mapping_cfg(f)
    keywords = {k: v for k, v in KEYWORDS.items() if k in ("t_", "tn_")} if rule_texts_only else KEYWORDS
    out = set()
    for folder in folders:
        mapping = [(p.split("/", 1)[-1] if "/" in p else p, m) for p, m in method_map]
        for _name, _line, message, _c, _ctx in extract_from_dir(ROOT / folder, mapping, options_map, keywords=keywords):
            out.add(message[0] if isinstance(message, tuple) else message)
    return frozenset(out)


def other_games(game: str) -> frozenset[str]:
    """The messages not looked for in ``game``'s texts: those only other games mark (their rules and
    templates), which its texts cannot contain but may echo in the same English words; and, for a game
    whose rules mark no text yet (not translated), every rule text, the kit's included."""
    own = marked_in(f"rules/{game}", f"templates/{game}")
    games = sorted(p.name for p in (ROOT / "rules").iterdir() if p.is_dir() and not p.name.startswith("_"))
    theirs = frozenset().union(*(marked_in(f"rules/{g}", f"templates/{g}") for g in games if g != game))
    skip = theirs - marked_in("pbem", "templates/common") - own
    if not marked_in(f"rules/{game}", rule_texts_only=True):
        skip |= marked_in("pbem", "rules", rule_texts_only=True) - marked_in("templates/common") - own
    return skip


@lru_cache(maxsize=16)
def english_fragments(lang: str, game: str = "") -> tuple[str, ...]:
    """The English runs of words of every message the ``lang`` catalog translates differently (placeholders,
    markup and commands cut out; runs of two words of two letters or more, so that 'none', 'orders' or 'on d' do not count).
    Words the translation keeps as they are (order keywords such as IF SHADOWED) end a run.  With ``game``, the
    messages only other games mark are left out."""
    with open(LOCALE / lang / "LC_MESSAGES" / "pbem.po", "rb") as f:
        cat = read_po(f, locale=lang)
    skip = other_games(game) if game else games_only()
    out = set()
    for m in cat:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        kept = set(re.findall(r"[A-Za-z_]+", " ".join(strings)))
        for msgid in ids:
            if msgid in strings or msgid in skip:
                continue
            for run in _PLACEHOLDER.split(msgid):
                for part in re.split(r"\b(?:" + "|".join(map(re.escape, sorted(kept))) + r")\b", run) if kept else [run]:
                    part = part.strip(" —:;,.()\"'`|[]<>=")
                    if len(re.findall(r"[A-Za-z]{2,}", part)) >= 2:
                        out.add(part)
    return tuple(sorted(out, key=len, reverse=True))


@lru_cache(maxsize=1)
def games_only() -> frozenset[str]:
    """The messages only the games mark (their rules and templates): a text of no game in particular (a reply
    of a test ruleset) cannot contain them, though it may use the same English words."""
    games = sorted(p.name for p in (ROOT / "rules").iterdir() if p.is_dir() and not p.name.startswith("_"))
    theirs = frozenset().union(*(marked_in(f"rules/{g}", f"templates/{g}") for g in games))
    return theirs - marked_in("pbem", "templates/common")


#: a rulebook heading cited as printed with its English gloss, «Схватка» (Dogfight): it stays so in every language
_CITED = re.compile(r"«[^»]*» \([^)]*\)")


@lru_cache(maxsize=16)
def as_printed(game: str) -> tuple[str, ...]:
    """Names ``game`` shows as they are in every language: its scenarios' titles and, for Sky of WWII, the cards'
    printed names (shown beside their Russian names; orders name cards by id)."""
    from pbem.rules import RULESETS

    names = {s.title for r in RULESETS if r.info.name == game for s in r.info.scenarios}
    if game == "sky_ww2":
        from pbem.rules.sky_ww2 import tables

        names |= {c.name for c in tables.cards().values()}
    return tuple(sorted(names, key=len, reverse=True))


def plain(text: str) -> str:
    """A mail part as its reader sees it: HTML without its tags and entities."""
    return html.unescape(re.sub(r"<[^>]+>", "", text))


def untranslated(text: str, lang: str, game: str = "") -> list[str]:
    """The catalog's English sentences found in ``text`` (a text written in ``lang``; of ``game``, if given)."""
    seen = plain(text)
    if game:
        seen = _CITED.sub("«»", seen)
        for name in as_printed(game):
            seen = seen.replace(name, "#")
    return [f for f in english_fragments(lang, game) if f in seen]
