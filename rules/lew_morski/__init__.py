"""Kryptonim: Lew Morski (Battle of Britain hex air combat, Novina 1993) for pbem.

Rules source: seeds/004_b72b382f43c0cb76.txt (Polish); English digest rules/lew_morski.md.

Modules: ``board`` (A/B hex coordinates, edges, sun strips, authored terrain), ``tables`` (Table 2, 4,
5, VP, dice results from ``data/*.toml``), ``movement`` (paths, speed, manoeuvrability, altitude),
``combat`` (line of fire, nearest target, modifiers, AA), ``world`` (resolution of a phase),
``setup`` (scenarios W1-W5), ``phases`` (who owes orders), ``orders`` (order language and checks),
``views`` (per-seat knowledge, fog), ``forms``, ``bot``, ``picture``, ``options`` (every gap G-nn
the digest names as a game option with its default), ``ruleset`` (the contract object).

Play: a stage is two phases, ``de-move`` (German movement and combat with German initiative) and
``gb-move`` (British movement and combat with British initiative), one message per side each;
reactive and mutual fire follow standing orders (REACT / RETURNFIRE / AA); a REACT ... ASK order or
option react_default=ask opens a short ``gb-react`` / ``de-react`` interrupt window.
"""
from .ruleset import RULESET

__all__ = ["RULESET"]
