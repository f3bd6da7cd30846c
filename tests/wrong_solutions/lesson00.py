"""Wrong solutions of lesson 00's exercise (ask)."""
from __future__ import annotations

from tests.wrong_solutions import Catalogue

CATALOGUE = Catalogue("00")


def _messages(question, system):
    """The messages the exercise asks for (the part of a wrong solution that is right)."""
    if not isinstance(question, str):
        raise TypeError(f"question must be a str, got {type(question).__name__}")
    system_message = [{"role": "system", "content": system}] if system is not None else []
    return [*system_message, {"role": "user", "content": question}]


@CATALOGUE.wrong("ask", fault="returns the message object instead of its text",
                 says="returns the message object")
def the_message(client, question, *, system=None, model="mock-react"):
    response = client.chat.completions.create(model=model, messages=_messages(question, system))
    return response.choices[0].message


@CATALOGUE.wrong("ask", fault="returns the whole response", says="returns the whole response")
def the_response(client, question, *, system=None, model="mock-react"):
    return client.chat.completions.create(model=model, messages=_messages(question, system))


@CATALOGUE.wrong("ask", fault="tests `if system:`, so an empty system prompt is not sent",
                 says="test `system is not None`, not `if system:`")
def truthy_system(client, question, *, system=None, model="mock-react"):
    if not isinstance(question, str):
        raise TypeError("question must be a str")
    messages = [{"role": "system", "content": system}] if system else []
    messages.append({"role": "user", "content": question})
    return client.chat.completions.create(model=model, messages=messages).choices[0].message.content


@CATALOGUE.wrong("ask", fault="puts the system message after the user message",
                 says="in that order")
def system_last(client, question, *, system=None, model="mock-react"):
    if not isinstance(question, str):
        raise TypeError("question must be a str")
    messages = [{"role": "user", "content": question}]
    if system is not None:
        messages.append({"role": "system", "content": system})
    return client.chat.completions.create(model=model, messages=messages).choices[0].message.content


@CATALOGUE.wrong("ask", fault="sends the system prompt as a second user message",
                 says="put {'role': 'system', 'content': system} first")
def system_as_user(client, question, *, system=None, model="mock-react"):
    if not isinstance(question, str):
        raise TypeError("question must be a str")
    texts = [question] if system is None else [system, question]
    messages = [{"role": "user", "content": text} for text in texts]
    return client.chat.completions.create(model=model, messages=messages).choices[0].message.content


@CATALOGUE.wrong("ask", fault="ignores model= and always sends 'mock-react'",
                 says="pass the model argument on to create()")
def model_hard_coded(client, question, *, system=None, model="mock-react"):
    response = client.chat.completions.create(model="mock-react", messages=_messages(question, system))
    return response.choices[0].message.content


@CATALOGUE.wrong("ask", fault="sends 'Question: ' + question rather than the question itself",
                 says="send the question as it is")
def question_prefixed(client, question, *, system=None, model="mock-react"):
    messages = _messages(question, system)
    messages[-1]["content"] = f"Question: {question}"
    return client.chat.completions.create(model=model, messages=messages).choices[0].message.content


@CATALOGUE.wrong("ask", fault="turns any question into text with str() instead of raising "
                 "TypeError", says="raise TypeError naming 'question'")
def str_of_anything(client, question, *, system=None, model="mock-react"):
    messages = _messages(str(question), system)
    return client.chat.completions.create(model=model, messages=messages).choices[0].message.content


@CATALOGUE.wrong("ask", fault="calls create() once to look at the reply and again to return it",
                 says="call client.chat.completions.create once per question")
def two_calls(client, question, *, system=None, model="mock-react"):
    messages = _messages(question, system)
    response = client.chat.completions.create(model=model, messages=messages)
    if response.choices[0].finish_reason != "stop":
        return ""
    return client.chat.completions.create(model=model, messages=messages).choices[0].message.content


_CONVERSATION: list[dict] = []  # the messages list of the lesson's cells, reused


@CATALOGUE.wrong("ask", fault="appends to a messages list kept between calls, so each request "
                 "carries the earlier questions", says="a list kept between calls")
def one_list_for_every_call(client, question, *, system=None, model="mock-react"):
    _CONVERSATION.extend(_messages(question, system))
    response = client.chat.completions.create(model=model, messages=_CONVERSATION)
    return response.choices[0].message.content


@CATALOGUE.wrong("ask", fault="strips the reply's surrounding spaces and line breaks",
                 harmless="the lesson's replies have none around them, and every later lesson "
                 "reads replies with a parser that strips them too; inside the reply, the line "
                 "breaks a case checks are kept")
def stripped(client, question, *, system=None, model="mock-react"):
    response = client.chat.completions.create(model=model, messages=_messages(question, system))
    return response.choices[0].message.content.strip()
