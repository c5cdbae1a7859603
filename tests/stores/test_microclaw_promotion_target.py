"""Promotion lands in the AGENTS.md the bot reads and survives the bot's `write_memory`.

The bot (microclaw/microclaw at ab19255) reads a chat's file memory at
`runtime/groups/<channel>/<chats.chat_id>/AGENTS.md` (crates/microclaw-storage/src/memory.rs,
`chat_memory_path`: the channel trimmed, the internal chat id). Its `write_memory` tool
(src/tools/memory.rs) replaces a global file whole, and in a chat file the `## Person: <sender>`
section up to the next `## Person:` or the end (`upsert_chat_person_memory`, transcribed below
as `bot_upsert`); the memory row it inserts holds the content it wrote, white space collapsed.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from core.stores.microclaw import bot_sql
from core.stores.microclaw.promote import SECTION
from core.stores.microclaw.store import MicroClawStore
from tests.support.microclaw_rows import STAMP, insert, make_db

PRIVATE = "Dana is being treated for depression, keep private"


def bot_upsert(existing: str, sender: str, content: str) -> str:
    """src/tools/memory.rs, `upsert_chat_person_memory` (with `find_person_section_range`)."""
    sender, content = sender.strip(), content.strip()
    block = f"## Person: {sender}\n{content}\n"
    trimmed = existing.strip()
    if not trimmed:
        return block
    lines = trimmed.splitlines()
    header = f"## Person: {sender}"
    start = next((i for i, line in enumerate(lines) if line.strip() == header), None)
    if start is None:
        return trimmed + ("" if trimmed.endswith("\n") else "\n") + "\n" + block
    end = next(
        (i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith("## Person:")),
        len(lines),
    )
    return (
        "".join(f"{line}\n" for line in lines[:start])
        + block
        + "".join(f"{line}\n" for line in lines[end:])
    )


def _store(
    tmp_path: Path, chats: list[tuple[int, str, str]], rows: list[tuple[str, int | None]]
) -> MicroClawStore:
    db = make_db(tmp_path / "data" / "runtime" / "microclaw.db", count=0)
    conn = sqlite3.connect(db)
    for chat_id, channel, external in chats:
        conn.execute(bot_sql.INSERT_CHAT, (chat_id, "t", "private", STAMP, channel, external))
    for content, row_chat in rows:
        insert(conn, content, chat_id=row_chat, category="PROFILE", confidence=0.9)
    conn.commit()
    conn.close()
    return MicroClawStore(db.parent.parent)


def _groups(store: MicroClawStore) -> Path:
    return store.home / "runtime" / "groups"


def test_a_chat_goes_to_the_file_the_bot_reads_by_its_internal_id(tmp_path: Path) -> None:
    store = _store(tmp_path, [(7, "telegram", "42"), (42, "telegram", "99")], [(PRIVATE, 7)])
    groups = _groups(store)
    for other in (groups / "42", groups / "telegram" / "42"):  # chat 42's, either layout
        other.mkdir(parents=True)
        (other / "AGENTS.md").write_text("# Chat 42\n")
    (groups / "telegram" / "7").mkdir(parents=True)
    store.promote_now()
    assert PRIVATE in (groups / "telegram" / "7" / "AGENTS.md").read_text()
    assert (groups / "42" / "AGENTS.md").read_text() == "# Chat 42\n"
    assert (groups / "telegram" / "42" / "AGENTS.md").read_text() == "# Chat 42\n"


def test_the_section_goes_before_the_first_person_and_survives_write_memory(tmp_path: Path) -> None:
    store = _store(tmp_path, [(7, " telegram ", "42")], [("User prefers short answers", 7)])
    path = _groups(store) / "telegram" / "7" / "AGENTS.md"
    path.parent.mkdir(parents=True)
    path.write_text(bot_upsert(bot_upsert("", "Alice", "Likes tea"), "Bob", "Uses vim"))
    store.promote_now()
    text = path.read_text()
    assert text.index(f"## {SECTION}") < text.index("## Person: Alice")
    for sender in ("Bob", "Alice", "Carol"):  # the bot rewrites each person's section
        path.write_text(bot_upsert(path.read_text(), sender, "Rewritten by the bot"))
    assert "- User prefers short answers" in path.read_text()
    assert {e.action for e in store.plan_promotions()[1].entries} == {"same"}


def test_our_section_after_a_person_heading_is_moved_before_it(tmp_path: Path) -> None:
    store = _store(tmp_path, [(7, "telegram", "42")], [("User prefers short answers", 7)])
    path = _groups(store) / "telegram" / "7" / "AGENTS.md"
    path.parent.mkdir(parents=True)
    path.write_text(f"## Person: Alice\nLikes tea\n\n## {SECTION}\n\n- Older promoted line\n")
    store.promote_now()
    text = path.read_text()
    assert text == (
        f"## {SECTION}\n\n- Older promoted line\n- User prefers short answers\n\n"
        "## Person: Alice\nLikes tea\n"
    )


def test_a_section_the_bot_erased_is_reported_and_planned_again(tmp_path: Path) -> None:
    store = _store(tmp_path, [], [("The project deploys on Fridays", None)])
    path = _groups(store) / "AGENTS.md"
    path.parent.mkdir(parents=True)
    store.promote_now()
    assert store.plan_promotions()[0].notices == []
    path.write_text("# Global\n\nRewritten whole by write_memory\n")  # the bot's global write
    plan = store.plan_promotions()[0]
    assert [e.action for e in plan.entries] == ["add"]
    assert (
        len(plan.notices) == 1 and "mc-1" in plan.notices[0] and "planned again" in plan.notices[0]
    )


def test_text_the_bot_wrote_already_is_not_promoted_again(tmp_path: Path) -> None:
    store = _store(tmp_path, [(7, "telegram", "42")], [("User prefers short answers", 7)])
    path = _groups(store) / "telegram" / "7" / "AGENTS.md"
    path.parent.mkdir(parents=True)
    written = bot_upsert("", "Alice", "User prefers   short\nanswers")
    path.write_text(written)
    shown, added = store.promote_now()
    assert added == 0 and path.read_text() == written
    assert [e.action for e in shown.entries] == ["same"]


def _odd_chats(tmp_path: Path) -> MicroClawStore:
    long_id = "x" * 300
    return _store(
        tmp_path,
        [
            (7, "telegram", long_id),
            (8, "c" * 300, "8"),
            (9, "telegram", "9"),
            (10, "telegram", "10"),
        ],
        [
            ("Chat seven likes tea", 7),
            ("Chat eight likes tea", 8),
            ("Chat nine likes tea", 9),
            ("Chat ten likes tea", 10),
            ("The project deploys on Fridays", None),
        ],
    )


def test_odd_chats_and_files_are_named_once_and_every_other_scope_is_promoted(
    tmp_path: Path,
) -> None:
    store = _odd_chats(tmp_path)
    groups = _groups(store)
    for chat in ("7", "9", "10"):
        (groups / "telegram" / chat).mkdir(parents=True)
    (groups / "telegram" / "9" / "AGENTS.md").write_bytes(b"# Chat\n\xff\xfe\n")
    os.mkfifo(groups / "telegram" / "10" / "AGENTS.md")
    shown, added = store.promote_now()
    assert added == 2
    assert "Chat seven likes tea" in (groups / "telegram" / "7" / "AGENTS.md").read_text()
    assert "deploys on Fridays" in (groups / "AGENTS.md").read_text()
    assert (groups / "telegram" / "9" / "AGENTS.md").read_bytes() == b"# Chat\n\xff\xfe\n"
    refused = sorted(shown.refused)
    assert len(refused) == 3 and all("\n" not in line for line in refused)
    assert refused[0].startswith("c" * 300 + ":8: its channel is not a name")
    assert refused[1].startswith("telegram:10: ") and "not promoted" in refused[1]
    assert refused[2].startswith("telegram:9: ") and "UTF-8" in refused[2]


@pytest.mark.parametrize(
    ("nugget", "chat_file"), [("telegram:" + "x" * 300, "telegram/7"), ("c" * 300 + ":8", None)]
)
def test_the_file_memory_of_an_odd_chat_is_listed_without_error(
    tmp_path: Path, nugget: str, chat_file: str | None
) -> None:
    store = _odd_chats(tmp_path)
    groups = _groups(store)
    groups.mkdir(parents=True)
    (groups / "AGENTS.md").write_text("# Global\n")
    expected = [groups / "AGENTS.md"] + ([groups / chat_file / "AGENTS.md"] if chat_file else [])
    assert store.scope_files(nugget) == expected
    assert [f.path for f in store.memory_files(nugget)] == [groups / "AGENTS.md"]


def test_a_root_groups_folder_beside_the_runtime_one_is_neither_shown_nor_already_in_the_file(
    tmp_path: Path,
) -> None:
    """The running bot hands its tools a config whose data dir is `runtime/` (src/main.rs), so
    `write_memory` and the prompt both use `runtime/groups/`; its start-up migration moves a root
    `groups/` only when `runtime/groups/` does not exist. A root `groups/` left beside it is never
    read by the bot: it is not listed with the scope's files, and text found only there is no
    reason not to promote a row."""
    store = _store(
        tmp_path,
        [(7, "telegram", "42")],
        [("User prefers short answers", 7), ("The project deploys on Fridays", None)],
    )
    runtime_groups = _groups(store)
    (runtime_groups / "telegram" / "7").mkdir(parents=True)
    (runtime_groups / "AGENTS.md").write_text("# Global\n")
    stray = store.home / "groups"
    for folder, text in (
        (stray, "- The project deploys on Fridays\n"),
        (stray / "telegram" / "7", "- User prefers short answers\n"),
    ):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "AGENTS.md").write_text(text)
    nugget = "telegram:42"
    listed = store.scope_files(nugget)
    assert listed and all(runtime_groups in path.parents for path in listed)
    assert all(stray not in f.path.parents for f in store.memory_files(nugget))
    plans = store.plan_promotions()
    assert {Path(p.path) for p in plans} == {
        runtime_groups / "AGENTS.md",
        runtime_groups / "telegram" / "7" / "AGENTS.md",
    }
    assert [e.action for p in plans for e in p.entries] == ["add", "add"]
    store.promote_now()
    assert "- The project deploys on Fridays" in (runtime_groups / "AGENTS.md").read_text()
    assert (stray / "AGENTS.md").read_text() == "- The project deploys on Fridays\n"
