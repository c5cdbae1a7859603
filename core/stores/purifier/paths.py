"""Where a memory-purifier workspace keeps what the console reads (docs/PURIFIER.md)."""

from __future__ import annotations

from pathlib import Path

from core.safeio.json_read import loads

OPENCLAW_HOME = Path("~/.openclaw")
DEFAULT_WORKSPACE = OPENCLAW_HOME / "workspace"
CONFIG = OPENCLAW_HOME / "memory-purifier" / "memory-purifier.json"
CONFIG_BYTES = 1024 * 1024
CLAIMS = "purified-claims.jsonl"
CONTRADICTIONS = "purified-contradictions.jsonl"
REJECTED = "rejected-candidates.jsonl"
DEFERRED = "deferred-candidates.jsonl"
MANIFEST = "purified-manifest.json"
# The views each of its runs regenerates in the workspace.
VIEWS = ("LTMEMORY.md", "PLAYBOOKS.md", "EPISODES.md", "HISTORY.md", "WISHES.md")
COMPONENT = "memory-purifier.purifier"
SKILL_FOLDER = ("skills", "memory-purifier", "scripts")  # where its install.sh puts the package
KNOWN_MANIFEST_SCHEMA = 1


def resolve_workspace(
    chosen: Path | None, variable: Path | None = None, config: Path = CONFIG
) -> Path:
    """The workspace named, else the one the purifier itself would use: its config's
    `paths.workspace`, else $WORKSPACE (`variable`: the settings' purifier_workspace), else
    ~/.openclaw/workspace (its scripts' order)."""
    if chosen is not None:
        return chosen.expanduser()
    found = configured_workspace(config.expanduser())
    return Path(found).expanduser() if found else (variable or DEFAULT_WORKSPACE.expanduser())


def configured_workspace(config: Path) -> str | None:
    """`paths.workspace` of the purifier's config (None: no config, unreadable, or unset)."""
    try:
        with config.open("rb") as handle:
            data = loads(handle.read(CONFIG_BYTES))
    except (OSError, ValueError):
        return None
    paths = data.get("paths") if isinstance(data, dict) else None
    workspace = paths.get("workspace") if isinstance(paths, dict) else None
    return workspace if isinstance(workspace, str) and workspace else None


def runtime_dir(workspace: Path) -> Path:
    return workspace / "runtime"


def locks_dir(workspace: Path) -> Path:
    return runtime_dir(workspace) / "locks"


def openclaw_home(workspace: Path) -> Path:
    """The folder holding the purifier's config and telemetry for this workspace: the one
    the workspace is in when laid out as its installer's default (`<home>/workspace`, its
    `telemetry/` or `memory-purifier/` beside it), else ~/.openclaw, where its installer puts
    them whatever the workspace ($WORKSPACE elsewhere moves only the workspace)."""
    beside = workspace.parent
    if workspace.name == DEFAULT_WORKSPACE.name or any(
        (beside / name).is_dir() for name in ("telemetry", "memory-purifier")
    ):
        return beside
    return OPENCLAW_HOME.expanduser()


def telemetry_root(workspace: Path) -> Path:
    """The shared telemetry root (the memory-log of every workspace on the host)."""
    return openclaw_home(workspace) / "telemetry"


def config_path(workspace: Path) -> Path:
    """Its config, where its install.sh seeds it: `<openclaw home>/memory-purifier/`."""
    return openclaw_home(workspace) / "memory-purifier" / "memory-purifier.json"


def skills_scripts(workspace: Path) -> list[Path]:
    """Where its install.sh puts its scripts: the workspace's skills folder, or, for a
    workspace elsewhere, the default workspace's (its SKILLS_PATH does not follow
    $WORKSPACE)."""
    found = [workspace.joinpath(*SKILL_FOLDER)]
    other = openclaw_home(workspace) / DEFAULT_WORKSPACE.name
    return found if other == workspace else [*found, other.joinpath(*SKILL_FOLDER)]


def last_run_md(workspace: Path) -> Path:
    return telemetry_root(workspace) / "memory-purifier" / "last-run.md"
