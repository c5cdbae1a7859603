"""How a memory system shows itself to a person: its labels (words said, never tested for
emptiness), the columns of its notes table, a note on one line, and its `Capabilities`, the typed
switches those labels go with. One `Profile` per system, the same for every store of it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from core.contract.capabilities import Capabilities
from core.models import RawNote

# Every kind of change a plan can hold, in the review's order.
CHANGE_KINDS = ("rewrite", "merge", "hide", "tag", "link")


@dataclass(frozen=True)
class NoteColumn:
    """One column of the notes table between the title and the verdict."""

    label: str
    width: int
    priority: int  # when the table is narrow, the lowest priority goes first
    cell: Callable[[RawNote], str]
    right: bool = False
    in_detail: bool = False  # also said whole in the detail pane (a value the table cuts)
    cut_middle: bool = False  # cut in its middle when narrow: its end tells values apart (ids)


def _no_summary(note: RawNote) -> str:
    return ""


@dataclass(frozen=True)
class Profile:
    """How the front ends name a system's things to a person, and what it offers.

    A label a capability goes with is said only when the capability is there; nothing decides
    anything by a label being empty (a translator may shorten any of them)."""

    system: str  # the memory system's name ("Nuggets", "MicroClaw")
    source_label: str  # what holds the notes ("graph file", "MicroClaw database")
    pass_label: str  # the maintenance a plan previews ("reflection pass", "bot's maintenance")
    promotion_label: str  # what promotion writes ("MEMORY.md", "AGENTS.md")
    promotion_rule: str  # which notes qualify, for "<n> notes ...": "{threshold}" filled in
    archive_effect: str  # what archiving a note by hand does beyond hiding it, for the dialog
    capabilities: Capabilities = Capabilities()
    columns: tuple[NoteColumn, ...] = ()  # the notes table's, between the title and the verdict
    # the note's own fields after its id, nugget and title on one line of `notes`, made inert
    summary: Callable[[RawNote], str] = _no_summary
    # The review's header: what a plan covered ("{notes}": how many it inspected), and with
    # `capped_plans`, what a capped plan covered ("{notes}", "{limit}": the cap)
    plan_scope: str = "{notes} inspected."
    plan_cap: str = ""
    # Why a write the system does not offer is refused, after the write's name ("promotion:
    # ..."): said when a part is absent (no promoter, no decider)
    refusal: str = "not offered for this memory"
    # With `promotion_elsewhere`: the option and the environment variable that point promotion
    # at another file
    promotion_option: str = ""
    promotion_env: str = ""
    # With `costly_plans`: what planning may cost, said before a plan is made
    plan_cost: str = ""
    # With `runs_itself`: what applying a plan did, when the system ran its own program
    applied_elsewhere: str = ""
    # With `own_schedule`: what `daily` says instead of running a pass
    maintained_elsewhere: str = ""
    # With `fact_notes`: what the notes of kind "fact" are called beside each group's counts
    fact_label: str = "fact"
    # With `recall_counts`: what a note's hits count (the histogram's label) and the line under
    # it ("{count}" notes at "{threshold}" or more)
    hits_label: str = ""
    hits_line: str = ""
    # The review's archive change: the heading over the archived note's text ("its text, kept
    # in the file")
    archived_text: str = "its text"
    # Without `manual_archive`: why archiving a note by hand is not offered (the console's x)
    archive_refused: str = ""
    # Without `whole_file_apply`: what applying a plan writes, for the console's confirmation
    apply_effect: str = ""
    # The kinds of change its plans hold, which the review counts in its header
    change_kinds: tuple[str, ...] = CHANGE_KINDS
    # What one group of its notes (a note's nuggetName) is called, one and many: the sidebar,
    # the headers' scope ("all nuggets", "nugget deploys")
    group: str = "nugget"
    groups: str = "nuggets"

    def scope(self, group: str | None) -> str:
        """The notes a view or a plan covers: all of them, or one group's (not made inert)."""
        return f"all {self.groups}" if group is None else f"{self.group} {group}"
