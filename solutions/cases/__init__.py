"""Case tables for `solutions.check`, one module per lesson (see `solutions.exercises`)."""
