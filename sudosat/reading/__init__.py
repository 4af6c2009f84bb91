"""Reading puzzles: text in every layout (a text as a whole, rows into cells,
one-line streams), sources and batches (CSV, chunks), rule statements, pencil
marks, f-puzzles and SudokuPad links."""
