"""The gate on the agent's own daily pass: `nuggets doctor` and the console's header say it is
on exactly when the agent's gateway would still run it, read from a checkout laid out as the
agent's is (`.env`, `.gateway/cron/jobs.json` as its gateway writes it, the extension that
offers the pass tool), and go quiet once it is gated."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from core.clock import fixed_clock, parse_iso
from core.settings import Settings
from core.stores.nuggets.agent_gate import (
    field_matches,
    job_fires,
    js_number,
    pass_findings,
    read_checkout,
    window_opens,
)
from core.stores.nuggets.store import NuggetsStore
from nuggets_tui.app import NuggetsApp
from tests.support.cli_support import NOW, run
from tests.support.console_support import settle
from tests.support.note_builders import make_home
from tests.support.reliability_support import note

SIZE = (160, 40)


def _now() -> datetime:
    moment = parse_iso(NOW)
    assert moment is not None
    return moment


def _job(
    cron: str, enabled: object = True, system: str | None = "memory_reflection"
) -> dict[str, object]:
    job: dict[str, object] = {
        "id": "a1b2c3d4",
        "jid": "123@s.whatsapp.net",
        "cron": cron,
        "prompt": "Run reflectAndCleanMemory() to maintain the memory graph.",
        "enabled": enabled,
        "oneShot": False,
        "createdAt": "2026-11-01T08:00:00.000Z",
        "hidden": True,
    }
    if system is not None:
        job["system"] = system
    return job


def _checkout(
    root: Path, env: str | None, jobs: list[dict[str, object]] | None, tool: bool = True
) -> Path:
    agent = root / "donna"
    (agent / ".gateway" / "cron").mkdir(parents=True)
    if env is not None:
        (agent / ".env").write_text(env)
    if jobs is not None:
        (agent / ".gateway" / "cron" / "jobs.json").write_text(json.dumps(jobs, indent=2) + "\n")
    if tool:
        (agent / ".pi" / "extensions").mkdir(parents=True)
        (agent / ".pi" / "extensions" / "proactive.ts").write_text("// the pass tool\n")
    return agent


def _warnings(agent: Path) -> list[str]:
    return [line.text for line in pass_findings(read_checkout(agent)) if line.warning]


@pytest.mark.parametrize(
    ("text", "value"),
    [("24", 24.0), (" 9 ", 9.0), ("", 0.0), ("0x17", 23.0), ("off", None), ("9h", None)],
)
def test_numbers_are_read_as_the_gateway_reads_them(text: str, value: float | None) -> None:
    got = js_number(text)
    assert (got != got) if value is None else got == value  # NaN for a malformed one


@pytest.mark.parametrize(
    ("hour", "opens"),
    [("9", True), ("23", True), ("", True), ("-1", True), ("24", False), ("off", False)],
)
def test_the_heartbeat_window_opens_unless_the_hour_never_comes(hour: str, opens: bool) -> None:
    assert window_opens(hour, "0") is opens


@pytest.mark.parametrize(
    ("cron", "enabled", "fires"),
    [
        ("0 9 * * *", True, True),
        ("0 9 * * *", False, False),
        ("0 24 * * *", True, False),  # a job made while the hour was 24
        ("0 NaN * * *", True, False),  # made while the hour was `off`
        ("0 -1 * * *", True, True),  # read as the range 0-1: midnight and one o'clock
        ("*/30 8-10 * * 1-5", True, True),
        ("0 9 * *", True, False),  # four fields: never
    ],
)
def test_a_cron_job_fires_as_the_gateway_matches_it(cron: str, enabled: bool, fires: bool) -> None:
    assert job_fires(_job(cron, enabled)) is fires


def test_a_number_outside_the_field_never_matches_but_a_range_end_is_not_checked() -> None:
    assert not any(field_matches("24", hour, 0, 23) for hour in range(24))
    assert field_matches("20-30", 23, 0, 23)


def test_an_agent_as_installed_runs_its_own_pass_by_cron_and_heartbeat(tmp_path: Path) -> None:
    agent = _checkout(tmp_path, None, [_job("0 9 * * *"), _job("0 9 * * *")])
    warned = _warnings(agent)
    assert len(warned) == 2
    assert "2 enabled daily-pass jobs (0 9 * * *)" in warned[0]
    assert "MEMORY_REFLECTION_HOUR is unset (9)" in warned[1]


def test_the_gate_the_readme_gives_leaves_only_the_models_own_call(tmp_path: Path) -> None:
    agent = _checkout(
        tmp_path,
        "# gateway\nMEMORY_REFLECTION_HOUR=24\n",
        [_job("0 9 * * *", enabled=False), _job("15 10 * * *", system=None)],
    )
    found = pass_findings(read_checkout(agent))
    assert [line.warning for line in found] == [False]
    assert "proactive.ts" in found[0].text and "no switch" in found[0].text


@pytest.mark.parametrize(
    ("env", "on"),
    [
        ('MEMORY_REFLECTION_HOUR="24"\n', False),
        ("export MEMORY_REFLECTION_HOUR=off # no pass\n", False),
        ("MEMORY_REFLECTION_HOUR=24\nMEMORY_REFLECTION_HOUR=\n", True),  # empty: midnight
    ],
)
def test_the_env_file_is_read_as_dotenv_reads_it(tmp_path: Path, env: str, on: bool) -> None:
    agent = _checkout(tmp_path, env, [], tool=False)
    assert bool(_warnings(agent)) is on


def test_only_the_cron_half_of_the_gate_still_warns(tmp_path: Path) -> None:
    # a job made before the hour was moved keeps its 09:00
    agent = _checkout(tmp_path, "MEMORY_REFLECTION_HOUR=24\n", [_job("0 9 * * *")])
    warned = _warnings(agent)
    assert len(warned) == 1 and "jobs.json: 1 enabled daily-pass job" in warned[0]


def _home(tmp_path: Path, agent_merged: bool = False) -> Path:
    notes = [note("n1", "deploy", "run make deploy"), note("n2", "deploy", "run make deploy")]
    if agent_merged:
        notes[1]["hidden"] = True
        notes[1]["archivedAt"] = "2026-10-30T09:00:04.000Z"
        notes[1]["links"] = [
            {"to": "n1", "reason": "merged during daily memory reflection", "at": "x"}
        ]
    return make_home(tmp_path, notes)


def test_doctor_says_the_pass_is_on_and_exits_1_then_0_once_gated(tmp_path: Path) -> None:
    home = _home(tmp_path)
    agent = _checkout(tmp_path, None, [_job("0 9 * * *")])
    result = run(home, "doctor", env={"NUGGETS_AGENT_DIR": str(agent)})
    assert result.exit_code == 1, result.output
    first = result.stdout.splitlines()[0]
    assert first.startswith("WARNING: the agent's own daily pass is on and will redo")
    assert "nuggets daily --hold" in first
    (agent / ".env").write_text("MEMORY_REFLECTION_HOUR=24\n")
    jobs = [_job("0 9 * * *", enabled=False)]
    (agent / ".gateway" / "cron" / "jobs.json").write_text(json.dumps(jobs))
    result = run(home, "doctor", env={"NUGGETS_AGENT_DIR": str(agent)})
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("the agent's own daily pass is off on its schedule")


def test_without_the_checkout_doctor_reads_the_agents_traces(tmp_path: Path) -> None:
    plain = run(_home(tmp_path / "a"), "doctor", env={"NUGGETS_AGENT_DIR": ""})
    assert plain.exit_code == 0 and "set $NUGGETS_AGENT_DIR" in plain.stdout
    merged = run(_home(tmp_path / "b", agent_merged=True), "doctor", "--json")
    assert merged.exit_code == 1
    found = json.loads(merged.stdout)
    assert found[0]["warning"] and "1 notes merged away by it" in found[0]["text"]
    assert "the last archived 2026-10-30 09:00 UTC" in found[0]["text"]  # a sentence, as said


async def test_the_console_header_says_the_pass_is_on(tmp_path: Path) -> None:
    home = _home(tmp_path)
    agent = _checkout(tmp_path, None, [_job("0 9 * * *")])
    settings = Settings.of(agent_dir=agent)
    app = NuggetsApp(NuggetsStore(home, fixed_clock(_now()), settings=settings))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        header = str(app.screen.query_one("#title-bar").render())
        assert "agent's own pass ON (1 cron job, heartbeat after hour 9)" in header


async def test_a_gated_agent_leaves_the_header_plain(tmp_path: Path) -> None:
    home = _home(tmp_path)
    agent = _checkout(tmp_path, "MEMORY_REFLECTION_HOUR=24\n", [])
    app = NuggetsApp(NuggetsStore(home, fixed_clock(_now()), settings=Settings.of(agent_dir=agent)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        header = str(app.screen.query_one("#title-bar").render())
        assert "Nuggets" in header and "pass" not in header
