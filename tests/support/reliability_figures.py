"""Run the reliability suite once and print the figures for docs/RELIABILITY.md.

    python tests/support/reliability_figures.py            # prints a Markdown table
    python tests/support/reliability_figures.py --json     # the raw counts

The tests count what they tried through tests/support/figures.py while $NUGGETS_FIGURES names a
file.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SUITE = [
    "tests/reliability/test_concurrency.py",
    "tests/reliability/test_crash_safety.py",
    "tests/reliability/test_hostile_input.py",
    "tests/reliability/test_fuzz_reader.py",
    "tests/reliability/test_invariants.py",
    "tests/reliability/test_screening.py",
    "tests/reliability/test_injection_families.py",
    "tests/reliability/test_inert_text.py",
    "tests/reliability/test_console_escapes.py",
    "tests/reliability/test_numbers.py",
    "tests/reliability/test_special_files.py",
    "tests/reliability/test_odd_leftovers.py",
    "tests/reliability/test_journal_trust.py",
    "tests/reliability/test_journal_files.py",
    "tests/reliability/test_deep_nesting.py",
    "tests/reliability/test_settled_leftovers.py",
    "tests/reliability/test_promotion_journal.py",
    "tests/engine/test_promotion_agent.py",
    "tests/reliability/test_runlog_files.py",
    "tests/reliability/test_scorer_servers.py",
    "tests/engine/test_modelscorer.py",
    "tests/reliability/test_secret_screening.py",
    "tests/reliability/test_promotion_links.py",
]
ORDER = [
    ("concurrent writes survived", "writes by another program racing ours, every one kept"),
    ("applies landed while another program wrote", "reviewed applies that landed mid-race"),
    ("applies refused as stale", "reviewed applies refused as stale mid-race"),
    (
        "one-shot commands that succeeded while another program wrote",
        "one-shot commands that planned again and succeeded mid-race",
    ),
    ("kill points tried", "SIGKILL points tried (every step of every write and of recovery)"),
    ("random-moment kills", "SIGKILLs at random moments of a write sequence"),
    ("crash trials", "crash trials in all"),
    ("bad inputs tried", "broken or hostile inputs tried"),
    ("fuzz cases run", "fuzz cases run on the reader"),
    ("number spellings tried", "number spellings written back as read (corpus and generated)"),
    ("invariant steps", "steps of random plan/apply/unhide/undo/edit sequences"),
    (
        "escape sequences tried on every screen",
        "escape payloads in every field shown (OSC title, clipboard and hyperlink, CSI, DCS, C1, "
        "controls, markup, bidi, variation selectors)",
    ),
    ("console frames checked for escapes", "console frames checked byte for byte for escapes"),
    ("generated hostile memories walked", "generated hostile memories walked through the screens"),
    ("command outputs checked for escapes", "command outputs checked for escapes"),
    ("special files tried", "pipes, devices, directories and oversize files in place of ours"),
    ("odd leftovers tried", "writes and kills through symlinks to odd names, settled"),
    ("tampered journals tried", "tampered or broken journal entries, refused or skipped"),
    (
        "run log files refused",
        "links and special files in place of the run log's files or folder, refused (symlink, "
        "dangling symlink, hard link, named pipe, directory, socket; both stores)",
    ),
    (
        "hostile texts through the run log",
        "hostile texts through last-run.md and the JSON run log, none written raw",
    ),
    ("run log kills settled", "report leftovers of killed runs, settled with a message"),
    (
        "hostile scorer servers tried",
        "hostile scorer servers and replies, each bounded, falling back in one line (no key sent "
        "elsewhere)",
    ),
    (
        "journal entries naming a file not ours, refused",
        "journal entries edited to name a file their store never writes, refused (both stores)",
    ),
    (
        "files nested 100,000 deep read in one line",
        "files nested 100,000 deep (ours, the purifier's, the memory-log, the Claude store's "
        "record), one line each",
    ),
    (
        "kills while letting a group stand, settled",
        "SIGKILLs while letting a group stand, leftovers settled on the next open (both stores)",
    ),
    ("injection attempts held back", "injection attempts held back by promotion screening"),
    ("legitimate notes screened (demo)", "legitimate demo notes screened (none held back)"),
    (
        "legitimate notes screened (1,000-note sample)",
        "sample notes screened (none held back; when the sample is present)",
    ),
    (
        "paraphrased injections held back",
        "paraphrased injections held back (commands, orders, spaced and digit-for-letter "
        "spellings)",
    ),
    ("look-alike command notes passed", "ordinary notes that look like commands or orders, passed"),
    (
        "injection family attempts held back",
        "orders and commands of the injection families held back (10 languages)",
    ),
    (
        "look-alike and hidden-character variants held back",
        "look-alike and hidden-character variants of injections held back",
    ),
    (
        "ordinary lines like the families, passed",
        "ordinary lines like the injection families, passed",
    ),
    ("secrets held back", "secrets held back by promotion (keys, tokens, passwords, contacts)"),
    ("look-alike secret notes passed", "ordinary notes that look like secrets, passed"),
    ("random tokens tried (caught)", "random tokens of 32-64 characters caught (of 1,000)"),
    ("hashes and UUIDs tried (passed)", "hex hashes and UUIDs passed"),
    (
        "texts of 2 MB screened and masked",
        "texts of 2 MB built to make a secret pattern backtrack, screened and masked",
    ),
    (
        "links in place of a promotion target, refused",
        "links planted as MEMORY.md, AGENTS.md or a chat's folder, refused",
    ),
]


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        counts_file = Path(tmp) / "figures.json"
        env = {**os.environ, "NUGGETS_FIGURES": str(counts_file)}
        started = time.monotonic()
        command = [
            sys.executable,
            "-m",
            "pytest",
            "-o",
            "addopts=",
            "-q",
            "-p",
            "no:cacheprovider",
            *SUITE,
        ]
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
        seconds = time.monotonic() - started
        counts = json.loads(counts_file.read_text()) if counts_file.exists() else {}
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else "no output"
    for line in done.stdout.splitlines():  # which test failed, for whoever runs this
        if line.startswith(("FAILED", "ERROR")):
            print(line, file=sys.stderr)
    if "--json" in sys.argv:
        print(json.dumps({"counts": counts, "pytest": summary, "seconds": round(seconds)}))
        return done.returncode
    print(
        f"Run on {time.strftime('%Y-%m-%d')}, Python {platform.python_version()}, "
        f"{os.cpu_count()} cores: `{summary}` in {seconds:.0f} s.\n"
    )
    print("| figure | count |\n|---|---:|")
    for key, label in ORDER:
        print(f"| {label} | {counts.get(key, 0):,} |")
    print("| notes lost | 0 |" if done.returncode == 0 else "| notes lost | SEE FAILURES |")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
