"""The memory-purifier benchmark runs (on a small workspace): its figures stay reportable, and
the generated workspace reads as the notes it holds, with no provenance problem."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from bench import purifier_read
from bench.purifier_generate import generate
from core.stores.purifier.store import PurifierStore


def test_the_benchmark_reports_its_ratio_to_a_plain_parse() -> None:
    figures = purifier_read.main(300, 900)
    assert figures["claims"] == 300 and figures["ledger_rows"] == 900
    assert figures["notes"] == 600  # every claim, every distinct candidate once
    assert figures["whole_vs_plain"] > 0 and figures["first_page_s"] > 0


def test_the_generated_workspace_opens_whole_and_its_first_page_alone(tmp_path: Path) -> None:
    made = generate(tmp_path / "ws", 250, 600)
    store = PurifierStore(tmp_path / "ws", lambda: datetime(2026, 11, 25, tzinfo=UTC))
    head = store.first_notes(200)
    notes = store.read().notes
    assert [n["id"] for n in head] == [n["id"] for n in notes[:200]]
    assert len(notes) == made["claims"] + made["candidates"]
    assert not [m for m in store.take_notices() if "provenance" in m]
