"""Making and judging puzzles: generators, shapes, ratings, explanations, true
candidates, and the logical path (board, techniques, chains, the path)."""
