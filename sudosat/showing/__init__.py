"""How answers are shown: the floor of outputs, above the making of puzzles and
below the runs that print them. ``pen`` (the drawsvg pen and its colours) and
``pictures`` (a puzzle's SVG, pages, PDF and PNG) so far; the data model in
``core`` knows a pen only as a type (:mod:`sudosat.core.pen`)."""
