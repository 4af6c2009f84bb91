"""The SAT layer: the CNF of a puzzle, the clause builder and arithmetic the
rules write with, DIMACS, deadlines, memory estimates, and the solvers."""
