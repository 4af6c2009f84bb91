"""Solving one puzzle and many: the singles, the batch engine and its
numpy front end, the general engine, and what an outcome is."""
