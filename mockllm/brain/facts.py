"""What the mock model knows without a tool: a few general facts, capitals, common phrases.

A capable model answers these from memory; the mock keeps a small table of them, so that a
learner's question that needs no tool gets a plain, correct answer (EN or ZH). Facts about the
world of the course (dates, weather, orders...) are never here: those come from observations.
"""
from __future__ import annotations

import re

__all__ = ["GENERAL", "general_answer", "translation", "asks_translation"]

_FACTS = (
    (r"capital of france|法国的?首都", "The capital of France is Paris.", "法国的首都是巴黎。"),
    (r"lu xun|鲁迅", "Lu Xun's original name was Zhou Shuren (周树人); his birth name was "
     "Zhou Zhangshou.", "鲁迅原名周树人（幼名周樟寿）。"),
    (r"capital of china|中国的?首都", "The capital of China is Beijing.", "中国的首都是北京。"),
    (r"capital of japan|日本的?首都", "The capital of Japan is Tokyo.", "日本的首都是东京。"),
    (r"capital of (?:the uk|england|the united kingdom|britain)|英国的?首都",
     "The capital of the United Kingdom is London.", "英国的首都是伦敦。"),
    (r"boiling point of water|water boil|水的沸点", "Water boils at 100°C at sea level.",
     "在海平面上，水的沸点是 100°C。"),
    (r"largest planet|最大的行星", "Jupiter is the largest planet in the Solar System.",
     "太阳系最大的行星是木星。"),
    (r"hamlet|哈姆雷特", "Hamlet was written by William Shakespeare.", "《哈姆雷特》的作者是莎士比亚。"),
    (r"(?:chemical )?symbol (?:for|of) gold|金的化学符号", "The chemical symbol for gold is Au.",
     "金的化学符号是 Au。"),
    (r"how many continents|几大洲|多少个大洲", "There are seven continents.", "世界上有七大洲。"),
    (r"longest river in china|中国最长的河", "The Yangtze is the longest river in China.",
     "中国最长的河流是长江。"),
    (r"dream of the red chamber|红楼梦", "Dream of the Red Chamber was written by Cao Xueqin.",
     "《红楼梦》的作者是曹雪芹。"),
    (r"speed of light|光速", "The speed of light is about 299,792 km per second.",
     "光速约为每秒 299,792 公里。"),
    (r"days (?:are there )?in a leap year|闰年有多少天|闰年有几天", "A leap year has 366 days.",
     "闰年有 366 天。"),
    (r"days (?:are there )?in a week|一(?:周|星期)有(?:几|多少)天", "A week has 7 days.", "一周有 7 天。"),
    (r"hours (?:are there )?in a day|一天有(?:几|多少)(?:个)?小时", "A day has 24 hours.",
     "一天有 24 小时。"),
    (r"minutes (?:are there )?in an hour|一小时有(?:几|多少)分钟", "An hour has 60 minutes.",
     "一小时有 60 分钟。"),
    (r"freezing point of water|water freeze|水的冰点", "Water freezes at 0°C at sea level.",
     "在海平面上，水在 0°C 结冰。"),
    (r"(?:tallest|highest) mountain|最高的山|最高峰", "Mount Everest is the highest mountain, at "
     "8,849 m.", "世界最高峰是珠穆朗玛峰，海拔 8,849 米。"),
    (r"largest ocean|最大的(?:海洋|大洋)", "The Pacific is the largest ocean.", "太平洋是最大的大洋。"),
    (r"romeo and juliet|罗密欧与朱丽叶", "Romeo and Juliet was written by William Shakespeare.",
     "《罗密欧与朱丽叶》的作者是莎士比亚。"),
    (r"mona lisa|蒙娜丽莎", "The Mona Lisa was painted by Leonardo da Vinci.",
     "《蒙娜丽莎》是列奥纳多·达·芬奇画的。"),
    (r"(?:chemical )?formula (?:for|of) water|水的化学式", "The chemical formula of water is H2O.",
     "水的化学式是 H2O。"),
    (r"how many planets|几颗行星|多少颗行星", "There are eight planets in the Solar System.",
     "太阳系有八大行星。"),
)
_CAPITALS = (  # (English names, Chinese name, capital, capital in Chinese)
    (("germany",), "德国", "Berlin", "柏林"), (("italy",), "意大利", "Rome", "罗马"),
    (("spain",), "西班牙", "Madrid", "马德里"), (("canada",), "加拿大", "Ottawa", "渥太华"),
    (("the united states", "the usa", "the us", "america"), "美国", "Washington, D.C.", "华盛顿"),
    (("australia",), "澳大利亚", "Canberra", "堪培拉"), (("russia",), "俄罗斯", "Moscow", "莫斯科"),
    (("india",), "印度", "New Delhi", "新德里"), (("south korea", "korea"), "韩国", "Seoul", "首尔"),
    (("brazil",), "巴西", "Brasília", "巴西利亚"), (("egypt",), "埃及", "Cairo", "开罗"),
    (("mexico",), "墨西哥", "Mexico City", "墨西哥城"))


def _country(name: str) -> str:
    """'the united states' -> 'the United States'."""
    return " ".join(word if word == "the" else word.capitalize() for word in name.split())


GENERAL: tuple[tuple[re.Pattern, str, str], ...] = tuple(
    (re.compile(p, re.I), en, zh) for p, en, zh in _FACTS + tuple(
        (rf"capital of (?:{'|'.join(names)})\b|{zh}的?首都",
         f"The capital of {_country(names[0])} is {city.rstrip('.')}.", f"{zh}的首都是{zh_city}。")
        for names, zh, city, zh_city in _CAPITALS))


def general_answer(question: str, zh: bool) -> str | None:
    """The answer from the small general-knowledge table, or None."""
    for pattern, en, zh_text in GENERAL:
        if pattern.search(question):
            return zh_text if zh else en
    return None


_LANGUAGES = {"french": ("French", "法语"), "法语": ("French", "法语"), "spanish": ("Spanish", "西班牙语"),
              "西班牙语": ("Spanish", "西班牙语"), "german": ("German", "德语"), "德语": ("German", "德语"),
              "italian": ("Italian", "意大利语"), "意大利语": ("Italian", "意大利语"),
              "japanese": ("Japanese", "日语"), "日语": ("Japanese", "日语"),
              "chinese": ("Chinese", "中文"), "中文": ("Chinese", "中文"), "汉语": ("Chinese", "中文"),
              "english": ("English", "英语"), "英语": ("English", "英语"), "英文": ("English", "英语")}
_PHRASES = {  # English phrase: (French, Spanish, German, Italian, Japanese, Chinese)
    "good morning": ("Bonjour", "Buenos días", "Guten Morgen", "Buongiorno", "おはようございます",
                     "早上好"),
    "hello": ("Bonjour", "Hola", "Hallo", "Ciao", "こんにちは", "你好"),
    "thank you": ("Merci", "Gracias", "Danke", "Grazie", "ありがとう", "谢谢"),
    "goodbye": ("Au revoir", "Adiós", "Auf Wiedersehen", "Arrivederci", "さようなら", "再见"),
    "good night": ("Bonne nuit", "Buenas noches", "Gute Nacht", "Buona notte", "おやすみなさい",
                   "晚安"),
    "how are you": ("Comment allez-vous ?", "¿Cómo estás?", "Wie geht es Ihnen?", "Come stai?",
                    "お元気ですか", "你好吗"),
    "please": ("S'il vous plaît", "Por favor", "Bitte", "Per favore", "お願いします", "请"),
    "i love you": ("Je t'aime", "Te quiero", "Ich liebe dich", "Ti amo", "愛してる", "我爱你"),
    "excuse me": ("Excusez-moi", "Disculpe", "Entschuldigung", "Mi scusi", "すみません", "打扰一下"),
}
_ORDER = ("French", "Spanish", "German", "Italian", "Japanese", "Chinese")
_ASKS = re.compile(r"(?i)\btranslat|how (?:do|would|can) (?:you|i) say|翻译|怎么说")
_QUOTED = re.compile(r"['\"“‘「]([^'\"”’」\n]{1,80})['\"”’」]")
_BARE = re.compile(r"(?i)translate\s++(.{1,80}?)\s++(?:in)?to\b|say\s++(.{1,80}?)\s++in\b")
_LANGUAGE_WORD = re.compile("|".join(sorted(map(re.escape, _LANGUAGES), key=len, reverse=True)),
                            re.I)


def asks_translation(question: str) -> bool:
    """Whether the question asks to translate a phrase."""
    return bool(_ASKS.search(question))


def _phrase(question: str) -> str | None:
    """The phrase to translate: quoted, or between 'translate' and 'into' (or 'say' and 'in')."""
    found = _QUOTED.search(question) or _BARE.search(question)
    if found is None:
        zh = re.match(r"\s*(?:把|请把)?(.{1,40}?)(?:翻译成|用)", question)
        return zh.group(1).strip() if zh else None
    return next(g for g in found.groups() if g).strip(" .?!")


def translation(question: str, zh: bool) -> tuple[str, str] | None:
    """(rule, answer) for a translation question, or None when it asks no translation."""
    if not asks_translation(question):
        return None
    phrase, word = _phrase(question), None
    for m in _LANGUAGE_WORD.finditer(question):
        word = m.group(0).lower()  # the last language named is the target
    if phrase is None or word is None:
        return None
    target, target_zh = _LANGUAGES[word]
    key = phrase.lower().strip(" .?!,'\"")
    english = key if key in _PHRASES else next(
        (en for en, said in _PHRASES.items() if key in (s.lower() for s in said)), None)
    if english is None:
        return "unknown_phrase", (f"我不确定“{phrase}”的{target_zh}怎么说。" if zh else
                                  f"I don't know how to say \"{phrase}\" in {target} reliably.")
    said = english.capitalize() if target == "English" else _PHRASES[english][_ORDER.index(target)]
    return "answer", (f"“{phrase}”的{target_zh}是“{said}”。" if zh else
                      f"\"{phrase}\" in {target} is \"{said}\".")
