"""Case tables for `solutions.course.check`, one module per lesson (see `solutions.course.exercises`)."""
