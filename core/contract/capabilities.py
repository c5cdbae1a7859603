"""What a store offers beyond the protocol, as typed switches (never words): the front ends and
the engine read these to offer a key or a command, never a label's emptiness."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class Capabilities:
    """A memory system's switches; the defaults are a plain system's."""

    # Notes can be merged into one: a contradiction's "merge" decision (the console's m).
    merge: bool = False
    # Review rules can be saved beside the journal (core/plans/review_rules.py).
    rules: bool = False
    # The operator's marks on notes, kept beside the journal (core/review/marks.py).
    marks: bool = False
    # Its plan inspects a capped number of notes: the review says so (`Profile.plan_cap`) and
    # offers to lift the cap; a system that never caps has no cap to lift.
    capped_plans: bool = False
    # Notes can be archived by hand (the console's x asks); else x says
    # `Profile.archive_refused` instead of a dialog that could only fail.
    manual_archive: bool = True
    # Its maintenance is another program's schedule: `daily` runs no pass and promotes
    # nothing; it says `Profile.maintained_elsewhere` and the store's warnings.
    own_schedule: bool = False
    # Applying a plan runs the system's own program, not a run of ours (undo does not take it
    # back): the confirmation and the result say `Profile.applied_elsewhere`.
    runs_itself: bool = False
    # Planning may cost something (a model's tokens): the console plans nothing ahead and asks
    # before planning, the command line says `Profile.plan_cost` first.
    costly_plans: bool = False
    # Its notes count how often they were recalled (hits): the overview draws them
    # (`Profile.hits_label`, `Profile.hits_line`).
    recall_counts: bool = False
    # The sidebar counts each group's notes of kind "fact" (`Profile.fact_label`).
    fact_notes: bool = False
    # Applying rewrites the notes' one file, once, atomically (the confirmation says so); else
    # `Profile.apply_effect` says what an apply writes.
    whole_file_apply: bool = True
    # Promotion can be pointed at another file (`Profile.promotion_option`,
    # `Profile.promotion_env`), said when its directory is missing.
    promotion_elsewhere: bool = False
