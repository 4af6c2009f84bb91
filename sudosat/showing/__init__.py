"""How answers are shown: the floor of outputs, above the making of puzzles and
below the runs that print them, one module per output (``view``, ``text``,
``records``, ``console``, ``captions``, ``pen``, ``pictures``). The data model in
``core`` knows a pen only as a type (:mod:`sudosat.core.pen`)."""
