"""The guarantees of docs/RELIABILITY.md: concurrent writers, SIGKILL at every step, hostile and
broken input, fuzzing, invariants, inert text, numbers, special files, the journal's trust."""
