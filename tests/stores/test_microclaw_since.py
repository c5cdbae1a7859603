"""`MicroClawStore.aftermath`: each row the bot changed since is told for the newest run of ours
that wrote it (the bot's writes are its own SQL: tests/support/microclaw_bot.py)."""

from __future__ import annotations

from pathlib import Path

from core.clock import fixed_clock
from core.stores.microclaw.store import MicroClawStore
from tests.support.microclaw_bot import bot_archives, bot_matches, data_dir_of
from tests.support.microclaw_support import NOW


def test_a_row_undone_then_archived_by_the_bot_is_the_undos_news_not_the_runs(
    tmp_path: Path,
) -> None:
    store = MicroClawStore(data_dir_of(tmp_path), fixed_clock(NOW))
    archived = store.archive(["mc-1", "mc-2"])
    assert archived is not None
    undone = store.undo(archived.run_id)
    bot_archives(store.home, 1)
    since = store.aftermath(store.log())
    assert set(since) == {undone.run_id}
    assert since[undone.run_id].archived == ("mc-1",)
    assert "archived again mc-1" in since[undone.run_id].line


def test_a_row_the_bot_brought_back_is_remarked_for_its_detail(tmp_path: Path) -> None:
    store = MicroClawStore(data_dir_of(tmp_path), fixed_clock(NOW))
    archived = store.archive(["mc-3"])
    assert archived is not None
    bot_matches(store.home, 3)
    [found] = store.aftermath(store.log()).values()
    assert found.restored == ("mc-3",) and found.deleted == found.changed == ()
    assert found.notes["mc-3"].startswith(f"Brought back by the bot since run {archived.run_id}")


def test_nothing_changed_since_tells_nothing(tmp_path: Path) -> None:
    store = MicroClawStore(data_dir_of(tmp_path), fixed_clock(NOW))
    store.archive(["mc-3"])
    assert store.aftermath(store.log()) == {}


def test_only_the_journals_newest_run_is_marked_newest(tmp_path: Path) -> None:
    store = MicroClawStore(data_dir_of(tmp_path), fixed_clock(NOW))
    older = store.archive(["mc-1"])
    newer = store.archive(["mc-2"])
    assert older is not None and newer is not None
    bot_matches(store.home, 1)
    assert [(a.run_id, a.newest) for a in store.aftermath().values()] == [(older.run_id, False)]
    bot_matches(store.home, 2)
    found = store.aftermath()
    assert found[newer.run_id].newest and not found[older.run_id].newest
