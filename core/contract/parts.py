"""The parts a store offers besides reading and planning. `Journal` and `ByHand` every store
has; the others are optional: a store that has none of a part says `None`, and the front ends
test for it (`if store.restorer is not None`) instead of asking which system it is."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

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
from core.notes.snapshot import Graph


class Journal(Protocol):
    """Our runs on a memory, each journaled before it lands, and how to take one back."""

    @property
    def home(self) -> Path:
        """The directory of our own small files beside the journal (the review's decisions,
        its rules, the contradictions let stand, the marks)."""

    @property
    def folder(self) -> Path:
        """The directory that holds the runs (shown to the operator)."""

    def may_write(self) -> None:
        """Refuses (NuggetsError, one line) when nothing may be written to this memory (a
        home its agent left); a command that always writes asks before it starts."""

    def log(self, quiet: bool = False) -> list[JournalHeader]:
        """The runs, newest first (headers only); one that cannot be read is skipped and named
        in the store's notices (`quiet`: skipped only)."""

    def run(self, run_id: str) -> JournalEntry:
        """One run whole, checked before it is trusted."""

    def undo(self, run_id: str) -> JournalEntry:
        """Put a run's notes (or file) back if none changed since; the undo's own run."""

    def blockers(
        self,
        run_id: str,
        graph: Graph | None = None,
    ) -> tuple[JournalEntry, list[str]]:
        """The run, and what changed since that keeps undo from taking it back; writes
        nothing. An error when the run is unknown or already undone."""

    def write_file(
        self, path: Path, before: str | None, after: str, kind: JournalKind, summary: str
    ) -> JournalEntry:
        """Replace a small file of ours beside the journal (read as `before`; None: absent),
        journaled as a run of `kind` that undo takes back. A store that writes nothing refuses
        before anything exists."""

    def lock(self) -> AbstractContextManager[None]:
        """Hold the store's lock across several steps (the daily pass); writes inside still
        lock."""


@dataclass(frozen=True)
class UnhideOutlook:
    """What bringing notes back leads to, as the store tells before it writes."""

    warnings: tuple[str, ...] = ()  # what will become of them after, one line each
    # what the same run can also write so the agent uses them, as a choice's label ("": none)
    lift: str = ""


class ByHand(Protocol):
    """What the operator does to notes by hand, each a journaled run."""

    def archive(self, note_ids: Iterable[str]) -> JournalEntry | None:
        """Archive notes (None: all already archived); a store without
        `Capabilities.manual_archive` refuses in one line."""

    def unhide(self, note_ids: Iterable[str], lift: bool = False) -> JournalEntry | None:
        """Bring archived notes back; `lift`: also what `unhide_outlook` offers, same run."""

    def unhide_outlook(self, note_ids: Iterable[str], lift: bool = False) -> UnhideOutlook:
        """What unhiding these notes (with the lift or not) leads to; writes nothing."""


class Decider(Protocol):
    """Optional: operations decided elsewhere (a contradiction's decision, acting on verdicts)
    become a plan of this system's writes."""

    def plan_operations(
        self, operations: list[Operation], result: ReflectionResult, graph: Graph | None = None
    ) -> Plan:
        """The operations replayed as apply will, journaled as kind "decide". Writes
        nothing."""


@dataclass(frozen=True)
class PromotionForm:
    """One way a promoter writes what it promotes; the first it lists is its default."""

    key: str  # what `nuggets promote --form` takes ("entries")
    label: str  # for a person ("entries in MEMORY.md")


class Promoter(Protocol):
    """Optional: promotion of durable notes to a file the agent always loads."""

    promotion_run: JournalEntry | None  # the last promotion's journal entry
    promotion_runs: list[JournalEntry]  # every file the last promote write wrote, one run each
    allow_contact: bool  # promote e-mail addresses and phone numbers (the settings' at first)
    promotion_forms: tuple[PromotionForm, ...]  # the forms it writes, its default first
    promotion_form: str  # the key of the form plans and writes use (the default's at first)

    def promotion_target(self, memory_md: Path | None = None) -> Path: ...

    def plan_promotion(
        self,
        memory_md: Path | None = None,
        threshold: int = ...,
        allow: Collection[str] = (),
        graph: Graph | None = None,
        drop: Collection[str] = (),
    ) -> PromotionPlan: ...

    def plan_promotions(
        self,
        threshold: int = ...,
        allow: Collection[str] = (),
        graph: Graph | None = None,
        drop: Collection[str] = (),
    ) -> list[PromotionPlan]:
        """Every file promotion would edit, one plan each (Nuggets: MEMORY.md alone)."""

    def promotion_file_for(self, nugget: str | None) -> Path | None:
        """The file a promotion of this nugget's notes writes (None: the store's default);
        a `NuggetsError` of one line when no file can take them."""

    def promotion_losses(self) -> list[str]:
        """What the promotion files lost since our newest run on each (another program, the
        agent's own promotion, rewrote them), one line a file; none when nothing was lost."""

    def promote(self, plan: PromotionPlan) -> int: ...

    def promote_now(
        self,
        memory_md: Path | None = None,
        threshold: int = ...,
        allow: Collection[str] = (),
        drop: Collection[str] = (),
    ) -> tuple[PromotionPlan, int]: ...


class Restorer(Protocol):
    """Optional: notes the system set aside itself (a rejected candidate), not archived, go back
    as text into a file the operator picks, journaled like MEMORY.md so undo takes it back."""

    restore_prompt: str  # what the console asks for: the file to restore into

    def restorable(self, note: RawNote) -> bool: ...

    def restore_diff(self, note_ids: Iterable[str], into: Path) -> list[str]:
        """The unified diff restoring them would make; writes nothing."""

    def restore(self, note_ids: Iterable[str], into: Path) -> JournalEntry: ...


@dataclass(frozen=True)
class KeptVersion:
    """One version of a note that a store keeps between reviews."""

    note_id: str
    at: str  # when it was first seen
    size: int | None  # in bytes; None when the kept copy is missing or damaged
    digest: str  # sha256 of its bytes


class VersionKeeper(Protocol):
    """Optional: the versions of each note a store keeps between reviews."""

    def kept_versions(self) -> list[KeptVersion]:
        """Every version kept, grouped by note, oldest first within a note; writes nothing."""

    def version_text(self, version: KeptVersion) -> str | None:
        """A kept version's text (None: its copy is missing or damaged); writes nothing."""


PlanFiles = Callable[[Plan, set[str]], list[str]]


@dataclass(frozen=True)
class SideFiles:
    """Optional: the files a plan edits in step with the notes (Nuggets: the agent's fact
    files), for the review pane and the apply confirmation."""

    title: str  # the review pane's heading ("Fact file")
    why: str  # why they are edited with the notes
    sentence: str  # the apply confirmation's sentence about them, "{names}" filled in
    lines: PlanFiles  # what applying the plan does to them for these notes, one line each
    names: PlanFiles  # the names of those the plan edits for these notes


class AftermathTeller(Protocol):
    """Optional: what the memory's own program did since to the notes of our runs."""

    def aftermath(
        self,
        headers: Sequence[JournalHeader] | None = None,
    ) -> dict[str, Aftermath]:
        """By run id, for these runs (headers newest first, as `Journal.log` gives them; None:
        the whole journal, read without notices); runs it left alone are absent. Reads the
        notes once: call it once per showing."""


class Foresight(Protocol):
    """Optional: what the memory's own program will do after a write of ours to the notes it is
    about, told before the operator confirms it (Nuggets: the agent's own morning pass, run on
    the memory as the write would leave it, and a running agent that rewrites its fact file
    from the facts it loaded). Each answer is one line per thing foretold; none when nothing
    is. Writes nothing."""

    def undo_outlook(self, run_id: str) -> tuple[str, ...]:
        """What becomes of a run's notes once undone."""

    def archive_outlook(self, note_ids: Iterable[str]) -> tuple[str, ...]:
        """What becomes of notes once archived (by hand, or a decision archiving them)."""

    def standing_outlook(self, note_ids: Iterable[str]) -> tuple[str, ...]:
        """What becomes of notes left as they stand (a change rejected, a contradiction let
        stand)."""


@dataclass(frozen=True)
class SystemRun:
    """A run of the system's own program an operator may start besides its next plan (a
    reconciliation, an upgrade acknowledged): its key in the console's choice, its label, and
    what it does, said before it is asked."""

    key: str
    label: str
    says: str
    name: str  # the store's own name for it, handed back to start_run


class SelfKeeper(Protocol):
    """A system that keeps its own memory with its own program: the lines saying what it gets
    wrong silently (shown for as long as they hold, not once), and the runs of it an operator
    may start."""

    def health(self) -> list[str]:
        """What it gets wrong silently, one line each with what to do (none: healthy)."""
        ...

    def system_runs(self) -> list[SystemRun]:
        """The runs that can be started now (an upgrade acknowledged only while one is
        pending)."""
        ...

    def start_run(self, run: SystemRun) -> str:
        """Run it, under the system's own lock: its result in one line; NuggetsError (its own
        message) when it did not publish."""
        ...


@dataclass(frozen=True)
class HealthLine:
    """One finding of a store's health check: `text` whole (`nuggets doctor`), `brief` the
    few words the console's header shows, `warning`: something will undo what was decided."""

    text: str
    brief: str = ""
    warning: bool = False


class Doctor(Protocol):
    """Optional: whether something beside us (the memory's own program, its schedule) will
    undo what the operator decides, checked from files, writing nothing."""

    def check(self, graph: Graph | None = None) -> list[HealthLine]:
        """Every finding, warnings first; `graph`: the notes already read (else the check
        reads what it needs itself, or goes without)."""

    def headline(self, found: list[HealthLine]) -> HealthLine | None:
        """The one line the console's header shows of these findings (None: nothing to say)."""
