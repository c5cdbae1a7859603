"""The detail pane: a note's full content, metadata, links with their reasons, and backlinks."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from core.browse.shelf import NoteDetail
from core.clock import shown_time
from core.contract.profile import NoteColumn
from core.models import RawNote
from core.notes import fields
from core.review.verdicts import Verdict

from ..safe import block, join, line
from .absorbed import absorbed_by
from .hanging import HangingStatic
from .secret_mark import SecretMarks
from .verdict_text import verdict_text

LINKS_SHOWN = 50  # each of links and backlinks; a hub note may have thousands

_META = (
    "id",
    "mark",
    "nuggetName",
    "kind",
    "type",
    "scope",
    "subject",
    "source",
    "confidence",
    "stability",
    "hits",
    "lastHitSession",
    "createdAt",
    "updatedAt",
    "lastRewrittenAt",
    "archivedAt",
)
_TIMES = frozenset({"createdAt", "updatedAt", "lastRewrittenAt", "archivedAt"})  # as people read


def _title(note: RawNote | None, fallback: str) -> Text:
    if note is None:
        return join(line(fallback, "italic"), (" (missing)", "italic"))
    title = fields.text(note, "title") or "(untitled)"
    mark = " [archived]" if fields.hidden(note) else ""
    return join(line(title), (mark, "dim"))


def detail_text(
    detail: NoteDetail,
    verdict: Verdict | None = None,
    secret: str | None = None,
    remark: str | None = None,
    hint: str = "",
    columns: Sequence[NoteColumn] = (),
) -> Text:
    """`secret`: why the note holds one (masked), said under its title; `remark`: what was done
    to it since a run of ours (another program's write), said there too; `hint`: a key the
    screen offers for every note, said last there; `columns`: the store's columns said whole
    above the content."""
    note = detail.note
    parts: list[Text | str | tuple[str, str]] = [
        line(fields.text(note, "title") or "(untitled)", style="bold"),
        "\n",
    ]
    if secret:
        parts += [
            ("Holds a secret", "bold red"),
            ": it ",
            line(secret),
            ". Promotion holds it back; x archives the note.\n",
        ]
    if note.get("mark"):  # the operator's own mark (core/review/marks.py)
        parts += [
            ("Marked ", "dim"),
            line(note["mark"], "bold reverse"),
            (" by you (m, or `nuggets mark`; undone from the runs, l)", "dim"),
            "\n",
        ]
        if note.get("markOnEarlierText"):
            parts += [("The mark is on an earlier text: the text changed since.", "yellow"), "\n"]
    if fields.hidden(note):
        parts += [("Archived", "bold reverse"), " — press u to bring it back"]
        if detail.merged_into:
            parts += [" (merged into ", absorbed_by(detail.winner, detail.merged_into), ")"]
        parts.append("\n")
    if remark:
        parts += [line(remark, "yellow"), "\n"]
    if hint:
        parts += [line(hint, "dim"), "\n"]
    parts.append("\n")
    said = [(c.label, c.cell(note)) for c in columns if c.in_detail]
    for label, value in said:
        if value:
            parts += [line(f"{label}  ", "bold"), line(value), "\n"]
    if any(value for _label, value in said):
        parts.append("\n")
    parts += [block(fields.text(note, "content") or "(no content)"), "\n\n"]
    parts += [("Tags  ", "bold"), line(", ".join(fields.tags(note)) or "none"), "\n\n"]
    parts += _links(detail)
    if verdict is not None:  # below the links: at 80×24 they show unscrolled
        parts += ["\n", verdict_text(verdict)]
    # The metadata last: it is long, and a pane of 80×24 shows the links above it unscrolled.
    parts.append("\n")
    for name in _META:
        if note.get(name) not in (None, ""):
            shown = shown_time(note[name]) if name in _TIMES else note[name]
            parts += [(f"{name:<16}", "dim"), line(shown), "\n"]
    return join(*parts)


def _links(detail: NoteDetail) -> list[Text | str | tuple[str, str]]:
    parts: list[Text | str | tuple[str, str]] = [(f"Links ({len(detail.links):,})", "bold"), "\n"]
    for link, target in detail.links[:LINKS_SHOWN]:
        parts += [
            "  → ",
            _title(target, link["to"]),
            "  ",
            line(link.get("reason", ""), style="italic dim"),
            "\n",
        ]
    parts += _more(len(detail.links))
    if detail.backlinks is None:
        return parts + ["\n", ("Backlinks", "bold"), (" (counting…)", "dim"), "\n"]
    parts += ["\n", (f"Backlinks ({len(detail.backlinks):,})", "bold"), "\n"]
    for source, link in detail.backlinks[:LINKS_SHOWN]:
        parts += [
            "  ← ",
            _title(source, source["id"]),
            "  ",
            line(link.get("reason", ""), style="italic dim"),
            "\n",
        ]
    return parts + _more(len(detail.backlinks))


def _more(count: int) -> list[Text]:
    if count <= LINKS_SHOWN:
        return []
    return [Text(f"  … {count - LINKS_SHOWN:,} more not shown\n", style="dim italic")]


class NoteDetailPane(VerticalScroll):
    """Shows one note; `show(None)` empties it."""

    DEFAULT_CSS = "NoteDetailPane > Static { width: 1fr; }"

    def compose(self) -> ComposeResult:
        yield HangingStatic(Text("Select a note to see it here.", style="dim"), id="detail-body")

    _shown: tuple[NoteDetail, Verdict | None, str | None] | None = None
    secrets: SecretMarks | None = None  # says why a note holds a secret, when given
    hint = ""  # a key the screen offers for every note, under its title
    columns: Sequence[NoteColumn] = ()  # the store's, those `in_detail` said above the content

    def show(
        self,
        detail: NoteDetail | None,
        empty: str = "Select a note to see it here.",
        verdict: Verdict | None = None,
        remark: str | None = None,
    ) -> None:
        if detail is not None and (detail, verdict, remark) == self._shown:
            return  # the same note as it was: drawing it again would only cost a frame
        self._shown = None if detail is None else (detail, verdict, remark)
        body = self.query_one("#detail-body", Static)
        if detail is None:
            body.update(line(empty, "dim"))
        else:
            secret = self.secrets.reason(detail.note) if self.secrets is not None else None
            body.update(detail_text(detail, verdict, secret, remark, self.hint, self.columns))
        self.scroll_home(animate=False)
