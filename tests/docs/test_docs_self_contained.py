"""README and docs/ describe the project from inside the repository: every file they link to is
in it, and none of them sends the reader to a file outside it. Code comments and docstrings cite
docs/ sections too, never a document outside the repository ("SPEC §n", a shared folder)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.paths import REPO

ROOT = REPO
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
OUTSIDE = re.compile(r"\.\./|shared folder|\bSPEC\b|/work/|seeds/")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
# In code, `../` and `/work/` are test data (hostile paths, a project directory); these are not.
OUTSIDE_IN_CODE = re.compile(r"\bSPEC\b|\.\./shared|shared folder|seeds/")
CODE = sorted(
    path
    for folder in ("core", "nuggets_tui", "bench", "tests", "screenshots")
    for pattern in ("*.py", "*.md")
    for path in (ROOT / folder).rglob(pattern)
    if path.resolve() != Path(__file__).resolve()
)


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
    assert all(
        f"docs/{name}" in readme for name in ("FORMATS.md", "PASS.md", "RUNS.md", "PROMOTION.md")
    )


def test_no_code_comment_cites_a_document_outside_the_repository() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in CODE
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if OUTSIDE_IN_CODE.search(line)
    ]
    assert found == []


def test_the_architecture_map_is_linked_from_the_readme() -> None:
    readme = (ROOT / "README.md").read_text()
    assert (ROOT / "docs" / "ARCHITECTURE.md").is_file()
    assert "docs/ARCHITECTURE.md" in readme


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_module_a_doc_names_exists(doc: Path) -> None:
    named = re.findall(r"`((?:core|nuggets_tui|bench)/[\w/.]*)`", doc.read_text())
    assert [path for path in named if not (ROOT / path).exists()] == []
