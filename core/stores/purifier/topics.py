"""The purifier's contradictions as topics: a claim and the claims it contests share the
contradiction cluster the purifier gave them (joined at read: notes.join_contradictions). Open
while both claims stand; outdated once one is superseded or retired (archived), then listed
apart with each claim's status."""

from __future__ import annotations

from core.models import RawNote
from core.review.contradictions import Group, group_id, token_set


def purifier_topic(note: RawNote) -> tuple[str, str] | None:
    info = note.get("purifier")
    clusters = info.get("contradictionClusters") if isinstance(info, dict) else None
    return ("contradiction", clusters[0]) if clusters else None


def purifier_tokens(text: str) -> frozenset[str]:
    return token_set(text)


def outdated_groups(notes: list[RawNote]) -> list[Group]:
    """Each contradiction one of whose claims is archived now, with every claim's status."""
    clusters: dict[str, list[RawNote]] = {}
    for note in notes:
        for cluster in (note.get("purifier") or {}).get("contradictionClusters") or []:
            clusters.setdefault(cluster, []).append(note)
    groups = []
    for cluster, members in clusters.items():
        if len(members) < 2 or not any(n.get("hidden") for n in members):
            continue
        ids = tuple(n["id"] for n in members)
        statuses = ", ".join(f"{n['id']} {n['purifier'].get('status') or '?'}" for n in members)
        groups.append(
            Group(
                id=group_id(ids),
                kind="topic",
                nugget=str(members[0]["nuggetName"]),
                topic=cluster,
                note_ids=ids,
                positions=tuple((i,) for i in ids),
                outdated=statuses,
            )
        )
    return groups
