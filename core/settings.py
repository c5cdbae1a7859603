"""Every setting the tool reads from outside itself: one `Settings`, read once by the front end
(`load`, from the environment and an optional config file) and passed to what needs each value.
Nothing else in `core/` reads the environment but a test hook read at import, the crash points
(`core/safeio/crashpoints.py`).

Where a value comes from, first found wins: its environment variable, then the config file, then
the default. The config file is `config.toml` in the user's config directory (`$NUGGETS_CONFIG`
names another); its keys are the settings' names, and its `[keymap]` table maps the console's
binding ids to keys. A value that cannot be used stops the command before anything is read or
written, in one line: naming the variable (`SettingError`, exit 1), or the file and the key
(`ConfigFileError`, a usage error, exit 2).
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Annotated, Any, Literal, cast

from pydantic import BeforeValidator, Field, SecretStr, ValidationError
from pydantic_core import PydanticUseDefault
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from core.clock import Clock, fixed_clock, parse_iso, system_clock, to_iso
from core.data_dirs import data_home, demo_home
from core.errors import ArgumentError, NuggetsError

CONFIG_ENV = "NUGGETS_CONFIG"
CONFIG_NAME = "config.toml"
CONFIG_BYTES = 1 << 20
KEYMAP = "keymap"
MAX_NOTES = 10  # the pass's cap: a larger limit counts as this one
DEFAULT_KEEP = 30  # runs the journal keeps
KEEP_BOUND = "of runs to keep, 1 or more"
DEFAULT_DEADLINE = 300  # seconds a whole model-scoring run may take
LONGEST_DEADLINE = 86_400
_DIGITS = re.compile(r"[0-9]+")  # ASCII only: str.isdigit() also takes ² and ٣
_SHOWN = 40  # characters of a bad value quoted back

Origin = Literal["environment", "file", "default"]


class SettingError(NuggetsError):
    """An environment variable set to a value the tool cannot use."""


class ConfigFileError(SettingError, ArgumentError):
    """The config file cannot be read, or one of its keys is unknown or has an unusable value."""


def shown(raw: str) -> str:
    """A setting's value quoted back, cut to a readable length."""
    return repr(raw[:_SHOWN]) + ("…" if len(raw) > _SHOWN else "")


def _blank(value: object) -> bool:
    return isinstance(value, str) and not value.strip()


def whole_number(
    value: object, highest: int, *, least: int = 0, capped: bool = False, bound: str = ""
) -> int:
    """`value` (digits from a variable, or a number from the file) as a whole number from
    `least` to `highest`. A larger number is `highest` when `capped`, else a ValueError saying what
    it must be (`bound`, else "from <least> to <highest>"); so is anything but the digits 0-9
    (a sign, a fraction, ², 1e3)."""
    bound = bound or (
        f"0 or more (more than {highest} counts as {highest})"
        if capped
        else f"from {least} to {highest}"
    )
    text = "" if isinstance(value, bool) or not isinstance(value, str | int) else str(value)
    text = text.strip()
    if not _DIGITS.fullmatch(text):
        raise ValueError(f"must be a whole number {bound}, written with the digits 0-9")
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(highest)) or int(digits) > highest:  # no int() of 10,000 digits
        if capped:
            return highest
        raise ValueError(f"must be a whole number {bound}")
    if int(digits) < least:
        raise ValueError(f"must be a whole number {bound}")
    return int(digits)


def _whole(highest: int, **rule: Any) -> BeforeValidator:
    def check(value: object) -> int:
        if _blank(value):
            raise PydanticUseDefault()
        return whole_number(value, highest, **rule)

    return BeforeValidator(check)


_YES = ("1", "yes", "true", "on")
_NO = ("0", "no", "false", "off")


def yes_or_no(value: object) -> bool:
    """A switch: 1/yes/true/on, or 0/no/false/off (true and false in the file)."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower() if isinstance(value, str | int) else ""
    if text in _YES or text in _NO:
        return text in _YES
    raise ValueError("must be 1 or 0 (yes/no, true/false, on/off)")


def _switch(value: object) -> bool:
    if _blank(value):
        raise PydanticUseDefault()
    return yes_or_no(value)


def _path(value: object) -> Path:
    if isinstance(value, Path):
        return value
    if not isinstance(value, str):
        raise ValueError("must be a path, written as a string")
    if _blank(value):
        raise PydanticUseDefault()
    return Path(value).expanduser()


def _moment(value: object) -> datetime:
    if _blank(value):
        raise PydanticUseDefault()
    text = value.isoformat() if isinstance(value, datetime | date) else value
    moment = parse_iso(text)
    if moment is None:
        raise ValueError("must be an ISO-8601 time from year 1 to 9999 in UTC and in local time")
    return moment


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError("must be a string")
    if _blank(value):
        raise PydanticUseDefault()
    return value


OptionalPath = Annotated[Path | None, BeforeValidator(_path)]
# Claude Code's own variables, as written (its memory folder: core/promotion/claude_folder.py)
ClaudeText = Annotated[str | None, BeforeValidator(_text)]


class Settings(BaseSettings):
    """The values; `load` reads them, `Settings.of(...)` makes them from values given (tests,
    a program), `DEFAULTS` is every default. A `Settings` never reads anything itself."""

    model_config = SettingsConfigDict(
        env_prefix="NUGGETS_", frozen=True, extra="forbid", validate_default=False
    )

    home: OptionalPath = Field(None, description="the Nuggets memory directory (--home)")
    memory_md: OptionalPath = Field(None, description="the MEMORY.md promotion writes")
    allow_contact: Annotated[bool, BeforeValidator(_switch)] = Field(
        False, description="promote e-mail addresses and phone numbers"
    )
    journal_keep: Annotated[int, _whole(999_999_999, least=1, bound=KEEP_BOUND)] = Field(
        DEFAULT_KEEP, description="applied runs the journal keeps"
    )
    max_notes: Annotated[int, _whole(MAX_NOTES, capped=True)] = Field(
        MAX_NOTES,
        validation_alias="MEMORY_REFLECTION_MAX_NOTES",
        description="notes the capped pass inspects",
    )
    daily_hour: Annotated[int, _whole(23)] = Field(
        9, validation_alias="MEMORY_REFLECTION_HOUR", description="the daily pass runs after it"
    )
    daily_minute: Annotated[int, _whole(59)] = Field(
        0, validation_alias="MEMORY_REFLECTION_MINUTE", description="... at this minute"
    )
    scorer_key: Annotated[SecretStr | None, BeforeValidator(_text)] = Field(
        None, description="the key sent to a --scorer endpoint"
    )
    scorer_deadline: Annotated[int, _whole(LONGEST_DEADLINE)] = Field(
        DEFAULT_DEADLINE, description="seconds a --scorer run may take in all"
    )
    dream_wait: Annotated[int, _whole(3_600)] = Field(
        0, description="seconds a write waits for Claude Code's consolidation to end"
    )
    data_dir: OptionalPath = Field(None, description="our own data (journals kept for others)")
    demo_dir: OptionalPath = Field(None, description="the demo memory")
    purifier_workspace: OptionalPath = Field(
        None,
        validation_alias="WORKSPACE",
        description="memory-purifier's workspace, when its config names none",
    )
    microclaw_config: OptionalPath = Field(
        None, validation_alias="MICROCLAW_CONFIG", description="the MicroClaw bot's config file"
    )
    claude_config_dir: ClaudeText = Field(
        None, validation_alias="CLAUDE_CONFIG_DIR", description="Claude Code's config folder"
    )
    claude_remote_memory_dir: ClaudeText = Field(
        None,
        validation_alias="CLAUDE_CODE_REMOTE_MEMORY_DIR",
        description="where Claude Code keeps memory in a remote session",
    )
    claude_memory_path_override: ClaudeText = Field(
        None,
        validation_alias="CLAUDE_COWORK_MEMORY_PATH_OVERRIDE",
        description="Claude Code's memory folder, named outright",
    )
    claude_project_dir_name: ClaudeText = Field(
        None,
        validation_alias="CLAUDE_CODE_PROJECT_DIR_NAME",
        description="Claude Code's project folder name, under a config folder named",
    )
    claude_disable_auto_memory: ClaudeText = Field(
        None,
        validation_alias="CLAUDE_CODE_DISABLE_AUTO_MEMORY",
        description="turns Claude Code's auto memory off (1) or on (0)",
    )
    claude_simple: ClaudeText = Field(
        None, validation_alias="CLAUDE_CODE_SIMPLE", description="Claude Code runs bare"
    )
    claude_remote: ClaudeText = Field(
        None, validation_alias="CLAUDE_CODE_REMOTE", description="Claude Code runs remote"
    )
    claude_safe_mode: ClaudeText = Field(
        None, validation_alias="CLAUDE_CODE_SAFE_MODE", description="Claude Code's safe mode"
    )
    agent_dir: OptionalPath = Field(
        None, description="the Nuggets agent's checkout (its .env, its gateway's cron jobs)"
    )
    now: Annotated[datetime | None, BeforeValidator(_moment)] = Field(
        None, description="a fixed clock for every command (tests, reproducible runs)"
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """The values given only: `load` reads the environment and the file itself."""
        return (init_settings,)

    @classmethod
    def of(cls, **values: Any) -> Settings:
        """These values by their names (checked), the defaults for the rest; reads nothing."""
        return cls(**{_key(name): value for name, value in values.items()})

    @property
    def clock(self) -> Clock:
        """The clock of every command: the real time, unless `now` fixes it."""
        return system_clock if self.now is None else fixed_clock(self.now)

    @property
    def data_home(self) -> Path:
        return data_home(self.data_dir)

    @property
    def demo_home(self) -> Path:
        return demo_home(self.demo_dir)

    @property
    def scorer_secret(self) -> str | None:
        return None if self.scorer_key is None else self.scorer_key.get_secret_value()


DEFAULTS = Settings()
NAMES = tuple(Settings.model_fields)


def _key(name: str) -> str:
    """What pydantic validates a setting under: its variable when that has no prefix."""
    alias = Settings.model_fields[name].validation_alias
    return alias if isinstance(alias, str) else name


_BY_KEY = {_key(name): name for name in NAMES}


def variable(name: str) -> str:
    """The environment variable of a setting."""
    key = _key(name)
    return key if key != name else f"{Settings.model_config.get('env_prefix')}{name.upper()}"


class _Environment(EnvSettingsSource):
    """The settings' variables in the environment given, by their exact names (upper case, as
    the shell spells them: `workspace` is not `$WORKSPACE`); an empty one counts as unset."""

    def __init__(self, environ: Mapping[str, str]) -> None:
        self._given = environ
        super().__init__(Settings)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        return {
            name.lower(): value
            for name, value in self._given.items()
            if name == name.upper() and value != ""
        }


def environment_values(environ: Mapping[str, str]) -> dict[str, str]:
    """The settings the environment gives, by name, as written."""
    return {_BY_KEY[key]: value for key, value in _Environment(environ)().items()}


@dataclass(frozen=True)
class ConfigFile:
    path: Path
    named: bool  # by $NUGGETS_CONFIG (a missing one is an error), else the default place
    found: bool
    values: Mapping[str, Any]  # settings by name, as the file writes them
    keymap: Mapping[str, str]  # the console's binding ids and their keys


def config_path(environ: Mapping[str, str]) -> tuple[Path, bool]:
    """The config file: $NUGGETS_CONFIG, else config.toml in the user's config directory;
    and whether it was named."""
    named = environ.get(CONFIG_ENV, "")
    if named.strip():
        return Path(named).expanduser(), True
    from platformdirs import user_config_dir

    return Path(user_config_dir("nuggets", appauthor=False)) / CONFIG_NAME, False


def read_config_file(path: Path, named: bool = False) -> ConfigFile:
    """The file's settings and keymap (none when it is absent and not named); a
    `ConfigFileError` of one line when it cannot be read or holds what is not a setting."""
    data = _config_bytes(path, named)
    if data is None:
        if named:
            raise ConfigFileError(f"{path}: no such config file (named by ${CONFIG_ENV})")
        return ConfigFile(path, named, False, {}, {})
    try:
        doc = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigFileError(f"{path}: not a TOML file (not UTF-8)") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigFileError(f"{path}: not a TOML file ({exc})") from None
    keymap = _keymap(path, doc.pop(KEYMAP, {}))
    for key in doc:
        if key not in NAMES:
            raise ConfigFileError(
                f"{path}: {key} is not a setting (the settings: "
                f"{', '.join(NAMES)}; and the [{KEYMAP}] table)"
            )
    return ConfigFile(path, named, True, doc, keymap)


def _config_bytes(path: Path, named: bool) -> bytes | None:
    """The file's bytes; None when it does not exist, or when the default place is in a folder
    we may not look into (run as another user, with the first one's $HOME). Never blocks on a
    pipe."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except PermissionError as exc:
        if not named and not os.access(path.parent, os.X_OK):
            return None
        raise ConfigFileError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except OSError as exc:
        raise ConfigFileError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise ConfigFileError(f"{path}: not a regular file")
    with os.fdopen(fd, "rb") as handle:
        data = handle.read(CONFIG_BYTES + 1)
    if len(data) > CONFIG_BYTES:
        raise ConfigFileError(f"{path}: larger than {CONFIG_BYTES} bytes, not a config file")
    return data


def _keymap(path: Path, table: object) -> dict[str, str]:
    if not isinstance(table, dict):
        raise ConfigFileError(f"{path}: {KEYMAP} must be a table of binding ids and keys")
    for binding, keys in table.items():
        if not isinstance(keys, str) or not keys.strip():
            raise ConfigFileError(
                f'{path}: {KEYMAP}.{binding} must be a key or keys, as "r" or "r,ctrl+r"'
            )
    return dict(table)


@dataclass(frozen=True)
class Configuration:
    """The settings in force, where each came from, and the console's keymap."""

    settings: Settings
    origins: Mapping[str, Origin]
    file: ConfigFile

    @property
    def keymap(self) -> Mapping[str, str]:
        return self.file.keymap


def load(environ: Mapping[str, str]) -> Configuration:
    """The settings from this environment and the config file (read here, once)."""
    file = read_config_file(*config_path(environ))
    given = environment_values(environ)
    try:
        settings = Settings.of(**{**file.values, **given})
    except ValidationError as exc:
        raise _refusal(exc, given, file) from None
    origins: dict[str, Origin] = {
        name: "environment" if name in given else "file" if name in file.values else "default"
        for name in NAMES
    }
    return Configuration(settings, origins, file)


def _refusal(exc: ValidationError, given: Mapping[str, str], file: ConfigFile) -> SettingError:
    """The first value refused, in one line: the variable's, or the file's key."""
    error = exc.errors()[0]
    name = _BY_KEY.get(str(error["loc"][0]), str(error["loc"][0]))
    cause = error.get("ctx", {}).get("error")
    reason = str(cause) if isinstance(cause, ValueError) else f"is not usable ({error['msg']})"
    if name in given:
        return SettingError(f"${variable(name)} {reason}; it is {shown(given[name])}")
    value = file.values.get(name)
    written = shown(value) if isinstance(value, str) else repr(value)[:_SHOWN]
    return ConfigFileError(f"{file.path}: {name} {reason}; it is {written}")


_DERIVED: dict[str, Callable[[Settings], Path]] = {
    "data_dir": lambda settings: settings.data_home,
    "demo_dir": lambda settings: settings.demo_home,
}


def shown_value(settings: Settings, name: str) -> str | int | bool | None:
    """A setting's value as `nuggets config` shows it: a path or time as text, the scorer's key
    never (only whether it is set), a derived default as what it comes to."""
    value = getattr(settings, name)
    if isinstance(value, SecretStr):
        return "(set, not shown)"
    if value is None and name in _DERIVED:
        return str(_DERIVED[name](settings))
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, datetime):
        return to_iso(value)
    return cast(str | int | bool | None, value)  # the settings' other types
