"""The notes table's sort orders: hits and updated descending, title ascending, ties in file
order, odd values never break a sort."""

from __future__ import annotations

from core.noteorder import ORDERS, next_order, ordered


def note(note_id: str, title: str, hits: object, updated: str) -> dict:
    return {"id": note_id, "title": title, "hits": hits, "updatedAt": updated}


NOTES = [note("a", "beta", 2, "2026-01-02"), note("b", "Alpha", 5, "2026-01-01"),
         note("c", "gamma", 2, "2026-01-03"), note("d", "delta", "many", "")]


def ids(order: str) -> list[str]:
    return [n["id"] for n in ordered(NOTES, order)]  # type: ignore[arg-type]


def test_each_order() -> None:
    assert ids("file") == ["a", "b", "c", "d"]
    assert ids("hits") == ["b", "a", "c", "d"]  # a before c: a tie keeps file order
    assert ids("updated") == ["c", "a", "b", "d"]
    assert ids("title") == ["b", "a", "d", "c"]


def test_the_key_cycles_through_every_order_and_back() -> None:
    order = ORDERS[0]
    seen = []
    for _ in ORDERS:
        seen.append(order)
        order = next_order(order)
    assert seen == list(ORDERS) and order == "file"
