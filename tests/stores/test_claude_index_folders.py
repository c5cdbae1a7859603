"""MEMORY.md's lines and the directory's subfolders as Claude Code 2.1.332 has them
(docs/CLAUDE_CODE.md, "Which files" and "The index"). The directories are written by hand the way
its code makes and reads them: the memory scan (`A_t`, with the folder rules of `j8`: no dot
parts, no top-level logs/sessions/proposals in any case or with trailing dots, team/ only
directly, no MEMORY.md in a folder), the index builder of its backfill (`lQr`: `- [name](path) —
description`, the whole line within 150 UTF-16 units, cut by `PW`), and what it counts as a
listed file (`gQr`/`hQr`: any `](….md)` on any line, any case)."""

from __future__ import annotations

import os
from pathlib import Path

from core.stores.claude import index
from core.stores.claude.store import ClaudeStore


def topic(description: str, kind: str = "project") -> str:
    """A topic file as Claude Code 2.1.332 stamps it, its body its description's words."""
    return (
        f"---\nname: x\ndescription: {description}\nmetadata:\n  node_type: memory\n"
        f"  type: {kind}\n  originSessionId: 0f5e7a9c-2b1d-4c3e-9a8f-6d5c4b3a2f10\n"
        f"  modified: 2026-11-28T18:36:03.909Z\n---\n\n{description}\n"
    )


def memory(tmp_path: Path, files: dict[str, str]) -> Path:
    directory = tmp_path / "memory"
    for name, text in files.items():
        (directory / name).parent.mkdir(parents=True, exist_ok=True)
        (directory / name).write_text(text)
    return directory


def opened(directory: Path, tmp_path: Path) -> ClaudeStore:
    return ClaudeStore(directory, record_root=tmp_path / "record")


def flags(store: ClaudeStore) -> dict[str, list[str]]:
    return {n["id"]: n["claude"]["flags"] for n in store.read().notes if not n["hidden"]}


def test_every_line_claude_code_counts_as_listing_a_file_lists_it(tmp_path: Path) -> None:
    directory = memory(
        tmp_path,
        {
            "MEMORY.md": "- [my notes](my notes.md) \u2014 Notes with a space in the name\n"
            "- [deep](sub/deeper/deep.md) \u2014 Nested subfolder memory\n"
            "See [a](a.md) and [b](b.MD) inline\n"
            "- [x](./x.md)\n",
            "my notes.md": topic("Notes with a space in the name"),
            "sub/deeper/deep.md": topic("Nested subfolder memory"),
            "a.md": topic("first"),
            "b.md": topic("second"),
            "x.md": topic("third"),
        },
    )
    store = opened(directory, tmp_path)
    found = flags(store)
    assert set(found) == {"MEMORY.md", "my notes.md", "sub/deeper/deep.md", "a.md", "b.md", "x.md"}
    assert all(f == [] for f in found.values()), found
    assert store.plan().operations == []  # no entry to add, no line to remove


def test_links_claude_code_does_not_count_list_nothing(tmp_path: Path) -> None:
    text = (
        "- [up](../other/up.md)\n- [abs](/etc/passwd.md)\n- [web](https://example.invalid/r.md)\n"
        "- [paren](paren(1).md)\n- [anchor](topic.md#section)\n"
    )
    assert [index.topic_name(e.target) for e in index.entries(text)] == [None, None, None]


def test_the_entry_for_a_name_with_a_space_is_read_back_and_offered_once(tmp_path: Path) -> None:
    directory = memory(
        tmp_path,
        {"MEMORY.md": "# Memory\n", "my notes.md": topic("Notes with a space in the name")},
    )
    store = opened(directory, tmp_path)
    plan = store.plan()
    added = {d.note_id: d.after["content"] for d in plan.notes}
    line = "- [my notes](my notes.md) \u2014 Notes with a space in the name\n"
    assert added == {"MEMORY.md+my notes.md": line}
    store.apply(plan, [1])
    assert (directory / "MEMORY.md").read_text() == "# Memory\n" + line
    assert store.plan().operations == []
    assert flags(store)["my notes.md"] == []


def test_an_added_hook_is_cut_to_claude_codes_150_units(tmp_path: Path) -> None:
    words = " ".join(f"word{i}" for i in range(60))
    directory = memory(
        tmp_path,
        {"MEMORY.md": "# Memory\n", "long_desc.md": topic("a" * 200), "words.md": topic(words)},
    )
    added = {d.note_id: d.after["content"] for d in opened(directory, tmp_path).plan().notes}
    # no word boundary: cut to 150 - 27 - 3 - 1 units, then the ellipsis
    assert added["MEMORY.md+long_desc.md"] == (
        "- [long_desc](long_desc.md) \u2014 " + "a" * 119 + "\u2026\n"
    )
    # 150 - 19 - 3 = 128 units of room: cut to 127, back to the last whole word
    room = words[:127]
    assert added["MEMORY.md+words.md"] == (
        "- [words](words.md) \u2014 " + room[: room.rindex(" ")] + "\u2026\n"
    )
    assert all(len(line) <= 151 for line in added.values())


def test_subfolders_are_memory_as_claude_codes_scan_finds_it(tmp_path: Path) -> None:
    files = {
        "MEMORY.md": "- [deep](sub/deeper/deep.md)\n- [x](sub/logs/x.md)\n",
        "team/t.md": topic("the team's"),
        "Team./z.md": topic("the team's too"),
        "sub/deeper/deep.md": topic("nested"),
        "sub/logs/x.md": topic("logs below the top level"),
    }
    skipped = [
        "team/x/y.md",
        "sub/MEMORY.md",
        "logs/l.md",
        "LOGS/l.md",
        "Logs./l.md",
        "sessions/s.md",
        "proposals/p.md",
        ".hidden/h.md",
        ".dot.md",
        "notes.md.tmp.4242.0123456789ab",
    ]
    directory = memory(tmp_path, files | {name: topic("not memory") for name in skipped})
    found = flags(opened(directory, tmp_path))
    assert set(found) == set(files)
    # team/ files are the team's: Claude Code's index builder never lists them
    assert found["team/t.md"] == [] and found["Team./z.md"] == []


def test_a_link_in_a_subfolder_is_shown_and_never_read(tmp_path: Path) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text("PRIVATE KEY\n")
    directory = memory(tmp_path, {"MEMORY.md": "# Memory\n", "sub/real.md": topic("real")})
    os.symlink(secret, directory / "sub" / "key.md")
    notes = {n["id"]: n for n in opened(directory, tmp_path).read().notes}
    assert notes["sub/key.md"]["content"] == ""
    assert notes["sub/key.md"]["claude"]["link"] == str(secret)
    assert all("PRIVATE" not in n["content"] for n in notes.values())


def test_a_subfolder_file_deleted_with_its_folder_is_kept_and_put_back(tmp_path: Path) -> None:
    deep = topic("nested")
    directory = memory(
        tmp_path,
        {
            "MEMORY.md": "# Memory\n- [deep](sub/deeper/deep.md) \u2014 nested\n",
            "sub/deeper/deep.md": deep,
        },
    )
    store = opened(directory, tmp_path)
    store.read()  # recorded
    (directory / "sub" / "deeper" / "deep.md").unlink()
    (directory / "sub" / "deeper").rmdir()
    (directory / "sub").rmdir()
    (directory / "MEMORY.md").write_text("# Memory\n")
    hidden = {n["id"]: n for n in store.read().notes if n["hidden"]}
    assert hidden["sub/deeper/deep.md"]["content"] == deep
    store.unhide(["sub/deeper/deep.md"])
    assert (directory / "sub" / "deeper" / "deep.md").read_text() == deep
    assert (directory / "MEMORY.md").read_text() == (
        "# Memory\n- [deep](sub/deeper/deep.md) \u2014 nested\n"
    )
    store.undo(store.log()[0].run_id)
    assert not (directory / "sub" / "deeper" / "deep.md").exists()


def test_the_agents_change_to_a_subfolder_file_is_reviewed_and_put_back(tmp_path: Path) -> None:
    directory = memory(
        tmp_path, {"MEMORY.md": "- [t](team/t.md)\n", "team/t.md": topic("the team's")}
    )
    store = opened(directory, tmp_path)
    store.read()
    (directory / "team" / "t.md").write_text(topic("rewritten by the agent"))
    plan = store.plan()
    assert [op.note_id for op in plan.operations] == ["team/t.md"]
    store.apply(plan, [])  # left out: the reviewed version goes back
    assert (directory / "team" / "t.md").read_text() == topic("the team's")
