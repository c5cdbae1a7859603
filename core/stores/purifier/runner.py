"""Running memory-purifier itself (docs/PURIFIER.md, "Acting through the purifier"): where its
scripts are, and one run of its orchestrator, `run_purifier.py`, which takes the purifier's own
run lock, writes its own artifacts, views and manifest, and logs its run to the shared
memory-log. We never write those files ourselves."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.errors import NuggetsError, PlanUnavailable
from core.safeio.json_read import loads
from core.stores.purifier import paths

ORCHESTRATOR = "run_purifier.py"
MODES = ("incremental", "reconciliation")
TIMEOUT_SECONDS = 1200  # the purifier's own cron timeout (its config's cron.timeout_seconds)
TOKENS_WARNING = (
    "the purifier's scoring passes call its model backend, which may spend "
    "tokens (none with its `file` backend)"
)


class NotInstalledError(NuggetsError):
    """The purifier's scripts are nowhere to be found."""


class PreviewUnavailable(PlanUnavailable):
    """The purifier's next run cannot be previewed (not installed, an upgrade pending): said,
    never shown as a run that would change nothing."""


class RunFailed(NuggetsError):
    """The purifier's run did not publish; the message is its own."""


@dataclass(frozen=True)
class Installation:
    """The purifier's scripts and the config it reads for this workspace."""

    scripts: Path
    config: Path | None

    @property
    def orchestrator(self) -> Path:
        return self.scripts / ORCHESTRATOR


@dataclass(frozen=True)
class RunResult:
    """What the purifier's orchestrator reported (its final JSON on stdout)."""

    status: str
    run_id: str
    reason: str
    report: dict[str, Any] = field(default_factory=dict)

    @property
    def published(self) -> bool:
        return self.status == "ok"

    def line(self) -> str:
        """One line: the purifier's run, its status, its counts or its own reason."""
        counts = (
            (
                f"{self.report.get('claimsNew', 0)} new claims, "
                f"{self.report.get('claimsTotal', 0)} in all"
            )
            if self.published
            else ""
        )
        said = "; ".join(part for part in (counts, self.reason) if part)
        return f"the purifier's run {self.run_id or '(no id)'}: {self.status}" + (
            f" ({said})" if said else ""
        )


def find(workspace: Path, chosen: Path | None) -> Installation:
    """The scripts named (`--purifier-scripts DIR`: the scripts folder or the package above
    it), else the package its install.sh put in a skills folder (paths.skills_scripts)."""
    config = paths.config_path(workspace)
    found = config if config.is_file() else None
    chosen = Path(os.path.abspath(chosen.expanduser())) if chosen is not None else None
    candidates = (
        [chosen, chosen / "scripts"] if chosen is not None else paths.skills_scripts(workspace)
    )
    for folder in candidates:
        if (folder / ORCHESTRATOR).is_file():
            return Installation(folder, found)
    where = chosen if chosen is not None else " nor ".join(map(str, candidates))
    raise NotInstalledError(
        f"memory-purifier is not installed: no {ORCHESTRATOR} in {where} "
        "(name its scripts with --purifier-scripts DIR)"
    )


def announcement(workspace: Path, chosen: Path | None) -> str:
    """Said before a preview or a run: the code that runs, from where, and what it may cost."""
    try:
        found = find(workspace, chosen)
    except NotInstalledError as exc:
        return str(exc)
    where = os.path.realpath(found.orchestrator)
    inside = Path(where).is_relative_to(os.path.realpath(workspace))
    return (
        f"memory-purifier's own code runs: {found.orchestrator} and the scripts beside it"
        + (", code that lives inside the workspace under review" if inside else "")
        + f"; {TOKENS_WARNING}"
    )


def command(
    found: Installation,
    workspace: Path,
    mode: str,
    telemetry: Path,
    acknowledge_upgrade: bool = False,
    extra: tuple[str, ...] = (),
    config: Path | None = None,
) -> list[str]:
    """The orchestrator's command line for one run of `workspace`, its telemetry under
    `telemetry` (the shared memory-log there, last-run.md in its own folder), with `config`
    (a preview's copy) instead of the installation's when given."""
    if mode not in MODES:
        raise NuggetsError(f"{mode}: not a purifier run (known: {', '.join(MODES)})")
    argv = [
        sys.executable,
        str(found.orchestrator),
        "--mode",
        mode,
        "--workspace",
        str(workspace),
        "--telemetry-root",
        str(telemetry / "memory-purifier"),
        "--global-log-root",
        str(telemetry),
    ]
    config = config if config is not None else found.config
    if config is not None:
        argv += ["--config", str(config)]
    if acknowledge_upgrade:
        argv.append("--acknowledge-upgrade")
    return [*argv, *extra]


def run(argv: list[str], cwd: Path) -> RunResult:
    """Run the orchestrator and read its final report; RunFailed with its own message when
    it failed, or said nothing we can read."""
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, cwd=cwd, timeout=TIMEOUT_SECONDS, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise RunFailed(f"the purifier could not be run: {exc}") from None
    result = parse_report(done.stdout, done.stderr, done.returncode)
    if result.status in ("failed", "partial_failure", "upgrade_required"):
        raise RunFailed(result.line())
    return result


def parse_report(stdout: str, stderr: str, code: int) -> RunResult:
    """The orchestrator's last JSON object on stdout (it prints instructions before it when
    an upgrade is pending)."""
    start = stdout.find("{")
    try:
        report = loads(stdout[start:]) if start >= 0 else None
    except ValueError:
        report = None
    if not isinstance(report, dict):
        last = (stderr.strip().splitlines() or stdout.strip().splitlines() or [""])[-1]
        raise RunFailed(f"the purifier's run failed (exit {code}): {last or 'no output'}")
    status = str(report.get("status") or ("ok" if code == 0 else "failed"))
    reason = report.get("haltReason") or report.get("skipReason") or report.get("reason") or ""
    return RunResult(status, str(report.get("runId") or ""), str(reason), report)


def run_for_real(
    workspace: Path,
    found: Installation,
    mode: str,
    acknowledge_upgrade: bool = False,
    extra: tuple[str, ...] = (),
) -> RunResult:
    """One run of the real workspace, logged where the purifier logs beside it."""
    telemetry = paths.telemetry_root(workspace)
    return run(command(found, workspace, mode, telemetry, acknowledge_upgrade, extra), workspace)
