"""Kryptonim: Lew Morski (Battle of Britain hex air combat, Novina 1993) for pbem.

Rules source: seeds/004_b72b382f43c0cb76.txt (Polish); English digest rules/lew_morski.md.

Modules: ``board`` (A/B hex coordinates, edges, sun strips, authored terrain), ``tables`` (Table 2, 4,
5, VP, dice results from ``data/*.toml``), ``movement`` (paths, speed, manoeuvrability, altitude),
``combat`` (line of fire, nearest target, modifiers, AA), ``state`` (the frozen game state with the
kit's Flow), ``setup`` (scenarios W1-W5), ``orders`` (one typed value per verb), ``checker`` (the
verb table and the check of a whole order file), ``world`` (the working data of a resolution),
``flight`` (movement resolution), ``attacks`` (combat, bombing and AA resolution),
``phases`` (the kit's step table and what each step resolves), ``views`` and ``own_aircraft`` (per-seat
knowledge, the fog boundary), ``planning``, ``forms``, ``bot``, ``picture``, ``options`` (every gap G-nn
the digest names as a game option with its default), ``ruleset`` (the contract object, assembled).

Play: a stage is two phases, ``de-move`` (German movement and combat with German initiative) and
``gb-move`` (British movement and combat with British initiative), one message per side each;
reactive and mutual fire follow standing orders (REACT / RETURNFIRE / AA, kept in the kit's store); a
REACT ... ASK order or option react_default=ask opens a short ``gb-react`` / ``de-react`` interrupt
window (a kit interrupt: one ask per aircraft, HOLD on silence).
"""
from .ruleset import RULESET

__all__ = ["RULESET"]
