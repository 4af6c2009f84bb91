"""A proof checked by a checker that shares no code with sudosat or the solver:
``dratify`` (in Rust when ``cdclkit-native`` is installed) or ``drup``
(extracted from verified Why3 code); the problems found go in a :class:`Verdict`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Verdict:
    """What checking a certificate found."""

    folder: Path
    status: str = ""
    problems: list[str] = field(default_factory=list)
    proven: str = ""
    """How the proof was checked, in words ("" for a claim with none)."""
    seconds: float = 0.0

    @property
    def valid(self) -> bool:
        return bool(self.status) and not self.problems


def check_proof(
    formula: str,
    proof: str,
    checker: str,
    verdict: Verdict,
    name: str = "claim.drup",
    clauses: tuple[int, Sequence[Sequence[int]]] | None = None,
) -> None:
    """The proof refutes the formula, by a checker of its own (deletions not applied:
    see the module). ``clauses``: the formula's variable count and clauses, when
    they are known to be its text's (read faster than the text)."""
    if checker == "drup":
        _check_by_drup(formula, proof, verdict, name)
        return
    from dratify import check_proof, parse_dimacs  # deferred: for verify alone

    engine = "python" if checker == "dratify-python" else _native_engine()
    cnf = parse_dimacs(formula) if clauses is None else _dratify_cnf(*clauses)
    try:
        result = check_proof(cnf, proof, engine=engine, apply_deletions=False)
    except ValueError as err:
        verdict.problems.append(f"{name} is not a DRAT proof: {err}")
        return
    by = f"dratify{' (Rust)' if engine == 'native' else ''}"
    verdict.proven = (
        f"{result.steps} proof steps checked by {by}"
        if result.steps
        else f"refuted by unit propagation alone ({by})"
    )
    if not (result.ok and result.reached_empty):
        reason = result.reason or "it does not reach the empty clause"
        verdict.problems.append(f"{name} does not refute claim.cnf (dratify: {reason})")


def _dratify_cnf(nv: int, clauses: Sequence[Sequence[int]]) -> Any:
    """dratify's formula of DIMACS clauses, built at once (its reader spends ten
    times the native check on a 16x16's text). Its literals: 2(v-1), +1 when
    negative; a literal repeated in a clause is kept once, as its reader does."""
    from dratify import CNF

    cnf = CNF(nv)
    cnf.clauses = [
        tuple(dict.fromkeys(2 * lit - 2 if lit > 0 else -2 * lit - 1 for lit in clause))
        for clause in clauses
    ]
    return cnf


def _native_engine() -> str:
    """dratify's Rust engine when cdclkit-native is installed (10x faster), else Python."""
    import dratify

    try:
        import cdclkit_native
    except ImportError:
        return "python"
    dratify.register_native(cdclkit_native)
    return "native"


def _check_by_drup(formula: str, proof: str, verdict: Verdict, name: str) -> None:
    """The proof checked by drup (its reader takes no comments in the formula and no
    deletions in the proof: a proof without its deletions is as valid, if slower
    to check)."""
    try:
        from drup import check_proof_from_strings  # deferred: an option, and slow
    except ImportError:
        verdict.problems.append("drup is not installed (pip install 'sudosat[drup]')")
        return
    clauses = "\n".join(line for line in formula.splitlines() if not line.startswith("c"))
    added = "".join(line + "\n" for line in proof.splitlines() if not line.startswith("d"))
    try:
        result = check_proof_from_strings(clauses + "\n", added)
    except ValueError as err:
        verdict.problems.append(f"{name} is not a DRUP proof (drup: {err})")
        return
    verdict.proven = "proof checked by drup"
    if str(result.outcome).rsplit(".", 1)[-1] != "VALID":
        verdict.problems.append(f"{name} does not refute claim.cnf (drup: {result.outcome})")
