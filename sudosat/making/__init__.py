"""Making and judging puzzles: generators, ratings, explanations, shapes."""
