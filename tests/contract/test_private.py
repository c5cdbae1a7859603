"""What we keep about a memory is private to the user (docs/RELIABILITY.md, "What we keep is
private"): on every store, after the writes it offers and their undo, each file of ours (journal
entries, our small files, lock files, the record of what was seen) is 0600 and each folder of
ours 0700, with the usual umask of 022; the memory's own folder keeps the mode it had."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.contract.kind import StoreKind
from core.notes import fields
from core.plans.review_rules import add_rule, parse_rule
from core.plans.review_state import update_state
from core.review.marks import mark_notes
from tests.contract.conftest import OUR_FILES, Opened, materialize


@pytest.fixture
def usual_umask() -> Iterator[None]:
    before = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(before)


def _write_everything(opened: Opened) -> None:
    """Every write the store offers, then each of ours taken back."""
    store = opened.store
    caps = store.profile.capabilities
    done = []
    if not caps.runs_itself:
        plan = store.plan(uncapped=True)
        done.append(store.apply(plan, {op.id for op in plan.operations[::2]}))
    if caps.manual_archive:
        visible = next(n["id"] for n in opened.reopen().read().notes if not fields.hidden(n))
        done.append(opened.reopen().by_hand.archive([visible]))
        done.append(opened.reopen().by_hand.unhide([visible]))
    if caps.rules:
        done.append(add_rule(opened.reopen(), parse_rule("no tags", "reject", kind="tag")))
    if caps.marks:
        done.append(
            mark_notes(opened.reopen(), [opened.reopen().read().notes[0]["id"]], "reviewed")
        )
    promoter = opened.reopen().promoter
    if promoter is not None:
        promoter.promote_now(threshold=1)
        done += promoter.promotion_runs
    update_state(store.journal.home, lambda state: state.last_plans.update({"x": ["y"]}))
    for entry in reversed([e for e in done if e is not None]):
        opened.reopen().journal.undo(entry.run_id)


def ours(opened: Opened) -> list[Path]:
    """Every file and folder of ours: our data directory, the journal and what lies beside it
    (inside the memory's folder, for a store that keeps its journal there: our small files
    and lock files only)."""
    journal = opened.store.journal
    found = [*(opened.root / "data").rglob("*"), journal.folder, *journal.folder.rglob("*")]
    beside = [journal.home / name for name in OUR_FILES]
    beside += [p for p in journal.home.iterdir() if p.name.endswith(".lock")]
    return sorted({p for p in found + beside if p.exists()})


def loose(paths: list[Path]) -> list[str]:
    """The paths whose mode lets anyone but the owner in, with that mode."""
    wrong = []
    for path in paths:
        mode = path.lstat().st_mode
        want = 0o700 if stat.S_ISDIR(mode) else 0o600
        if stat.S_IMODE(mode) != want:
            wrong.append(f"{path}: {stat.S_IMODE(mode):o}")
    return wrong


def test_everything_we_keep_is_private(kind: StoreKind, tmp_path: Path, usual_umask: None) -> None:
    opened = materialize(kind, tmp_path / "root")
    home_mode = stat.S_IMODE(opened.home.stat().st_mode)
    _write_everything(opened)
    found = ours(opened)
    assert opened.store.journal.folder in found
    assert any(p.name.endswith(".json") for p in found)  # a journal entry at least
    assert loose(found) == []
    assert stat.S_IMODE(opened.home.stat().st_mode) == home_mode  # the memory's, left as it is


def test_our_folders_an_older_version_left_open_are_tightened(
    kind: StoreKind, tmp_path: Path, usual_umask: None
) -> None:
    opened = materialize(kind, tmp_path / "root")
    _write_everything(opened)
    for path in ours(opened):
        path.chmod(0o755 if path.is_dir() else 0o644)
    _write_everything(opened)
    assert loose([opened.store.journal.folder, *opened.store.journal.folder.glob("*.json")]) == []
