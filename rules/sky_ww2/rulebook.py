"""The rulebook's own headings, so that a rejection names a place an owner of the box can find.

The printed rulebook has no section numbers: it is laid out under headings (and three numbered
lists: the selection variants and the three phases of an aircraft's turn).  The code keeps its
precise references as line numbers of the seed text (``L140``); :func:`cite` turns them into the
heading(s) the rule is printed under, in Russian as printed, with an English gloss.  A reference
with no seed line (the order format itself) cites the rule of the decision being answered.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from pbem.core.texts import Text, from_json

#: (first line in the seed, heading as printed, English gloss), in the order of the rulebook.
HEADINGS: tuple[tuple[int, str, str], ...] = (
    (17, "Цели игры", "Aims of the game"),
    (27, "Игровое поле", "Game board"),
    (36, "Самолеты", "Aircraft cards"),
    (40, "Самолеты: Мощность, Стрельба, ТТХ", "Aircraft cards: power, firing, TTX"),
    (43, "Самолеты: Пункты структуры", "Aircraft cards: structure points"),
    (44, "Самолеты: Специальная возможность", "Aircraft cards: special ability"),
    (50, "Самолеты: Личный номер, Категория", "Aircraft cards: personal number, category"),
    (71, "Карты наземных объектов", "Ground object cards"),
    (79, "Боевая колода", "Combat deck"),
    (85, "Маркеры повреждений", "Damage markers"),
    (89, "Номерные карты", "Number cards"),
    (99, "Самолет: Состояния самолета", "Aircraft: states"),
    (117, "Схватка", "Dogfight"),
    (121, "Позиция", "Position"),
    (131, "Перемещение самолета: Выход на поле высоты", "Aircraft movement: entering an altitude field"),
    (134, "Перемещение самолета: Перемещение", "Aircraft movement: moving"),
    (136, "Перемещение самолета: Смена высоты", "Aircraft movement: altitude change"),
    (140, "Перемещение самолета: Преследование", "Aircraft movement: pursuit"),
    (144, "Наземные объекты: Командный пункт", "Ground objects: command post"),
    (148, "Наземные объекты: Диспетчерский пункт", "Ground objects: dispatch post"),
    (150, "Наземные объекты: Зенитная батарея", "Ground objects: AA battery"),
    (154, "Действия в бою: Реакции", "Actions in combat: reactions"),
    (164, "Действия в бою: Маневры", "Actions in combat: manoeuvres"),
    (176, "Действия в бою: Атаки", "Actions in combat: attacks"),
    (184, "Действия в бою: Противоход", "Actions in combat: counter-move"),
    (190, "Действия в бою: События", "Actions in combat: events"),
    (194, "События: Критическое попадание", "Events: critical hit"),
    (196, "События: Неполадка", "Events: malfunction"),
    (198, "События: Спасение", "Events: rescue"),
    (207, "Постоянные эффекты", "Persistent effects"),
    (215, "Термины, используемые в описаниях боевых карт", "Terms on the combat cards"),
    (227, "Пример боевой ситуации", "Example of combat"),
    (259, "Режимы игры", "Game modes"),
    (267, "Выбор самолетов", "Choosing aircraft"),
    (271, "Выбор самолетов, 1. Случайный набор", "Choosing aircraft, 1. random"),
    (273, "Выбор самолетов, 2. Свободный набор", "Choosing aircraft, 2. free"),
    (275, "Выбор самолетов, 3. Ограниченный выбор", "Choosing aircraft, 3. limited"),
    (277, "Размещение наземных объектов", "Placing ground objects"),
    (283, "Инициатива", "Initiative"),
    (289, "Структура хода самолета", "Structure of an aircraft's turn"),
    (293, "Структура хода самолета, 1. Фаза активации", "Aircraft's turn, 1. activation"),
    (295, "Структура хода самолета, 2. Фаза перемещения", "Aircraft's turn, 2. movement"),
    (297, "Структура хода самолета, 3. Бой", "Aircraft's turn, 3. combat"),
    (301, "Атака наземных объектов", "Attacking ground objects"),
    (305, "Начало игры", "Start of the game"),
    (329, "Определение победителя", "Determining the winner"),
)

#: The reference of a line the order format itself refuses (an unknown verb, a malformed word):
#: :func:`cite` names the rule of the decision being answered instead.
FORM = "order form"

#: The rule an order of a decision answers to (wrong-phase and unknown-verb rejections cite it).
DECISION = {"setup": 267, "deploy": 305, "activate": 289, "script": 289, "round": 289, "react": 154,
            "pursue": 140, None: 289}


def heading(line: int) -> str:
    """The heading a seed line is printed under: ``«Схватка» (Dogfight)``."""
    found = HEADINGS[0]
    for h in HEADINGS:
        if h[0] <= line:
            found = h
    return f"«{found[1]}» ({found[2]})"


def lines_of(ref: str) -> list[int]:
    """The seed lines a code reference names: ``L41, L231`` / ``L271-275`` (the first line of a range)."""
    return [int(n) for n in re.findall(r"L(\d+)", ref)]


def cite(ref: str, decision: str | None = None) -> str:
    """The rulebook headings for a code reference; the decision's own rule when it names no seed line."""
    lines = lines_of(ref) or [DECISION.get(decision, DECISION[None])]
    seen: list[str] = []
    for n in lines:
        h = heading(n)
        if h not in seen:
            seen.append(h)
    return "; ".join(seen)


TAG = re.compile(r"\[(L\d[^\]]*)\]")


def cite_tags(text: str) -> str:
    """A text whose code references (``[L293]``, ``[L41, L231]``) name the rulebook's headings instead,
    as a rejection does: what players read (events, options) never shows a seed line."""
    return TAG.sub(lambda m: f"[{cite(m.group(1))}]", text)


def cite_text(text: str) -> str:
    """:func:`cite_tags` for a marked text too: the tags in its arguments (``ref="[L48]"``) are cited and the
    message kept, so the reader's language gets the same headings.  A message whose msgid itself carries a tag
    cannot be cited in another language: it goes out as plain English."""
    return map_text(text, cite_tags)


def map_text(text: str, fix: Callable[[str], str]) -> str:
    """``fix`` (a rewrite of English, such as :func:`cite_tags`) applied to a text: to a marked text's plain
    arguments, so its message is kept; when that does not give what ``fix`` gives the whole English (the msgid
    itself would need it), the plain rewrite, so the English never changes."""
    plain = fix(text)
    if isinstance(text, Text):
        kept = from_json(_map_msg(text.msg, fix))
        if kept == plain:
            return kept
    return plain


def _map_msg(msg: Any, fix: Callable[[str], str]) -> Any:
    if isinstance(msg, str):
        return fix(msg)
    if isinstance(msg, dict) and "join" in msg:
        return {**msg, "parts": [_map_msg(p, fix) for p in msg["parts"]]}
    if isinstance(msg, dict) and "id" in msg:
        return {**msg, "args": {k: _map_msg(v, fix) for k, v in msg.get("args", {}).items()}}
    return msg
