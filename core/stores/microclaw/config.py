"""What the bot's own config sets for its memory maintenance (docs/MICROCLAW.md, "The bot's
config"): the caps, the reflector's interval, and its sleep-time consolidation.

The bot reads `microclaw.config.yaml` from `$MICROCLAW_CONFIG`, else from the directory it
runs in. We look at `$MICROCLAW_CONFIG` (the settings' microclaw_config), then beside the data
dir's `runtime/` (the data dir itself), then in the data dir's parent (where the bot ran, for the
older `./microclaw.data`).
A key that is absent takes the bot's default; a file that cannot be read gives the defaults
and one notice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.errors import GraphError, reason_of
from core.safeio.open_regular import read_regular

CONFIG_NAMES = ("microclaw.config.yaml", "microclaw.config.yml")
CONFIG_BYTES = 1 << 20


@dataclass(frozen=True)
class BotConfig:
    """The bot's defaults, as its config module declares them."""

    global_cap: int = 500  # memory_max_global_entries (0: no cap)
    chat_cap: int = 200  # memory_max_entries_per_chat (0: no cap)
    reflector_minutes: int = 15  # reflector_interval_mins
    consolidation: bool = False  # sleep_time.enabled
    idle_hours: int = 6  # sleep_time.idle_hours (at least 1)
    min_interval_hours: int = 24  # sleep_time.min_interval_hours
    threshold: float = 0.82  # sleep_time.similarity_threshold, clamped to 0.5-1.0
    max_per_pass: int = 20  # sleep_time.max_archived_per_pass (at least 1)
    memory_tokens: int = 1500  # memory_token_budget (0: the default)
    source: str = "the bot's defaults"

    @property
    def active_minutes(self) -> int:
        """How far back the reflector looks for a chat's user messages (twice its interval)."""
        return self.reflector_minutes * 2


def config_paths(data_dir: Path, chosen: Path | None = None) -> list[Path]:
    """The config file chosen (the settings' microclaw_config), else where the bot looks."""
    if chosen is not None:
        return [chosen]
    return [folder / name for folder in (data_dir, data_dir.parent) for name in CONFIG_NAMES]


def _whole(value: Any, default: int, least: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return default
    return max(least, int(value))


def config_of(doc: Mapping[str, Any], source: str) -> BotConfig:
    """The settings a parsed config holds (pure), the bot's defaults for the rest."""
    base = BotConfig()
    sleep = doc.get("sleep_time")
    sleep = sleep if isinstance(sleep, Mapping) else {}
    threshold = sleep.get("similarity_threshold", base.threshold)
    if isinstance(threshold, bool) or not isinstance(threshold, int | float):
        threshold = base.threshold
    return BotConfig(
        global_cap=_whole(doc.get("memory_max_global_entries"), base.global_cap),
        chat_cap=_whole(doc.get("memory_max_entries_per_chat"), base.chat_cap),
        reflector_minutes=_whole(doc.get("reflector_interval_mins"), base.reflector_minutes),
        consolidation=sleep.get("enabled") is True,
        idle_hours=_whole(sleep.get("idle_hours"), base.idle_hours, least=1),
        min_interval_hours=_whole(
            sleep.get("min_interval_hours"), base.min_interval_hours, least=1
        ),
        threshold=min(1.0, max(0.5, float(threshold))),
        max_per_pass=_whole(sleep.get("max_archived_per_pass"), base.max_per_pass, least=1),
        memory_tokens=_whole(doc.get("memory_token_budget"), base.memory_tokens)
        or base.memory_tokens,
        source=source,
    )


def _scalar(text: str) -> Any:
    """A YAML scalar as the bot's config spells its numbers and booleans."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_settings(text: str) -> dict[str, Any]:
    """The top-level `key: value` lines of a YAML config, and one level of nested mappings
    (`sleep_time:` then indented `key: value`): all the memory settings need (pure). Lists,
    flow mappings and anything else are skipped."""
    doc: dict[str, Any] = {}
    block: dict[str, Any] | None = None
    for raw in text.splitlines():
        body = raw.split(" #", 1)[0].rstrip()
        if not body.strip() or body.lstrip().startswith(("#", "-")) or ":" not in body:
            continue
        key, _, value = body.strip().partition(":")
        key = key.strip().strip("'\"")
        if raw[0] not in " \t":
            block = None
            if value.strip():
                doc[key] = _scalar(value)
            else:
                block = doc[key] = {}
        elif block is not None and value.strip():
            block[key] = _scalar(value)
    return doc


def read_config(data_dir: Path, chosen: Path | None = None) -> tuple[BotConfig, list[str]]:
    """The bot's config for this data dir (`chosen`: its file, when named), and what a reader
    should be told about it."""
    for path in config_paths(data_dir, chosen):
        if not path.exists():
            continue
        try:
            doc = parse_settings(read_regular(path, CONFIG_BYTES).decode("utf-8"))
        except (OSError, GraphError, UnicodeDecodeError) as exc:
            return BotConfig(), [
                f"{path}: the bot's config cannot be read ({reason_of(exc)}); "
                "planning with the bot's defaults"
            ]
        return config_of(doc, str(path)), []
    return BotConfig(), []
