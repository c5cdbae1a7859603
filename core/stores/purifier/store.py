"""memory-purifier's store: the `Store` interface (core/stores/base.py) over an OpenClaw
workspace, read-only (docs/PURIFIER.md). Reading takes no lock and writes nothing; every writing
method refuses in one line (ReadOnlyError) before touching anything, and the plan is empty: the
purifier's own runs are its maintenance."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Sequence
from pathlib import Path

from core.browse.shelf import Shelf
from core.clock import Clock, system_clock, to_iso
from core.errors import NuggetsError
from core.journal.aftermath import Aftermath
from core.journal.entries import JournalHeader
from core.models import (
    JournalEntry,
    JournalKind,
    Operation,
    Plan,
    PromotionPlan,
    RawNote,
    ReflectionResult,
)
from core.notes.snapshot import Graph, fingerprint
from core.promotion.candidates import refused_plan
from core.review.contradictions import TopicRules
from core.safeio.file_stamp import FileStamp
from core.stores.base import Capability, UnhideOutlook
from core.stores.purifier import paths, presentation
from core.stores.purifier.artifacts import Artifacts, read_artifacts
from core.stores.purifier.health import health_lines
from core.stores.purifier.notes import (
    join_contradictions,
    provenance_problems,
    purifier_notes,
)
from core.stores.purifier.runs import PurifierRun, read_runs
from core.stores.purifier.topics import purifier_tokens, purifier_topic

VIEWS = ("LTMEMORY.md", "PLAYBOOKS.md", "EPISODES.md", "HISTORY.md", "WISHES.md")


class ReadOnlyError(NuggetsError):
    """A write asked of a store that never writes its system's files."""


def refuse(what: str) -> ReadOnlyError:
    return ReadOnlyError(f"{what}: a memory-purifier workspace is read-only here (its files "
                         "are never written; act through the purifier itself)")


class PurifierStore:
    words = presentation.WORDS
    note_columns = presentation.COLUMNS
    capabilities: frozenset[Capability] = frozenset()

    def __init__(self, workspace: Path, clock: Clock = system_clock) -> None:
        self.home = workspace
        self.clock = clock
        self.notices: list[str] = []
        self.promotion_run: JournalEntry | None = None
        self.promotion_runs: list[JournalEntry] = []
        self.allow_contact = False
        self._opened: Graph | None = None

    @property
    def graph_path(self) -> Path:
        return paths.runtime_dir(self.home) / paths.CLAIMS

    @property
    def journal_home(self) -> Path:
        return paths.journal_home(self.home)

    # -- reading ------------------------------------------------------------------------------

    def note_summary(self, note: RawNote) -> str:
        return presentation.note_summary(note)

    def side_file_lines(self, plan: Plan, note_ids: set[str]) -> list[str]:
        return []

    def side_file_names(self, plan: Plan, note_ids: set[str]) -> list[str]:
        return []

    def artifacts(self) -> Artifacts:
        return read_artifacts(self.home)

    def runs(self) -> list[PurifierRun]:
        return read_runs(self.home, self.notices)

    def read(self) -> Graph:
        graph, self._opened = self._opened, None
        if graph is not None:
            return graph
        found = self.artifacts()
        notes = purifier_notes(found)
        outdated = join_contradictions(notes, found.contradictions)
        self.notices += found.notices + outdated + provenance_problems(notes, self.home)
        return Graph(self.graph_path, {"notes": notes}, fingerprint(found.raw))

    def topic_rules(self) -> TopicRules:
        """The purifier's own contradictions: a claim and the claim it contests."""
        return TopicRules(purifier_topic, purifier_tokens, promotion=False)

    def shelf(self) -> Shelf:
        return Shelf(self.read())

    def stamp(self) -> Hashable:
        runtime = paths.runtime_dir(self.home)
        return tuple(FileStamp.of(runtime / name) for name in
                     (paths.MANIFEST, paths.CLAIMS, paths.REJECTED, paths.DEFERRED))

    def first_notes(self, count: int) -> list[RawNote]:
        return []

    def scope_files(self, nugget: str | None) -> list[Path]:
        """The purifier's views (a home's own view), or the ledger of rejected/deferred."""
        runtime = paths.runtime_dir(self.home)
        if nugget in ("rejected", "deferred"):
            return [runtime / f"{nugget}-candidates.jsonl"]
        if nugget in VIEWS:
            return [self.home / nugget]
        return [self.home / view for view in VIEWS if (self.home / view).exists()]

    def now(self) -> str:
        return to_iso(self.clock())

    def health(self) -> list[str]:
        """The purifier's silent failures, one line each with what to do."""
        return health_lines(self.artifacts(), self.runs(), self.home, self.clock())

    def take_notices(self) -> list[str]:
        taken, self.notices = self.notices, []
        return list(dict.fromkeys(taken))

    def recover(self) -> list[str]:
        """Nothing of ours to settle; the health warnings go to the notices."""
        self.notices += self.health()
        return []

    def startup_messages(self) -> list[str]:
        self.recover()
        with contextlib.suppress(NuggetsError, OSError):
            self._opened = self.read()
        return self.take_notices()

    # -- the plan: empty (the purifier's runs are its maintenance) ------------------------------

    def plan(self, nugget_name: str | None = None, limit: int | None = None,
             uncapped: bool = False, graph: Graph | None = None,
             should_stop: Callable[[], bool] | None = None) -> Plan:
        graph = graph or self.read()
        return Plan(ran_at=self.now(), base_fingerprint=graph.fingerprint,
                    nugget_name=nugget_name, limit=0, uncapped=uncapped,
                    result=ReflectionResult(ran_at=self.now(),
                                            inspected=len(graph.notes)),
                    operations=[], notes=[])

    def plan_operations(self, operations: list[Operation], result: ReflectionResult,
                        graph: Graph | None = None) -> Plan:
        raise refuse("a decision")

    def is_stale(self, plan: Plan) -> bool:
        return False

    # -- the journal: the purifier's runs; writes refused ---------------------------------------

    def aftermath(self, headers: Sequence[JournalHeader] | None = None,
                  ) -> dict[str, Aftermath]:
        return {}  # the purifier's runs are its own: nothing of ours to tell about

    def log(self) -> list[JournalHeader]:
        """The purifier's runs from the shared memory-log, newest first."""
        return [JournalHeader(run_id=r.run_id, seq=i, kind="reflect", at=r.at,
                              base_fingerprint="", result_fingerprint="",
                              notes=int(r.details.get("claims_total") or 0), summary=r.summary)
                for i, r in reversed(list(enumerate(self.runs(), start=1)))]

    def run(self, run_id: str) -> JournalEntry:
        raise NuggetsError(f"{run_id}: a purifier run holds no journal of notes; see `log`")

    def exclusive(self) -> contextlib.AbstractContextManager[None]:
        return _nothing()

    def apply(self, plan: Plan, accepted: Iterable[int] | None = None) -> JournalEntry | None:
        raise refuse("apply")

    def reflect(self, nugget_name: str | None = None, limit: int | None = None,
                uncapped: bool = False,
                also: Collection[str] = ()) -> tuple[Plan, JournalEntry | None]:
        raise refuse("reflect --apply")

    def unhide_outlook(self, note_ids: Iterable[str], lift: bool = False) -> UnhideOutlook:
        return UnhideOutlook()  # nothing is unhidden here

    def unhide(self, note_ids: Iterable[str], lift: bool = False) -> JournalEntry | None:
        raise refuse("unhide")

    def archive(self, note_ids: Iterable[str]) -> JournalEntry | None:
        raise refuse("archive")

    def undo(self, run_id: str) -> JournalEntry:
        raise refuse("undo")

    def undo_blockers(self, run_id: str,
                      graph: Graph | None = None) -> tuple[JournalEntry, list[str]]:
        raise refuse("undo")

    def write_file(self, path: Path, before: str | None, after: str, kind: JournalKind,
                   summary: str) -> JournalEntry:
        raise refuse(summary or kind)

    # -- promotion: nothing ---------------------------------------------------------------------

    def promotion_target(self, memory_md: Path | None = None) -> Path:
        return memory_md or self.home / "MEMORY.md"

    def plan_promotion(self, memory_md: Path | None = None, threshold: int = 0,
                       allow: Collection[str] = (), graph: Graph | None = None,
                       drop: Collection[str] = ()) -> PromotionPlan:
        path = self.promotion_target(memory_md)
        return refused_plan(path, path.parent.is_dir(), threshold, 0, str(refuse("promotion")))

    def plan_promotions(self, threshold: int = 0, allow: Collection[str] = (),
                        graph: Graph | None = None,
                        drop: Collection[str] = ()) -> list[PromotionPlan]:
        return [self.plan_promotion(threshold=threshold)]

    def promotion_file_for(self, nugget: str | None) -> Path | None:
        return None

    def promotion_losses(self) -> list[str]:
        return []  # nothing is ever promoted here

    def promote(self, plan: PromotionPlan) -> int:
        raise refuse("promote")

    def promote_now(self, memory_md: Path | None = None, threshold: int = 0,
                    allow: Collection[str] = (),
                    drop: Collection[str] = ()) -> tuple[PromotionPlan, int]:
        raise refuse("promote")


@contextlib.contextmanager
def _nothing() -> Iterator[None]:
    yield
