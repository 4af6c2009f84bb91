"""Solving one puzzle and many: the singles, the batch engine and its numpy front
end, the general engine, estimates, what an outcome is, certificates made,
written and checked, and the SAT questions about one puzzle: true candidates
and its parts (a minimal conflict, the parts a unique puzzle needs)."""
