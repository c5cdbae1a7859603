"""Which memory folder Claude Code uses for a working directory (docs/CLAUDE_CODE.md, "Which
directory"): one resolver for the Claude Code store's default directory and for promotion's
default MEMORY.md. Deciding is pure (`resolve`); reading the repository and Claude Code's settings
files is thin (`memory_folder`).

In order: `$CLAUDE_COWORK_MEMORY_PATH_OVERRIDE` (an absolute path, `~` not expanded); the
`autoMemoryDirectory` setting of the first of Claude Code's settings files that holds one (policy,
then local, project, user; `~/` expanded; a value that is no usable path gives the default, not
the next file); else `<root>/projects/<name>/memory/`, `<root>` being
`$CLAUDE_CODE_REMOTE_MEMORY_DIR`, else `$CLAUDE_CONFIG_DIR`, else `~/.claude`, and `<name>` the
base path (the repository's root, a linked worktree's main worktree, else the working directory)
with every UTF-16 unit outside `[a-zA-Z0-9]` as `-`, cut at 200 with `-` and a base-36 hash when
longer; or `$CLAUDE_CODE_PROJECT_DIR_NAME` under a non-empty config dir.
"""

from __future__ import annotations

import os
import re
import string
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.errors import NuggetsError
from core.safeio.json_read import loads
from core.safeio.open_regular import read_regular
from core.settings import Settings

POLICY = Path("/etc/claude-code/managed-settings.json")
MAX_NAME = 200
SETTINGS_BYTES = 1 << 20
_PROJECT_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
_RESERVED = re.compile(r"(con|prn|aux|nul|com[0-9]|lpt[0-9])", re.IGNORECASE)
_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
_ALNUM = frozenset(string.ascii_letters + string.digits)


@dataclass(frozen=True)
class ClaudeEnvironment:
    """The variables Claude Code reads for its memory folder, as the settings give them."""

    config_dir: str | None = None
    remote_memory_dir: str | None = None
    path_override: str | None = None
    project_dir_name: str | None = None
    disable_auto_memory: str | None = None
    simple: str | None = None
    remote: str | None = None
    safe_mode: str | None = None

    @classmethod
    def of(cls, settings: Settings) -> ClaudeEnvironment:
        return cls(
            settings.claude_config_dir,
            settings.claude_remote_memory_dir,
            settings.claude_memory_path_override,
            settings.claude_project_dir_name,
            settings.claude_disable_auto_memory,
            settings.claude_simple,
            settings.claude_remote,
            settings.claude_safe_mode,
        )


@dataclass(frozen=True)
class SettingsFile:
    """One of Claude Code's settings files, as read: its source and its values."""

    source: str  # "policy", "local", "project", "user"
    path: Path
    values: Mapping[str, Any]


@dataclass(frozen=True)
class Folder:
    path: Path  # the memory folder
    why: str  # how it was chosen, for a person
    off: str  # why Claude Code does not use it now ("" when its auto memory is on)


def _units(text: str) -> list[int]:
    data = text.encode("utf-16-le", "surrogatepass")
    return [int.from_bytes(data[i : i + 2], "little") for i in range(0, len(data), 2)]


def path_hash(path: str) -> str:
    """Java's String.hashCode of the path's UTF-16 units, its absolute value in base 36."""
    value = 0
    for unit in _units(path):
        value = (value * 31 + unit) & 0xFFFFFFFF
    value = abs(value - (1 << 32) if value >= 1 << 31 else value)
    digits = ""
    while True:
        value, digit = divmod(value, 36)
        digits = _DIGITS[digit] + digits
        if not value:
            return digits


def folder_name(base: str) -> str:
    """The base path as Claude Code names its folder: each UTF-16 unit outside [a-zA-Z0-9] a
    `-` (an emoji's two give `--`), cut at 200 with `-` and the path's hash beyond that."""
    name = "".join(chr(u) if chr(u) in _ALNUM else "-" for u in _units(base))
    return name if len(name) <= MAX_NAME else f"{name[:MAX_NAME]}-{path_hash(base)}"


def _truthy(value: str | None) -> bool:
    return value is not None and value.strip().lower() in _TRUE


def _falsy(value: str | None) -> bool:
    return value is not None and value.strip().lower() in _FALSE


def checked(value: object, home: Path, tilde: bool) -> str | None:
    """A memory folder named by a variable or a setting, as Claude Code accepts it: absolute,
    3 characters or more, no NUL, not a network path; `~/` expanded only for a setting (never
    `~/` alone, never out of home). None when refused."""
    if not isinstance(value, str) or not value:
        return None
    if tilde and value.startswith(("~/", "~\\")):
        rest = value[2:]
        joined = os.path.normpath(os.path.join(home, rest))
        inside = joined.startswith(str(home).rstrip("/") + "/")
        if not rest.strip("/\\") or not inside:
            return None
        value = joined
    normal = os.path.normpath(value).rstrip("/\\") if value.strip("/\\") else value
    if not os.path.isabs(normal) or len(normal) < 3 or "\0" in normal or normal.startswith("//"):
        return None
    return unicodedata.normalize("NFC", normal + "/")


def _first_value(files: Sequence[SettingsFile], key: str) -> tuple[SettingsFile, object] | None:
    for each in files:
        if each.values.get(key) is not None:
            return each, each.values[key]
    return None


def resolve(
    base: Path,
    based_on: str,
    home: Path,
    env: ClaudeEnvironment,
    files: Sequence[SettingsFile] = (),
) -> Folder:
    """The folder, from the base path (`based_on` says what it is), home, the environment and
    Claude Code's settings files (in the order they are tried)."""
    off = _off(env, files)
    override = checked(env.path_override, home, tilde=False)
    if override is not None:
        return Folder(Path(override), "$CLAUDE_COWORK_MEMORY_PATH_OVERRIDE", off)
    setting = _first_value(files, "autoMemoryDirectory")
    if setting is not None:
        chosen = checked(setting[1], home, tilde=True)
        if chosen is not None:
            return Folder(Path(chosen), f"autoMemoryDirectory in {setting[0].path}", off)
    config = env.config_dir if env.config_dir is not None else str(home / ".claude")
    if env.remote_memory_dir:
        root, name = env.remote_memory_dir, folder_name(str(base))
    else:
        root, name = config, _project_name(env) or folder_name(str(base))
    path = unicodedata.normalize("NFC", os.path.normpath(os.path.join(root, "projects", name)))
    return Folder(Path(path) / "memory", f"keyed by {based_on} {base}", off)


def _project_name(env: ClaudeEnvironment) -> str | None:
    name = env.project_dir_name
    if not env.config_dir or name is None or not _PROJECT_NAME.fullmatch(name):
        return None
    return None if _RESERVED.fullmatch(name) else name


def _off(env: ClaudeEnvironment, files: Sequence[SettingsFile]) -> str:
    """Why Claude Code's auto memory is off ("" when on)."""
    if _truthy(env.safe_mode):
        return "CLAUDE_CODE_SAFE_MODE is set"
    if _truthy(env.disable_auto_memory):
        return "CLAUDE_CODE_DISABLE_AUTO_MEMORY is set"
    if _falsy(env.disable_auto_memory):
        return ""  # forced on
    if _truthy(env.simple):
        return "CLAUDE_CODE_SIMPLE is set (--bare)"
    if _truthy(env.remote) and not env.remote_memory_dir and not env.path_override:
        return "CLAUDE_CODE_REMOTE is set with no memory folder"
    enabled = _first_value(files, "autoMemoryEnabled")
    if enabled is not None and enabled[1] is False:
        return f"autoMemoryEnabled is false in {enabled[0].path}"
    return ""


# -- reading: the repository and the settings files --------------------------------------------


def git_root(start: Path) -> Path | None:
    """The nearest folder from `start` up holding a `.git` folder or file."""
    for folder in (start, *start.parents):
        git = folder / ".git"
        if git.is_dir() or git.is_file():
            return folder
    return None


def _read_text(path: Path) -> str | None:
    """A small regular file's text (never a pipe or a device), None when it cannot be read."""
    try:
        return read_regular(path, SETTINGS_BYTES).decode("utf-8", "replace").strip()
    except (OSError, NuggetsError):
        return None


def _against(folder: Path | str, written: str) -> str:
    return os.path.normpath(os.path.join(folder, written))


def base_path(start: Path) -> tuple[Path, str]:
    """Claude Code's base path for a session started in `start` (physical, as `os.getcwd()`
    gives it), and what it is: the repository's root; a linked worktree's main worktree (or
    its bare repository); else `start` itself."""
    root = git_root(start)
    if root is None:
        return start, "the working directory"
    pointer = _read_text(root / ".git") if (root / ".git").is_file() else None
    if not pointer or not pointer.startswith("gitdir:"):
        return root, "the repository root"
    linked = _against(root, pointer.removeprefix("gitdir:").strip())
    common = _read_text(Path(linked) / "commondir")
    back = _read_text(Path(linked) / "gitdir")
    if common is None or back is None:
        return root, "the repository root"  # a submodule keeps its own root
    common_dir = _against(linked, common)
    agrees = os.path.dirname(linked) == os.path.join(common_dir, "worktrees") and (
        os.path.realpath(_against(linked, back)) == os.path.join(os.path.realpath(root), ".git")
    )
    if not agrees:
        return root, "the repository root"
    if os.path.basename(common_dir) == ".git":
        return Path(os.path.dirname(common_dir)), "the main worktree of the repository"
    if os.path.exists(os.path.join(common_dir, ".git")):
        return root, "the repository root"
    return Path(common_dir), "the bare repository"


def _json(path: Path) -> dict[str, Any]:
    text = _read_text(path)
    try:
        values = loads(text) if text else {}
    except ValueError:
        return {}
    return values if isinstance(values, dict) else {}


def settings_files(
    start: Path, root: Path | None, config_dir: Path, policy: Path = POLICY
) -> list[SettingsFile]:
    """Claude Code's settings files in the order they are tried (as in a trusted workspace):
    policy; local (the working directory's, over the repository root's); project; user."""
    local = _json(root / ".claude" / "settings.local.json") if root and root != start else {}
    local = {**local, **_json(start / ".claude" / "settings.local.json")}
    return [
        SettingsFile("policy", policy, _json(policy)),
        SettingsFile("local", start / ".claude" / "settings.local.json", local),
        SettingsFile(
            "project",
            start / ".claude" / "settings.json",
            _json(start / ".claude" / "settings.json"),
        ),
        SettingsFile("user", config_dir / "settings.json", _json(config_dir / "settings.json")),
    ]


def memory_folder(
    settings: Settings, cwd: Path | None = None, home: Path | None = None, policy: Path = POLICY
) -> Folder:
    """The memory folder Claude Code uses, started in `cwd` (default: the working directory)."""
    start = Path(cwd or os.getcwd())
    home = home or Path.home()
    env = ClaudeEnvironment.of(settings)
    base, based_on = base_path(start)
    config = Path(env.config_dir) if env.config_dir is not None else home / ".claude"
    files = settings_files(start, git_root(start), config, policy)
    return resolve(base, based_on, home, env, files)
