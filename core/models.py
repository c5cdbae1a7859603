"""Pydantic models: notes and links as read, the ReflectionResult, operations, plans, journal."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, SkipValidation
from pydantic.alias_generators import to_camel

RawNote = dict[str, Any]


class CamelModel(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)

    def to_json_dict(self) -> dict[str, Any]:
        # Python mode: every field is JSON-native already, and JSON mode refuses the lone
        # surrogates a graph file may hold (store.json_bytes writes them back as escapes).
        return self.model_dump(mode="python", by_alias=True, exclude_none=True)


class Link(CamelModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="allow")
    to: str
    reason: str = ""
    created_at: str = ""


class Note(CamelModel):
    """A note with the defaults of docs/FORMATS.md ("The graph file"); fields the engine does not
    know are kept as extras."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="allow")
    id: str
    nugget_name: str
    title: str = ""
    content: str = ""
    tags: list[str] = Field(default_factory=list)
    links: list[Link] = Field(default_factory=list)
    hidden: bool = False
    kind: str = "note"
    hits: int = 0
    last_hit_session: str | None = None
    subject: str = ""
    scope: str = ""
    type: str = ""
    source: str = ""
    confidence: float = 0.7
    stability: str = "durable"
    created_at: str = ""
    updated_at: str = ""
    last_accessed_at: str = ""
    last_rewritten_at: str | None = None
    archived_at: str | None = None
    source_key: str | None = None
    vector: Any = None

    @classmethod
    def from_raw(cls, raw: RawNote) -> Note:
        note = cls.model_validate(raw)
        if not note.updated_at:
            note.updated_at = note.created_at
        if not note.last_accessed_at:
            note.last_accessed_at = note.created_at
        return note


ChangeType = Literal["rewrite", "merge", "hide", "tag", "link", "keep"]


def kind_word(change_type: str) -> str:
    """A kind of change as people are told it: a plan's "hide" is an archive everywhere we
    speak (the plan and its JSON keep the agent's own word)."""
    return "archive" if change_type == "hide" else change_type


class ReflectionChange(CamelModel):
    type: ChangeType
    nugget_name: str
    note_id: str
    detail: str


class ReflectionResult(CamelModel):
    ran_at: str
    inspected: int = 0
    rewritten: int = 0
    merged: int = 0
    hidden: int = 0
    tagged: int = 0
    linked: int = 0
    changes: list[ReflectionChange] = Field(default_factory=list)


class HideOp(CamelModel):
    type: Literal["hide"] = "hide"
    id: int
    note_id: str


class RewriteOp(CamelModel):
    type: Literal["rewrite"] = "rewrite"
    id: int
    note_id: str
    content: str


class RetagOp(CamelModel):
    type: Literal["tag"] = "tag"
    id: int
    note_id: str
    tags: list[str]


class MergeOp(CamelModel):
    type: Literal["merge"] = "merge"
    id: int
    winner_id: str
    loser_id: str


class SupersedeOp(CamelModel):
    """Archive a note another one stands in for (docs/VERDICTS.md, "Deciding": one stands):
    hidden, with a link to it, reason `superseded by <id>`."""

    type: Literal["supersede"] = "supersede"
    id: int
    note_id: str
    winner_id: str


class LinkOp(CamelModel):
    type: Literal["link"] = "link"
    id: int
    note_id: str
    other_id: str
    reason: str


class KeepOp(CamelModel):
    """Keep a note the memory system itself is about to drop (MicroClaw: clear the expiry of a
    row the bot will delete; docs/MICROCLAW.md, "Expired rows"). The note's own fields are
    unchanged."""

    type: Literal["keep"] = "keep"
    id: int
    note_id: str


Operation = Annotated[
    HideOp | RewriteOp | RetagOp | MergeOp | LinkOp | SupersedeOp | KeepOp,
    Field(discriminator="type"),
]


def operation_note_ids(op: Operation) -> tuple[str, ...]:
    """The notes an operation reads or writes directly (link redirects aside)."""
    if isinstance(op, MergeOp):
        return (op.winner_id, op.loser_id)
    if isinstance(op, LinkOp):
        return (op.note_id, op.other_id)
    if isinstance(op, SupersedeOp):
        return (op.note_id, op.winner_id)
    return (op.note_id,)


class NoteDiff(CamelModel):
    """One touched note: as read, and as the plan leaves it.

    The notes are kept as they are (not validated, not copied): they are the graph's own dicts,
    already checked when the file was read, and a plan of the whole graph holds 100k of them.
    """

    note_id: str
    before: SkipValidation[RawNote]
    after: SkipValidation[RawNote]


class FactEdit(CamelModel):
    """One fact of a fact file changed in step with its fact note
    (core/stores/nuggets/fact_files.py)."""

    path: str  # the fact file's name in the home (a home may move)
    note_id: str
    key: str
    before: dict[str, Any] | None = None  # None: the fact was not in the file
    after: dict[str, Any] | None = None  # None: the fact is removed
    position: int = 0  # where it stood (or goes), for putting it back


class FileImage(CamelModel):
    """A file written with the graph as one unit: enough to put it back if the run never
    lands, and to tell whether it did."""

    path: str  # relative to the home, or absolute when outside it
    base_fingerprint: str
    result_fingerprint: str
    before_text: str


class Plan(CamelModel):
    ran_at: str
    base_fingerprint: str
    nugget_name: str | None = None
    limit: int
    uncapped: bool = False
    result: ReflectionResult
    operations: list[Operation]
    notes: list[NoteDiff]
    # Files kept in step with the notes (Nuggets: the agent's fact files), edited in the same unit
    side_file_edits: list[FactEdit] = Field(default_factory=list, alias="factEdits")
    side_file_fingerprints: dict[str, str] = Field(  # of the files they touch
        default_factory=dict, alias="factFingerprints"
    )
    # The journal kind of its run: "reflect" for the pass, "decide" for operations decided
    # elsewhere (a contradiction's decision, acting on verdicts; see Memory.plan_operations).
    kind: Literal["reflect", "decide"] = "reflect"
    # Operations the plan proposes but leaves out unless the operator keeps them (a store's own
    # suggestions, or a choice that writes only when taken: MicroClaw's rescue of a row the bot
    # will delete). Applying without choosing, and a review's first state, leave them out.
    unkept_by_default: list[int] = Field(default_factory=list)
    # The graph snapshot this process planned from (never part of a plan's JSON): applying the
    # plan to that very file takes its notes and its after-images instead of replaying.
    _graph: Any = PrivateAttr(default=None)

    def change_for(self, op_id: int) -> ReflectionChange:
        return self.result.changes[op_id - 1]

    def default_kept(self) -> set[int]:
        """The operations kept when nobody chose: all but those left out by default."""
        left_out = set(self.unkept_by_default)
        return {op.id for op in self.operations if op.id not in left_out}


JournalKind = Literal["reflect", "decide", "unhide", "archive", "undo", "promote"]


class JournalEntry(CamelModel):
    run_id: str
    seq: int
    kind: JournalKind
    at: str
    base_fingerprint: str
    result_fingerprint: str
    operations: list[Operation] = Field(default_factory=list)
    result: ReflectionResult | None = None
    before: dict[str, RawNote]
    after: dict[str, RawNote]
    undoes: str | None = None
    summary: str = ""
    # A run that wrote MEMORY.md instead of the graph: its path, and the file's text before and
    # after (None: no file); the fingerprints above are then the file's, `before`/`after` empty.
    file_name: str | None = Field(default=None, alias="memoryMd")
    file_before: str | None = Field(default=None, alias="memoryMdBefore")
    file_after: str | None = Field(default=None, alias="memoryMdAfter")
    promoted: list[PromotionEntry] | None = None  # the entries a promotion wrote
    side_file_edits: list[FactEdit] = Field(default_factory=list, alias="factEdits")
    files: list[FileImage] = Field(default_factory=list)
    batch: str | None = None  # runs one apply wrote together; undo takes them back together
    # The directory the run was written in when that was a home its agent had left (forced):
    # the agent copies such a run into its live home, where it is not that home's to undo.
    left_home: str | None = None

    def to_json_dict(self) -> dict[str, Any]:
        """As CamelModel's, without copying the note images: they are the graph's own JSON
        dicts, and an uncapped run at 100k notes holds 200k of them (~1.3 s to copy)."""
        dumped = self.model_dump(
            mode="python", by_alias=True, exclude_none=True, exclude={"before", "after"}
        )
        images = {"before": self.before, "after": self.after}
        ordered: dict[str, Any] = {}
        for name, info in type(self).model_fields.items():
            key = info.alias or name
            if name in images:
                ordered[key] = images[name]
            elif key in dumped:
                ordered[key] = dumped[key]
        return ordered


PromotionAction = Literal["add", "update", "same", "drop"]  # drop: the operator left it out


class ShadowedNote(CamelModel):
    """A promoted note of the same section and title as a more recently updated one, which is
    written instead (it may contradict it)."""

    note_id: str
    nugget_name: str
    updated_at: str


class Alike(CamelModel):
    """Another entry of the same file saying almost the same thing (core/promotion/alike.py):
    one the promotion writes too (`note_id`), or a line the file holds already (no note id)."""

    title: str
    note_id: str = ""


class PromotionEntry(CamelModel):
    note_id: str
    nugget_name: str
    section: str
    title: str
    text: str
    action: PromotionAction
    allowed_despite: str | None = None  # the screening reason an operator overrode
    hash: str = ""  # of the section and text: what an allowance approves
    shadowed: list[ShadowedNote] = Field(default_factory=list)
    moved_from: list[str] = Field(default_factory=list)  # sections its title was taken out of
    alike: list[Alike] = Field(default_factory=list)  # entries saying almost the same thing


class BlockedEntry(CamelModel):
    """A candidate held back by screening (core/promotion/screening.py) or by the contradiction
    queue (core/review/queue.py); written only when allowed."""

    note_id: str
    nugget_name: str
    section: str
    title: str
    text: str
    reason: str
    hash: str = ""
    shadowed: list[ShadowedNote] = Field(default_factory=list)
    secret: bool = False  # it carries a secret: `text` is shown with the secret masked
    queued: str = ""  # the open contradiction group its note stands in ("" when none)


class PromotionBudget(CamelModel):
    """How much of what promotion writes the agent reads (core/promotion/budget.py): per unit
    ("lines", "bytes", "tokens") the limit, what the file (or scope) uses, the room left."""

    reader: str  # who reads it, for a person ("Claude Code")
    scope: str = ""  # what it covers, when not the whole file
    limits: dict[str, int] = Field(default_factory=dict)
    used: dict[str, int] = Field(default_factory=dict)
    room: dict[str, int] = Field(default_factory=dict)
    loaded_lines: int | None = None  # the file's lines that reach the agent, when not all
    cut_by: str = ""  # "" (all of it is read), "lines", "bytes" or "tokens"
    past: list[str] = Field(default_factory=list)  # note ids landing past it, in order


class PromotedFile(CamelModel):
    """A topic file promotion in Claude Code's own form writes beside MEMORY.md, one per fact
    (core/promotion/claude_topics.py)."""

    path: str
    note_id: str
    before_text: str | None  # None: no file there yet
    after_text: str
    base_fingerprint: str = "absent"


class PromotionPlan(CamelModel):
    path: str
    directory_exists: bool
    threshold: int
    entries: list[PromotionEntry]
    added: int
    updated: int
    before_text: str
    after_text: str
    diff: str
    base_fingerprint: str = "absent"
    blocked: list[BlockedEntry] = Field(default_factory=list)
    dropped: list[PromotionEntry] = Field(default_factory=list)  # left out by the operator
    qualifying: int = 0  # notes recalled `threshold`+ times (several may share one entry)
    refused: list[str] = Field(default_factory=list)  # scopes not written, one line each
    # what the file lost since our newest run on it, one phrase an entry (lost_lines.py)
    lost: list[str] = Field(default_factory=list)
    notices: list[str] = Field(default_factory=list)  # what the operator should know, a line each
    budgets: list[PromotionBudget] = Field(default_factory=list)  # what the agent reads of it
    form: str = "entries"  # how the facts are written (core/contract/parts.py, `PromotionForm`)
    topic_files: list[PromotedFile] = Field(default_factory=list)  # the "topic-files" form's

    @property
    def changes_file(self) -> bool:
        return (
            self.directory_exists
            and not self.refused
            and (
                self.before_text != self.after_text
                or any(f.before_text != f.after_text for f in self.topic_files)
            )
        )


JournalEntry.model_rebuild()  # `promoted` names a model defined after it
