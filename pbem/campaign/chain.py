"""The chain between a campaign's games: each game's set-up commits to what came before, signed by the server.

A campaign game's set-up journal entry carries ``campaign`` (the link) and ``carried`` (the units put in,
which replay applies again).  The link names the campaign, the game's place and slot, the previous game and
its final journal head, the campaign's own journal head, and ``carried_hash``: SHA-256 over the canonical
JSON of the standing and the carried units.  ``signature`` is the server key's SSHSIG (namespace
``pbem-server``) over the canonical JSON of the link without it.  Since the entry is the first of the game's
hash chain, every later entry and every sitrep's journal head commits to it.
"""
from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from pbem.core.play import canonical_json
from pbem.crypto import sshsig


def carried_hash(standing: Mapping[str, Any], carried: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical_json({"standing": standing, "carried": carried}).encode()).hexdigest()


def link(key: Any, *, campaign: str, index: int, slot: str, previous_game: str, previous_head: str,
         campaign_head: str, standing: Mapping[str, Any], carried: Mapping[str, Any]) -> dict[str, Any]:
    """The signed link a campaign game's set-up entry carries."""
    body = {"campaign": campaign, "index": index, "slot": slot, "previous_game": previous_game,
            "previous_head": previous_head, "campaign_head": campaign_head,
            "carried_hash": carried_hash(standing, carried)}
    return {**body, "signature": sshsig.sign(key, canonical_json(body).encode(), sshsig.SERVER_NAMESPACE)}


def verify_link(server_key: sshsig.PublicKey, found: Mapping[str, Any]) -> str:
    """"" when the link's signature is the server's, else what is wrong."""
    body = {k: v for k, v in found.items() if k != "signature"}
    try:
        key = sshsig.verify(str(found.get("signature", "")), canonical_json(body).encode(), sshsig.SERVER_NAMESPACE)
    except sshsig.SignatureError as exc:
        return f"the link's signature does not hold ({exc})"
    if key.fingerprint != server_key.fingerprint:
        return f"the link is signed by {key.fingerprint}, not by the server key {server_key.fingerprint}"
    return ""
