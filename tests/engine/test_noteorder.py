"""The notes table's sort orders: hits and updated descending, title ascending, ties in file
order, odd values never break a sort."""

from __future__ import annotations

from core.browse.sort_orders import ORDERS, OrderedNotes, next_order, ordered


def note(note_id: str, title: str, hits: object, updated: str) -> dict:
    return {"id": note_id, "title": title, "hits": hits, "updatedAt": updated}


NOTES = [
    note("a", "beta", 2, "2026-01-02"),
    note("b", "Alpha", 5, "2026-01-01"),
    note("c", "gamma", 2, "2026-01-03"),
    note("d", "delta", "many", ""),
]


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


def test_a_view_picks_its_rows_from_the_sorted_graph_in_order() -> None:
    orders = OrderedNotes()
    some = [NOTES[3], NOTES[0], NOTES[2]]
    assert orders.view(NOTES, some, "file") is some
    assert [n["id"] for n in orders.view(NOTES, some, "hits")] == ["a", "c", "d"]
    assert [n["id"] for n in orders.view(NOTES, list(NOTES), "title")] == ["b", "a", "d", "c"]
    other = [dict(n) for n in NOTES]  # another graph: sorted again, not picked from the old one
    assert [n["id"] for n in orders.view(other, other[:2], "hits")] == ["b", "a"]


def test_a_few_rows_of_a_large_graph_come_out_in_the_same_order_as_many() -> None:
    every = [note(f"n{i}", f"t{i % 7}", i % 5, f"2026-01-{i % 28 + 1:02}") for i in range(80)]
    orders = OrderedNotes()
    few, many = every[::20], every[::2]  # under and over an eighth of the graph
    for order in ("hits", "updated", "title"):
        assert orders.view(every, few, order) == ordered(few, order)
        assert orders.view(every, many, order) == ordered(many, order)
