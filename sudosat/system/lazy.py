"""Modules imported when first used, by the standard library's LazyLoader.

A command pays at start-up for every module its modules import, used or not:
rich for a terminal that is a pipe, the generator for `solve`, PySAT where
the batch engine answers. ``name = lazy("module")`` at the top of a module
keeps the import where a reader looks for it, and runs it at the first
attribute looked up (type checkers see the plain import, under TYPE_CHECKING).
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def lazy(name: str) -> ModuleType:
    """The module ``name``: already imported, or to be imported at first use."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"no module named {name!r}", name=name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module
