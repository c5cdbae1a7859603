"""Orders to the agent, in families and in several languages: the rules `screening` matches on a
note's skeleton (`core/promotion/skeleton.py`) with its whitespace collapsed.

Pure; the patterns are built once from word lists. Four families, each in English, French,
Spanish, Portuguese, Italian, German, Russian, Chinese (with the Japanese and Korean wordings that
share its shape):

- dismissal: a verb that sets something aside and an object that is the agent's instructions,
  with filler words between ("discard all of the previous instructions", "ignorez toutes les
  instructions précédentes", "忽略之前的所有指令"), or the object first ("previous instructions
  should be ignored", "之前的指令都可以忽略");
- obsolescence: the instructions said to be void ("previous instructions no longer apply", "all of
  your instructions are void");
- role: the agent told what it is now ("you now are", "从现在开始你是");
- standing orders: a time from which on, addressed to the agent ("going forward you will",
  "henceforth the assistant shall", "à partir de maintenant tu").

Where an order ends and a memory begins: a note about the user's or the team's ways passes however
it is worded in time ("going forward we use pnpm", "the user wants answers in French from now
on"); what is addressed to the agent by name or as "you" with a time from which on is held,
whatever it orders. Instructions written as plain imperatives, as AGENTS.md is ("Use pnpm", "Run
the tests before pushing"), pass: the wording alone cannot tell them from an order, and what they
would make the agent do (a command, a read of a credential) is screened by the command rules.

Objects such as rules, context or prompts also name ordinary things (lint rules, a kube context,
an installer's prompts): they count only with a word that points at the agent's own (previous,
prior, above, your, system), and the verbs that also name ordinary operations (drop, clear,
delete, skip) only with the words that name instructions.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from core.promotion.rules import SEP, Rule, Substrings, Words, alt, forms, words

SET_ASIDE = "tells the agent to set its instructions aside"
VOID = "says the agent's instructions no longer hold"
ROLE = "tries to tell the agent what it is now"
STANDING = "gives the agent standing orders"

_CJK_GAP = r"[^.!?;\n。！？；]{0,8}?"  # between two words of one CJK sentence


class Language:
    """One language's words for the families (phrases separated by `|`).

    verbs dismiss any object of theirs, weak_verbs only the instructions themselves; objects
    are the instructions, weak_objects also name ordinary things; among the words before an
    object, any_before may stand in the chain, agent_before point at instructions in general
    (all, any), own_before at the agent's own (previous, your), as own_after do after it; void
    says they no longer hold; time is a time from which on, addressees the agent as "you" (or
    a verb that says "you"), you_modal "you" with a modal, third the agent by name, which needs
    one of modals; fillers may stand between a verb and its object or a time and its addressee
    ("ignore, please, all previous instructions"); roles tell the agent what it is; artefacts
    are things an object names when it is followed by one ("the previous instructions file")."""

    def __init__(self, **fields: str) -> None:
        self.verbs = words(fields["verbs"])
        self.weak_verbs = words(fields.get("weak_verbs", ""))
        self.objects, self.weak_objects = words(fields["objects"]), words(fields["weak_objects"])
        self.any_before = words(fields["any_before"])
        self.agent_before = words(fields["agent_before"])
        self.own_before, self.own_after = words(fields["own_before"]), words(fields["own_after"])
        self.void, self.time = words(fields["void"]), words(fields["time"])
        self.addressees, self.third = words(fields["addressees"]), words(fields["third"])
        self.modals, self.roles = words(fields["modals"]), words(fields["roles"])
        self.you_modal, self.fillers = words(fields["you_modal"]), words(fields["fillers"])
        self.artefacts = words(fields.get("artefacts", ""))


class Checked:
    """A pattern whose matches a check accepts or refuses; `search` as a compiled pattern's."""

    def __init__(self, pattern: str, check: Callable[[re.Match[str]], bool]) -> None:
        self.pattern, self.regex, self.check = pattern, re.compile(pattern), check

    def search(self, string: str, /) -> bool:
        return any(self.check(match) for match in self.regex.finditer(string))


def _instructions(lang: Language) -> str:
    """An object and the words around it (named groups `pre`, `strong` or `weak`, `post`):
    determiners and pointing words right before it, a pointing word after it. A word of
    another kind between them ("the setup instructions") names a topic, not the agent's; an
    artefact after it ("the previous instructions file") is what is named."""
    around = alt(lang.fillers + lang.any_before + lang.agent_before + lang.own_before)
    artefact = rf"(?!{SEP}{alt(lang.artefacts)}\b)" if lang.artefacts else ""
    return (
        rf"(?P<pre>(?:{around}{SEP}){{0,6}})(?:(?P<strong>{alt(lang.objects)})|"
        rf"(?P<weak>{alt(lang.weak_objects)}))\b{artefact}(?:{SEP}(?:{around}{SEP})?"
        rf"(?P<post>{alt(lang.own_after)})\b)?"
    )


def _points_at_instructions(lang: Language) -> Callable[[re.Match[str]], bool]:
    """Whether a match of `_instructions` names the agent's instructions: a strong object
    with any pointing word (all, your, previous), a weak one with the agent's own (your,
    previous); after a weak verb (named group `weak_verb`), only a strong object."""
    any_pointer = re.compile(rf"\b{alt(lang.agent_before + lang.own_before)}\b")
    own_pointer = re.compile(rf"\b{alt(lang.own_before)}\b")

    def check(match: re.Match[str]) -> bool:
        strong = match.group("strong") is not None
        if "weak_verb" in match.re.groupindex and match.group("weak_verb") and not strong:
            return False
        pointer = any_pointer if strong else own_pointer
        return match.group("post") is not None or pointer.search(match.group("pre")) is not None

    return check


def _dismissal(lang: Language) -> Rule:
    verbs = alt(lang.verbs)
    if lang.weak_verbs:
        verbs = f"(?:{verbs}|(?P<weak_verb>{alt(lang.weak_verbs)}))"
    pattern = rf"\b{verbs}\b{SEP}{_instructions(lang)}"
    return (
        Checked(pattern, _points_at_instructions(lang)),
        SET_ASIDE,
        Words(lang.verbs + lang.weak_verbs),
    )


def _void(lang: Language) -> Rule:
    pattern = rf"\b{_instructions(lang)}(?:{SEP}\w+){{0,2}}?{SEP}{alt(lang.void)}\b"
    return (
        Checked(pattern, _points_at_instructions(lang)),
        VOID,
        Words(lang.objects + lang.weak_objects),
    )


def _standing(lang: Language) -> Rule:
    """A time from which on and the agent, either way round: "from now on(,) you", "going
    forward the assistant will", "you will henceforth", "ab sofort musst du"."""
    time, you = alt(lang.time), alt(lang.addressees)
    third, modal = alt(lang.third), alt(lang.modals)
    agent = rf"(?:{you}|{third}{SEP}{modal}|{modal}{SEP}{third})\b"
    ordered = rf"(?:{alt(lang.you_modal)}|{third}{SEP}{modal})(?:{SEP}\w+){{0,4}}?"
    pattern = (
        rf"\b{time}(?:{SEP}{alt(lang.fillers)})?{SEP}{agent}"
        rf"|\b(?:{ordered}|{you}){SEP}{time}\b"
    )
    return re.compile(pattern), STANDING, Words(lang.time)


def _roles(lang: Language) -> Rule:
    return re.compile(rf"\b{alt(lang.roles)}(?!\w)"), ROLE, Words(lang.roles)


def language_rules(lang: Language) -> list[Rule]:
    return [_dismissal(lang), _void(lang), _standing(lang), _roles(lang)]


def cjk_rules(
    verbs: str,
    weak_verbs: str,
    objects: str,
    weak_objects: str,
    any_: str,
    own: str,
    void: str,
    time: str,
    addressees: str,
    roles: str,
) -> list[Rule]:
    """The same families for languages written without spaces: words a few characters apart,
    the object before or after its verb ("忽略之前的所有指令", "之前的指令都可以忽略")."""
    gap = _CJK_GAP
    strong = rf"{alt(words(any_) + words(own))}{gap}{alt(words(objects))}"
    weak = rf"{alt(words(own))}{gap}{alt(words(weak_objects))}"
    either, verb, weak_verb = f"(?:{strong}|{weak})", alt(words(verbs)), alt(words(weak_verbs))
    rules = [
        (
            rf"{verb}{gap}{either}|{weak_verb}{gap}{strong}",
            SET_ASIDE,
            words(f"{verbs}|{weak_verbs}"),
        ),
        (rf"{either}{gap}{verb}|{strong}{gap}{weak_verb}", SET_ASIDE, words(f"{own}|{any_}")),
        (rf"{either}{gap}{alt(words(void))}", VOID, words(void)),
        (rf"{alt(words(time))}[\s,、:]{{0,3}}{alt(words(addressees))}", STANDING, words(time)),
        (alt(words(roles)), ROLE, words(roles)),
    ]
    return [
        (re.compile(p), r, Substrings((f for w in needles for f in forms(w)), not_ascii=True))
        for p, r, needles in rules
    ]
