"""README and docs/ describe the project from inside the repository: every file they link to is
in it, and none of them sends the reader to a file outside it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.paths import REPO

ROOT = REPO
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
OUTSIDE = re.compile(r"\.\./|shared folder|\bSPEC\b|/work/|seeds/")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_a_doc_names_no_file_outside_the_repository(doc: Path) -> None:
    found = [line for line in doc.read_text().splitlines() if OUTSIDE.search(line)]
    assert found == []


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_relative_link_of_a_doc_reaches_a_file_in_the_repository(doc: Path) -> None:
    targets = [t for t in LINK.findall(doc.read_text()) if "://" not in t]
    for target in targets:
        path = (doc.parent / target).resolve()
        assert path.is_relative_to(ROOT) and path.exists(), f"{doc.name} links to {target}"


def test_the_docs_cover_formats_pass_runs_and_promotion() -> None:
    names = {p.name for p in DOCS}
    assert {"FORMATS.md", "PASS.md", "RUNS.md", "PROMOTION.md"} <= names
    readme = (ROOT / "README.md").read_text()
    assert all(f"docs/{name}" in readme for name in ("FORMATS.md", "PASS.md", "RUNS.md",
                                                      "PROMOTION.md"))
