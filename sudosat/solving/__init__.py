"""Solving one puzzle and many: the singles, the batch engine and its numpy front
end, the general engine, estimates, what an outcome is, and certificates made,
written and checked."""
