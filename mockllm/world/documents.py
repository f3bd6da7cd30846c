"""A few dozen short documents (shop policies, product FAQs, city facts, agent concepts).

Ranking is deliberately simple and deterministic: the score of a document is the number of
distinct query tokens it contains (case-insensitive; each CJK character is a token; common words
ignored); ties go to the smaller id. One document (doc-33) holds a prompt injection on purpose.
"""
from __future__ import annotations

import os
import re

_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "documents.json")
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN_PATTERN = f"[{_CJK}]|[^\\W_{_CJK}]+"  # one CJK character, or a run of other letters/digits
STOPWORDS = frozenset(
    "a an the is are was were be been am do does did what which who whom how when where why "
    "can could would should will shall may might must i me my we our you your he she it its "
    "they them their this that these those of to in on at for from by with about as and or but "
    "if then than so not no yes there here have has had please tell know any some all s t "
    "的 了 吗 呢 是 我 你 么 什 在 吧 啊 请 和".split()
)
_DOCS: list[dict] = []
_INDEX: list[tuple[dict, frozenset[str]]] = []  # (document, its tokens), built once


def tokenize(text: str) -> list[str]:
    """Split text into lower-case tokens: words, numbers and single CJK characters.

    A trailing plural 's' is dropped ('returns' -> 'return') and stop words are removed.
    """
    tokens = []
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, got {type(text).__name__}")
    for token in re.findall(_TOKEN_PATTERN, text.casefold()):
        if len(token) > 3 and token.endswith("s") and not token.endswith("ss"):
            token = token[:-1]
        if token not in STOPWORDS:
            tokens.append(token)
    return tokens


def _load() -> list[dict]:
    """The documents in id order, read from the data file on first use."""
    if not _DOCS:
        import json

        with open(_PATH, encoding="utf-8") as f:
            _DOCS.extend(sorted(json.load(f), key=lambda doc: doc["id"]))
    return _DOCS


def _index() -> list[tuple[dict, frozenset[str]]]:
    """Every document with the set of its title and text tokens, tokenised once per process."""
    if not _INDEX:
        _INDEX.extend((doc, frozenset(tokenize(f"{doc['title']} {doc['text']}"))) for doc in _load())
    return _INDEX


def documents() -> list[dict]:
    """Return every document (copies), in id order."""
    return [dict(doc) for doc in _load()]


def get_document(doc_id: str) -> dict:
    """Return one document by id ('doc-07'); LookupError if there is none."""
    wanted = str(doc_id).strip().lower()
    for doc in _load():
        if doc["id"] == wanted:
            return dict(doc)
    raise LookupError(f"no document with id {doc_id!r}")


def search(query: str, k: int = 3) -> list[dict]:
    """Return up to k documents ranked by token overlap with the query (each with a 'score')."""
    if not isinstance(query, str):
        raise TypeError(f"query must be a string, got {type(query).__name__}")
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k must be a positive integer, got {k!r}")
    wanted = set(tokenize(query))
    scored = []
    for doc, tokens in _index():
        score = len(wanted & tokens)
        if score:
            scored.append((-score, doc["id"], doc))
    scored.sort(key=lambda item: (item[0], item[1]))
    return [{**doc, "score": -neg} for neg, _, doc in scored[:k]]


def search_text(query: str, k: int = 3) -> str:
    """Return the best matches as lines '[doc-07] Title: text (score 3)' (never raises)."""
    try:
        hits = search(query, k)
    except (TypeError, ValueError) as exc:
        return f"Error: {exc}"
    if not hits:
        return f'No documents match "{query}".'
    return "\n".join(f"[{d['id']}] {d['title']}: {d['text']} (score {d['score']})" for d in hits)
