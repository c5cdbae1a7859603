"""The console acting through memory-purifier itself (docs/PURIFIER.md, "Acting through the
purifier"): no preview runs unasked (it may spend a model's tokens), `r` asks first, the review
shows the next run's new claim, and applying runs the purifier. The purifier is our fake
(tests/support/fake_purifier/), installed where its install.sh puts it; the workspace is a
fixture the real purifier wrote (tests/stores/test_purifier.py says how)."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

from textual.widgets import Static

from core.clock import fixed_clock
from core.stores.purifier.store import PurifierStore
from nuggets_tui.app import NuggetsApp
from nuggets_tui.screens.ask_file import AskFileScreen
from nuggets_tui.screens.confirm import ChoiceScreen, ConfirmScreen
from nuggets_tui.screens.main import MainScreen
from nuggets_tui.screens.review import ReviewScreen
from tests.support.console_support import settle
from tests.support.tree import hashes

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "purifier" / "after-first-run"
FAKE = Path(__file__).resolve().parents[1] / "support" / "fake_purifier" / "run_purifier.py"
NOW = datetime(2026, 11, 25, 9, tzinfo=UTC)
NEW_LINE = "The backup job runs nightly at 02:00."


def installed_workspace(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURE, tmp_path / "copy")
    workspace = tmp_path / "copy" / "workspace"
    scripts = workspace / "skills" / "memory-purifier" / "scripts"
    scripts.mkdir(parents=True)
    shutil.copy(FAKE, scripts)
    memory = workspace / "MEMORY.md"
    memory.write_text(memory.read_text() + f"\n{NEW_LINE}\n")
    return workspace


def claims(workspace: Path) -> str:
    return (workspace / "runtime" / "purified-claims.jsonl").read_text()


async def test_r_asks_first_then_previews_and_applying_runs_the_purifier(tmp_path: Path) -> None:
    workspace = installed_workspace(tmp_path)
    store = PurifierStore(workspace, fixed_clock(NOW))
    planned = counting(store)
    before = hashes(tmp_path)
    app = NuggetsApp(store)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot, app)
        assert planned == []  # nothing planned ahead: it would run the purifier
        await pilot.press("r")
        await settle(pilot, app)
        assert isinstance(app.screen, ConfirmScreen)
        assert "may spend tokens" in str(app.screen.body)
        said = " ".join(str(app.screen.body).split())  # the code that runs, and from where
        assert f"{workspace}/skills/memory-purifier/scripts/run_purifier.py" in said
        assert "inside the workspace under review" in said
        assert planned == []
        await pilot.press("y")
        await settle(pilot, app, pause=0.3)
        review = app.screen
        assert isinstance(review, ReviewScreen)
        assert review.plan is not None
        assert any(d.after.get("content") == NEW_LINE for d in review.plan.notes)
        assert hashes(tmp_path) == before  # the preview ran on a copy: not a byte written
        await pilot.press("a")
        await settle(pilot, app)
        assert isinstance(app.screen, ConfirmScreen)
        assert "Run by the purifier itself" in str(app.screen.body)
        await pilot.press("y")
        await settle(pilot, app, pause=0.5)
        assert NEW_LINE in claims(workspace)
        assert isinstance(app.screen, MainScreen)


def counting(store: PurifierStore) -> list[int]:
    """Count the store's plans (each would run the purifier on a copy)."""
    planned: list[int] = []
    plan = store.plan
    store.plan = lambda *a, **k: (planned.append(1), plan(*a, **k))[1]
    return planned


async def test_declining_the_preview_runs_nothing(tmp_path: Path) -> None:
    workspace = installed_workspace(tmp_path)
    store = PurifierStore(workspace, fixed_clock(NOW))
    planned = counting(store)
    app = NuggetsApp(store)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)
        await pilot.press("n")
        await settle(pilot, app)
        assert isinstance(app.screen, MainScreen)
    assert planned == []


async def test_u_on_a_candidate_asks_for_the_file_shows_the_diff_and_ctrl_z_undoes_it(
    tmp_path: Path,
) -> None:
    shutil.copytree(FIXTURE, tmp_path / "copy")
    workspace = tmp_path / "copy" / "workspace"
    deferred = [
        json.loads(row)
        for row in (workspace / "runtime" / "deferred-candidates.jsonl").read_text().splitlines()
        if row.strip()
    ][-1]
    app = NuggetsApp(PurifierStore(workspace, fixed_clock(NOW)))
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot, app)
        main = app.screen
        assert isinstance(main, MainScreen)
        main.select_note(deferred["candidate_id"])
        await settle(pilot, app)
        await pilot.press("u")
        await settle(pilot, app)
        assert isinstance(app.screen, AskFileScreen)
        for key in "RTMEMORY.md":
            await pilot.press(key)
        await pilot.press("enter")
        await settle(pilot, app)
        assert isinstance(app.screen, ConfirmScreen)
        assert f"+{deferred['text'].strip()}" in str(app.screen.body)  # the diff first
        assert not (workspace / "RTMEMORY.md").exists()
        await pilot.press("y")
        await settle(pilot, app)
        assert (workspace / "RTMEMORY.md").read_text() == deferred["text"].strip() + "\n"
        await pilot.press("ctrl+z")
        await settle(pilot, app)
        await pilot.press("y")
        await settle(pilot, app)
    assert not (workspace / "RTMEMORY.md").exists()


async def test_r_in_the_review_asks_before_the_purifier_previews_again(tmp_path: Path) -> None:
    store = PurifierStore(installed_workspace(tmp_path), fixed_clock(NOW))
    planned = counting(store)
    app = NuggetsApp(store)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("r", "y")
        await settle(pilot, app, pause=0.3)
        review = app.screen
        assert isinstance(review, ReviewScreen) and review.plan is not None
        review._went_stale(review.plan)  # the workspace changed under the plan: r plans again
        await pilot.press("r")
        await settle(pilot, app)
        assert isinstance(app.screen, ConfirmScreen)
        assert "may spend tokens" in str(app.screen.body)
        await pilot.press("n")
        await settle(pilot, app)
        assert app.screen is review
        await pilot.press("c")  # the purifier's plan is never capped: no cap to lift
        await settle(pilot, app)
        assert app.screen is review
        assert len(planned) == 1
        await pilot.press("r", "y")
        await settle(pilot, app, pause=0.3)
        assert len(planned) == 2


# -- its health, held on screen; its own runs, started from the console ---------------------

UPGRADE = Path(__file__).resolve().parents[1] / "fixtures" / "purifier" / "upgrade-pending"


def installed_upgrade_pending(tmp_path: Path) -> Path:
    shutil.copytree(UPGRADE, tmp_path / "copy")
    workspace = tmp_path / "copy" / "workspace"
    scripts = workspace / "skills" / "memory-purifier" / "scripts"
    scripts.mkdir(parents=True)
    shutil.copy(FAKE, scripts)
    return workspace


def logged_modes(workspace: Path) -> list[tuple[str, str]]:
    rows = [
        json.loads(line)
        for path in sorted((workspace.parent / "telemetry").glob("memory-log-*.jsonl"))
        for line in path.read_text().splitlines()
        if line.strip()
    ]
    return [(r["mode"], r["status"]) for r in rows if r["event"] != "run_started"]


async def test_the_health_lines_stay_on_screen_not_in_toasts(tmp_path: Path) -> None:
    workspace = installed_upgrade_pending(tmp_path)
    store = PurifierStore(workspace, fixed_clock(NOW))
    health = store.health()
    app = NuggetsApp(store)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot, app)
        line = app.screen.query_one("#health", Static)
        assert line.display
        assert str(line.tooltip).splitlines() == health
        toasts = [str(n.message) for n in app._notifications]
        assert not [t for t in toasts if t in health]  # none of them a toast that goes away


async def test_R_acknowledges_a_pending_upgrade_and_runs_a_reconciliation(
    tmp_path: Path,
) -> None:
    workspace = installed_upgrade_pending(tmp_path)
    locks = workspace / "runtime" / "locks"
    app = NuggetsApp(PurifierStore(workspace, fixed_clock(NOW)))
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("R")
        await settle(pilot, app)
        assert isinstance(app.screen, ChoiceScreen)
        assert [c[2] for c in app.screen.choices] == ["reconciliation", "acknowledge-upgrade"]
        assert "upgrade pending" in str(app.screen.body)  # its health lines, whole
        await pilot.press("a")
        await settle(pilot, app, pause=0.5)
        assert isinstance(app.screen, MainScreen)
    assert not list(locks.glob("purifier-upgrade-pending-*.json"))
    assert logged_modes(workspace)[-1] == ("reconciliation", "ok")


async def test_R_runs_a_reconciliation(tmp_path: Path) -> None:
    workspace = installed_workspace(tmp_path)
    app = NuggetsApp(PurifierStore(workspace, fixed_clock(NOW)))
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("R")
        await settle(pilot, app)
        assert isinstance(app.screen, ChoiceScreen)
        assert [c[2] for c in app.screen.choices] == ["reconciliation"]  # no upgrade pending
        await pilot.press("c")
        await settle(pilot, app, pause=0.5)
    assert NEW_LINE in claims(workspace)
    assert logged_modes(workspace)[-1] == ("reconciliation", "ok")
