"""Making puzzles: generators (classic and variant), random shapes, a setter's
session from a blank grid, and why a puzzle has no solution or several. The
logical solver it judges them with is the floor below, sudosat.logic."""
