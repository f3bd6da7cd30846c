"""Stage 2, the brain: the next move (a tool call or a final answer) for a conversation."""
