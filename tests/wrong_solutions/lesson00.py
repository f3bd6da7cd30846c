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


def _send(client, messages, model):
    """The call and the text, as the exercise asks (the part of a wrong solution that is right)."""
    return client.chat.completions.create(model=model, messages=messages).choices[0].message.content


@CATALOGUE.wrong("ask", fault="strips the question before sending it", says="send the question unchanged")
def question_stripped(client, question, *, system=None, model="mock-react"):
    if not isinstance(question, str):
        raise TypeError(f"question must be a str, got {type(question).__name__}")
    return _send(client, _messages(question.strip(), system), model)  # "tidy the user's input"


@CATALOGUE.wrong("ask", fault="strips the system prompt before sending it", says="send system unchanged")
def system_stripped(client, question, *, system=None, model="mock-react"):
    return _send(client, _messages(question, None if system is None else system.strip()), model)


@CATALOGUE.wrong("ask", fault="raises TypeError for an empty question too",
                 says="an empty text is still a str")
def empty_question_refused(client, question, *, system=None, model="mock-react"):
    if not isinstance(question, str) or not question:
        raise TypeError("question must be a non-empty str")
    return _send(client, _messages(question, system), model)


@CATALOGUE.wrong("ask", fault="decodes a bytes question instead of refusing it",
                 says="bytes are not a str either")
def bytes_decoded(client, question, *, system=None, model="mock-react"):
    if isinstance(question, bytes):
        question = question.decode("utf-8")  # "be liberal in what you accept"
    return _send(client, _messages(question, system), model)


@CATALOGUE.wrong("ask", fault="asks again when the reply is empty, up to three times",
                 says="return its content even when it is empty")
def retries_an_empty_reply(client, question, *, system=None, model="mock-react"):
    messages = _messages(question, system)
    text = ""
    for _ in range(3):
        text = _send(client, messages, model)
        if text:
            break
    return text


@CATALOGUE.wrong("ask", fault="turns the client's error into an 'Error: ...' text",
                 says="let the client's error reach the caller")
def client_error_as_text(client, question, *, system=None, model="mock-react"):
    messages = _messages(question, system)
    try:
        return _send(client, messages, model)
    except Exception as error:  # "an error is information" (lesson 01), misapplied
        return f"Error: {error}"


@CATALOGUE.wrong("ask", fault="retries a failed request at once, up to three times",
                 says="let the client's error reach the caller")
def retries_a_failed_request(client, question, *, system=None, model="mock-react"):
    messages = _messages(question, system)
    for attempt in range(3):
        try:
            return _send(client, messages, model)
        except Exception:
            if attempt == 2:
                raise
    return ""


@CATALOGUE.wrong("ask", fault="always sends stop=['Observation:'] (lesson 00's defence, built in)",
                 harmless="the lesson's later ask() calls go to the diligent persona, which ends its "
                          "reply after the Action Input anyway, so the replies are the same; the "
                          "hallucinator is called with create() directly")
def always_stops_at_observation(client, question, *, system=None, model="mock-react"):
    response = client.chat.completions.create(model=model, messages=_messages(question, system),
                                              stop=["Observation:"])
    return response.choices[0].message.content


@CATALOGUE.wrong("ask", fault="returns `content or ''` (an empty text for a reply with no content)",
                 harmless="every reply in the lesson has a content, so the text is the same; a "
                          "reply without one (a tool call, lesson 06) is not sent to ask")
def content_or_empty(client, question, *, system=None, model="mock-react"):
    return _send(client, _messages(question, system), model) or ""


@CATALOGUE.wrong("ask", fault="tests `type(question) is str` instead of isinstance",
                 harmless="only a subclass of str tells them apart, and no cell passes one")
def exact_type_test(client, question, *, system=None, model="mock-react"):
    if type(question) is not str:
        raise TypeError(f"question must be a str, got {type(question).__name__}")
    messages = [{"role": "user", "content": question}]
    if system is not None:
        messages.insert(0, {"role": "system", "content": system})
    return _send(client, messages, model)
