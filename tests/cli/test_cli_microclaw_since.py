"""`nuggets --microclaw DIR log`: what the bot did since to each run's rows; `unhide`: what the
bot will do to a row brought back, and its confidence raised in the same run (the bot's writes are
its own SQL: tests/support/microclaw_bot.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from core.stores.microclaw.generate import Row
from nuggets_tui.cli import main
from tests.support.microclaw_bot import (
    archive_low,
    bot_archives,
    bot_deletes_expired,
    bot_global_cap,
    bot_matches,
    bot_sees,
    confidence,
    data_dir_of,
)
from tests.support.microclaw_support import ago, data_dir_with

ENV = {"NUGGETS_NOW": "2026-11-24T09:00:00Z", "NUGGETS_JOURNAL_KEEP": "100"}


def run(data_dir: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["--microclaw", str(data_dir), *args], env=ENV)
    return result.exit_code, result.stdout, result.stderr


def test_log_names_what_the_bot_did_since_to_each_runs_rows(tmp_path: Path) -> None:
    data_dir = data_dir_of(tmp_path)
    assert run(data_dir, "archive", "mc-1", "mc-2", "mc-3", "mc-4")[0] == 0
    assert run(data_dir, "unhide", "mc-4")[0] == 0  # the newer run owns mc-4 now
    bot_deletes_expired(data_dir, 1)
    bot_matches(data_dir, 2)
    bot_sees(data_dir, 3)
    bot_archives(data_dir, 4)
    code, out, _ = run(data_dir, "log")
    assert code == 0
    unhide_line, unhide_since, archive_line, archive_since = out.splitlines()
    assert "unhide" in unhide_line and "archive" in archive_line
    assert "archived again mc-4" in unhide_since
    assert "deleted mc-1" in archive_since and "brought back mc-2" in archive_since
    assert "changed mc-3" in archive_since and "mc-4" not in archive_since
    code, out, _ = run(data_dir, "log", "--json")
    unhide_run, archive_run = json.loads(out)
    assert archive_run["since"]["deleted"] == ["mc-1"]
    assert archive_run["since"]["restored"] == ["mc-2"]
    assert archive_run["since"]["changed"] == ["mc-3"]
    assert unhide_run["since"]["archived"] == ["mc-4"]


def test_a_run_the_bot_left_alone_says_nothing_more(tmp_path: Path) -> None:
    data_dir = data_dir_of(tmp_path)
    run(data_dir, "archive", "mc-1")
    code, out, _ = run(data_dir, "log")
    assert code == 0 and len(out.splitlines()) == 1
    assert "since" not in json.loads(run(data_dir, "log", "--json")[1])[0]


def test_our_own_unhide_of_an_archived_row_is_not_the_bots(tmp_path: Path) -> None:
    data_dir = data_dir_of(tmp_path)
    run(data_dir, "archive", "mc-2")
    run(data_dir, "unhide", "mc-2")
    _, out, _ = run(data_dir, "log")
    assert "brought back" not in out and len(out.splitlines()) == 2


def test_unhide_raise_confidence_lifts_it_to_the_prompts_floor_and_undo_puts_it_back(
    tmp_path: Path,
) -> None:
    data_dir = data_dir_of(tmp_path)
    archive_low(data_dir, 2, 0.3)
    code, out, err = run(data_dir, "unhide", "mc-2")
    assert code == 0 and "mc-2: confidence below 0.45" in err
    assert confidence(data_dir, 2) == (0.3, 0)
    archive_low(data_dir, 2, 0.3)
    code, out, err = run(data_dir, "unhide", "mc-2", "--raise-confidence")
    assert code == 0 and "below 0.45" not in err
    assert confidence(data_dir, 2) == (0.45, 0)
    run_id = out.split("(run ", 1)[1].split(")")[0]
    assert "confidence raised to 0.45 for mc-2" in run(data_dir, "log")[1]
    assert run(data_dir, "undo", run_id)[0] == 0
    assert confidence(data_dir, 2) == (0.3, 1)


def test_raise_confidence_with_nothing_to_raise_says_so_and_unhides(tmp_path: Path) -> None:
    data_dir = data_dir_of(tmp_path)
    archive_low(data_dir, 2, 0.8)
    code, _, err = run(data_dir, "unhide", "mc-2", "--raise-confidence")
    assert code == 0 and "nothing to raise" in err
    assert confidence(data_dir, 2) == (0.8, 0)


def test_unhide_tells_when_the_bots_global_cap_archives_the_row_again(tmp_path: Path) -> None:
    rows = [
        Row(
            content=f"a global fact number {i} about the fleet",
            confidence=c,
            created_at=ago(10),
            updated_at=ago(5),
            last_seen_at=ago(2),
        )
        for i, c in ((1, 0.9), (2, 0.9), (3, 0.6))
    ]
    data_dir = data_dir_with(tmp_path, rows)
    (data_dir / "microclaw.config.yaml").write_text("memory_max_global_entries: 2\n")
    bot_archives(data_dir, 3)
    code, _, err = run(data_dir, "unhide", "mc-3")
    assert code == 0 and confidence(data_dir, 3)[1] == 0
    assert "mc-3 once back: bot step 'global cap'" in err


@pytest.mark.parametrize(("lifted", "archived"), [(0.65, 3), (0.6, 3), (0.5, 4)])
def test_unhide_names_the_row_the_full_global_cap_archives_instead(
    tmp_path: Path, lifted: float, archived: int
) -> None:
    """Cap 3, three active global rows (0.6 seen 4 days ago, 0.7 seen 53, 0.6 seen 50): the row
    brought back takes the rows over the cap, and the bot's next tick archives the lowest
    confidence, oldest seen: mc-3, a row nobody touched, unless the one back is lower."""
    rows = [
        Row(
            content=f"a global fact number {i} about the fleet",
            confidence=c,
            created_at=ago(60),
            updated_at=ago(seen),
            last_seen_at=ago(seen),
        )
        for i, c, seen in ((1, 0.6, 4), (2, 0.7, 53), (3, 0.6, 50), (4, 0.9, 30))
    ]
    data_dir = data_dir_with(tmp_path, rows)
    (data_dir / "microclaw.config.yaml").write_text("memory_max_global_entries: 3\n")
    archive_low(data_dir, 4, lifted)
    code, _, err = run(data_dir, "unhide", "mc-4")
    assert code == 0 and confidence(data_dir, 4) == (lifted, 0)
    if archived == 4:
        assert "mc-4 once back: bot step 'global cap'" in err and "instead" not in err
    else:
        assert f"mc-{archived} archived instead: bringing back mc-4" in err
        assert "bot step 'global cap'" in err and "mc-4 once back" not in err
    assert bot_global_cap(data_dir, 3) == {archived}  # what the bot's own SQL then does
