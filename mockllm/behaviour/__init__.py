"""Stage 3, behaviour: the personas, their quirks, and the triggers that decide when each acts."""
