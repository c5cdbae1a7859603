"""An agent that never locks keeps rewriting graph.json while we apply: none of its notes is lost,
and every apply either landed on the version it planned against or was refused as stale."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from core import Memory, StalePlanError
from core.clock import fixed_clock, parse_iso
from core.store import read_graph

WRITER = r"""
import json, os, sys, time, random
path, seconds = sys.argv[1], float(sys.argv[2])
rng = random.Random(5)
end = time.time() + seconds
written = 0
while time.time() < end:
    doc = json.loads(open(path, "rb").read())
    note = dict(doc["notes"][0], id=f"w-{written}", title=f"agent wrote {written}",
                content=f"tmp scratch {written}" if written % 3 else f"deploy cache port {written}",
                hits=0, hidden=False, links=[], tags=[])
    doc["notes"].append(note)
    victim = rng.randrange(len(doc["notes"]))
    doc["notes"][victim]["hits"] = doc["notes"][victim].get("hits", 0) + 1
    tmp = f"{path}.writer.tmp"
    with open(tmp, "w") as handle:
        json.dump(doc, handle)
    os.replace(tmp, path)
    written += 1
    time.sleep(rng.uniform(0, 0.01))
print(written)
"""


def test_concurrent_writer_loses_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    graph = home / "graph" / "graph.json"
    graph.parent.mkdir(parents=True)
    seed = {"id": "seed", "nuggetName": "project", "title": "deploy", "content": "deploy cache",
            "subject": "shared:project", "scope": "project", "type": "fact",
            "createdAt": "2026-10-01T00:00:00.000Z"}
    graph.write_text(json.dumps({"version": 3, "notes": [seed]}))
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(graph), "3"],
                              stdout=subprocess.PIPE, text=True)
    memory = Memory(home, fixed_clock(parse_iso("2026-11-01T09:00:00Z")))
    landed = refused = 0
    deadline = time.time() + 3.5
    while writer.poll() is None and time.time() < deadline:
        plan = memory.plan(uncapped=True)
        try:
            entry = memory.apply(plan)
        except StalePlanError:
            refused += 1
            continue
        if entry is not None:
            landed += 1
            assert entry.base_fingerprint == plan.base_fingerprint
    out, _ = writer.communicate(timeout=30)
    written = int(out.strip())
    ids = {note["id"] for note in read_graph(graph).notes}
    assert written > 10
    assert {f"w-{i}" for i in range(written)} <= ids
    assert "seed" in ids
    assert landed + refused > 0
    print(f"writer {written}, landed {landed}, refused {refused}")
    journaled = memory.log()
    assert len([e for e in journaled if e.kind == "reflect"]) == landed
    assert not list((home / "reflections").glob(".*.pending"))
