"""The campaign's own hash-chained record (the ``campaign_entry`` table), like a game's journal."""
from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any

from sqlmodel import Session, col, select

from pbem.core.play import canonical_json
from pbem.journal import GENESIS, dumps
from pbem.store.models import Campaign, CampaignEntry


def entry_hash(prev: str, seq: int, kind: str, payload: Any) -> str:
    body = canonical_json({"seq": seq, "kind": kind, "payload": payload})
    return hashlib.sha256((prev + body).encode()).hexdigest()


def append(s: Session, campaign: Campaign, kind: str, payload: Any, now: datetime) -> CampaignEntry:
    """Chain an entry onto the campaign's record."""
    prev = campaign.head or GENESIS
    seq = campaign.seq + 1 if campaign.head else 0
    row = CampaignEntry(campaign_id=campaign.id, seq=seq, kind=kind, payload_json=dumps(payload), prev_hash=prev,
                        hash=entry_hash(prev, seq, kind, payload), created_at=now)
    s.add(row)
    campaign.seq, campaign.head, campaign.updated_at = seq, row.hash, now
    return row


def entries(s: Session, campaign_id: str) -> list[CampaignEntry]:
    return list(s.exec(select(CampaignEntry).where(CampaignEntry.campaign_id == campaign_id)
                       .order_by(col(CampaignEntry.seq))).all())


def chain_problems(rows: list[CampaignEntry]) -> list[str]:
    """Where the campaign's hash chain breaks."""
    problems = []
    prev = GENESIS
    for row in rows:
        if row.prev_hash != prev:
            problems.append(f"campaign entry {row.seq}: chain broken")
        if entry_hash(row.prev_hash, row.seq, row.kind, json.loads(row.payload_json)) != row.hash:
            problems.append(f"campaign entry {row.seq} ({row.kind}): hash does not match its content")
        prev = row.hash
    return problems
