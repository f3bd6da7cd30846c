"""Stage 4, the reply: decide, let the persona's quirks act, render ReAct text or tool_calls."""
