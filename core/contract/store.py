"""The store: what every memory system's store offers, and nothing a front end may not ask.

Sixteen required members: what it is (`home`, `clock`, `profile`, `graph_path`), two parts
every store has (`journal`: our runs; `by_hand`: archive and unhide), reading (`open`, `read`,
`stamp`, `take_notices`, `topic_rules`, `scope_files`) and planning and writing (`plan`,
`is_stale`, `apply`, `reflect`). Then the optional parts, each `None` when the store has none
(core/contract/parts.py). A front end asks the store, never which system it is.

What a store has to say besides its answers comes in one order (docs/ARCHITECTURE.md, "What a
store says"): `open()` first, once per opening, settles what an interrupted write left and
returns every message so far (`Opened`); a `Graph` carries what its read tolerated
(`Graph.warnings`); after any other call, `take_notices()` gives what that call said.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from core.clock import Clock
from core.contract.parts import (
    AftermathTeller,
    ByHand,
    Decider,
    Doctor,
    Foresight,
    Journal,
    Promoter,
    Restorer,
    SelfKeeper,
    SideFiles,
    VersionKeeper,
)
from core.contract.profile import Profile
from core.contract.topics import TopicRules
from core.models import JournalEntry, Plan, RawNote
from core.notes.snapshot import Graph
from core.progress import Progress

# Which changes of a plan to apply (op ids): a front end's rules and decisions (core/plans/).
Chooser = Callable[[Plan], set[int]]


@dataclass(frozen=True)
class Opened:
    """What opening a memory settled and found, one line each, for the front end to say."""

    messages: list[str]


class Store(Protocol):
    """A memory system's store: everything a front end may ask of it."""

    @property
    def home(self) -> Path:
        """The directory the operator named (a Nuggets home, a MicroClaw data dir)."""

    @property
    def clock(self) -> Clock: ...

    @property
    def profile(self) -> Profile:
        """Its labels, columns and capabilities (core/contract/profile.py)."""

    @property
    def graph_path(self) -> Path:
        """The file that holds the notes (shown to the operator; its absence: no memory)."""

    @property
    def journal(self) -> Journal: ...

    @property
    def by_hand(self) -> ByHand: ...

    # -- reading ----------------------------------------------------------------------------

    def open(self, read: bool = True) -> Opened:
        """Settle what interrupted writes left (ours or another process's) and say it, with
        what the memory says of itself on opening; `read`: also read the notes now (kept for
        the next `read`), saying what that read tolerated. Returns every message so far."""

    def read(self) -> Graph:
        """One consistent snapshot of the notes; `Graph.warnings`: what the read tolerated."""

    def stamp(self) -> Hashable:
        """A token that changes whenever another program writes the notes (cheap: a stat)."""

    def take_notices(self) -> list[str]:
        """What the calls since the last one said besides their answers (rows skipped, runs
        left as they are), once each."""

    def topic_rules(self) -> TopicRules:
        """How this system's notes are grouped into contradictions."""

    def scope_files(self, nugget: str | None) -> list[Path]:
        """The files the system keeps beside a group's notes (all groups: None), which the
        console shows read-only; absent ones included, so the operator sees where they go."""

    # -- planning and writing ---------------------------------------------------------------

    def plan(
        self,
        nugget_name: str | None = None,
        limit: int | None = None,
        uncapped: bool = False,
        graph: Graph | None = None,
        should_stop: Callable[[], bool] | None = None,
        progress: Progress | None = None,
    ) -> Plan:
        """The system's pass as a plan; writes nothing. `should_stop`, asked now and then,
        ends a long plan early (PassCancelled); `progress` is told how far it is
        (core/progress.py). A system whose plan is quick may ask and tell neither."""

    def is_stale(self, plan: Plan) -> bool:
        """Whether what the plan read has changed since."""

    def apply(self, plan: Plan, accepted: Iterable[int] | None = None) -> JournalEntry | None:
        """The kept operations (None: those kept by default), refused whole as a stale plan
        when what they touch changed since; None when nothing was written."""

    def reflect(
        self,
        nugget_name: str | None = None,
        limit: int | None = None,
        uncapped: bool = False,
        also: Collection[str] = (),
        choose: Chooser | None = None,
    ) -> tuple[Plan, JournalEntry | None]:
        """Plan and apply in one go, without a person; `choose`: which of each plan's changes
        to apply (default: those kept unasked, and those left out by default that name a note
        of `also`)."""

    # -- optional parts: None when the store has none ---------------------------------------

    @property
    def first_notes(self) -> Callable[[int], list[RawNote]] | None:
        """A page of notes read before (and without) the whole memory, for a big file."""

    @property
    def promoter(self) -> Promoter | None: ...

    @property
    def restorer(self) -> Restorer | None: ...

    @property
    def versions(self) -> VersionKeeper | None: ...

    @property
    def side_files(self) -> SideFiles | None: ...

    @property
    def decider(self) -> Decider | None: ...

    @property
    def aftermaths(self) -> AftermathTeller | None: ...

    @property
    def foresight(self) -> Foresight | None: ...

    @property
    def keeper(self) -> SelfKeeper | None:
        """Its own program's health lines and runs (a system that maintains itself)."""

    @property
    def doctor(self) -> Doctor | None:
        """Whether something beside us will undo what the operator decides (`nuggets doctor`,
        the console's header)."""
