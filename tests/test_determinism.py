"""Same client options and request -> byte-identical responses, across processes and hash seeds."""
from __future__ import annotations

import json
import os
import subprocess
import sys

from mockllm import MockLLM

SCRIPTED = r'''
import json
from mockllm import MockLLM
script = ["Thought: I need the date.\nAction: get_current_date\nAction Input: {}\nObservation: 2025-03-14",
          {"tool_calls": [{"name": "get_weather", "arguments": {"city": "北京", "date": "2025-03-15"}}]},
          "Thought: 我现在知道答案了。\nFinal Answer: 明天北京有沙尘暴。"]
messages = [{"role": "system", "content": "Answer with tools."}, {"role": "user", "content": "Question: 明天北京天气？"}]
client = MockLLM.from_script(script)
out = [client.chat.completions.create(model="mock-react", messages=messages, stop=["Observation:"]).model_dump(),
       client.chat.completions.create(model="mock-react", messages=messages, max_tokens=9).model_dump(),
       [c.model_dump() for c in client.chat.completions.create(model="mock-react", messages=messages, stream=True)]]
print(json.dumps(out, sort_keys=True, ensure_ascii=False))
'''

POLICY = r'''
import json
from mockllm import MockLLM
system = ("You answer questions with tools.\nTools:\n- get_current_date: today's date. Input: {}\n"
          "Use this format:\nThought: ...\nAction: <tool>\nAction Input: <JSON>\nFinal Answer: <answer>")
messages = [{"role": "system", "content": system}, {"role": "user", "content": "Question: what is today's date?"}]
out = []
for persona in ("diligent", "tiny"):
    client = MockLLM(persona=persona, seed=3)
    out.append(client.chat.completions.create(model="mock-react", messages=messages, temperature=0.7,
                                              stop=["Observation:"]).model_dump())
print(json.dumps(out, sort_keys=True, ensure_ascii=False))
'''


AGENT_RUNS = r'''
import sys
from mockllm import MockLLM
from solutions.agent import run_agent
from solutions.evaluation.harness import no_wait
from solutions.guards import guarded_agent
from solutions.safety import AuditLog, SafeAgent, shop_tools
from solutions.structured import structured_agent
from solutions.tools import world_tools

questions = ["What is (17 + 5) * 3?", "Will it rain in Beijing on 2025-03-15?", "明天北京天气怎么样？",
             "What is the status of order A1002?", "Why is my parcel to Beijing late?"]
agents = {"bare": run_agent, "guarded": lambda q, c, t, n: guarded_agent(q, c, t, n, sleep=no_wait),
          "structured": structured_agent}
for persona in ("diligent", "sloppy", "tiny", "jsonic", "looper"):
    for question in questions:
        for name, agent in agents.items():
            trace = agent(question, MockLLM(persona=persona, seed=1), world_tools(), 6)
            print(f"== {persona} {name} {question}\n{trace}\n{trace.messages!r}")
with AuditLog(sys.argv[1]) as log:
    for persona in ("gullible", "diligent", "hallucinator"):
        SafeAgent(MockLLM(persona=persona), shop_tools(), audit=log).run(questions[-1])
'''


def _run(code: str, hash_seed: str, *args: str) -> str:
    """Run `code` in a fresh interpreter with PYTHONHASHSEED=`hash_seed` and return its stdout."""
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    return subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True,
                          check=True, encoding="utf-8").stdout


def test_scripted_responses_are_byte_identical_across_processes() -> None:
    outputs = {_run(SCRIPTED, seed) for seed in ("0", "1", "4242", "random")}
    assert len(outputs) == 1
    first = json.loads(outputs.pop())
    assert first[0]["created"] == 1741910400
    assert first[0]["id"].startswith("chatcmpl-")
    assert first[1]["choices"][0]["message"]["tool_calls"][0]["id"].startswith("call_")


def test_policy_responses_are_byte_identical_across_processes() -> None:
    outputs = {_run(POLICY, seed) for seed in ("0", "1", "random")}
    assert len(outputs) == 1


def test_whole_agent_runs_and_audit_logs_are_byte_identical_across_processes(tmp_path) -> None:
    """Traces (text and messages) of four loops and a SafeAgent's audit log, under three hash seeds."""
    runs = []
    for seed in ("0", "1", "random"):
        log = tmp_path / f"audit-{seed}.jsonl"
        runs.append((_run(AGENT_RUNS, seed, str(log)), log.read_bytes()))
    assert len(set(runs)) == 1
    traces, audit = runs[0]
    assert traces.count("\n== ") == 5 * 5 * 3 - 1 and "Final Answer" in traces
    assert audit.count(b'"kind": "question"') == 3 and audit.count(b'"kind": "stop"') == 3


def test_two_clients_in_one_process_agree() -> None:
    messages = [{"role": "user", "content": "Question: 2 + 2?"}]

    def dump() -> str:
        client = MockLLM.from_script(["Final Answer: 4", {"tool_calls": [{"name": "calculator"}]}])
        responses = [client.chat.completions.create(model="m", messages=messages).model_dump() for _ in range(2)]
        return json.dumps(responses, sort_keys=True)

    assert dump() == dump()


def test_ids_depend_on_the_request() -> None:
    def response_id(**options: object) -> str:
        client = MockLLM.from_script(["Final Answer: 4"])
        return client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}], **options).id

    assert len({response_id(), response_id(temperature=0), response_id(stop="x"), response_id(max_tokens=2)}) == 4
