"""The OpenAI-shaped surface: client, request checks, response types, tokens, errors, scripts."""
