"""A note's verdict in words: the verdict, its strength and rule, and each of the six scores with
the scorer's reason (or, for a verdict its own system gave with other scores, those scores by
their names), so the verdict column explains itself (docs/VERDICTS.md has every rule)."""

from __future__ import annotations

from rich.text import Text

from core.review.default_scorer import SCORE_NAMES
from core.review.verdicts import Verdict

from ..safe import join, line
from .hanging import hang_here

VERDICT_STYLES = {
    "reject": "red",
    "defer": "dim",
    "compress": "yellow",
    "merge": "magenta",
    "promote": "green",
}


def verdict_cell(verdict: Verdict | None) -> Text:
    """The notes table's cell: the verdict, coloured (blank until scored)."""
    if verdict is None:
        return Text("")
    return line(verdict.verdict, VERDICT_STYLES.get(verdict.verdict, ""))


def verdict_line(verdict: Verdict) -> Text:
    """One line: the verdict, the strength and the rule that decided it."""
    return join(
        line(verdict.verdict, "bold " + VERDICT_STYLES.get(verdict.verdict, "")),
        f" (strength {verdict.strength:.2f}): ",
        line(verdict.why),
    )


def score_names(verdict: Verdict) -> tuple[str, ...]:
    """The six scores a verdict is judged on, or the scores its own system gave it when they
    are others (a memory-purifier claim carries its eight Pass-2 scores)."""
    own = tuple(verdict.scores)
    return SCORE_NAMES if not own or set(SCORE_NAMES) <= set(own) else own


def verdict_text(verdict: Verdict) -> Text:
    """The verdict and every score with its reason in words."""
    parts: list[Text | str | tuple[str, str]] = [
        ("Verdict  ", "bold"),
        hang_here(verdict_line(verdict)),
        "\n",
    ]
    names = score_names(verdict)
    for name in names:
        score = verdict.scores.get(name)
        shown = "-" if score is None else f"{score:.2f}"
        parts += [
            (f"  {name.replace('_', ' '):<29}", "dim"),
            f"{shown:>5}  ",
            hang_here(line(verdict.reasons.get(name, ""))),
            "\n",
        ]
    if names == SCORE_NAMES:
        parts += [("  strength = the first five − noise risk", "dim italic")]
    else:
        parts += [("  its system's own scores", "dim italic")]
    if verdict.scorer != "default":
        parts += [("  · scored by ", "dim"), line(verdict.scorer, "dim")]
    return join(*parts, "\n")
