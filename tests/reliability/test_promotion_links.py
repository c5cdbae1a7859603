"""Promotion never writes through a symbolic link or outside a scope's own folder: a scope whose
MEMORY.md or AGENTS.md (or a folder on the way to it) is a link is refused with one line naming
the scope, and the other scopes - and the rest of `daily` - go on."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from core.safeio.scope_folder import PromotionRefused, unsafe_component
from core.stores.microclaw.store import MicroClawStore
from core.stores.nuggets.store import NuggetsStore
from nuggets_tui.cli import main
from tests.support.figures import record
from tests.support.microclaw_rows import insert, make_db
from tests.support.reliability_support import CLOCK, make_home, note

RC = "# the operator's shell rc\nexport PATH=$HOME/bin:$PATH\n"
ENV = {"NUGGETS_NOW": "2026-11-01T10:00:00Z", "TZ": "UTC", "NUGGETS_HOME": ""}


def _rc(tmp_path: Path) -> Path:
    rc = tmp_path / "bashrc"
    rc.write_text(RC)
    return rc


def _nuggets(tmp_path: Path) -> tuple[Path, Path, Path]:
    home = make_home(
        tmp_path,
        [note("deploy", "deploy", "run make deploy", hits=5), note("tmp1", "tmp", "scratch text")],
        memory_md=None,
    )
    target, rc = home / "memory" / "MEMORY.md", _rc(tmp_path)
    target.symlink_to(rc)
    return home, target, rc


def _cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), env=ENV)
    return result.exit_code, result.stdout, result.stderr


def test_a_memory_md_linked_elsewhere_is_refused_and_not_read(tmp_path: Path) -> None:
    home, target, rc = _nuggets(tmp_path)
    plan = NuggetsStore(home, CLOCK, target).plan_promotion()
    assert plan.entries == [] and not plan.changes_file and plan.before_text == ""
    assert plan.refused == [
        f"promotion to MEMORY.md refused: {target} is a symbolic link; "
        "promotion never writes through a link or outside the scope's "
        "folder, so nothing was written there"
    ]
    code, out, err = _cli("--home", str(home), "promote", "--apply", "--memory-md", str(target))
    assert code == 0 and "promotion to MEMORY.md refused" in err
    assert len([line for line in err.splitlines() if "refused" in line]) == 1
    assert rc.read_text() == RC and target.is_symlink()
    record("links in place of a promotion target, refused")


def test_daily_refuses_the_linked_memory_md_and_still_reflects(tmp_path: Path) -> None:
    home, target, rc = _nuggets(tmp_path)
    result = CliRunner().invoke(
        main, ["--home", str(home), "-v", "daily"], env={**ENV, "NUGGETS_MEMORY_MD": str(target)}
    )
    assert result.exit_code == 0, result.output
    assert "Reflection:" in result.stdout and "promotion to MEMORY.md refused" in result.stdout
    assert rc.read_text() == RC
    assert [h.kind for h in NuggetsStore(home, CLOCK, target).log()] == ["reflect"]
    record("links in place of a promotion target, refused")


def test_a_link_planted_after_planning_is_refused_at_the_write(tmp_path: Path) -> None:
    home = make_home(tmp_path, [note("deploy", "deploy", "run make deploy", hits=5)])
    target, rc = home / "memory" / "MEMORY.md", _rc(tmp_path)
    memory = NuggetsStore(home, CLOCK, target)
    plan = memory.plan_promotion()
    assert plan.changes_file
    target.unlink()
    target.symlink_to(rc)
    with pytest.raises(PromotionRefused, match="MEMORY.md refused: .* is a symbolic link"):
        memory.promote(plan)
    assert rc.read_text() == RC and memory.log() == []
    shown, added = memory.promote_now()  # the one-shot command: refused, nothing raised
    assert added == 0 and shown.refused and rc.read_text() == RC
    record("links in place of a promotion target, refused")


# -- MicroClaw: a chat's AGENTS.md, or the chat's folder, linked elsewhere -----------------------


def _microclaw(tmp_path: Path) -> Path:
    db = make_db(tmp_path / "data" / "runtime" / "microclaw.db", count=0)
    conn = sqlite3.connect(db)
    insert(conn, "The project deploys on Fridays", confidence=0.9)  # global
    insert(conn, "User prefers short answers", chat_id=7, category="PROFILE", confidence=0.9)
    insert(conn, "User likes tea", chat_id=8, category="PROFILE", confidence=0.9)
    conn.execute("UPDATE memories SET chat_channel = 'telegram' WHERE chat_id IS NOT NULL")
    conn.commit()
    conn.close()
    for chat in ("7", "8"):
        (db.parent / "groups" / "telegram" / chat).mkdir(parents=True)
    return db.parent.parent


@pytest.mark.parametrize("planted", ["AGENTS.md", "chat folder"])
def test_a_linked_chat_is_refused_and_the_other_scopes_are_written(
    tmp_path: Path, planted: str
) -> None:
    data = _microclaw(tmp_path)
    groups, rc = data / "runtime" / "groups", _rc(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    if planted == "AGENTS.md":
        (groups / "telegram" / "7" / "AGENTS.md").symlink_to(rc)
    else:
        (groups / "telegram" / "7").rmdir()
        (groups / "telegram" / "7").symlink_to(elsewhere)
    code, out, err = _cli("--microclaw", str(data), "promote", "--apply")
    assert code == 0, err
    refused = [line for line in err.splitlines() if "refused" in line]
    assert len(refused) == 1 and "promotion to chat-7 refused" in refused[0]
    assert rc.read_text() == RC and list(elsewhere.iterdir()) == []
    assert "deploys on Fridays" in (groups / "AGENTS.md").read_text()
    assert "likes tea" in (groups / "telegram" / "8" / "AGENTS.md").read_text()
    code, _, err = _cli("--microclaw", str(data), "daily")
    assert code == 0 and rc.read_text() == RC and list(elsewhere.iterdir()) == []
    record("links in place of a promotion target, refused")


def test_microclaw_plans_and_writes_refuse_the_linked_scope_only(tmp_path: Path) -> None:
    data = _microclaw(tmp_path)
    groups, rc = data / "runtime" / "groups", _rc(tmp_path)
    store = MicroClawStore(data)
    plans = {Path(p.path).parent.name: p for p in store.plan_promotions()}
    (groups / "telegram" / "8" / "AGENTS.md").symlink_to(rc)
    with pytest.raises(PromotionRefused, match="promotion to chat-8 refused"):
        store.promote(plans["8"])
    shown, added = store.promote_now()
    assert added == 2 and [r.split(":")[0] for r in shown.refused] == [
        "promotion to chat-8 refused"
    ]
    assert rc.read_text() == RC


def test_what_counts_as_leaving_the_folder(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "file").write_text("x")
    (tmp_path / "link").symlink_to(tmp_path / "a")
    assert unsafe_component(tmp_path, tmp_path / "a" / "AGENTS.md") is None
    assert unsafe_component(tmp_path, tmp_path / "new" / "AGENTS.md") is None  # not there yet
    assert "is a symbolic link" in (unsafe_component(tmp_path, tmp_path / "link" / "x") or "")
    assert "not a directory" in (unsafe_component(tmp_path, tmp_path / "file" / "x") or "")
    assert "outside" in (unsafe_component(tmp_path / "a", tmp_path / "a" / ".." / "x") or "")
