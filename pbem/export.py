"""``pbem export``: a game's whole record, in files anyone can check without pbem's database.

The journal as JSON lines (each entry with its hash and the previous one, so the chain can be
recomputed), every sitrep that was sent (text, HTML, the view it was rendered from, the map),
the server's public key and the seed commitment; the seed itself only once the game is over,
since with it every future die roll could be computed.  It is the GM's export: it holds every
side's sitreps and the full state, so it is for the GM, or for players after the game.
"""
from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

from sqlmodel import col, select

from pbem.journal import dumps
from pbem.server import Server
from pbem.services.records import get_game
from pbem.store.models import Journal, Sitrep
from pbem.store.times import iso

#: zip members get this fixed time, so the same record gives the same bytes
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)

README = """\
The record of game {game}, exported by pbem.

game.json        the game's facts, the seed commitment and, once the game is over, the seed and
                 its salt: check that sha256(bytes.fromhex(seed_salt + seed)) is the commitment
                 (games from before pbem 0.2 have an empty salt).
journal.jsonl    one entry per line, oldest first.  Each entry's hash is
                 sha256(prev_hash + canonical JSON of {{seq, kind, turn, phase, payload, events,
                 rolls, state}}) where state is the state_hash, and canonical JSON has sorted keys,
                 no spaces and UTF-8 text; the first prev_hash is 64 zeros.  state_hash is the
                 sha256 of the canonical JSON of the entry's state.
sitreps/SIDE/    every sitrep sent to SIDE: NNNNN-turnT.txt, .html, .json (the view it was rendered
                 from) and .png (the map), NNNNN being the last journal entry it reports.
server_key.pub   the key the server signs its mail with (OpenSSH format).

This export holds every side's sitreps and the full game state: it is the GM's.
"""


def export_files(server: Server, game_id: str) -> dict[str, bytes]:
    """The export's files by relative path."""
    with server.deps.reader() as s:
        game = get_game(s, game_id)
        journal = s.exec(select(Journal).where(Journal.game_id == game_id).order_by(col(Journal.seq))).all()
        sitreps = s.exec(select(Sitrep).where(Sitrep.game_id == game_id).order_by(col(Sitrep.id))).all()
    over = game.status in ("over", "archived")
    facts: dict[str, Any] = {
        "game": game.id, "title": game.title, "ruleset": game.ruleset, "scenario": game.scenario,
        "options": json.loads(game.options_json), "status": game.status, "turn": game.turn,
        "seed_commitment": game.seed_commitment, "seed": game.seed_hex if over else None,
        "seed_salt": game.seed_salt if over else None,
        "journal_head": game.journal_head,
        "outcome": json.loads(game.outcome_json) if game.outcome_json else None}
    files = {"README.txt": README.format(game=game.id).encode(),
             "game.json": (json.dumps(facts, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode(),
             "journal.jsonl": "".join(_entry_line(j) + "\n" for j in journal).encode(),
             "server_key.pub": server.deps.home.key_path.with_suffix(".pub").read_bytes()}
    for row in sitreps:
        stem = f"sitreps/{row.seat}/{row.seq:05d}-turn{row.turn}"
        if f"{stem}.txt" in files:  # the same entry reported twice (a resend builds no new sitrep, a force may)
            stem = f"{stem}-{row.id}"
        files[f"{stem}.txt"] = row.text.encode()
        files[f"{stem}.html"] = row.html.encode()
        files[f"{stem}.json"] = (json.dumps(json.loads(row.view_json), indent=2, sort_keys=True,
                                            ensure_ascii=False) + "\n").encode()
        if row.png:
            files[f"{stem}.png"] = row.png
    return files


def _entry_line(j: Journal) -> str:
    return dumps({"seq": j.seq, "kind": j.kind, "turn": j.turn, "phase": j.phase,
                  "payload": json.loads(j.payload_json), "events": json.loads(j.events_json),
                  "rolls": json.loads(j.rolls_json), "state": json.loads(j.state_json),
                  "state_hash": j.state_hash, "prev_hash": j.prev_hash, "hash": j.hash,
                  "created_at": iso(j.created_at)})


def write_zip(files: dict[str, bytes], path: Path, top: str) -> None:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for name, data in sorted(files.items()):
            info = zipfile.ZipInfo(f"{top}/{name}", date_time=_ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)


def write_folder(files: dict[str, bytes], path: Path) -> None:
    for name, data in files.items():
        target = path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
