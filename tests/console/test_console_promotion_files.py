"""The console's promotion screen shows what `nuggets promote` shows: every file it would
write with its diff (MicroClaw: the global AGENTS.md and each chat's), the entries that say
almost the same thing as another, and long diff lines wrapped under their text with their
marker kept."""

from __future__ import annotations

import json
from pathlib import Path

from core.stores.nuggets.graph_file import graph_path
from nuggets_tui.screens.promote import PromoteScreen
from nuggets_tui.widgets.virtual_table import VirtualTable
from tests.support.console_support import make_app, settle

SIZE = (140, 42)
STAGING = "Staging deploys run from the release branch every Tuesday at noon."


def _add_notes(home: Path, *notes: dict) -> None:
    doc = json.loads(graph_path(home).read_bytes())
    template = doc["notes"][0]
    doc["notes"] += [dict(template, hidden=False, hits=7, links=[], **n) for n in notes]
    graph_path(home).write_text(json.dumps(doc))


def _body(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.screen.query_one("#diff-body").render())


async def test_entries_saying_almost_the_same_thing_are_marked_and_named(home: Path) -> None:
    shared = {"subject": "shared:project", "scope": "project", "tags": []}
    _add_notes(
        home,
        dict(shared, id="st-1", title="deploy: staging", content=f"{STAGING}\nSeen in sess-1."),
        dict(shared, id="st-2", title="deploy: staging, noted 10-03", content=STAGING),
    )
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("p")
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, PromoteScreen)
        summary = str(screen.query_one("#promote-summary").render())
        assert "≈ 2 entries say almost the same thing as another under a different title" in (
            " ".join(summary.split())
        )
        entries = screen.query_one("#entries", VirtualTable)
        assert entries.select_key("st-1")
        await settle(pilot, app)
        assert str(entries.renderer.cells(entries.current)[2]).startswith("≈ deploy: staging")
        said = " ".join(_body(app).split())
        assert "Says almost the same thing as: deploy: staging, noted 10-03 (st-2)" in said
        await pilot.press("space")  # dropped: the other one says nothing alike any more
        await settle(pilot, app)
        assert screen.plan is not None
        assert [e.note_id for e in screen.plan.dropped] == ["st-1"]
        assert all(not e.alike for e in screen.plan.entries)
