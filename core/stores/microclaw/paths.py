"""Where a MicroClaw data dir keeps things: the database, our journal, the file memory.

Pure path arithmetic except `resolve_data_dir` (which looks at what exists) and
`scope_files` (which asks which files exist); nothing here reads a file's bytes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DATA_DIR_ENV = "MICROCLAW_DATA_DIR"
DEFAULT_DATA_DIR = ".microclaw"
OLDER_DATA_DIR = "microclaw.data"  # the bot's older default, relative to where it ran
GLOBAL_NUGGET = "global"


def resolve_data_dir(explicit: Path | None = None, cwd: Path | None = None,
                     user_home: Path | None = None,
                     environ: Mapping[str, str] | None = None) -> Path:
    """--microclaw DIR, else ~/.microclaw, else ./microclaw.data (the older layout) when only
    that one holds a database."""
    if explicit is not None:
        return explicit.expanduser()
    if environ and environ.get(DATA_DIR_ENV):
        return Path(environ[DATA_DIR_ENV]).expanduser()
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


def _chat_dirs(groups: Path, scope: Scope) -> list[Path]:
    """A chat's directories, newest layout first: <channel>/<external id>, <channel>/<chat id>,
    then the older <chat id> (and <external id>) directly under groups/."""
    dirs: list[Path] = []
    ids = [i for i in (scope.external_chat_id, str(scope.chat_id)) if i and _plain_name(i)]
    if scope.channel and _plain_name(scope.channel):
        dirs += [groups / scope.channel / i for i in ids]
    dirs += [groups / i for i in ids]
    return list(dict.fromkeys(dirs))


def _plain_name(part: str) -> bool:
    """A path component that stays one directory level (no separators, no dot names)."""
    return bool(part) and "/" not in part and "\\" not in part and part not in (".", "..") \
        and "\0" not in part


def candidate_files(data_dir: Path, scope: Scope) -> list[MemoryFile]:
    """Every place the bot may keep file memory for this scope, most general first."""
    groups = groups_dir(data_dir)
    found = [MemoryFile(groups / "AGENTS.md", "global", "AGENTS.md")]
    if scope.is_global:
        return found
    if scope.channel and _plain_name(scope.channel):
        found.append(MemoryFile(groups / scope.channel / "AGENTS.md", "bot", "AGENTS.md"))
    for directory in _chat_dirs(groups, scope):
        found += [MemoryFile(directory / "AGENTS.md", "chat", "AGENTS.md"),
                  MemoryFile(directory / "USER.md", "chat", "USER.md")]
    return found


def scope_files(data_dir: Path, scope: Scope) -> list[MemoryFile]:
    """The file memory that exists for this scope (global AGENTS.md, the bot's, the chat's and
    its USER.md), most general first."""
    return [f for f in candidate_files(data_dir, scope) if f.path.is_file()]


def agents_md_target(data_dir: Path, scope: Scope) -> Path:
    """The AGENTS.md a promotion of this scope's rows writes: global -> groups/AGENTS.md; a chat
    -> the chat's AGENTS.md that exists (either layout), else the newest layout's path."""
    groups = groups_dir(data_dir)
    if scope.is_global:
        return groups / "AGENTS.md"
    chat_files = [f.path for f in candidate_files(data_dir, scope)
                  if f.level == "chat" and f.name == "AGENTS.md"]
    existing = [p for p in chat_files if p.is_file()]
    return (existing or chat_files or [groups / f"{scope.chat_id}" / "AGENTS.md"])[0]
