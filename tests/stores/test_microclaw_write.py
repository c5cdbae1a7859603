"""Writing to a MicroClaw database: apply archives exactly the planned rows in one guarded
transaction, a stale row refuses the whole apply, unhide/archive/undo round trips."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from core.clock import fixed_clock
from core.errors import (
    MicroClawError,
    NuggetsError,
    StalePlanError,
    UndoConflictError,
    UnknownNoteError,
)
from core.journal.entries import journal_dir
from core.models import Plan
from core.notes.snapshot import fingerprint, json_bytes
from core.stores.microclaw.rows import rfc3339
from core.stores.microclaw.runs import MicroClawRuns
from core.stores.microclaw.store import MicroClawStore
from tests.support.microclaw_rows import OLD, edges, make_db, plan_for, rows

NOW = rfc3339(datetime(2026, 11, 24, 1, 0, tzinfo=UTC))  # as the bot writes times


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return make_db(tmp_path / "runtime" / "microclaw.db")


def runs_of(db: Path) -> MicroClawRuns:
    clock = fixed_clock(datetime(2026, 11, 24, 1, 0, tzinfo=UTC))
    return MicroClawRuns(db, db.parent / "nuggets-review", clock, [])


def touch(db: Path, row_id: int, **values: object) -> None:
    conn = sqlite3.connect(db)
    sets = ", ".join(f"{k} = ?" for k in values)
    conn.execute(f"UPDATE memories SET {sets} WHERE id = ?", [*values.values(), row_id])
    conn.commit()
    conn.close()


def test_apply_archives_exactly_the_planned_rows(db: Path) -> None:
    before = rows(db)
    entry = runs_of(db).apply(plan_for(db, archive=(1, 4)))
    after = rows(db)
    assert entry is not None and entry.kind == "reflect"
    for row_id, row in after.items():
        if row_id in (1, 4):
            assert (row["is_archived"], row["archived_at"], row["updated_at"]) == (1, NOW, NOW)
            assert {
                k: v
                for k, v in row.items()
                if k not in ("is_archived", "archived_at", "updated_at")
            } == {
                k: v
                for k, v in before[row_id].items()
                if k not in ("is_archived", "archived_at", "updated_at")
            }
        else:
            assert row == before[row_id]
    assert set(entry.before) == {"mc-1", "mc-4"}
    assert entry.after["mc-1"]["microclaw"]["row"]["is_archived"] == 1


def test_only_accepted_operations_are_applied(db: Path) -> None:
    entry = runs_of(db).apply(plan_for(db, archive=(1, 2, 3)), accepted=[2])
    assert entry is not None
    assert [r["is_archived"] for r in rows(db).values()][:3] == [0, 1, 0]


def test_duplicate_link_inserts_a_supersede_edge(db: Path) -> None:
    entry = runs_of(db).apply(plan_for(db, archive=(3,), links=((3, 5),)))
    assert edges(db) == [(3, 5, "duplicate")]
    assert entry is not None
    assert entry.after["mc-3"]["links"] == [{"to": "mc-5", "reason": "duplicate", "createdAt": NOW}]


@pytest.mark.parametrize(
    "column,value",
    [
        ("content", "edited by the bot"),
        ("confidence", 0.2),
        ("category", "EVENT"),
        ("updated_at", "2026-11-23T00:00:00Z"),
        ("is_archived", 1),
    ],
)
def test_a_stale_row_refuses_the_whole_apply(db: Path, column: str, value: object) -> None:
    plan = plan_for(db, archive=(1, 3), links=((1, 5),))
    touch(db, 3, **{column: value})
    before = rows(db)
    with pytest.raises(StalePlanError, match="mc-3"):
        runs_of(db).apply(plan)
    assert rows(db) == before and edges(db) == []
    assert runs_of(db).log() == []
    assert not list((db.parent / "nuggets-review" / "reflections").glob(".*pending"))


def test_a_row_the_bot_deleted_is_stale(db: Path) -> None:
    plan = plan_for(db, archive=(2,))
    conn = sqlite3.connect(db)
    conn.execute("DELETE FROM memories WHERE id = 2")  # the bot deletes expired rows
    conn.commit()
    conn.close()
    with pytest.raises(StalePlanError):
        runs_of(db).apply(plan)


def test_an_edge_to_a_row_the_bot_deleted_is_stale(db: Path) -> None:
    plan = plan_for(db, archive=(3,), links=((3, 5),))
    plan.notes = [d for d in plan.notes if d.note_id != "mc-5"]  # the kept row is not written
    conn = sqlite3.connect(db)
    conn.execute("DELETE FROM memories WHERE id = 5")
    conn.commit()
    conn.close()
    before = rows(db)
    with pytest.raises(StalePlanError, match="mc-5"):
        runs_of(db).apply(plan)
    assert rows(db) == before and edges(db) == []


def test_the_one_shot_apply_plans_again_when_stale(db: Path) -> None:
    made: list[Plan] = []

    def make_plan() -> Plan:  # the bot edits row 1 right after the first plan is made
        plan = plan_for(db, archive=(1,))
        if not made:
            touch(db, 1, updated_at="2026-11-24T00:59:00Z")
        made.append(plan)
        return plan

    plan, entry = runs_of(db).reflect(make_plan)
    assert len(made) == 2 and entry is not None
    assert rows(db)[1]["is_archived"] == 1


def test_unhide_and_archive_by_hand(db: Path) -> None:
    runs = runs_of(db)
    runs.apply(plan_for(db, archive=(2,)))
    entry = runs.unhide(["mc-2"])
    row = rows(db)[2]
    assert entry is not None and entry.kind == "unhide"
    assert (row["is_archived"], row["archived_at"], row["updated_at"]) == (0, None, NOW)
    assert runs.unhide(["mc-2"]) is None  # already visible: nothing to do
    runs.archive(["mc-2"])
    assert (rows(db)[2]["is_archived"], rows(db)[2]["archived_at"]) == (1, NOW)
    with pytest.raises(UnknownNoteError):
        runs.unhide(["mc-99"])
    with pytest.raises(UnknownNoteError):
        runs.unhide(["n-1"])


def test_undo_restores_the_before_images_and_keeps_edges(db: Path) -> None:
    runs = runs_of(db)
    before = rows(db)
    entry = runs.apply(plan_for(db, archive=(3,), links=((3, 5),)))
    assert entry is not None
    undo = runs.undo(entry.run_id)
    assert rows(db) == before
    assert edges(db) == [(3, 5, "duplicate")]  # never deleted: said in the summary
    assert "supersede edge" in undo.summary and undo.undoes == entry.run_id
    assert [h.kind for h in runs.log()] == ["undo", "reflect"]
    with pytest.raises(Exception, match="already undone"):
        runs.undo(entry.run_id)
    runs.undo(undo.run_id)  # the undo itself is a run: undoing it archives again
    assert rows(db)[3]["is_archived"] == 1


def bot_tick(db: Path, deleted: int, rewritten: int) -> None:
    """What the bot does at a tick: DELETEs an expired row (archived or not) and rewrites
    another (its reflector)."""
    conn = sqlite3.connect(db)
    conn.execute("DELETE FROM memories WHERE id = ?", (deleted,))
    conn.execute(
        "UPDATE memories SET content = 'the bot rewrote it', is_archived = 0 WHERE id = ?",
        (rewritten,),
    )
    conn.commit()
    conn.close()


def test_undo_after_the_bots_tick_restores_the_other_rows_and_names_those_it_changed(
    db: Path,
) -> None:
    runs = runs_of(db)
    was = rows(db)
    entry = runs.apply(plan_for(db, archive=(1, 3, 4)))
    assert entry is not None
    bot_tick(db, deleted=3, rewritten=4)
    assert runs.undo_blockers(entry.run_id)[1] == []  # not the whole run: nothing blocks it
    bot = rows(db)[4]
    undo = runs.undo(entry.run_id)
    after = rows(db)
    assert after[1] == was[1] and 3 not in after and after[4] == bot
    said = [n for n in runs.notices if "mc-3" in n]
    assert len(said) == 1 and "mc-3 (deleted)" in said[0] and "mc-4" in said[0]
    assert "mc-3" in undo.summary and set(undo.after) == {"mc-1"}


def test_undo_refuses_when_every_row_changed_since(db: Path) -> None:
    runs = runs_of(db)
    entry = runs.apply(plan_for(db, archive=(1, 3)))
    assert entry is not None
    bot_tick(db, deleted=1, rewritten=3)
    assert runs.undo_blockers(entry.run_id)[1] == ["mc-1 (deleted)", "mc-3"]
    before = rows(db)
    with pytest.raises(UndoConflictError, match="mc-3"):
        runs.undo(entry.run_id)
    assert rows(db) == before


def test_unhide_of_a_row_the_bot_deleted_names_it_and_unhides_the_others(db: Path) -> None:
    runs = runs_of(db)
    runs.apply(plan_for(db, archive=(2, 4)))
    bot_tick(db, deleted=2, rewritten=6)
    entry = runs.unhide(["mc-2", "mc-4"])
    assert entry is not None and set(entry.after) == {"mc-4"}
    assert rows(db)[4]["is_archived"] == 0
    assert len([n for n in runs.notices if "mc-2" in n]) == 1


def test_unhide_round_trip_through_undo(db: Path) -> None:
    runs = runs_of(db)
    runs.apply(plan_for(db, archive=(4,)))
    archived = rows(db)
    entry = runs.unhide(["mc-4"])
    assert entry is not None
    runs.undo(entry.run_id)
    assert rows(db) == archived


def test_an_older_schema_is_written_in_the_columns_it_has(tmp_path: Path) -> None:
    db = make_db(tmp_path / "runtime" / "microclaw.db", schema=OLD)
    runs = runs_of(db)
    entry = runs.apply(plan_for(db, archive=(2,), links=((2, 4),)))
    assert entry is not None
    assert rows(db)[2]["is_archived"] == 1 and "archived_at" not in rows(db)[2]
    conn = sqlite3.connect(db)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    conn.close()
    assert "memory_supersede_edges" not in tables  # never created
    assert entry.after["mc-2"]["links"] == [] and "no supersede edges table" in runs.notices[0]
    runs.undo(entry.run_id)
    assert rows(db)[2]["is_archived"] == 0


def test_a_missing_database_is_never_created(tmp_path: Path) -> None:
    db = tmp_path / "runtime" / "microclaw.db"
    db.parent.mkdir()
    with pytest.raises(MicroClawError, match="no MicroClaw database here"):
        runs_of(db).unhide(["mc-1"])
    with pytest.raises(MicroClawError, match="no MicroClaw database here"):
        runs_of(db).apply(plan_for(make_db(tmp_path / "other.db"), archive=(1,)))
    assert list(db.parent.iterdir()) == []  # not even our journal directory


FORBIDDEN = {
    sqlite3.SQLITE_DELETE: "DELETE",
    sqlite3.SQLITE_DROP_TABLE: "DROP TABLE",
    sqlite3.SQLITE_CREATE_TABLE: "CREATE TABLE",
    sqlite3.SQLITE_ALTER_TABLE: "ALTER",
    sqlite3.SQLITE_CREATE_INDEX: "CREATE INDEX",
    sqlite3.SQLITE_DROP_INDEX: "DROP INDEX",
    sqlite3.SQLITE_CREATE_TRIGGER: "CREATE TRIGGER",
}


def test_no_run_ever_deletes_or_changes_the_schema(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from core.stores.microclaw import write

    attempted: list[str] = []
    opened = write.connect

    def watched(path: Path, timeout: float = 2.0) -> sqlite3.Connection:
        conn = opened(path, timeout)

        def authorize(action: int, *_: object) -> int:
            if action in FORBIDDEN:
                attempted.append(FORBIDDEN[action])
                return sqlite3.SQLITE_DENY
            return sqlite3.SQLITE_OK

        conn.set_authorizer(authorize)
        return conn

    monkeypatch.setattr(write, "connect", watched)
    schema = _schema(db)
    runs = runs_of(db)
    entry = runs.apply(plan_for(db, archive=(1, 3), links=((3, 5),)))
    assert entry is not None
    runs.unhide(["mc-1"])
    runs.archive(["mc-2"])
    for header in runs.log():  # newest first: archive, unhide, then the apply
        runs.undo(header.run_id)
    assert attempted == [] and _schema(db) == schema
    assert len(rows(db)) == 6


def _schema(db: Path) -> list[tuple[str, str]]:
    conn = sqlite3.connect(db)
    try:
        return list(conn.execute("SELECT name, sql FROM sqlite_master ORDER BY name"))
    finally:
        conn.close()


def _edge_rows(db: Path) -> list[tuple]:
    conn = sqlite3.connect(db)
    try:
        return list(conn.execute("SELECT * FROM memory_supersede_edges ORDER BY id"))
    finally:
        conn.close()


def _check_round_trip(store: MicroClawStore) -> None:
    """Apply the plan as it stands (the operations left out by default stay out): exactly its
    archived rows change, no edge is added; planning again keeps nothing by default; undo
    restores every row. Then the rescues too: exactly those rows lose their expiry."""
    db = store.graph_path
    before, plan = rows(db), store.plan()
    kept = plan.default_kept()
    archived = {
        int(op.note_id[3:]) for op in plan.operations if op.type == "hide" and op.id in kept
    }
    assert archived and not any(op.type == "link" for op in plan.operations)
    edges_before = _edge_rows(db)
    entry = store.apply(plan)
    after = rows(db)
    assert {i for i in after if after[i] != before[i]} == archived
    assert all(after[i]["is_archived"] == 1 for i in archived)
    assert _edge_rows(db) == edges_before
    assert store.plan().default_kept() == set()
    store.undo(entry.run_id)
    assert rows(db) == before
    plan = store.plan()
    rescues = {op.id: int(op.note_id[3:]) for op in plan.operations if op.type == "keep"}
    if rescues:
        entry = store.apply(plan, rescues)
        after = rows(db)
        assert {i for i in after if after[i] != before[i]} == set(rescues.values())
        assert all(after[i]["expires_at"] is None for i in rescues.values())
        store.undo(entry.run_id)
        assert rows(db) == before


def test_the_demo_round_trips(tmp_path: Path) -> None:
    from core.stores.microclaw.demo import materialize_microclaw_demo

    moment = datetime(2026, 11, 24, 9, 0, tzinfo=UTC)
    data_dir = materialize_microclaw_demo(tmp_path / "demo", moment)
    store = MicroClawStore(data_dir, clock=fixed_clock(moment))
    assert any(op.type == "keep" for op in store.plan().operations)  # a rescue too
    _check_round_trip(store)


@pytest.mark.parametrize("version", [43, 12])
def test_a_generated_database_round_trips(tmp_path: Path, version: int) -> None:
    from core.stores.microclaw.generate import generate

    moment = datetime(2026, 11, 24, 9, 0, tzinfo=UTC)
    db = tmp_path / "data" / "runtime" / "microclaw.db"
    db.parent.mkdir(parents=True)
    generate(db, 1500, moment, version=version)
    _check_round_trip(MicroClawStore(db.parent.parent, clock=fixed_clock(moment)))


def test_a_file_that_is_not_a_database_is_refused_before_sqlite_opens_it(tmp_path: Path) -> None:
    db = tmp_path / "runtime" / "microclaw.db"
    db.parent.mkdir()
    db.write_bytes(b"not a database at all" * 10)
    with pytest.raises(MicroClawError, match="not an SQLite database"):
        runs_of(db).unhide(["mc-1"])
    assert db.read_bytes() == b"not a database at all" * 10


DELETING_TRIGGER = (
    "CREATE TRIGGER wipe AFTER UPDATE ON memories BEGIN "
    "DELETE FROM memories WHERE id <> NEW.id; END"
)


def _add_trigger(db: Path, sql: str) -> None:
    conn = sqlite3.connect(db)
    conn.execute(sql)
    conn.commit()
    conn.close()


def test_a_memories_table_with_a_trigger_the_bot_never_creates_is_refused_whole(db: Path) -> None:
    _add_trigger(db, DELETING_TRIGGER)
    before = rows(db)
    runs = runs_of(db)
    with pytest.raises(MicroClawError) as caught:
        runs.apply(plan_for(db, archive=(1,)))
    assert "triggers the bot never creates (wipe)" in str(caught.value)
    assert "\n" not in str(caught.value) and "nothing was written" in str(caught.value)
    assert rows(db) == before and runs.log() == []


def test_sqlite_itself_refuses_a_delete_even_one_a_trigger_would_do(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The authorizer, not only the trigger check: with the check out of the way, the DELETE
    the trigger fires is refused by SQLite and the transaction rolled back."""
    from core.stores.microclaw import write

    _add_trigger(db, DELETING_TRIGGER)
    monkeypatch.setattr(write, "foreign_triggers", lambda conn: [])
    before = rows(db)
    runs = runs_of(db)
    with pytest.raises(MicroClawError) as caught:
        runs.apply(plan_for(db, archive=(1,)))
    assert "not authorized" in str(caught.value) and "nothing was written" in str(caught.value)
    assert rows(db) == before and runs.log() == []


def test_unhide_sets_last_seen_so_the_stale_step_leaves_it_and_names_low_confidence(
    db: Path,
) -> None:
    touch(
        db,
        2,
        is_archived=1,
        archived_at="2026-01-01T00:00:00+00:00",
        last_seen_at="2026-01-01T00:00:00+00:00",
        confidence=0.3,
    )
    touch(db, 3, is_archived=1, archived_at="2026-01-01T00:00:00+00:00", confidence=0.9)
    runs = runs_of(db)
    runs.unhide(["mc-2", "mc-3"])
    after = rows(db)
    assert after[2]["last_seen_at"] == after[2]["updated_at"] == NOW
    assert after[2]["is_archived"] == 0
    [notice] = runs.notices
    assert notice.startswith("mc-2: confidence below 0.45") and "mc-3" not in notice


def test_a_row_with_a_negative_id_is_skipped_and_the_plan_is_not_stale(tmp_path: Path) -> None:
    db = make_db(tmp_path / "runtime" / "microclaw.db")
    touch(
        db,
        2,
        id=-5,
        confidence=0.1,
        last_seen_at="2025-01-01T00:00:00Z",
        updated_at="2025-01-01T00:00:00Z",
    )
    store = MicroClawStore(tmp_path, fixed_clock(datetime(2026, 11, 24, 1, 0, tzinfo=UTC)))
    ids = {n["id"] for n in store.read().notes}
    assert ids == {"mc-1", "mc-3", "mc-4", "mc-5", "mc-6"}
    notices = store.take_notices()
    assert len([n for n in notices if "-5" in n]) == 1
    plan = store.plan()
    assert not store.is_stale(plan)
    entry = runs_of(db).apply(plan_for(db, archive=(1,)))
    assert entry is not None and rows(db)[-5]["is_archived"] == 0


def _edit_entry(db: Path, run_id: str, column: str, value: object, refingerprint: bool) -> None:
    """A hand edit of a run's journal entry: its before-image of mc-1 holds `value`."""
    path = journal_dir(db.parent / "nuggets-review") / f"{run_id}.json"
    header, body = path.read_text().split("\n", 1)
    doc = json.loads(body)
    doc["before"]["mc-1"]["microclaw"]["row"][column] = value
    if refingerprint:  # an editor who knows how the entry is checked
        doc["base_fingerprint"] = fingerprint(json_bytes(doc["before"], indent=False))
    path.write_text(header + "\n" + json.dumps(doc))


@pytest.mark.parametrize(
    "column,value,refingerprint",
    [
        ("content", "words the journal's editor chose", False),
        ("category", "PROFILE", True),
        ("content", "words the journal's editor chose", True),
        ("confidence", 0.99, False),
    ],
)
def test_undo_of_a_hand_edited_entry_is_refused_in_one_line_and_writes_nothing(
    db: Path, column: str, value: object, refingerprint: bool
) -> None:
    entry = runs_of(db).apply(plan_for(db, archive=(1, 3)))
    assert entry is not None
    _edit_entry(db, entry.run_id, column, value, refingerprint)
    before = rows(db)
    with pytest.raises(NuggetsError, match="journal entry was edited") as caught:
        runs_of(db).undo(entry.run_id)
    assert "\n" not in str(caught.value)
    assert rows(db) == before
