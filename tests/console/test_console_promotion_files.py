"""The console's promotion screen shows what `nuggets promote` shows: every file it would
write with its diff (MicroClaw: the global AGENTS.md and each chat's), the entries that say
almost the same thing as another, and long diff lines wrapped under their text with their
marker kept."""

from __future__ import annotations

from pathlib import Path

from rich.cells import cell_len

from core.clock import fixed_clock
from core.stores.microclaw.store import MicroClawStore
from nuggets_tui.app import NuggetsApp
from nuggets_tui.screens.confirm import ConfirmScreen
from nuggets_tui.screens.main import MainScreen
from nuggets_tui.screens.promote import FileRow, PromoteScreen
from nuggets_tui.widgets.diff_view import DiffView
from nuggets_tui.widgets.virtual_table import VirtualTable
from nuggets_tui.words import shown_path
from tests.support.console_support import add_notes, diff_body, make_app, pressed, settle
from tests.support.microclaw_support import NOW

SIZE = (140, 42)
STAGING = "Staging deploys run from the release branch every Tuesday at noon."


async def test_entries_saying_almost_the_same_thing_are_marked_and_named(home: Path) -> None:
    shared = {"subject": "shared:project", "scope": "project", "tags": []}
    add_notes(
        home,
        dict(shared, id="st-1", title="deploy: staging", content=f"{STAGING}\nSeen in sess-1."),
        dict(shared, id="st-2", title="deploy: staging, noted 10-03", content=STAGING),
    )
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        screen = await pressed(pilot, app, "p", PromoteScreen)
        summary = str(screen.query_one("#promote-summary").render())
        assert "≈ 2 entries say almost the same thing as another under a different title" in (
            " ".join(summary.split())
        )
        entries = screen.query_one("#entries", VirtualTable)
        assert entries.select_key("st-1")
        await settle(pilot, app)
        assert str(entries.renderer.cells(entries.current)[2]).startswith("≈ deploy: staging")
        said = " ".join(diff_body(app).split())
        assert "Says almost the same thing as: deploy: staging, noted 10-03 (st-2)" in said
        await pilot.press("space")  # dropped: the other one says nothing alike any more
        await settle(pilot, app)
        assert screen.plan is not None
        assert [e.note_id for e in screen.plan.dropped] == ["st-1"]
        assert all(not e.alike for e in screen.plan.entries)


async def test_p_on_microclaw_shows_and_writes_every_file_nuggets_promote_shows(
    data_dir: Path,
) -> None:
    store = MicroClawStore(data_dir, fixed_clock(NOW))
    assert store.promoter is not None
    expected = store.promoter.plan_promotions()  # what `nuggets promote` prints, file by file
    files = [p for p in expected if not p.refused]
    written = [p for p in files if p.changes_file]
    assert len(written) >= 2 and any(p.refused for p in expected)  # global, chats, one refused
    app = NuggetsApp(store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        screen = await pressed(pilot, app, "p", PromoteScreen)
        assert [p.path for p in screen.plans] == [p.path for p in expected]
        summary = " ".join(str(screen.query_one("#promote-summary").render()).split())
        assert f"Promote to {len(files)} files under" in summary
        assert expected[-1].refused[0] in summary
        entries = screen.query_one("#entries", VirtualTable)
        headers = [r.plan.path for r in entries.rows if isinstance(r, FileRow)]
        assert headers == [p.path for p in expected]
        for plan in written:  # an entry of each file shows that file's diff
            assert entries.select_key(plan.entries[-1].note_id)
            await settle(pilot, app)
            assert f"{shown_path(plan.path)} (now)" in diff_body(app)
        await pilot.press("a")
        await settle(pilot, app)
        assert isinstance(app.screen, ConfirmScreen)
        assert f"Write {len(written)} files" in str(app.screen.query_one("#dialog-title").render())
        await pilot.press("y")
        await settle(pilot, app)
        assert isinstance(app.screen, MainScreen)
    for plan in written:
        assert Path(plan.path).read_text() == plan.after_text
    assert len([r for r in store.journal.log() if r.kind == "promote"]) == len(written)


async def test_a_long_added_line_wraps_under_its_text_with_its_marker(home: Path) -> None:
    words = " ".join(f"word{i}" for i in range(60))  # about 430 characters on one line
    add_notes(
        home,
        {"id": "long", "title": "notes: long", "subject": "shared:project", "content": words},
    )
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("p")
        await settle(pilot, app)
        entries = app.screen.query_one("#entries", VirtualTable)
        assert entries.select_key("long")
        await settle(pilot, app)
        pane = app.screen.query_one(DiffView)
        width = pane.query_one("#diff-body").content_region.width
        shown = pane._text.plain.splitlines()
        first = next(i for i, row in enumerate(shown) if row.startswith("+- **notes: long**"))
        rows = [first]
        while shown[rows[-1] + 1].startswith("+  word"):
            rows.append(rows[-1] + 1)
        assert len(rows) > 3 and all(cell_len(shown[i]) <= width for i in rows)
        assert " ".join(" ".join(shown[i][1:].split()) for i in rows).endswith(words)
        await pilot.resize_terminal(140, 42)  # the pane beside the list: wrapped again
        await settle(pilot, app)
        narrower = pane.query_one("#diff-body").content_region.width
        again = pane._text.plain.splitlines()
        start = next(i for i, row in enumerate(again) if row.startswith("+- **notes: long**"))
        assert narrower < width and cell_len(again[start]) <= narrower
        assert again[start + 1].startswith("+  word") and len(again[start]) != len(shown[first])


async def test_at_80x24_the_summary_of_every_file_scrolls_within_a_third_of_the_screen(
    data_dir: Path,
) -> None:
    """Three files' summary (budgets, what is held back, a chat not promoted) would take 11 of
    24 rows; it keeps a third of them and scrolls, so the entries keep theirs."""
    app = NuggetsApp(MicroClawStore(data_dir, fixed_clock(NOW)))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        screen = await pressed(pilot, app, "p", PromoteScreen)
        head = screen.query_one("#promote-head")
        summary = " ".join(str(screen.query_one("#promote-summary").render()).split())
        assert "not promoted" in summary  # the whole summary is there, below the fold
        assert head.size.height <= 24 // 3 and head.max_scroll_y > 0
        head.scroll_end(animate=False)
        await settle(pilot, app)
        assert head.scroll_y == head.max_scroll_y
        assert screen.query_one("#entries", VirtualTable).size.height >= 6
