"""The interface every memory system's store offers to the front ends, in small parts.

A store turns one memory system's files into the engine's notes (a `Graph` snapshot and a
`Shelf`), plans the system's own maintenance pass over them, and writes what the operator kept:
journaled, undoable, settled after an interruption. The console and the command line only
ever talk to this interface, and ask the store for everything that differs between systems:
its words, the columns of its notes, how one note reads on a line, where its journal and run
log live, and which optional capabilities it has. They never ask which system it is.

`Store` is the sum of the parts: `Describing`, `Reading`, `Planning`, `Writing` and
`Promoting`. A store declares its optional capabilities in `capabilities`; the front ends
offer a key or command only when the capability is declared (docs/STORES.md).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol

from core.browse.shelf import Shelf
from core.clock import Clock
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
from core.progress import Progress
from core.review.contradictions import TopicRules
from core.settings import Settings

# What a store may offer beyond reading, planning, writing and promoting:
# "merge": notes can be merged into one (a contradiction's "merge" decision);
# "restore": some notes go back into a file the operator picks (`Restoring`);
# "marks": the operator's marks on notes, kept beside the journal (core/review/marks.py);
# "rules": review rules can be saved beside the journal (core/plans/review_rules.py);
# "versions": the versions of each note the store has kept, listed by `log` and browsed in the
# console (`KeepingVersions`).
Capability = Literal["merge", "restore", "marks", "rules", "versions"]
# Which changes of a plan to apply (op ids): a front end's rules and decisions (core/plans/).
Chooser = Callable[[Plan], set[int]]


@dataclass(frozen=True)
class StoreWords:
    """How the front ends name a system's things to a person."""

    system: str  # the memory system's name ("Nuggets", "MicroClaw")
    source_label: str  # what holds the notes ("graph file", "MicroClaw database")
    pass_label: str  # the maintenance a plan previews ("reflection pass", "bot's maintenance")
    promotion_label: str  # what promotion writes ("MEMORY.md", "AGENTS.md")
    promotion_rule: str  # which notes qualify, for "<n> notes ...": "{threshold}" filled in
    archive_effect: str  # what archiving a note by hand does beyond hiding it, for the dialog
    # What only some systems have ("": none):
    promotion_option: str = ""  # the option that points promotion at another file
    promotion_env: str = ""  # the environment variable that does
    side_file_title: str = ""  # files a plan edits in step with the notes ("Fact file")
    side_file_why: str = ""  # why they are edited with the notes
    side_files_sentence: str = ""  # the apply confirmation's sentence about them, "{names}"
    # What planning may cost, said before a plan is made (a model's tokens): the console asks
    # first and makes no plan ahead; the command line says it
    plan_cost: str = ""
    # What applying a plan did when the system ran its own pass rather than a run of ours
    applied_elsewhere: str = ""
    # What the daily command says when the system's maintenance is another program's schedule:
    # daily then runs no pass and promotes nothing; it says the health lines and exits 0
    maintained_elsewhere: str = ""
    # What the console asks for when a note is restored into a file (capability "restore")
    restore_prompt: str = ""
    # The review's header: what a plan of the whole memory covered ("{notes}": how many it
    # inspected; "": "<n> notes inspected."), and what a capped plan covered ("{notes}",
    # "{limit}": the cap; "": the system never caps its plan, and the review offers no cap)
    plan_scope: str = ""
    plan_cap: str = ""
    # The sidebar: what the notes of kind "fact" are called beside each nugget's counts
    # ("fact"; "": none counted), and what a note's hits count, the histogram's label and the
    # line under it ("{count}" notes at "{threshold}" or more); "": no such count, none drawn
    fact_label: str = ""
    hits_label: str = ""
    hits_line: str = ""
    # The review's archive change: where the archived note's text stays ("kept in the file";
    # "": not said)
    archived_text: str = ""
    # Why archiving a note by hand is not offered ("": it is): the console says it for x
    # instead of asking
    archive_refused: str = ""
    # What applying a plan writes, for the console's confirmation, when it is not a rewrite of
    # the notes' one file ("": "This rewrites <n> notes in <file>, once, atomically, ...")
    apply_effect: str = ""
    # The kinds of change its plans hold ("rewrite", "merge", "hide", "tag", "link"), which
    # the review counts in its header (empty: every kind)
    change_kinds: tuple[str, ...] = ()
    # What one group of its notes (a note's nuggetName) is called, one and many: the sidebar,
    # the headers' scope ("all nuggets", "nugget deploys")
    group: str = "nugget"
    groups: str = "nuggets"

    def scope(self, group: str | None) -> str:
        """The notes a view or a plan covers: all of them, or one group's (not made inert)."""
        return f"all {self.groups}" if group is None else f"{self.group} {group}"


@dataclass(frozen=True)
class UnhideOutlook:
    """What bringing notes back leads to, as the store tells before it writes."""

    warnings: tuple[str, ...] = ()  # what will become of them after, one line each
    # what the same run can also write so the agent uses them, as a choice's label ("": none)
    lift: str = ""


@dataclass(frozen=True)
class NoteColumn:
    """One column of the notes table between the title and the verdict."""

    label: str
    width: int
    priority: int  # when the table is narrow, the lowest priority goes first
    cell: Callable[[RawNote], str]
    right: bool = False
    in_detail: bool = False  # also said whole in the detail pane (a value the table cuts)


class Describing(Protocol):
    """What the front ends show about the system itself."""

    words: StoreWords
    capabilities: frozenset[Capability]
    note_columns: tuple[NoteColumn, ...]
    home: Path  # the directory the operator named (a Nuggets home, a MicroClaw data dir)
    clock: Clock
    notices: list[str]  # what settling and tolerant reads found, for the front ends to tell

    def note_summary(self, note: RawNote) -> str:
        """The note's own fields after its id, nugget and title on one line of `notes`
        (`hits=3 tags=a,b`), made inert."""


class Reading(Protocol):
    @property
    def graph_path(self) -> Path:
        """The file that holds the notes; its stamp tells a front end that they changed."""

    def read(self) -> Graph: ...
    def shelf(self) -> Shelf: ...
    def now(self) -> str: ...

    def stamp(self) -> Hashable:
        """A token that changes whenever another program writes the notes (cheap: a stat)."""

    def first_notes(self, count: int) -> list[RawNote]:
        """A page of notes to show while the whole memory is read (may be empty)."""

    def scope_files(self, nugget: str | None) -> list[Path]:
        """The files the system keeps beside a nugget's notes (all nuggets: None), which the
        console shows read-only; absent ones included, so the operator sees where they go."""

    def side_file_lines(self, plan: Plan, note_ids: set[str]) -> list[str]:
        """What applying the plan does to the files kept in step with these notes, one line
        each (none: the change touches only the notes)."""

    def side_file_names(self, plan: Plan, note_ids: set[str]) -> list[str]:
        """The names of the files kept in step with these notes that applying the plan edits."""

    def topic_rules(self) -> TopicRules:
        """How this system's notes are grouped into contradictions."""

    def take_notices(self) -> list[str]: ...
    def startup_messages(self) -> list[str]: ...


class Planning(Protocol):
    def plan(self, nugget_name: str | None = None, limit: int | None = None,
             uncapped: bool = False, graph: Graph | None = None,
             should_stop: Callable[[], bool] | None = None,
             progress: Progress | None = None) -> Plan:
        """`should_stop`, asked now and then, ends a long plan early (PassCancelled);
        `progress`, told now and then how far it is (core/progress.py). A system whose plan
        is quick may ask and tell neither."""

    def plan_operations(self, operations: list[Operation], result: ReflectionResult,
                        graph: Graph | None = None) -> Plan:
        """Operations decided elsewhere (a contradiction's decision, acting on verdicts) as a
        plan of this system's writes, journaled as kind "decide". Writes nothing."""

    def is_stale(self, plan: Plan) -> bool: ...


class Writing(Protocol):
    @property
    def journal_home(self) -> Path:
        """The directory whose `reflections/` holds this memory's journal."""

    def apply(self, plan: Plan, accepted: Iterable[int] | None = None) -> JournalEntry | None: ...
    def reflect(self, nugget_name: str | None = None, limit: int | None = None,
                uncapped: bool = False, also: Collection[str] = (),
                choose: Chooser | None = None) -> tuple[Plan, JournalEntry | None]:
        """Plan and apply in one go; `choose`: which of each plan's changes to apply (default:
        those kept unasked, and those left out by default that name a note of `also`)."""
    def unhide(self, note_ids: Iterable[str], lift: bool = False) -> JournalEntry | None:
        """Bring archived notes back; `lift`: also what `unhide_outlook` offers, same run."""

    def unhide_outlook(self, note_ids: Iterable[str], lift: bool = False) -> UnhideOutlook:
        """What unhiding these notes (with the lift or not) leads to; writes nothing."""

    def archive(self, note_ids: Iterable[str]) -> JournalEntry | None: ...
    def undo(self, run_id: str) -> JournalEntry: ...
    def undo_blockers(self, run_id: str,
                      graph: Graph | None = None) -> tuple[JournalEntry, list[str]]: ...
    def run(self, run_id: str) -> JournalEntry: ...
    def log(self) -> list[JournalHeader]: ...

    def aftermath(self, headers: Sequence[JournalHeader] | None = None,
                  ) -> dict[str, Aftermath]:
        """What the memory's own program did since to the notes of these runs (headers newest
        first, as `log()` gives them; None: the whole journal, read without notices), by run
        id; runs it left alone are absent. A store that cannot tell answers none. Reads the
        notes once: call it once per showing."""

    def recover(self) -> list[str]: ...
    def exclusive(self) -> AbstractContextManager[None]: ...

    def write_file(self, path: Path, before: str | None, after: str, kind: JournalKind,
                   summary: str) -> JournalEntry:
        """Replace a small file of ours beside the journal (read as `before`; None: absent),
        journaled as a run of `kind` that undo takes back. The store makes its folder: a
        store that writes nothing refuses before anything exists."""


class Promoting(Protocol):
    promotion_run: JournalEntry | None  # the last promotion's journal entry
    promotion_runs: list[JournalEntry]  # every file the last promote_now wrote, one run each
    allow_contact: bool  # promote e-mail addresses and phone numbers (the settings' at first)

    def promotion_target(self, memory_md: Path | None = None) -> Path: ...
    def plan_promotion(self, memory_md: Path | None = None, threshold: int = ...,
                       allow: Collection[str] = (), graph: Graph | None = None,
                       drop: Collection[str] = ()) -> PromotionPlan: ...

    def plan_promotions(self, threshold: int = ..., allow: Collection[str] = (),
                        graph: Graph | None = None,
                        drop: Collection[str] = ()) -> list[PromotionPlan]:
        """Every file promotion would edit, one plan each (Nuggets: MEMORY.md alone)."""

    def promotion_file_for(self, nugget: str | None) -> Path | None:
        """The file a promotion of this nugget's notes writes (None: the store's default);
        a `NuggetsError` of one line when no file can take them."""

    def promotion_losses(self) -> list[str]:
        """What the promotion files lost since our newest run on each (another program, the
        agent's own promotion, rewrote them), one line a file; none when nothing was lost."""

    def promote(self, plan: PromotionPlan) -> int: ...
    def promote_now(self, memory_md: Path | None = None, threshold: int = ...,
                    allow: Collection[str] = (),
                    drop: Collection[str] = ()) -> tuple[PromotionPlan, int]: ...


class Restoring(Protocol):
    """Capability "restore": notes that are not archived but set aside by the system itself (a
    rejected candidate) go back as text into a file the operator picks, journaled like
    MEMORY.md so undo takes it back. Only a store that declares it has these methods."""

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


class KeepingVersions(Protocol):
    """Capability "versions": what a store keeps of each note's versions between reviews."""

    def kept_versions(self) -> list[KeptVersion]:
        """Every version kept, grouped by note, oldest first within a note; writes nothing."""

    def version_text(self, version: KeptVersion) -> str | None:
        """A kept version's text (None: its copy is missing or damaged); writes nothing."""


class Store(Describing, Reading, Planning, Writing, Promoting, Protocol):
    """A memory system's store: everything a front end may ask of it."""


@dataclass(frozen=True)
class KindOption:
    """An option only one memory system has, handed to its store once opened: an option of
    the command line as a whole (`command` None) or of one command (`reflect`)."""

    flag: str  # "--something"
    name: str  # the parameter's name
    help: str
    configure: Callable[[Store, object], None]  # the store, the value given
    command: str | None = None
    is_flag: bool = False  # else it takes a path, shown as `metavar`
    metavar: str = "PATH"


def _never(settings: Settings) -> bool:
    return False


def _nothing(home: Path) -> None:
    return None


@dataclass(frozen=True, kw_only=True)
class StoreKind:
    """A memory system as the command line offers it: its options, where its memory is by
    default, its demo, and how to open its store, each given the settings in force.
    Registered in core/stores/registry.py."""

    name: str  # "nuggets", "microclaw"
    home_option: str  # the option naming its directory ("--home", "--microclaw")
    home_help: str
    demo_option: str  # the option opening its demo ("--demo", "--demo-microclaw")
    demo_help: str
    demo_dir_help: str  # `nuggets demo --<name>`: its demo's directory
    # where its memory is: the directory named (None: the default place)
    resolve: Callable[[Path | None, Settings], Path]
    # whether the directory counts as named although the option was not given (a setting)
    named_elsewhere: Callable[[Settings], bool] = _never
    # home, clock, a MEMORY.md path or None
    open: Callable[[Path, Clock, Path | None, Settings], Store]
    materialize_demo: Callable[[Clock, bool, Settings], Path]  # clock, reset: the demo's dir
    # the demo's promotion file, if its own
    demo_memory_md: Callable[[Path], Path | None] = _nothing
    home_notice: Callable[[Path], str | None] = _nothing  # what to say about the directory chosen
    # the errors for a directory that does not exist, and one without its notes (the
    # directory and the notes' file as shown)
    missing_home: Callable[[str], str]
    missing_source: Callable[[str, str], str]
    holds_memory: Callable[[Path], bool]  # whether the directory holds its memory yet
    # the folders below the directory that hold the run log by default, opened without
    # following a link (docs/RUNS.md, "The run log")
    run_log_parts: tuple[str, ...]
    options: tuple[KindOption, ...] = ()  # options only this system has
    # whether its option may be given without a directory (`--purifier notes`): its default
    home_optional: bool = False
