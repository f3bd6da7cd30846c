"""A small deterministic tokenizer, shaped like GPT's: good enough to count, budget and truncate.

Rules (a single leading space joins the next token):
  - one CJK ideograph, kana, hangul syllable, CJK or full-width punctuation/letter: one token;
  - other letters: chunks of at most 4 (`internationalisation` -> `inte|rnat|iona|lisa|tion`);
  - digits: groups of at most 3 (`2025` -> `202|5`);
  - any other non-space character (punctuation, `_`, emoji): one token each;
  - a run of line breaks (with the spaces before it): one token; other whitespace runs: one
    token, leaving their last space to the token that follows.
"""
from __future__ import annotations

import re
from functools import lru_cache

_CJK = (
    "\u2e80-\u2fdf"  # CJK radicals, Kangxi radicals
    "\u3000-\u9fff"  # CJK punctuation, kana, bopomofo, enclosed, ideographs (ext A and URO)
    "\uac00-\ud7af"  # hangul syllables
    "\uf900-\ufaff"  # compatibility ideographs
    "\ufe30-\ufe4f"  # CJK compatibility forms
    "\uff00-\uffef"  # half-width and full-width forms
    "\U00020000-\U0003ffff"  # ideographs, extensions B and later
)
_PATTERN = (
    rf" ?[^\W\d_{_CJK}]{{1,4}}"  # letters first: the commonest case, and disjoint from CJK
    rf"| ?[{_CJK}]"
    r"| ?\d{1,3}"
    r"| ?(?:[^\s\w]|_)"
    r"|\s*[\r\n]+"
    r"|\s+(?!\S)"
    r"|\s+"
)
_ASCII_PATTERN = r" ?(?:[A-Za-z]{1,4}|\d{1,3}|[^\sA-Za-z0-9])|\s*[\r\n]+|\s+(?!\S)|\s+"
"""`_PATTERN` on ASCII text (where its classes reduce to these): the same tokens, a third faster."""


@lru_cache(maxsize=1)
def _token_re() -> re.Pattern[str]:
    """Compile the token pattern on first use (compiling costs milliseconds, too much for import)."""
    return re.compile(_PATTERN)


@lru_cache(maxsize=1)
def _ascii_re() -> re.Pattern[str]:
    """Compile the ASCII token pattern on first use."""
    return re.compile(_ASCII_PATTERN)


def split_tokens(text: str) -> list[str]:
    """Split `text` into tokens; `''.join(split_tokens(text)) == text` always holds."""
    if not isinstance(text, str):
        raise TypeError(f"split_tokens() needs a str, got {type(text).__name__}")
    return _token_re().findall(text)


def count_tokens(text: str) -> int:
    """Return the number of tokens in `text` (0 for the empty string)."""
    if not isinstance(text, str):
        raise TypeError(f"count_tokens() needs a str, got {type(text).__name__}")
    return _count(text)


@lru_cache(maxsize=2048)
def _count(text: str) -> int:
    """Count tokens; memoised because an agent resends the same messages on every step.

    Text whose words are separated by single spaces and line breaks (most of an agent's text)
    is counted word by word: no token crosses such a gap (a space joins the word after it, a line
    break is a token of its own), and words recur from one message to the next, so each is
    counted once (`_WORDS`). Other text, and text longer than WORDWISE_MAX (a document, a huge
    observation: mostly words never seen), goes through the token pattern whole.
    """
    if len(text) > WORDWISE_MAX:
        return _pattern_count(text)
    words = text.split()
    breaks = text.count("\n")
    gaps = text.count(" ") + breaks
    if gaps == len(words) - 1 and len(text) - gaps == sum(map(len, words)):  # no other whitespace
        known = _WORDS.get
        return breaks + sum([known(word) or _count_word(word) for word in words])
    return _pattern_count(text)


WORDWISE_MAX = 4096
"""Characters up to which a text is counted word by word (an agent's messages are shorter)."""
MAX_WORDS = 65536
"""Words whose token counts are kept (all are dropped when there are more: a bounded memo)."""
_WORDS: dict[str, int] = {}


def _count_word(word: str) -> int:
    """The tokens of one word (no whitespace in it), remembered in `_WORDS`."""
    count = _pattern_count(word)
    if len(_WORDS) >= MAX_WORDS:
        _WORDS.clear()
    _WORDS[word] = count
    return count


def _pattern_count(text: str) -> int:
    """The tokens the pattern finds in `text` (the ASCII pattern on ASCII text)."""
    return (_ascii_re() if text.isascii() else _token_re()).subn("", text)[1]


def truncate_tokens(text: str, max_tokens: int) -> str:
    """Return the longest prefix of `text` made of at most `max_tokens` whole tokens."""
    end = 0
    for count, match in enumerate(_token_re().finditer(text)):
        if count == max_tokens:
            return text[:end]
        end = match.end()
    return text
