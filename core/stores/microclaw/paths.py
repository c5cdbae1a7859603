"""Where a MicroClaw data dir keeps things: the database, our journal, the file memory.

Pure path arithmetic except `resolve_data_dir` (which looks at what exists) and
`scope_files` (which asks which files exist); nothing here reads a file's bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DEFAULT_DATA_DIR = ".microclaw"
OLDER_DATA_DIR = "microclaw.data"  # the bot's older default, relative to where it ran
GLOBAL_NUGGET = "global"


def resolve_data_dir(
    explicit: Path | None = None, cwd: Path | None = None, user_home: Path | None = None
) -> Path:
    """--microclaw DIR, else ~/.microclaw, else ./microclaw.data (the older layout) when only
    that one holds a database."""
    if explicit is not None:
        return explicit.expanduser()
    home = (Path.home() if user_home is None else user_home) / DEFAULT_DATA_DIR
    older = (Path.cwd() if cwd is None else cwd) / OLDER_DATA_DIR
    if not database_path(home).exists() and database_path(older).exists():
        return older
    return home


def runtime_dir(data_dir: Path) -> Path:
    return data_dir / "runtime"


def database_path(data_dir: Path) -> Path:
    return runtime_dir(data_dir) / "microclaw.db"


def journal_home(data_dir: Path) -> Path:
    """Our journal lives beside the bot's database, never inside it."""
    return runtime_dir(data_dir) / "nuggets-review"


def groups_dir(data_dir: Path) -> Path:
    return runtime_dir(data_dir) / "groups"


@dataclass(frozen=True)
class Scope:
    """A nugget and the chat it stands for (None fields: the global scope)."""

    nugget: str
    chat_id: int | None = None
    channel: str | None = None
    external_chat_id: str | None = None

    @property
    def is_global(self) -> bool:
        return self.chat_id is None


def nugget_of(chat_id: int | None, channel: str | None, external_chat_id: str | None) -> str:
    """`global`, `<channel>:<external chat id>`, else `chat-<chat_id>`."""
    if chat_id is None:
        return GLOBAL_NUGGET
    if channel and channel.strip() and external_chat_id and external_chat_id.strip():
        return f"{channel}:{external_chat_id}"
    return f"chat-{chat_id}"


@dataclass(frozen=True)
class MemoryFile:
    """One file of the bot's file memory: where it is and what it stands for."""

    path: Path
    level: str  # "global", "bot" (one channel), "chat"
    name: str  # "AGENTS.md" or "USER.md"


NAME_MAX = 255  # bytes in one path component on the usual filesystems


def _chat_dirs(groups: Path, scope: Scope) -> list[Path]:
    """A chat's directories: the one the bot reads, `<channel>/<chat id>` (its internal
    `chats.chat_id`, never the external id), then the older `<chat id>` under groups/."""
    dirs = [groups / str(scope.chat_id)]
    if scope.channel and _plain_name(scope.channel.strip()):
        dirs.insert(0, groups / scope.channel.strip() / str(scope.chat_id))
    return dirs


def _plain_name(part: str) -> bool:
    """A path component that stays one directory level (no separators, no dot names) and
    that a filesystem takes (not longer than NAME_MAX bytes)."""
    return (
        bool(part)
        and "/" not in part
        and "\\" not in part
        and part not in (".", "..")
        and "\0" not in part
        and len(part.encode("utf-8", "surrogatepass")) <= NAME_MAX
    )


def candidate_files(data_dir: Path, scope: Scope) -> list[MemoryFile]:
    """Every place the bot may keep file memory for this scope, most general first."""
    groups = groups_dir(data_dir)
    found = [MemoryFile(groups / "AGENTS.md", "global", "AGENTS.md")]
    if scope.is_global:
        return found
    if scope.channel and _plain_name(scope.channel.strip()):
        found.append(MemoryFile(groups / scope.channel.strip() / "AGENTS.md", "bot", "AGENTS.md"))
    for directory in _chat_dirs(groups, scope):
        found += [
            MemoryFile(directory / "AGENTS.md", "chat", "AGENTS.md"),
            MemoryFile(directory / "USER.md", "chat", "USER.md"),
        ]
    return found


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # a name too long, a loop: not a file of the bot's
        return False


def scope_files(data_dir: Path, scope: Scope) -> list[MemoryFile]:
    """The file memory that exists for this scope (global AGENTS.md, the bot's, the chat's and
    its USER.md), most general first."""
    return [f for f in candidate_files(data_dir, scope) if _is_file(f.path)]


def target_problem(scope: Scope) -> str | None:
    """Why no AGENTS.md the bot reads can be named for this scope, in one line; None when
    one can."""
    if scope.is_global:
        return None
    channel = (scope.channel or "").strip()
    if not channel:
        return (
            f"{scope.nugget}: its channel is not known, so the AGENTS.md the bot reads "
            "for it cannot be named; not promoted"
        )
    if not _plain_name(channel):
        return (
            f"{scope.nugget}: its channel is not a name a folder can have, so the "
            "AGENTS.md the bot reads for it cannot be named; not promoted"
        )
    return None


def agents_md_target(data_dir: Path, scope: Scope) -> Path | None:
    """The AGENTS.md the bot reads for this scope, which promotion writes: global ->
    `groups/AGENTS.md`; a chat -> `groups/<channel>/<chats.chat_id>/AGENTS.md` (the bot's
    MemoryManager: the channel trimmed, the internal chat id). None when it cannot be named
    (`target_problem` says why)."""
    groups = groups_dir(data_dir)
    if scope.is_global:
        return groups / "AGENTS.md"
    if target_problem(scope) is not None:
        return None
    return groups / (scope.channel or "").strip() / str(scope.chat_id) / "AGENTS.md"
