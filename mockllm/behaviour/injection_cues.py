"""Where an instruction may start in an observation: its readings, and the cues that address the model.

`readings(text)` is the text as written (full-width letters folded, invisible characters dropped,
lookalike letters made latin) and decoded (spaced letters joined, base64 runs, rot13, URL and
HTML escapes). `spans(reading)` finds the cues (`CUES`, and a command at a sentence's start) with
the scope in which `mockllm.behaviour.injection` looks for the cue's target. Linear time: the
patterns have no nested repeats, and each line is searched once per kind of cue.
"""
from __future__ import annotations

import base64
import binascii
import bisect
import codecs
import html
import re
import unicodedata
from typing import Iterable
from urllib.parse import unquote

# ---------------------------------------------------------------- readings

_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff"))
_LOOKALIKES = str.maketrans("аеорсхуіѕԁјӏАЕОРСХУІЅВНКМТ", "aeopcxyisdjlAEOPCXYISBHKMT")
_SPACED = re.compile(r"(?<!\S)(?:\S )+\S(?!\S)")
_BASE64 = re.compile(r"[A-Za-z0-9+/]{16,}={0,2}")


def _plain(text: str) -> str:
    """`text` with full-width letters folded (NFKC), invisible characters dropped, lookalikes made latin."""
    return unicodedata.normalize("NFKC", text).translate(_INVISIBLE).translate(_LOOKALIKES)


def _joined(match: re.Match) -> str:
    """A run of spaced letters joined, if it has at least three of them."""
    letters = match.group(0).replace(" ", "")
    return letters if len(letters) >= 3 else match.group(0)


def _unspaced(text: str) -> str:
    """`text` with each run of spaced letters ('d e l e t e') joined; a wider gap stays a space."""
    return _SPACED.sub(_joined, text)


def _decoded_base64(match: re.Match) -> str:
    """The text a base64 run stands for, or the run itself when it is not base64 of text."""
    run = match.group(0)
    try:
        text = base64.b64decode(run + "=" * (-len(run) % 4), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return run
    return f" {text} " if text.isprintable() else run


def readings(text: str) -> list[str]:
    """The ways `text` is read: folded, then each decoding that changes it (no repeats)."""
    plain = _plain(text)
    found = [plain]
    for decode in (_unspaced, lambda t: _BASE64.sub(_decoded_base64, t),
                   lambda t: codecs.encode(t, "rot_13"),
                   lambda t: unquote(t) if "%" in t else t,
                   lambda t: html.unescape(t) if "&" in t else t):
        reading = decode(plain)
        if reading not in found:
            found.append(reading)
    return found


# ---------------------------------------------------------------- cues

_WHO = r"(?:ai|assistant|agent|model|bot|chatbot|llm|language model|gpt)s?"
_WHO_WORDS = "ai ais assistant assistants agent agents model models bot bots chatbot chatbots llm llms gpt"


def _cue(kind: str, pattern: str, words: str = "", pieces: tuple[str, ...] = ()) -> tuple:
    """One cue: its kind, its pattern, and the words or pieces of text (lower case) without one of
    which the pattern cannot match (so that a text holding none of them is not searched)."""
    return kind, re.compile(pattern, re.I), frozenset(words.split()), pieces


CUES: tuple[tuple[str, re.Pattern, frozenset, tuple[str, ...]], ...] = (
    _cue("override", r"\b(?:ignore|disregard|forget|override|bypass|discard|skip)\b[^\n.]{0,40}?"
         r"\b(?:instructions?|rules?|prompts?|guidelines?|directions?|directives?|polic(?:y|ies)"
         r"|restrictions?)\b", "ignore disregard forget override bypass discard skip"),
    _cue("override", r"\byou (?:must|should|have to|are to|will) (?:now|immediately|instead)\b|\byou are now\b"
         r"|\bfrom now on\b|\b(?:new|updated|real) (?:instructions?|task|rules?)\b|\bsystem override\b",
         "instruction instructions task rule rules",
         ("you must", "you should", "you have to", "you are to", "you will", "you are now", "from now on",
          "system override")),
    _cue("override", r"(?:忽略|无视|忘记|忘掉|不要理会|跳过)[^\n。]{0,12}?(?:指令|指示|规则|提示|要求)"
         r"|你现在必须|从现在开始|新的?指令", "",
         ("忽略", "无视", "忘记", "忘掉", "不要理会", "跳过", "你现在必须", "从现在开始", "指令")),
    _cue("override", r"\b(?:ignore[zr]?|oublie[zr]?)\b[^\n.]{0,40}?\b(?:instructions|consignes|règles)\b"
         r"|\bvous devez maintenant\b|\btu dois maintenant\b|\bnouvelles instructions\b",
         "ignore ignorez ignorer oublie oubliez oublier instructions"),
    _cue("override", r"\b(?:ignora|olvida|ignore)\b[^\n.]{0,40}?\b(?:instrucciones|reglas|indicaciones)\b"
         r"|\bahora debes\b|\ba partir de ahora\b|\bnuevas instrucciones\b",
         "ignora olvida ignore ahora instrucciones"),
    _cue("override", r"\b(?:ignoriere|ignorieren sie|vergiss|vergessen sie)\b[^\n.]{0,40}?"
         r"\b(?:anweisungen|regeln|vorgaben)\b|\bdu musst jetzt\b|\bsie müssen jetzt\b|\bab sofort\b"
         r"|\bneue anweisungen\b", "ignoriere ignorieren vergiss vergessen jetzt sofort anweisungen"),
    _cue("role", r"(?:^|(?<=[\n.!?。]))[ \t>#*_<!\-]*(?:system|assistant|admin(?:istrator)?|developer|root"
         r"|operator|instructions?|系统|管理员|助手|système|sistema)[ \t*_]*[:：]",
         "system assistant admin administrator developer root operator instruction instructions "
         "système sistema", ("系统", "管理员", "助手")),
    _cue("role", r"<\|[a-z_]{2,20}\|>|<</?sys>>|</?(?:system|instructions?|admin)>", "", ("<|", "<<", "<")),
    _cue("role", r"\[/?(?:system|admin|assistant|inst|sys|developer|instructions?|override)\]",
         "system admin assistant inst sys developer instruction instructions override"),
    _cue("role", r"[\"']role[\"']\s*:\s*[\"'](?:system|developer|assistant)[\"']"
         r"|\b(?:system|admin|developer|administrator) (?:message|notice|note|instruction|override|command)s?\b",
         "role system admin developer administrator"),
    _cue("approval", r"\b(?:approved|approval|authori[sz]ed|authori[sz]ation|permission|consent|confirmed"
         r"|clearance)[ \t\"']*[:=][ \t\"']*(?:yes|true|granted|given|approved|ok|confirmed|y|1)\b",
         "approved approval authorized authorised authorization authorisation permission consent "
         "confirmed clearance"),
    _cue("approval", r"\b(?:pre-?approved|already approved|approved by|authori[sz]ed by|(?:has|have) (?:been )?"
         r"(?:approved|authori[sz]ed)|approval (?:was |has been )?(?:granted|given))\b"
         r"|\[(?:approved|authori[sz]ed)\]", "approved preapproved approval authorized authorised"),
    _cue("approval", r"已批准|已授权|已经批准|审批通过|管理员已同意|\bapprouvé\b|\bautorisé\b|\baprobado\b"
         r"|\bautorizado\b|\bgenehmigt\b|\bfreigegeben\b",
         "approuvé autorisé aprobado autorizado genehmigt freigegeben",
         ("已批准", "已授权", "已经批准", "审批通过", "管理员已同意")),
    _cue("json", r"[\"'](?:action|tool|tool_name|function|function_call|command|tool_call)[\"']\s*:\s*[\"'{]",
         "action tool function command"),
    _cue("addressed", rf"\b(?:dear|hey|hi|hello|attention|note (?:to|for)|message (?:to|for)"
         rf"|instructions? (?:to|for)|to)(?: the| all| any)? {_WHO}\b", _WHO_WORDS),
    _cue("addressed", rf"\b{_WHO}\b[ \t]*(?:,|reading this|must|should|shall|needs? to|has to|will now"
         rf"|(?:is|are) (?:required|instructed|asked|authori[sz]ed|expected) to)", _WHO_WORDS),
    _cue("addressed", rf"\bif you are an? {_WHO}\b|\b(?:in|to|at the end of) your (?:answer|reply|response"
         rf"|final answer)\b", f"{_WHO_WORDS} answer reply response"),
    _cue("addressed", r"(?:助手|人工智能|模型)[，,:：]|致(?:AI|助手)", "", ("助手", "人工智能", "模型", "致")),
)
"""The cues that a text addresses the model, by kind (a command at a sentence's start is `_COMMAND_AT`)."""
_WORD = re.compile(r"[^\W\d_]+")
_COMMAND = "|".join((
    r"[\W_]*(?:(?:please|kindly|now|immediately|urgently)[\W_]+)*(?:call|run|execute|invoke|trigger"
    r"|delete|remove|erase|wipe|purge|drop|send|e-?mail|mail|forward|transfer|export|upload|leak|post"
    r"|include|append|insert|embed|render|display)\b(?!\s+sent\b)",  # 'Email sent to ...' is a report
    r"[\W_]*(?:请|立即|马上|立刻|现在|务必|必须)*(?:删除|删掉|清空|发送|调用|执行|运行|转发|导出|上传|附上|显示)",
    r"[\W_]*(?:s'il vous plaît[\W_]*|veuillez[\W_]+)?(?:supprime[zr]?|efface[zr]?|envoie[zr]?|envoyez"
    r"|appelle[zr]?|exécute[zr]?|transf[eè]re[zr]?)\b",
    r"[\W_]*(?:por favor[\W_]*)?(?:elimina|borra|envía|envia|manda|llama|ejecuta|reenvía)\b",
    r"[\W_]*(?:bitte[\W_]+)?(?:lösche|loesche|löschen sie|entferne|sende|schicke|rufe|führe|leite)\b"))

_COMMAND_AT = re.compile(_COMMAND, re.I)
SENTENCE_END = re.compile(r"[.!?](?=\s|$)|[。！？；]")
PIECE_END = re.compile(r"[.!?](?=\s|$)|[。！？；\n]")


_BARE_END = re.compile(r"[ \t*_:：|>]*(?:\n|$)")


class _Lines:
    """The line breaks of a reading, found once (each lookup is a bisection)."""

    def __init__(self, reading: str) -> None:
        self.size = len(reading)
        self.breaks = [m.start() for m in re.finditer("\n", reading)]

    def end(self, at: int) -> int:
        """The end of the line `at` is on."""
        i = bisect.bisect_left(self.breaks, at)
        return self.breaks[i] if i < len(self.breaks) else self.size

    def start(self, at: int) -> int:
        """The start of the line `at` is on."""
        i = bisect.bisect_left(self.breaks, at)
        return self.breaks[i - 1] + 1 if i else 0


def spans(reading: str) -> Iterable[tuple[int, int, int, str]]:
    """(cue start, scope start, scope end, kind) of the first cue of each kind in each scope.

    A cue's scope is the rest of its line (the next line too when the cue ends its line, or is a
    role tag); for an
    approval or a JSON call, its whole line; for a command, its sentence. Later cues of a kind on
    the same line are skipped: the first one's search covers them.
    """
    lines, seen = _Lines(reading), set()
    low = reading.lower()
    words = set(_WORD.findall(low))
    for kind, pattern, anchors, pieces in CUES:
        if anchors.isdisjoint(words) and not any(piece in low for piece in pieces):
            continue
        for match in pattern.finditer(reading):
            at = match.start()
            end = lines.end(at)
            if (end, kind) in seen:
                continue
            seen.add((end, kind))
            if (kind == "role" or _BARE_END.match(reading, match.end())) and end < lines.size:
                end = lines.end(end + 1)
            yield at, (lines.start(at) if kind in ("approval", "json") else at), end, kind
    start = 0
    for end in [m.end() for m in PIECE_END.finditer(reading)] + [len(reading)]:
        if _COMMAND_AT.match(reading, start, end):
            yield start, start, end, "command"
        start = end
