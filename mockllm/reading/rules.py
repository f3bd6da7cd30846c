"""Read the prompt rules by meaning: concept groups matched in order within each sentence.

A rule is not one fixed phrase. Each rule has a few forms (`mockllm.reading.rule_lexicon`); a
form is a short chain of concept groups (a prohibition, a verb, an object...), each found within
a few words of the one before, inside one sentence. "Never write the Observation yourself", "Do
not invent the tool's output" and "不要编造观察结果" are one form of `no_observation`. A
prohibition that is cancelled ("never forget to", "you don't need to") prohibits nothing, a
trigger word under a negation ("don't stop", "不必等待") or after "I" ("I will wait") does not
count, and a chain does not run across a word that opens another clause ("until", "before").

Everything is linear in the prompt: one scan splits it into sentences of word tokens (a Chinese
character is a token of its own), one pass per sentence finds every group's matches (terms are
looked up by their first token), and each form tries a bounded window after each match.
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

from mockllm.reading.rule_lexicon import FORMS, GROUPS, RULE_PHRASES, WAIT_FORMS, Step

__all__ = ["RULE_PHRASES", "read_rules", "sentences"]

# ---------------------------------------------------------------- splitting into sentences

_TOKEN = re.compile(r"[A-Za-z0-9_'\u2018\u2019-]++|[\u3400-\u4dbf\u4e00-\u9fff]"
                    r"|[.!?;](?=\s|$|[^\x00-\x7f])|[。！？；]|\n[ \t]*+(?![a-z])")
"""A word, a Chinese character, or a sentence end: . ! ? ; before a space (or the full-width
forms), or a line break before a line that does not go on in lower case (wrapped prose)."""


def _is_cjk(ch: str) -> bool:
    """True for a Chinese character (a token of its own)."""
    return "\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf"


def sentences(text: str) -> list[list[str]]:
    """Split `text` into sentences of lower-case tokens, in one linear scan (see `_TOKEN`).

    A word is a run of ASCII letters, digits, `_`, `'` and `-`, its possessive 's dropped; each
    Chinese character is a token; anything else only separates tokens.
    """
    out: list[list[str]] = []
    current: list[str] = []
    for match in _TOKEN.finditer(text):
        token = match.group()
        first = token[0]
        if first in ".!?;。！？；\n":
            if current:
                out.append(current)
                current = []
            continue
        if not _is_cjk(first):
            token = token.replace("\u2019", "'").replace("\u2018", "'").strip("'-").lower()
            if token.endswith("'s"):
                token = token[:-2]
            if not token:
                continue
        current.append(token)
    if current:
        out.append(current)
    return out


# ---------------------------------------------------------------- matching

def _index() -> dict[str, list[tuple[str, tuple[str, ...]]]]:
    """Every term of every group, by its first token."""
    index: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for group, terms in GROUPS.items():
        for text in terms:
            term = tuple(token for sentence in sentences(text) for token in sentence)
            index.setdefault(term[0], []).append((group, term))
    return index


_INDEX = _index()


class _Found:
    """The spans of each group's terms in one sentence, sorted by start, for windowed look-ups.

    Places are in units: an English word is two, a Chinese character one (a Chinese word is
    about two characters), so that one gap of `Step.gap` words fits both languages.
    """

    def __init__(self, tokens: list[str]) -> None:
        at = [0]
        for token in tokens:
            at.append(at[-1] + (1 if _is_cjk(token[0]) else 2))
        spans: dict[str, list[tuple[int, int]]] = {}
        n = len(tokens)
        for start, token in enumerate(tokens):
            for group, term in _INDEX.get(token, ()):
                end = start + len(term)
                if end <= n and tuple(tokens[start:end]) == term:
                    spans.setdefault(group, []).append((at[start], at[end]))
        speakers = sorted(b for _, b in spans.get("speaker", ()))  # where each 'I' ends
        if "not" in spans:  # 'I should not guess': what the speaker does, not a rule
            spans["not"] = [(a, b) for a, b in spans["not"] if not _within(speakers, a - 4, a)]
        negators = spans.get("not", []) + spans.get("speaker", []) + spans.get("cancel", [])
        self.negators = sorted(negators, key=lambda span: span[1])
        self.not_ends = [b for _, b in self.negators]
        cancels = sorted(a for a, _ in spans.get("cancel", ()))
        if "not" in spans:  # 'never forget to', 'you don't need to': permission, not a rule
            spans["not"] = [(a, b) for a, b in spans["not"] if not _within(cancels, b, b + 4)]
        self.spans = spans
        self.starts = {group: [a for a, _ in found] for group, found in spans.items()}
        self.breaks = self.starts.get("connective", [])

    def near(self, group: str, lo: int, hi: int) -> list[tuple[int, int]]:
        """The spans of `group` that start within [lo, hi]."""
        starts = self.starts.get(group)
        if not starts:
            return []
        return self.spans[group][bisect_left(starts, lo):bisect_right(starts, hi)]

    def negated(self, start: int, end: int) -> bool:
        """True when a negation, 'need to' or 'I' ends at most one word before the span
        [start, end) or inside it ('不需要' holds '要')."""
        i = bisect_left(self.not_ends, start - 2)
        while i < len(self.not_ends) and self.not_ends[i] <= end:
            if self.negators[i][0] < start:
                return True
            i += 1
        return False

    def broken(self, lo: int, hi: int) -> bool:
        """True when a clause-opening word starts within [lo, hi)."""
        return _within(self.breaks, lo, hi - 1)


def _within(sorted_places: list[int], lo: int, hi: int) -> bool:
    """True when some place of the sorted list lies within [lo, hi]."""
    i = bisect_left(sorted_places, lo)
    return i < len(sorted_places) and sorted_places[i] <= hi


def _holds(form: tuple[Step, ...], found: _Found) -> bool:
    """True when the chain of groups of `form` runs through the sentence."""
    first = form[0]
    return any(not (first.positive and found.negated(start, end)) and _chain(form, 1, end, found)
               for start, end in found.spans.get(first.group, ()))


def _chain(form: tuple[Step, ...], k: int, end: int, found: _Found) -> bool:
    """True when steps k.. of `form` follow a link that ends at `end` (each within its gap)."""
    if k == len(form):
        return True
    step = form[k]
    return any(not (step.positive and found.negated(start, stop))
               and (step.across or not found.broken(end, start))
               and _chain(form, k + 1, stop, found)
               for start, stop in found.near(step.group, end, end + 2 * step.gap))


_NEEDS = [(rule, form, frozenset(step.group for step in form))
          for rule, forms in [*FORMS.items(), ("wait", WAIT_FORMS)] for form in forms]
"""Each form with its rule ("wait" for WAIT_FORMS) and the groups it needs in a sentence."""


def read_rules(text: str) -> frozenset[str]:
    """The rule ids (one_action, no_observation, ...) that some sentence of `text` states."""
    rules: set[str] = set()
    for tokens in sentences(text):
        found = _Found(tokens)
        present = found.spans.keys()
        here = {rule for rule, form, needs in _NEEDS
                if needs <= present and (rule not in rules or rule == "one_action")
                and _holds(form, found)}  # one_action: a wait in its sentence is not the rule
        if "wait" in here and "one_action" not in here:
            here.add("no_observation")
        rules |= here - {"wait"}
    return frozenset(rules)
