"""Running commands over many inputs: the task each command asks of a puzzle
(:mod:`tasks`), chunks answered in workers (:mod:`batch`), the run loop with its
summary (:mod:`runner`), shards, and the records, text and pictures they write."""
