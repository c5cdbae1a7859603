"""A labelled corpus of note pairs for the contradiction finder (docs/VERDICTS.md, "How well it
finds them"): each pair is two notes of one topic, labelled `True` when they disagree (a real
contradiction: one value said otherwise, or one negating the other) and `False` when they do not
(paraphrases, copies with provenance lines, related notes that state compatible things). Written
in our own words after the shapes real memories have (the generated 1,000-note sample among
them: inline provenance such as `per thread 2970`, `ticket OPS-2213`, `(PR #3006)`)."""

from __future__ import annotations

from typing import NamedTuple


class Pair(NamedTuple):
    kind: str  # what the pair is, for the report: value, negation, retired, paraphrase, ...
    a: str
    b: str
    disagree: bool


def _c(kind: str, a: str, b: str) -> Pair:
    return Pair(kind, a, b, True)


def _n(kind: str, a: str, b: str) -> Pair:
    return Pair(kind, a, b, False)


CORPUS: tuple[Pair, ...] = (
    # -- real contradictions: one value said otherwise ------------------------------------------
    _c("value: number", "The database port is 5433.", "The database port is 5432."),
    _c("value: number", "api on 8080, web on 5173.", "The api moved to port 8081; web on 5173."),
    _c("value: number", "Retries give up after 3 attempts.", "Retries give up after 5 attempts."),
    _c("value: number", "Staging has 4 GB of memory.", "Staging has 8 GB of memory."),
    _c(
        "value: number",
        "The rate limit is 100 requests a minute.",
        "The rate limit is 60 requests a minute.",
    ),
    _c("value: number", "Node 18 is what the CI image runs.", "Node 20 is what the CI image runs."),
    _c("value: number", "Invoices are due within 30 days.", "Invoices are due within 14 days."),
    _c("value: number", "Standups start at 09:30.", "Standups start at 10:00."),
    _c("value: name", "User's editor is Neovim.", "User's editor is Helix."),
    _c("value: name", "The team chats on Slack.", "The team chats on Discord."),
    _c("value: name", "Logs are shipped to Datadog.", "Logs are shipped to Grafana Cloud."),
    _c(
        "value: name",
        "The mobile app is written in Kotlin.",
        "The mobile app is written in Flutter.",
    ),
    _c("value: name", "User's manager is Priya.", "User's manager is Tomasz."),
    _c("value: name", "Payments go through Stripe.", "Payments go through Adyen."),
    _c("value: place", "User lives in Lisbon.", "User lives in Berlin since October."),
    _c("value: place", "Works from Porto (Europe/Lisbon).", "Moved to Warsaw (Europe/Warsaw)."),
    _c("value: place", "The servers are hosted in Frankfurt.", "The servers are hosted in Dublin."),
    _c("value: day", "Deploys go out on Tuesday.", "Deploys go out on Thursday."),
    _c(
        "value: day",
        "User wants the weekly report every Monday morning.",
        "User wants the weekly report every Friday morning.",
    ),
    _c("value: day", "The domain renews in March.", "The domain renews in September."),
    _c("value: word", "User prefers tabs.", "User prefers spaces."),
    _c(
        "value: word",
        "User prefers dark themes in the terminal.",
        "User prefers light themes in the terminal.",
    ),
    _c("value: word", "Indent Go code with tabs.", "Indent Go code with two spaces."),
    _c("value: word", "Answers should be short.", "Answers should be long."),
    _c("value: bare", "vim", "helix"),
    _c("value: bare", "pnpm", "yarn"),
    _c(
        "value: in a longer note",
        "Owns the billing service. On call the first week of the month.",
        "Owns the billing service. On call the third week of the month.",
    ),
    _c(
        "value: in a longer note",
        "The repo uses Rust. Formatting is done with rustfmt.",
        "The repo uses Go. Formatting is done with rustfmt.",
    ),
    # -- real contradictions: one negates or retires the other ----------------------------------
    _c("negation", "Deploys happen on Fridays.", "Deploys never happen on Fridays."),
    _c("negation", "The user drinks coffee.", "The user doesn't drink coffee."),
    _c(
        "negation",
        "Auto-merge is enabled on the main repo.",
        "Auto-merge is disabled on the main repo.",
    ),
    _c(
        "negation",
        "The bot can post in the general channel.",
        "The bot cannot post in the general channel.",
    ),
    _c(
        "negation",
        "Always run the migrations before the tests.",
        "Never run the migrations before the tests.",
    ),
    _c("negation", "Telemetry is on in production.", "Telemetry is off in production."),
    _c(
        "negation",
        "The staging box is reachable over SSH.",
        "The staging box is not reachable over SSH.",
    ),
    _c(
        "retired",
        "pnpm test runs the unit tests.",
        "Tests run with vitest now; the old pnpm test script was removed.",
    ),
    _c(
        "retired",
        "make deploy ships the site.",
        "The make deploy target was deleted; use the pipeline.",
    ),
    # -- contradictions the rule misses (said in other words) -----------------------------------
    _c("other words", "Works from Lisbon.", "Moved to Berlin in October."),
    _c("other words", "User is vegetarian.", "User had a steak at the team dinner and loves it."),
    _c("other words", "Prefers answers in bullet points.", "Wants flowing prose, no lists."),
    _c("other words", "Spaces for indentation.", "Tabs for indentation."),
    # -- paraphrases and copies: the same thing --------------------------------------------------
    _n(
        "paraphrase",
        "User prefers direct answers with small examples.",
        "user prefers direct answers, with small examples!",
    ),
    _n("paraphrase", "The database port is 5432.", "THE DATABASE PORT IS 5432"),
    _n(
        "paraphrase",
        "Owns the billing service.",
        "Owns the billing service.\nOwns the billing service.",
    ),
    _n(
        "provenance",
        "User's business sells coffee beans through Shopify.",
        "User's business sells coffee beans through Shopify per thread 4471.",
    ),
    _n(
        "provenance",
        "Turn the flag on in staging first.",
        "Turn the flag on in staging first ticket OPS-3120.",
    ),
    _n("provenance", "The indexer runs nightly.", "The indexer runs nightly (PR #5120)."),
    _n("provenance", "The indexer runs nightly.", "The indexer runs nightly as of build 6610."),
    _n(
        "provenance",
        "Retries give up after 3 attempts.",
        "Retries give up after 3 attempts.\nConfirmed by the user on 2026-10-02.",
    ),
    _n(
        "provenance",
        "Retries give up after 3 attempts per thread 1200.",
        "Retries give up after 3 attempts per thread 3456.",
    ),
    _n(
        "provenance",
        "The search flow is gated by the flag checked on 2026-08-22.",
        "The search flow is gated by the flag checked on 2026-10-26.",
    ),
    _n("provenance", "Standups at 09:30.", "Standups at 09:30.\nSource: the team channel."),
    _n(
        "provenance",
        "Owns the billing service.",
        "Owns the billing service.\nSee also the on-call runbook.",
    ),
    # -- related: one title, compatible facts ---------------------------------------------------
    _n(
        "related",
        "The heartbeat loop depends on httpx for schema checks.",
        "The heartbeat loop depends on zod for retries.",
    ),
    _n(
        "related",
        "The router depends on express for HTTP calls.",
        "The cron scheduler depends on express for HTTP calls.",
    ),
    _n(
        "related",
        "When unsure about money, I ask a clarifying question first.",
        "When unsure about time zones, I ask a clarifying question first.",
    ),
    _n(
        "related",
        "I should run the tests first when the user is busy.",
        "I should double-check dates when the user is busy.",
    ),
    _n(
        "related", "Carlos is a friend from university.", "Denis is a friend from the climbing gym."
    ),
    _n(
        "related",
        "Flag fast_recall gates the new search flow. Turn it on in staging first and watch Loki.",
        "Flag fast_recall gates the new voice flow. Turn it on in production and watch Datadog.",
    ),
    _n(
        "related",
        "User prefers direct answers with small examples.",
        "User likes tables when code is explained.",
    ),
    _n(
        "related",
        "tag the release\nbuild the images\npush to the registry",
        "tag the release\nbuild and push the images\nannounce it in the channel",
    ),
    _n("related", "The api is on 8080.", "The api has a health check at /healthz."),
    _n("related", "User's sister lives in Madrid.", "User's sister works as a nurse."),
    _n("related", "Deploys go out on Tuesday.", "Deploys need two approvals."),
    _n(
        "related",
        "The notifier repo uses Rust.",
        "The notifier repo has a Makefile with a lint target.",
    ),
    _n("related", "Mornings are for deep work.", "Afternoons are for meetings."),
    _n(
        "related",
        "User wants a reminder a week before birthdays.",
        "User wants reminders for domain renewals.",
    ),
    _n("related", "Staging has 4 GB of memory.", "Staging runs the nightly load test."),
    _n(
        "related",
        "The cache is Redis.",
        "The cache keys expire after an hour and are prefixed by tenant.",
    ),
    _n(
        "refinement",
        "The database port is 5432.",
        "The database port is 5432 on staging and in CI.",
    ),
    _n(
        "refinement",
        "User prefers short answers.",
        "User prefers short answers, with a code example when it helps.",
    ),
)
