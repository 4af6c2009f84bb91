"""Reading puzzles: text in every layout, CSV and streams, rule
statements, f-puzzles and SudokuPad links."""
