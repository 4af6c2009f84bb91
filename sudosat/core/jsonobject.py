"""A JSON object, as sudosat reads and writes them: its records, f-puzzles and
SudokuPad documents, certificate manifests, the plugin protocol's messages.
Their shape is checked where they are read (an error naming the field), and
made by one function each where they are written; mypy sees only the type."""

from typing import Any

JsonObject = dict[str, Any]
"""What :func:`json.loads` gives for an object and :func:`json.dumps` takes."""
