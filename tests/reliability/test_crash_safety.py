"""Kill the engine (SIGKILL) at every step of apply, unhide, undo and promotion, and at random
moments of a run of them: afterwards the graph and MEMORY.md are each the old or the new version,
parse cleanly, and the journal holds a run exactly when it landed."""

from __future__ import annotations

import json
import os
import random
import time
import traceback
from collections.abc import Callable
from pathlib import Path

import pytest

from core.errors import StalePlanError
from core.notes.snapshot import fingerprint
from core.safeio import crashpoints
from core.stores.nuggets.graph_file import read_graph
from core.stores.nuggets.store import NuggetsStore
from tests.support.figures import record
from tests.support.reliability_support import (
    copy_home,
    graph_bytes,
    leftovers,
    make_home,
    memory_md_bytes,
    memory_of,
    messy_notes,
    note,
    run_in_child,
    traced_steps,
)

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")

Action = Callable[[NuggetsStore], object]


def _apply_all(memory: NuggetsStore) -> object:
    return memory.apply(memory.plan(uncapped=True))


def _apply_half(memory: NuggetsStore) -> object:
    plan = memory.plan(uncapped=True)
    return memory.apply(plan, [op.id for op in plan.operations[::2]])


def _unhide(memory: NuggetsStore) -> object:
    return memory.unhide(["n6"])


def _undo_latest(memory: NuggetsStore) -> object:
    return memory.undo(memory.log()[0].run_id)


def _promote(memory: NuggetsStore) -> object:
    return memory.promote_now()


SCENARIOS: dict[str, Action] = {
    "apply": _apply_all,
    "apply a subset": _apply_half,
    "unhide": _unhide,
    "undo": _undo_latest,
    "promote": _promote,
}


def _template(tmp_path: Path, scenario: str) -> Path:
    home = make_home(tmp_path / "template", messy_notes(), "# Memory\n\nHand-written line.\n")
    if scenario == "undo":
        _apply_all(memory_of(home))
    return home


def _journal(home: Path) -> list[str]:
    directory = home / "reflections"
    return sorted(p.name for p in directory.glob("*.json")) if directory.is_dir() else []


def _state(home: Path) -> tuple[bytes, bytes | None, list[str]]:
    return graph_bytes(home), memory_md_bytes(home), _journal(home)


def _check_settled(home: Path, old: tuple, new: tuple) -> str:
    """After recovery: each file is old or new, parses, and the journal matches the file the
    run writes (the graph, or MEMORY.md for a promotion)."""
    graph, memory_md, journal = _state(home)
    assert graph in (old[0], new[0])
    assert memory_md in (old[1], new[1])
    read_graph(home / "graph" / "graph.json")  # parses cleanly
    graph_landed = graph == new[0] and old[0] != new[0]
    landed = graph_landed or (memory_md == new[1] != old[1])  # a promotion writes MEMORY.md
    assert journal == (new[2] if landed else old[2])
    if landed:
        entry = memory_of(home).log()[0]
        written = graph if graph_landed else memory_md
        assert written is not None and entry.result_fingerprint == fingerprint(written)
    assert leftovers(home) == []
    return "new" if landed else "old"


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_killed_at_every_step_leaves_old_or_new(tmp_path: Path, scenario: str) -> None:
    action = SCENARIOS[scenario]
    template = _template(tmp_path, scenario)
    old = _state(template)
    done = copy_home(template, tmp_path / "done")
    action(memory_of(done))
    new = _state(done)
    assert new != old
    scratch = copy_home(template, tmp_path / "traced")
    steps = traced_steps(lambda: action(memory_of(scratch)))
    assert len(steps) >= 5, steps
    outcomes = set()
    for k in range(1, len(steps) + 1):
        home = copy_home(template, tmp_path / f"k{k}")
        child = run_in_child(lambda home=home: action(memory_of(home)), crash_at=k)
        assert child.killed, (k, steps[k - 1], child)
        had_leftovers = bool(leftovers(home))
        messages = memory_of(home).recover()
        assert bool(messages) == had_leftovers, (steps[k - 1], messages)
        outcomes.add(_check_settled(home, old, new))
        # the memory works normally afterwards
        memory_of(home).apply(memory_of(home).plan(uncapped=True))
        assert leftovers(home) == []
    assert outcomes == {"old", "new"}, outcomes
    record("kill points tried", len(steps))
    record("crash trials", len(steps))


def test_killed_again_while_recovering(tmp_path: Path) -> None:
    template = _template(tmp_path, "apply")
    old = _state(template)
    done = copy_home(template, tmp_path / "done")
    _apply_all(memory_of(done))
    new = _state(done)
    steps = traced_steps(lambda: _apply_all(memory_of(copy_home(template, tmp_path / "t"))))
    trials = 0
    for k in range(1, len(steps) + 1):
        crashed = copy_home(template, tmp_path / f"c{k}")
        run_in_child(lambda crashed=crashed: _apply_all(memory_of(crashed)), crash_at=k)
        probe = copy_home(crashed, tmp_path / f"r{k}")
        recovery = traced_steps(lambda probe=probe: memory_of(probe).recover())
        for j in range(1, len(recovery) + 1):
            home = copy_home(crashed, tmp_path / f"c{k}r{j}")
            assert run_in_child(lambda home=home: memory_of(home).recover(), crash_at=j).killed
            memory_of(home).recover()
            _check_settled(home, old, new)
            trials += 1
    assert trials > 0
    record("kill points tried", trials)
    record("crash trials", trials)


def _agent_writes(home: Path) -> Callable[[], None]:
    """Another program (no lock) rewriting the graph with one more note, at this instant
    (once: a retry finds the window quiet)."""
    done: list[bool] = []

    def write() -> None:
        if done:
            return
        done.append(True)
        path = home / "graph" / "graph.json"
        doc = json.loads(path.read_bytes())
        doc["notes"].append(note("agent-1", "agent wrote this", "in the window"))
        tmp = path.with_name("agent.tmp")
        tmp.write_text(json.dumps(doc))
        os.replace(tmp, path)

    return write


def _ids(home: Path) -> set[str]:
    return {n["id"] for n in read_graph(home / "graph" / "graph.json").notes}


@pytest.mark.parametrize("scenario", ["apply", "unhide", "undo"])
def test_a_write_in_the_last_moment_window_is_kept_whatever_the_crash(
    tmp_path: Path, scenario: str
) -> None:
    """The agent writes between our check and our exchange: that write is refused (a reviewed
    plan) or planned again (unhide, undo), and the agent's note is kept - also when we are
    killed at any step, and the journal holds a run exactly when it landed."""
    action = SCENARIOS[scenario]
    template = _template(tmp_path, scenario)
    old = _state(template)

    def racing(home: Path) -> Callable[[], None]:
        def run() -> None:
            crashpoints.on("base checked", _agent_writes(home))
            action(memory_of(home))

        return run

    scratch = copy_home(template, tmp_path / "traced")
    steps = traced_steps(racing(scratch))
    assert "swapped in" in steps and "exchanged back" in steps, steps
    agent_home = copy_home(template, tmp_path / "agent")
    _agent_writes(agent_home)()
    agent_version = graph_bytes(agent_home)
    first = copy_home(template, tmp_path / "uncrashed")
    code = run_in_child(racing(first), crash_at=None).code
    assert code == (3 if scenario == "apply" else 0)
    assert "agent-1" in _ids(first) and leftovers(first) == []
    assert (_journal(first) == old[2]) == (scenario == "apply")
    for k in range(1, len(steps) + 1):
        home = copy_home(template, tmp_path / f"k{k}")
        assert run_in_child(racing(home), crash_at=k).killed
        memory_of(home).recover()
        if k > steps.index("base checked"):
            assert "agent-1" in _ids(home), (k, steps[k - 1])
        if _journal(home) == old[2]:  # nothing of ours landed
            assert graph_bytes(home) in (old[0], agent_version), (k, steps[k - 1])
        else:
            assert memory_of(home).log()[0].result_fingerprint == fingerprint(graph_bytes(home))
        assert leftovers(home) == []
        assert not list((home / "graph").glob("graph.json.kept-*"))
    record("kill points tried", len(steps))
    record("crash trials", len(steps))
    record("concurrent writes survived", len(steps) + 1)


def test_a_write_racing_a_crashed_write_is_kept_as_a_copy(tmp_path: Path) -> None:
    """Killed mid-exchange, and the agent writes again before we restart: both its versions
    survive - one in place, the one we had swapped out kept beside it, and we say so."""
    template = _template(tmp_path, "apply")
    steps = traced_steps(lambda: _racing_apply(copy_home(template, tmp_path / "t")))
    home = copy_home(template, tmp_path / "home")
    assert run_in_child(lambda: _racing_apply(home), crash_at=steps.index("swapped in") + 1).killed
    second = json.loads(graph_bytes(home))
    second["notes"].append(note("agent-2", "agent again", "after the crash"))
    (home / "graph" / "graph.json").write_text(json.dumps(second))
    messages = memory_of(home).recover()
    kept = list((home / "graph").glob("graph.json.kept-*"))
    assert len(kept) == 1 and any("kept a version" in m for m in messages)
    assert "agent-1" in {n["id"] for n in json.loads(kept[0].read_bytes())["notes"]}
    assert "agent-2" in {n["id"] for n in read_graph(home / "graph" / "graph.json").notes}
    assert leftovers(home) == []


def _racing_apply(home: Path) -> None:
    crashpoints.on("base checked", _agent_writes(home))
    _apply_all(memory_of(home))


SEQUENCE: list[Action] = [_apply_all, _promote, _undo_latest, _unhide, _apply_all, _promote]


def _run_sequence(home: Path, states: list | None = None) -> None:
    memory = memory_of(home)
    for action in SEQUENCE:
        action(memory)
        if states is not None:
            states.append(_state(home))


def _child_duration(template: Path, tmp_path: Path) -> float:
    """How long the sequence takes in a forked child here and now (the slowest of three)."""
    slowest = 0.0
    for attempt in range(3):
        home = copy_home(template, tmp_path / f"timing{attempt}")
        started = time.perf_counter()
        outcome = run_in_child(lambda home=home: _run_sequence(home), crash_at=None)
        slowest = max(slowest, time.perf_counter() - started)
        assert outcome.code == 0
    return slowest


@pytest.mark.slow
def test_killed_at_random_moments_of_a_sequence(tmp_path: Path) -> None:
    """Kills that land anywhere, inside system calls too: the graph, MEMORY.md and journal
    are always one of the states the sequence passes through, and agree with each other."""
    template = make_home(
        tmp_path / "template",
        messy_notes()
        + [
            note(f"bulk-{i}", f"bulk note {i}", f"filler text number {i} about topic {i % 7}")
            for i in range(40)
        ],
    )
    states = [_state(template)]
    _run_sequence(copy_home(template, tmp_path / "reference"), states)
    duration = _child_duration(template, tmp_path)
    graphs = [s[0] for s in states]
    rng = random.Random(20261101)
    trials = int(os.environ.get("NUGGETS_KILL_TRIALS", "200"))
    hit_mid = 0
    spread: dict[int, int] = {}
    for trial in range(trials):
        home = copy_home(template, tmp_path / f"r{trial}")
        ready, started = os.pipe()
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                os.write(started, b"!")  # the sequence starts now, fork overhead behind it
                _run_sequence(home)
            except BaseException:
                traceback.print_exc()
                code = 4
            os._exit(code)
        os.close(started)
        os.read(ready, 1)
        os.close(ready)
        time.sleep(rng.uniform(0, duration * 1.1))
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        memory_of(home).recover()
        graph, memory_md, journal = _state(home)
        assert graph in graphs
        assert memory_md in [s[1] for s in states]
        read_graph(home / "graph" / "graph.json")
        entries = memory_of(home).log()
        # journaled iff landed: the newest run of each file has that file's fingerprint
        of_graph = [e for e in entries if e.file_name is None]
        expected = of_graph[0].result_fingerprint if of_graph else fingerprint(states[0][0])
        assert fingerprint(graph) == expected
        of_md = [e for e in entries if e.file_name is not None]
        if of_md:
            assert of_md[0].result_fingerprint == fingerprint(memory_md or b"")
        assert journal in [s[2] for s in states]
        assert leftovers(home) == []
        hit_mid += 0 < len(journal) < len(states[-1][2])
        spread[min(len(journal), 9)] = spread.get(min(len(journal), 9), 0) + 1
    print(f"{trials} kills, {hit_mid} in the middle, sequence {duration * 1000:.0f} ms {spread}")
    assert hit_mid > 0 and len(spread) >= 3  # the kills landed all along the sequence
    record("crash trials", trials)
    record("random-moment kills", trials)


def test_two_writes_in_the_window_both_survive(tmp_path: Path) -> None:
    """The agent writes in the window, then again while our version is briefly in place
    (so its second write may be built on ours, without its first): the newer one ends in
    place, the earlier is kept beside it, and the person is told."""
    home = _template(tmp_path, "apply")
    graph = home / "graph" / "graph.json"

    def second_write() -> None:
        doc = json.loads(graph.read_bytes())  # reads our version, swapped in a moment ago
        doc["notes"].append(note("agent-2", "second", "read ours"))
        tmp = graph.with_name("agent.tmp")
        tmp.write_text(json.dumps(doc))
        os.replace(tmp, graph)

    memory = memory_of(home)
    plan = memory.plan(uncapped=True)
    crashpoints.on("base checked", _agent_writes(home))
    crashpoints.on("swapped in", second_write)
    try:
        with pytest.raises(StalePlanError):
            memory.apply(plan)
    finally:
        crashpoints.reset()
    assert "agent-2" in _ids(home)
    kept = list((home / "graph").glob("graph.json.kept-*"))
    assert len(kept) == 1
    assert "agent-1" in {n["id"] for n in json.loads(kept[0].read_bytes())["notes"]}
    assert any("kept as" in notice for notice in memory.take_notices())
    assert _journal(home) == [] and leftovers(home) == []
    record("concurrent writes survived", 2)


def test_a_memory_md_edit_in_the_window_is_kept_whatever_the_crash(tmp_path: Path) -> None:
    """The agent edits MEMORY.md between our check and our exchange: promotion plans again,
    and the agent's line survives every crash point."""
    template = _template(tmp_path, "promote")

    def racing(home: Path) -> Callable[[], None]:
        target = home / "memory" / "MEMORY.md"
        done: list[bool] = []

        def agent_edits() -> None:
            if not done and target.exists():
                done.append(True)
                tmp = target.with_name("agent.tmp")
                tmp.write_text(target.read_text() + "\nagent line\n")
                os.replace(tmp, target)

        def run() -> None:
            crashpoints.on("base checked", agent_edits)
            _promote(memory_of(home))

        return run

    steps = traced_steps(racing(copy_home(template, tmp_path / "traced")))
    assert "exchanged back" in steps, steps
    first = copy_home(template, tmp_path / "uncrashed")
    assert run_in_child(racing(first), crash_at=None).code == 0
    text = (first / "memory" / "MEMORY.md").read_text()
    assert "agent line" in text and "Hand-written line." in text and "- **pref: tabs**" in text
    for k in range(1, len(steps) + 1):
        home = copy_home(template, tmp_path / f"k{k}")
        assert run_in_child(racing(home), crash_at=k).killed
        memory_of(home).recover()
        text = (home / "memory" / "MEMORY.md").read_text()
        if k > steps.index("base checked"):
            assert "agent line" in text, (k, steps[k - 1])
        assert "Hand-written line." in text and leftovers(home) == []
        assert not list((home / "memory").glob("MEMORY.md.kept-*"))
    record("kill points tried", len(steps))
    record("crash trials", len(steps))
    record("concurrent writes survived", len(steps) + 1)
