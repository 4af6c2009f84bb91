"""A deliberately broken DIMACS solver program, for the external backend's error paths.

Usage: broken_solver.py MODE [ARGS...] IN.cnf [PROOF]

(PROOF: a file named proof.drat, where ``--certify`` asks for a DRAT proof.)

It is the only fake solver in the tests: every mode answers something that
sudosat must refuse, or never answers at all.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time


def variables(path: str) -> int:
    with open(path) as handle:
        for line in handle:
            if line.startswith("p cnf"):
                return int(line.split()[2])
    raise SystemExit("no header")


def main() -> None:
    mode, cnf, proof = sys.argv[1], sys.argv[-1], None
    if cnf.endswith("proof.drat"):
        cnf, proof = sys.argv[-2], cnf
    if mode == "stalls-on-proof":  # answers right, but never writes a proof asked for
        if proof:
            time.sleep(1000)
        from pysat.formula import CNF
        from pysat.solvers import Solver

        with Solver(name="minisat22", bootstrap_with=CNF(from_file=cnf).clauses) as real:
            if real.solve():
                print("s SATISFIABLE")
                print("v " + " ".join(map(str, real.get_model() or [])) + " 0")
                sys.exit(10)
        print("s UNSATISFIABLE")
        sys.exit(20)
    if mode == "wrong":  # every variable true: a "model" that is no Sudoku
        print("s SATISFIABLE")
        print("v " + " ".join(str(v) for v in range(1, variables(cnf) + 1)) + " 0")
        sys.exit(10)
    if mode == "garbage":
        print("Segmentation fault? No: just some text that is no answer.")
        sys.exit(0)
    if mode == "crash":
        print("s SATISF", end="", flush=True)
        os.kill(os.getpid(), signal.SIGSEGV)
    if mode == "fail":
        print("broken_solver: cannot read the input", file=sys.stderr)
        sys.exit(1)
    if mode == "liar":  # says UNSAT but exits as SAT
        print("s UNSATISFIABLE")
        sys.exit(10)
    if mode == "cutoff":  # model cut short: no closing 0
        print("s SATISFIABLE")
        print("v 1 2 3")
        sys.exit(10)
    if mode == "beyond":  # a variable the formula does not have
        print("s SATISFIABLE")
        print(f"v {variables(cnf) + 1000} 0")
        sys.exit(10)
    if mode == "vandal":  # removes the directory sudosat gave it
        shutil.rmtree(os.path.dirname(cnf))
        print("s UNKNOWN")
        sys.exit(0)
    if mode == "unknown":
        print("s UNKNOWN")
        sys.exit(0)
    if mode == "args":  # prints its arguments, to show no shell took part
        print("\n".join(sys.argv[2:-1]), file=sys.stderr)
        sys.exit(1)
    if mode == "chatty":  # 200 MB of comments, then garbage: read in pieces, never whole
        line = "c " + "x" * 1023 + "\n"
        for _ in range(200 * 1024):
            sys.stdout.write(line)
        print("no answer")
        sys.exit(0)
    if mode == "denier":  # answers the first call right, then claims UNSAT for ever
        calls = os.path.join(os.path.dirname(cnf), "calls")
        first = not os.path.exists(calls)
        open(calls, "a").close()
        if first:
            from pysat.formula import CNF
            from pysat.solvers import Solver

            with Solver(name="minisat22", bootstrap_with=CNF(from_file=cnf).clauses) as real:
                if real.solve():
                    print("s SATISFIABLE")
                    print("v " + " ".join(map(str, real.get_model() or [])) + " 0")
                    sys.exit(10)
        if proof:  # a "proof" that claims the empty clause at once
            with open(proof, "w") as handle:
                handle.write("0\n")
        print("s UNSATISFIABLE")
        sys.exit(20)
    if mode in ("hang", "escape"):  # never answers, and leaves a grandchild behind
        # escape: the grandchild starts a session of its own, out of the group's reach
        child = subprocess.Popen(["sleep", "1000"], start_new_session=mode == "escape")
        with open(os.environ["BROKEN_SOLVER_PIDS"], "w") as handle:
            handle.write(f"{os.getpid()} {child.pid}\n")
        time.sleep(1000)
    raise SystemExit(f"unknown mode {mode}")


if __name__ == "__main__":
    main()
