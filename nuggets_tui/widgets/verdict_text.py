"""A note's verdict in words: the verdict, its strength and rule, and each of the six scores with
the scorer's reason, so the verdict column explains itself (docs/VERDICTS.md has every rule)."""

from __future__ import annotations

from rich.text import Text

from core.review.default_scorer import SCORE_NAMES
from core.review.verdicts import Verdict

from ..safe import join, line

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


def verdict_text(verdict: Verdict) -> Text:
    """The verdict and every score with its reason in words."""
    parts: list[Text | str | tuple[str, str]] = [("Verdict  ", "bold"), verdict_line(verdict), "\n"]
    for name in SCORE_NAMES:
        score = verdict.scores.get(name)
        shown = "-" if score is None else f"{score:.2f}"
        parts += [
            (f"  {name.replace('_', ' '):<29}", "dim"),
            f"{shown:>5}  ",
            line(verdict.reasons.get(name, "")),
            "\n",
        ]
    parts += [("  strength = the first five − noise risk", "dim italic")]
    if verdict.scorer != "default":
        parts += [("  · scored by ", "dim"), line(verdict.scorer, "dim")]
    return join(*parts, "\n")
