"""The mock's speed paths (memoised reading, shared past steps, cheap `applies` tests) change nothing.

Every cache in `mockllm` memoises a pure function, so a reply must be the same whether the caches
are cold, warm, or filled by other conversations first.
"""
from __future__ import annotations

import copy
import json
import pickle
import sys
from dataclasses import replace

import pytest

from mockllm import MockLLM
from mockllm.behaviour.personas import QUIRKS, PERSONAS
from mockllm.brain.policy import decide
from mockllm.behaviour.quirks import QuirkContext
from mockllm.reading.conversation import PastStep, parse_reply, read_conversation

SYSTEM = """You answer questions with tools.

Tools:
- get_current_date: returns today's date. Input: {}
- get_weather: the weather of a city on a date. Input: {"city": "<city>", "date": "YYYY-MM-DD"}
- calculator: evaluates an arithmetic expression. Input: {"expression": "<expression>"}

Use this format:
Thought: what you think
Action: one tool name
Action Input: a JSON object
Final Answer: the answer"""
TURNS = [
    ("Thought: today first.\nAction: get_current_date\nAction Input: {}", "Observation: 2025-03-14"),
    ('Thought: now the weather.\nAction: get_weather\nAction Input: {"city": "Beijing", '
     '"date": "2025-03-15"}', "Observation: Beijing 2025-03-15: Light rain, 3°C to 9°C"),
    ("Thought: the difference.\nAction: calculator\nAction Input: {'expression': '9 - 3',}",
     "Observation: 6"),
]
QUESTIONS = ["Will it rain in Beijing tomorrow?", "What is (17 + 5) * 3?", "今天几号？"]


def _clear_caches() -> None:
    """Empty every memo of the mock model: the functools caches on module functions, and the
    bounded dicts of what was read or hashed after a conversation's messages."""
    from mockllm.protocol import digest
    from mockllm.reading import conversation

    for name, module in list(sys.modules.items()):
        if name == "mockllm" or name.startswith("mockllm."):
            for value in vars(module).values():
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()
    digest._STATES.clear()
    conversation._READ.clear()


def _messages(question: str, turns: int) -> list[dict]:
    """The system prompt, the question and the first `turns` reply/observation pairs."""
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": f"Question: {question}"}]
    for reply, observation in TURNS[:turns]:
        messages += [{"role": "assistant", "content": reply}, {"role": "user", "content": observation}]
    return messages


def _replies(persona: str, seed: int) -> list[str]:
    """Every reply of the persona to every question at every step, as JSON text."""
    client = MockLLM(persona=persona, seed=seed)
    return [json.dumps(client.chat.completions.create(model="m", messages=_messages(q, n)).model_dump(),
                       sort_keys=True, ensure_ascii=False)
            for q in QUESTIONS for n in range(len(TURNS) + 1)]


@pytest.mark.parametrize("persona", list(PERSONAS))
def test_replies_are_the_same_with_cold_and_warm_caches(persona: str) -> None:
    _clear_caches()
    cold = _replies(persona, 1)
    warm = _replies(persona, 1)
    _replies(persona, 2)  # other conversations fill the caches in between
    assert _replies(persona, 1) == cold == warm


def test_reading_a_growing_conversation_equals_reading_it_afresh() -> None:
    grown = [read_conversation(_messages(QUESTIONS[0], n)) for n in range(len(TURNS) + 1)]
    _clear_caches()
    fresh = [read_conversation(_messages(QUESTIONS[0], n)) for n in range(len(TURNS) + 1)]
    assert grown == fresh
    assert [s.action for s in grown[-1].steps] == ["get_current_date", "get_weather", "calculator"]
    assert grown[-1].steps[2].action_input == {"expression": "9 - 3"}


def _plain(messages: list[dict]) -> list[str]:
    """[role, content, ...] of plain messages, as validation gives them (`Request.plain`)."""
    return [text for m in messages for text in (m["role"], m["content"])]


def test_reading_resumed_after_the_same_messages_equals_reading_afresh() -> None:
    """A live loop (a new reply and observation at each step, after a history read before), a
    prompt in the first user message and a late system message: resumed, the reading is the same."""
    from mockllm.reading import conversation

    _clear_caches()
    loops = [_messages(QUESTIONS[0], 0), [{"role": "user", "content": f"{SYSTEM}\n\nQuestion: 今天几号？"}]]
    for step in range(conversation.MAX_READ + 5):
        for messages in loops:
            reply, observation = TURNS[step % len(TURNS)]
            messages += [{"role": "assistant", "content": f"{reply} ({step})"},
                         {"role": "user", "content": f"{observation} ({step})"}]
            late = messages + [{"role": "system", "content": "Tools:\n- calendar: events"}]
            for sent in (messages, late, messages[:3]):
                resumed = read_conversation(sent, None, _plain(sent))
                assert resumed == read_conversation(sent) == read_conversation(sent, None, _plain(sent))
                conversation._READ.clear() if step % 7 == 3 else None
    final = read_conversation(loops[1], None, _plain(loops[1]))
    assert len(final.steps) == len(loops[1]) // 2 and final.language == "zh"
    assert 0 < len(conversation._READ) <= conversation.MAX_READ


def test_shared_action_inputs_are_read_only_and_copy_out_as_plain_dicts() -> None:
    step = read_conversation(_messages(QUESTIONS[0], 2)).steps[1]
    with pytest.raises(TypeError, match="read-only"):
        step.action_input["city"] = "Paris"
    with pytest.raises(TypeError):
        step.action_input.update(city="Paris")
    assert type(dict(step.action_input)) is dict and type(step.action_input.copy()) is dict
    assert read_conversation(_messages(QUESTIONS[0], 2)).steps[1].action_input["city"] == "Beijing"
    conv = read_conversation(_messages(QUESTIONS[0], 3))
    assert copy.deepcopy(conv) == conv and pickle.loads(pickle.dumps(conv)) == conv


def test_nested_action_inputs_are_copied_for_each_reading() -> None:
    messages = _messages(QUESTIONS[0], 0) + [
        {"role": "assistant", "content": 'Action: calculator\nAction Input: {"terms": [1, 2]}'},
        {"role": "user", "content": "Observation: 3"}]
    first = read_conversation(messages).steps[0].action_input
    first["terms"].append(99)
    assert read_conversation(messages).steps[0].action_input == {"terms": [1, 2]}


def test_parse_reply_returns_a_fresh_dict_each_time() -> None:
    reply = 'Action: get_weather\nAction Input: {"city": "Beijing", "days": [1, 2]}'
    first = parse_reply(reply)[1]
    first["city"] = "Paris"
    first["days"].append(3)
    assert parse_reply(reply) == ("get_weather", {"city": "Beijing", "days": [1, 2]})


def _context(quirk: str, params: dict) -> QuirkContext:
    """A context for one quirk."""
    return QuirkContext(seed=0, persona="p", quirk=quirk, step=2, question="q", params=params)


@pytest.mark.parametrize("name", [name for name, quirk in QUIRKS.items() if quirk.applies])
@pytest.mark.parametrize("turns", range(len(TURNS) + 1))
def test_applies_tells_exactly_whether_the_quirk_changes_something(name: str, turns: int) -> None:
    quirk, conv = QUIRKS[name], read_conversation(_messages(QUESTIONS[0], turns))
    moves = [decide(conv), replace(decide(conv), action=None, action_input=None, final_answer="A."),
             replace(decide(conv), action=None, action_input=None, final_answer="")]
    for move in moves:
        for params in ({}, {"style": "tiny"}):
            ctx = _context(name, params)
            if quirk.level == "move":
                assert quirk.applies(move, conv, params) == (quirk.apply(move, conv, ctx) is not None)
                continue
            for text in ("Thought: t\nAction: x\nAction Input: {}", "Observation: seen"):
                expected = quirk.apply(text, move, conv, ctx) is not None
                assert quirk.applies(text, move, conv, params) == expected


def test_imagined_steps_do_not_disturb_the_shared_ones() -> None:
    conv = read_conversation(_messages(QUESTIONS[0], 1))
    imagined = replace(conv, steps=conv.steps + (PastStep("calculator", {"expression": "1"}, "1", ""),))
    decide(imagined)
    assert read_conversation(_messages(QUESTIONS[0], 1)) == conv


class _CountingList(list):
    """A list that counts how often it is iterated."""

    passes = 0

    def __iter__(self):
        self.passes += 1
        return super().__iter__()


@pytest.mark.parametrize("turns", [0, 3])
def test_reading_a_request_is_one_pass_over_its_messages(turns: int) -> None:
    messages = _CountingList(_messages(QUESTIONS[0], turns))
    read_conversation(messages)
    assert messages.passes == 1


def test_a_system_message_after_the_turns_is_read_with_the_rest() -> None:
    late = _messages(QUESTIONS[0], 1) + [{"role": "system", "content": "Tools:\n- calendar: events"}]
    conv = read_conversation(late)
    assert "calendar" in [t.name for t in conv.tools] and conv.steps[0].action == "get_current_date"


def test_the_ascii_token_pattern_splits_as_the_full_one() -> None:
    """On ASCII text the fast token pattern gives exactly the full pattern's tokens."""
    import random
    import string

    from mockllm.protocol.tokens import _ascii_re, _token_re

    rng = random.Random(7)
    alphabet = string.printable + "\x00\x1c\x1d\x1e\x1f\x7f_"
    texts = [SYSTEM, *(text for pair in TURNS for text in pair if text.isascii())]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60))) for _ in range(3000)]
    for text in texts:
        assert _ascii_re().findall(text) == _token_re().findall(text), repr(text)


def test_a_conversation_read_is_the_one_its_constructor_builds() -> None:
    """read_conversation builds its (frozen) Conversation directly: all fields set, still frozen."""
    import dataclasses

    conv = read_conversation(_messages(QUESTIONS[0], 2))
    rebuilt = type(conv)(**{f.name: getattr(conv, f.name) for f in dataclasses.fields(conv)})
    assert conv == rebuilt and repr(conv) == repr(rebuilt) and vars(conv).keys() == vars(rebuilt).keys()
    with pytest.raises(dataclasses.FrozenInstanceError):
        conv.step = 0


def test_the_messages_digest_resumed_from_a_remembered_state_is_the_one_from_scratch() -> None:
    """The digest is the same whether it is hashed from scratch, from the state of a shorter
    conversation, or from a state the cache dropped (more conversations than it keeps)."""
    from mockllm.protocol import digest

    growing = ["system", SYSTEM, "user", "Question: x"]
    seen = []
    for step in range(digest.MAX_STATES + 5):   # a live loop: two new messages at each step
        reply, observation = TURNS[step % len(TURNS)]
        growing += ["assistant", f"{reply} {step}", "user", f"{observation} {step}"]
        for cut in (len(growing) - 4, 0, len(growing), 2, 9):
            assert digest.messages_digest(list(growing), cut) == digest.digest_of(growing)
        seen.append(digest.digest_of(growing))
    assert len(set(seen)) == len(seen) and len(digest._STATES) <= digest.MAX_STATES
    assert digest.messages_digest([], 0) == digest.digest_of([]) and digest.digest_of(["", ""]) != \
        digest.digest_of([""])
    assert digest.messages_digest(["a", "\ud800"], 1) == digest.digest_of(["a", "\ud800"])


@pytest.mark.parametrize("turns", [0, 1, 3])
def test_the_prompt_read_from_the_plain_parts_is_the_one_read_from_the_messages(turns: int) -> None:
    """The digest and token count from `Request.plain` (the roles and contents validation read)
    are those read from the message dicts, whatever the length (1 message upwards)."""
    from mockllm.protocol.completion import read_prompt
    from mockllm.protocol.validate import validate_request

    tools = [{"type": "function", "function": {"name": "get_current_date", "parameters": {}}}]
    messages = _messages(QUESTIONS[1], turns)
    for count in range(1, len(messages) + 1):
        for offered in (None, tools):
            request = validate_request("mock-react", messages[:count], {"tools": offered} if offered else {})
            assert request.plain == [text for m in messages[:count] for text in (m["role"], m["content"])]
            (fast, tokens), (slow, counted) = (read_prompt(request.messages, offered, request.plain),
                                               read_prompt(request.messages, offered))
            assert (fast.hexdigest(), tokens) == (slow.hexdigest(), counted)
    tool_reply = messages[:2] + [{"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "get_current_date", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "2025-03-14"}]
    assert validate_request("mock-react", tool_reply, {"tools": tools}).plain is None


def test_an_action_input_written_directly_is_the_json_the_encoder_writes() -> None:
    """The direct writing of a flat str -> str input gives `json.dumps(..., ensure_ascii=False)`."""
    from hypothesis import given, settings, strategies as st

    from mockllm.reply.render import _flat_json

    values = st.one_of(st.text(), st.integers(), st.none(), st.floats(), st.booleans(),
                       st.lists(st.text(), max_size=2))

    @settings(max_examples=800, deadline=None)
    @given(st.dictionaries(st.one_of(st.text(), st.integers()), values, max_size=4))
    def same(args: dict) -> None:
        assert _flat_json(args) == json.dumps(args, ensure_ascii=False)

    same()


def test_counting_word_by_word_gives_the_pattern_s_count() -> None:
    """Text counted word by word (single spaces and line breaks between words) has the count the
    token pattern gives the whole text; so does any other text (counted whole)."""
    from hypothesis import given, settings, strategies as st

    from mockllm.protocol import tokens

    alphabet = st.sampled_from(list("ab Zz09_.,:{}\"'\n\r\t \u3000\xa0\x85\x1c\u2028中文éß😀") + [" ", "\n"])

    @settings(max_examples=1500, deadline=None)
    @given(st.text(alphabet, max_size=60))
    def same(text: str) -> None:
        assert tokens._count.__wrapped__(text) == len(tokens.split_tokens(text)), repr(text)

    same()
    tokens._WORDS.clear()
    long = " ".join(f"w{index}" for index in range(tokens.WORDWISE_MAX))  # counted whole
    assert tokens._count.__wrapped__(long) == len(tokens.split_tokens(long)) and not tokens._WORDS
    for text in [SYSTEM, *(t for pair in TURNS for t in pair)]:
        assert tokens._count.__wrapped__(text) == tokens._count.__wrapped__(text) == \
            len(tokens.split_tokens(text))
