"""The purifier's contradictions as topics: the claims its contradiction records tie together
(joined at read: notes.join_contradictions), every record counted — a claim is in as many
clusters as runs flagged it, and a competitor named by text only is a note beside it. Open
while every claim of the group stands; a record one of whose claims is superseded or retired
(archived) is outdated, listed apart with each claim's status."""

from __future__ import annotations

from core.models import RawNote
from core.review.contradictions import Group, group_id, token_set


def purifier_topic(note: RawNote) -> tuple[str, str] | None:
    info = note.get("purifier")
    topic = info.get("contradictionTopic") if isinstance(info, dict) else None
    return ("contradiction", topic) if isinstance(topic, str) else None


def purifier_tokens(text: str) -> frozenset[str]:
    return token_set(text)


def outdated_groups(notes: list[RawNote]) -> list[Group]:
    """Each contradiction one of whose claims is archived now, with every claim's status (one
    group for the records that name the same claims)."""
    clusters: dict[str, list[RawNote]] = {}
    for note in notes:
        for cluster in (note.get("purifier") or {}).get("contradictionClusters") or []:
            clusters.setdefault(cluster, []).append(note)
    groups: dict[tuple[str, ...], Group] = {}
    for cluster, members in clusters.items():
        ids = tuple(n["id"] for n in members)
        if len(members) < 2 or ids in groups or not any(n.get("hidden") for n in members):
            continue
        statuses = ", ".join(f"{n['id']} {n['purifier'].get('status') or '?'}" for n in members)
        groups[ids] = Group(
            id=group_id(ids),
            kind="topic",
            nugget=str(members[0]["nuggetName"]),
            topic=cluster,
            note_ids=ids,
            positions=tuple((i,) for i in ids),
            outdated=statuses,
        )
    return list(groups.values())
