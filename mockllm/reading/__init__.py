"""Stage 1, reading: what the model reads from a request (tools, rules, examples, earlier steps)."""
