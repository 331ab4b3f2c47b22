"""The game's own working data for one resolution: dicts of ships, air units and contacts over the
frozen state, with the game's mutation helpers; events, standing orders and interrupts are the kit's
(:class:`pbem.core.work.Work`, held as ``kit``)."""
from __future__ import annotations

from pbem.core.texts import t_

from dataclasses import replace
from collections.abc import Iterable

from pbem.core.ruleset import Event, Seat
from pbem.core.work import Work as KitWork

from . import tables as T
from .board import board, hex_key
from .model import Air, Contact, Ship, State, get, put
from .verbs import standing_key

SIDES = ("german", "allied")
SEATS = (Seat("german", "german", "Kriegsmarine"), Seat("allied", "allied", "Royal Navy"))


def enemy(side: str) -> str:
    return "allied" if side == "german" else "german"


# The one rule that decides every event's audience [5]: what both players see happen on the table
# is public; a report, a standing-order notice or the state of one's own fuel stays with its side;
# an announcement (a Shadowed unit's move, a search called or answered) goes to the enemy of the side
# that makes it (the maker may see it too); an air attack goes to each side in its own words (the
# attacker named a class, only the defender chose the ship [9]).
PUBLIC = frozenset({"weather", "shadow", "battle", "sunk", "submarine", "end", "setup"})
OWN = frozenset({"report", "standing", "fuel", "skipped", "fallback"})  # standing, skipped, fallback: the kit's own
TO_ENEMY = frozenset({"announce", "search-called", "search-answer", "air-attack"})


def audience_problem(kind: str, seats: frozenset[str]) -> str | None:
    """Why an event of ``kind`` may not reach ``seats`` under the rule above (None: it may)."""
    if kind in PUBLIC:
        return None if seats == frozenset(SIDES) else f"a {kind} event is public"
    if kind in OWN:
        return None if len(seats) == 1 else f"a {kind} event goes to one side only"
    if kind in TO_ENEMY:
        return None if seats else f"a {kind} event goes to a side"
    return f"no audience rule for events of kind {kind!r}"


class Work:
    """Dicts of ships, air units and contacts over ``s``, the state being changed.

    ``kit`` is the kit's working copy of this resolution; outside one (views, tests) a Work makes
    its own, so every helper says and reads standing orders the same way.
    """

    def __init__(self, state: State, kit: KitWork | None = None) -> None:
        self.s = state
        self.kit: KitWork = kit if kit is not None else KitWork(state.flow, SEATS, None)  # type: ignore[arg-type]
        self.kit.data = self  # what the kit hands to script conditions (the table sets it too)
        self.ships: dict[str, Ship] = {x.id: x for x in state.ships}
        self.air: dict[str, Air] = {x.id: x for x in state.air}
        self.contacts: list[Contact] = list(state.contacts)
        self.reports: dict[str, list[str]] = {s: [] for s in SIDES}
        self.paths: dict[str, list[str]] = {}  # ship id -> hexes this Movement Phase (start first)
        self.search_markers: dict[tuple[str, str], int] = {}  # (side, hex) -> count
        self.attack_markers: list[tuple[str, str, str]] = []  # (side, air id, hex)
        self.kw: dict = {}

    # --- bookkeeping -----------------------------------------------------------
    def set(self, sid: str, **kw) -> Ship:
        self.ships[sid] = replace(self.ships[sid], **kw)
        return self.ships[sid]

    @property
    def events(self) -> list[Event]:
        return self.kit.events

    def tell(self, side: str, text: str, kind: str = "report") -> None:
        """Say ``text`` to ``side`` and keep it among the side's reports for its next view."""
        self.reports[side].append(text)
        self.say(text, kind, to=side)

    def say(self, text: str, kind: str, to: str | tuple[str, ...] | None = None) -> None:
        """The one way this game records an event; ``to`` None is both sides.  An audience the rule
        above does not allow is a programming error, raised before anyone is told."""
        seats = frozenset(SIDES) if to is None else frozenset((to,) if isinstance(to, str) else to)
        why = audience_problem(kind, seats)
        if why:
            raise ValueError(f"event {text!r} to {sorted(seats)}: {why}")
        self.kit.say(text, to=to, kind=kind)

    def option(self, name: str, default=None):
        return get(self.s.options, name, default)

    def freeze(self, step: str | None = None, **kw) -> State:
        """The state as changed; the kit's table puts its own new Flow in after a resolution, ``step``
        moves a state built by hand (tests) to another step."""
        reports = tuple((s, tuple(self.reports[s])) for s in SIDES)
        flow = replace(self.s.flow, standing=self.kit.standing, step=step or self.s.flow.step)
        return replace(self.s, ships=tuple(self.ships[k] for k in sorted(self.ships)),
                       air=tuple(self.air[k] for k in sorted(self.air)),
                       contacts=tuple(sorted(self.contacts, key=lambda c: (c.holder, c.cid))),
                       reports=reports, flow=flow, **kw)

    def new_cid(self, holder: str) -> str:
        n = get(self.s.next_id, holder, 1)
        self.s = replace(self.s, next_id=put(self.s.next_id, holder, n + 1))
        return f"{'C' if holder == 'allied' else 'K'}{n}"

    def bismarck_gone(self) -> bool:
        """Bismarck sunk ends the game [4]; True once the game has ended for any reason."""
        b = self.ships.get("bismarck")
        if b and b.status == "sunk" and not self.s.ended:
            self.s = replace(self.s, ended="sunk")
        return bool(self.s.ended)

    def std(self, side: str) -> tuple[str, ...]:
        """The side's standing orders in force, as order lines."""
        return tuple(self.kit.standing.listing(side))

    def keep_standing(self, side: str, line: str) -> None:
        """Put a standing order in force without telling the side (a default the rules supply)."""
        self.kit.standing, _ = self.kit.standing.set(side, standing_key(line.split()), line)

    def drop_standing(self, side: str, line: str) -> None:
        self.kit.standing, _ = self.kit.standing.cancel(side, standing_key(line.split()))

    def std_lines(self, side: str, verb: str) -> list[list[str]]:
        return [ln.split() for ln in self.std(side) if ln.split()[0].upper() == verb]

    # --- units -------------------------------------------------------------------
    def afloat(self, side: str | None = None) -> list[Ship]:
        return [x for k, x in sorted(self.ships.items()) if x.afloat and (side is None or x.side == side)]

    def unit_of(self, sid: str) -> str:
        x = self.ships[sid]
        return x.tf or x.id

    def unit_ships(self, uid: str) -> list[Ship]:
        if uid in self.ships and self.ships[uid].afloat and not self.ships[uid].tf:
            return [self.ships[uid]]
        return [x for x in self.afloat() if x.tf == uid]

    def units(self, side: str) -> list[str]:
        return sorted({self.unit_of(x.id) for x in self.afloat(side)})

    def units_in(self, side: str, h: str) -> list[str]:
        return sorted({self.unit_of(x.id) for x in self.afloat(side) if x.hex == h})

    def classes(self, ships: list[Ship]) -> tuple[tuple[str, int], ...]:
        out: dict[str, int] = {}
        for x in ships:
            out[x.cls] = out.get(x.cls, 0) + 1
        return tuple(sorted(out.items()))

    def fog_blocks(self, h: str) -> bool:
        return self.s.fog and h in board().fog

    # --- contacts ------------------------------------------------------------------
    def contact_on(self, uid: str) -> Contact | None:
        for c in self.contacts:
            if c.unit == uid:
                return c
        return None

    def mark(self, holder: str, uid: str, status: str, source: str) -> Contact | None:
        """Put (or upgrade) a Sighted/Shadowed marker on an enemy unit; both maps show it [5]."""
        ships = self.unit_ships(uid)
        if not ships:
            return None
        h = ships[0].hex
        old = self.contact_on(uid)
        if old is not None:
            status = "shadowed" if "shadowed" in (old.status, status) else status
            c = replace(old, hex=h, status=status, classes=self.classes(ships), tf=len(ships) > 1 or uid not in self.ships,
                        source=source, turn=self.s.turn)
            self.contacts[self.contacts.index(old)] = c
            return c
        c = Contact(self.new_cid(holder), holder, uid, h, status, self.classes(ships),
                    uid not in self.ships, source, self.s.turn)
        self.contacts.append(c)
        return c

    def drop_contact(self, c: Contact) -> None:
        if c in self.contacts:
            self.contacts.remove(c)

    def retarget_contacts(self) -> None:
        """Drop markers whose unit no longer exists; follow hex changes of single ships."""
        keep = []
        for c in self.contacts:
            ships = self.unit_ships(c.unit)
            if ships:
                keep.append(replace(c, hex=ships[0].hex))
        self.contacts = keep

    def describe(self, classes: tuple[tuple[str, int], ...], tf: bool) -> str:
        parts = ", ".join(f"{n} {cls}" for cls, n in classes)
        return t_("%(parts)s (in a task force)", parts=parts) if tf else \
            t_("%(parts)s (not in a task force)", parts=parts)

    # --- bags ------------------------------------------------------------------------
    def draw_ee(self, dice, seen) -> int:
        bag = list(self.s.ee_bag) or list(T.bag("evasion"))
        i = dice.roll(len(bag), why=t_("evasion effect marker"), seen_by=seen) - 1
        v = bag.pop(i)
        self.s = replace(self.s, ee_bag=tuple(bag))
        return v

    def return_ee(self, values: Iterable[int]) -> None:
        full = T.bag("evasion")
        bag = list(self.s.ee_bag) + [v for v in values if v in full]
        self.s = replace(self.s, ee_bag=tuple(sorted(bag)))

    def draw_damage(self, dice, n: int, seen) -> list[str]:
        """Draw ``n`` damage markers; they all go back after the attack [9]."""
        bag = list(self.s.damage_bag)
        out = []
        for _ in range(min(n, len(bag))):
            i = dice.roll(len(bag), why=t_("damage marker"), seen_by=seen) - 1
            out.append(bag.pop(i))
        return out

    def draw_vp(self, dice) -> int:
        bag = list(self.s.vp_bag) or list(T.bag("convoy_vp"))
        i = dice.roll(len(bag), why=t_("convoy VP marker"), seen_by=("german",)) - 1
        v = bag.pop(i)
        self.s = replace(self.s, vp_bag=tuple(bag))
        return v

    # --- damage --------------------------------------------------------------------
    def sink(self, sid: str, why: str) -> None:
        x = self.ships[sid]
        self.return_ee(x.ee)
        self.set(sid, status="sunk", hex=None, tf=None, hull=0, ee=(), markers=())
        self.say(t_('%(id)s (%(cls)s) is sunk: %(why)s', id=x.id, cls=x.cls, why=why), "sunk")
        self.dissolve_small_tfs()

    def dissolve_small_tfs(self) -> None:
        """A task force needs at least two ships [7.2]."""
        count: dict[str, list[str]] = {}
        for x in self.afloat():
            if x.tf:
                count.setdefault(x.tf, []).append(x.id)
        for tf, ids in sorted(count.items()):
            if len(ids) < 2:
                for sid in ids:
                    self.set(sid, tf=None)
                for i, c in enumerate(self.contacts):
                    if c.unit == tf:
                        self.contacts[i] = replace(c, unit=ids[0])
        for x in self.afloat():
            if x.tf and x.tf not in count:
                self.set(x.id, tf=None)

    def lose_armament(self, sid: str, where: str, n: int = 1) -> None:
        """Primary hits beyond what is left become hull hits; secondary hits never do [10]."""
        x = self.ships[sid]
        have = getattr(x, where)
        if where == "sec":
            self.set(sid, sec=max(0, have - n))
            return
        over = max(0, n - have)
        self.set(sid, **{where: max(0, have - n)})
        if over:
            self.hull_hit(sid, over)

    def hull_hit(self, sid: str, n: int = 1) -> None:
        x = self.ships[sid]
        self.set(sid, hull=max(0, x.hull - n))

    def apply_marker(self, sid: str, marker: str, dice, seen) -> str:
        """Apply one damage marker from the bag [9]; returns a description."""
        x = self.ships[sid]
        self.set(sid, in_play=True, hits=x.hits + (0 if marker == "DUD" else 1))
        if x.cls == "TK" and marker != "DUD":
            self.sink(sid, t_("a tanker is lost on any hit but a dud"))
            return t_("%(marker)s: the tanker is lost", marker=marker)
        if marker == "DUD":
            return t_("DUD: no effect")
        if marker == "RUDDER":
            self.set(sid, rudder=True)
            return t_("RUDDER: rudder damage, the ship cannot move until repaired")
        if marker == "BOW":
            self.lose_armament(sid, "bow")
            return t_("BOW: 1 primary armament bow hit")
        if marker == "STERN":
            self.lose_armament(sid, "stern")
            return t_("STERN: 1 primary armament stern hit")
        if marker == "SEC":
            self.lose_armament(sid, "sec")
            return t_("SEC: 1 secondary armament hit")
        if marker == "HULL":
            self.hull_hit(sid)
            ee = self.draw_ee(dice, seen)
            self.set(sid, ee=self.ships[sid].ee + (ee,))
            r = T.d10(dice, t_("secondary hit from a HULL marker"), seen)
            sec = r <= T.tables()["damage_effects"]["hull_secondary_max"]
            if sec:
                self.lose_armament(sid, "sec")
            return t_("HULL: 1 hull hit, evasion %(ee)s, secondary roll %(r)s hit", ee=ee, r=r) if sec else \
                t_("HULL: 1 hull hit, evasion %(ee)s, secondary roll %(r)s no hit", ee=ee, r=r)
        if marker == "CRIT":
            self.hull_hit(sid, 2)
            self.lose_armament(sid, "sec")
            a, b = self.draw_ee(dice, seen), self.draw_ee(dice, seen)
            self.set(sid, ee=self.ships[sid].ee + (a, b))
            return t_("CRIT: 2 hull hits, 1 secondary hit, evasion %(a)s and %(b)s", a=a, b=b)
        if marker == "FIRE":
            ee = self.draw_ee(dice, seen)
            self.set(sid, ee=self.ships[sid].ee + (ee,))
            return t_("FIRE: evasion %(ee)s (the FIRE effect is lost; placeholder)", ee=ee)
        return marker

    def check_sunk(self, sid: str, why: str) -> bool:
        x = self.ships[sid]
        if x.afloat and x.hull <= 0:
            self.sink(sid, why)
            return True
        return False

    def sorted_hexes(self, hexes: Iterable[str]) -> list[str]:
        return sorted(set(hexes), key=hex_key)
