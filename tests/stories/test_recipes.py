"""Past one machine: the recipes in recipes/ run for real (GNU parallel, a Slurm
array's commands, CI matrices' steps, a Dask cluster of two worker processes),
and sudosat merge on real shard outputs, whole and broken."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import PUZZLES, ROOT, SUDOSAT, Run, jsonl

pytestmark = pytest.mark.slow  # third-party runners (GNU parallel, Dask) for real

RECIPES = ROOT / "recipes"
MAGICTOUR = PUZZLES / "tdoku-magictour-25.txt"
TIME = re.compile(r'"time": [0-9.e-]+')


def environment(**extra: str) -> dict[str, str]:
    """This environment with the installed sudosat first on PATH."""
    path = f"{SUDOSAT.parent}{os.pathsep}{os.environ.get('PATH', '')}"
    return {**os.environ, "PATH": path, **extra}


def shell(command: list[str], cwd: Path, **extra: str) -> str:
    done = subprocess.run(
        command, cwd=cwd, env=environment(**extra), capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def untimed(text: str) -> str:
    """Records with their solving time blanked: the one field two runs differ in."""
    return TIME.sub('"time": 0', text)


def by_place(text: str) -> list[str]:
    """The lines of records sorted by source and line."""
    lines = text.splitlines()
    return sorted(lines, key=lambda line: (json.loads(line)["source"], json.loads(line)["line"]))


@pytest.fixture
def puzzles(tmp_path: Path) -> Path:
    """A batch of 51 entries, a broken one among them."""
    lines = [x for x in MAGICTOUR.read_text().splitlines() if x.strip() and x[0] != "#"]
    path = tmp_path / "batch.txt"
    path.write_text("\n".join([*lines, "not a puzzle", *lines]) + "\n")
    return path


def one_run(puzzles: Path, run: Run) -> str:
    code, whole, _ = run("solve", "--format", "jsonl", "--fail-on", "never", str(puzzles))
    assert code == 0 and len(whole.splitlines()) == 51
    return whole


def shard_outputs(puzzles: Path, n: int, folder: Path, run: Run) -> list[Path]:
    paths = []
    for k in range(1, n + 1):
        code, out, _ = run("solve", "--shard", f"{k}/{n}", "-f", "jsonl", "-q", str(puzzles))
        assert code in (0, 2)  # (the broken line is in one of them)
        paths.append(folder / f"part-{k}.jsonl")
        paths[-1].write_text(out)
    return paths


@pytest.mark.skipif(shutil.which("parallel") is None, reason="GNU parallel not installed")
def test_gnu_parallel_solves_in_shards_what_one_run_solves(
    puzzles: Path, tmp_path: Path, run: Run
) -> None:
    out = tmp_path / "all.jsonl"
    shell([str(RECIPES / "parallel-solve.sh"), str(puzzles), "4", str(out), "-j", "2"], tmp_path)
    merged, whole = out.read_text(), one_run(puzzles, run)
    assert untimed(merged) == untimed(whole)  # in input order, record for record
    assert by_place(untimed(merged)) == by_place(untimed(whole))
    assert sum(r["status"] == "error" for r in jsonl(merged)) == 1


@pytest.mark.skipif(shutil.which("parallel") is None, reason="GNU parallel not installed")
def test_gnu_parallel_generates_in_shards_the_puzzles_of_one_run(tmp_path: Path, run: Run) -> None:
    out = tmp_path / "book.jsonl"
    recipe = str(RECIPES / "parallel-generate.sh")
    shell([recipe, "10", "7", "3", str(out), "-j", "2", "--", "--variant", "x"], tmp_path)
    code, whole, _ = run(
        "generate", "--puzzles", "10", "--seed", "7", "--variant", "x", "-f", "jsonl"
    )
    assert code == 0 and out.read_text() == whole  # byte for byte: generating has no timing
    assert [r["seed"] for r in jsonl(whole)] == list(range(7, 17))


@pytest.mark.parametrize("recipe", ["parallel-solve.sh", "parallel-generate.sh"])
def test_a_recipe_names_a_program_that_is_not_on_path_and_where_to_get_it(
    recipe: str, tmp_path: Path
) -> None:
    bare = {**os.environ, "PATH": "/usr/bin:/bin"}  # no .venv/bin: no sudosat
    args = ["x.txt", "2", "out.jsonl"] if recipe == "parallel-solve.sh" else ["4", "1", "2", "o"]
    done = subprocess.run(
        [str(RECIPES / recipe), *args], capture_output=True, text=True, env=bare, cwd=tmp_path
    )
    assert done.returncode == 127
    assert done.stderr == (
        f"{recipe}: sudosat is not on PATH: 'make install' puts it there, "
        "or 'source .venv/bin/activate' in the clone\n"
    )


def test_generate_shards_map_to_seeds(run: Run) -> None:
    args = ("generate", "--puzzles", "7", "--seed", "100", "-f", "jsonl", "-q")
    *records, trailer = jsonl(run(*args, "--shard", "2/3")[1])
    assert [r["seed"] for r in records] == [101, 104]  # seeds 100 + 1, 100 + 4
    assert trailer == {"shard": "2/3", "records": 2, "of": 7, "run": trailer["run"]}
    *_, other = jsonl(run(*args, "--shard", "1/3")[1])
    assert other["run"] == trailer["run"]  # one run, whichever shard
    _, alone, _ = run("generate", "--puzzles", "1", "--seed", "104", "-f", "jsonl", "-q")
    assert json.dumps(records[1]) == alone.strip()  # a seed makes the same puzzle anywhere


def test_merge_joins_real_shards_and_refuses_broken_sets(
    puzzles: Path, tmp_path: Path, run: Run
) -> None:
    parts = shard_outputs(puzzles, 3, tmp_path, run)
    out = tmp_path / "all.jsonl"
    code, _, _ = run("merge", *map(str, reversed(parts)), "--out", str(out))
    assert code == 0 and untimed(out.read_text()) == untimed(one_run(puzzles, run))
    first, second, third = map(str, parts)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(parts[2].read_text().splitlines(keepends=True)[:5]))
    odd = tmp_path / "odd.jsonl"  # a trailer without its count of records
    odd.write_text(parts[2].read_text().replace('"records"', '"rows"'))
    short = tmp_path / "short.jsonl"  # a record lost, the trailer kept
    short.write_text("".join(parts[2].read_text().splitlines(keepends=True)[1:]))
    other = tmp_path / "other.jsonl"
    other.write_text(run("solve", "--shard", "1/2", "-f", "jsonl", str(MAGICTOUR))[1])
    refused = {
        "shard 2/3 missing": [first, third],
        "are both shard 2/3": [first, second, second, third],
        "no shard trailer": [first, second, str(cut)],
        "no shard trailer at the end": [first, second, str(odd)],
        "trailer says": [first, second, str(short)],
        "not one run": [first, second, third, str(other)],
        "expected a JSON record": [first, second, str(puzzles)],
    }
    out.write_text("kept")
    for said, given in refused.items():
        code, printed, err = run("merge", *given, "--out", str(out))
        assert code == 2 and said in err and len(err.strip().splitlines()) == 1, err
        assert "Traceback" not in err and not printed
    assert out.read_text() == "kept"  # nothing written


def test_slurm_array_script_runs_with_the_array_variables(
    puzzles: Path, tmp_path: Path, run: Run
) -> None:
    script = RECIPES / "slurm-solve.sbatch"
    text = script.read_text()
    assert text.startswith("#!/usr/bin/env bash\n")
    options = re.findall(r"^#SBATCH (--[a-z-]+=\S+)$", text, re.MULTILINE)
    assert "--array=1-16" in options and all(o.count("=") == 1 for o in options)
    shell(["bash", "-n", str(script)], tmp_path)
    for k in (1, 2, 3):  # what Slurm sets in each task of --array=1-3
        extra = {"SLURM_ARRAY_TASK_ID": str(k), "SLURM_ARRAY_TASK_COUNT": "3"}
        shell(["bash", str(script), str(puzzles), "parts"], tmp_path, **extra)
    assert not list((tmp_path / "parts").glob("*.tmp"))
    parts = sorted(str(p) for p in (tmp_path / "parts").glob("part-*.jsonl"))
    code, merged, _ = run("merge", *parts)
    assert code == 0 and untimed(merged) == untimed(one_run(puzzles, run))


def ci_steps(commands: list[str], values: dict[str, str]) -> list[str]:
    """A CI file's shell lines with its expressions and variables filled in."""
    filled = []
    for command in commands:
        for name, value in values.items():
            command = command.replace(name, value)
        filled.append(command)
    return filled


def test_github_actions_matrix_runs_its_steps(puzzles: Path, tmp_path: Path) -> None:
    yaml = pytest.importorskip("yaml")
    flow = yaml.safe_load((RECIPES / "github-actions.yml").read_text())
    shards = flow["env"]["SHARDS"]
    matrix = flow["jobs"]["solve"]["strategy"]["matrix"]["k"]
    assert matrix == list(range(1, shards + 1)) and flow["jobs"]["merge"]["needs"] == "solve"
    runs = [s["run"] for s in flow["jobs"]["solve"]["steps"] if "run" in s]
    merges = [s["run"] for s in flow["jobs"]["merge"]["steps"] if "run" in s]
    env = {"PUZZLES": str(puzzles), "SHARDS": str(shards)}
    for k in matrix:
        for command in ci_steps(runs, {"${{ matrix.k }}": str(k)}):
            if not command.startswith("pip "):  # (installed already)
                shell(["bash", "-euo", "pipefail", "-c", command], tmp_path, **env)
    for command in merges[1:]:
        shell(["bash", "-c", command], tmp_path)
    merged = (tmp_path / "all.jsonl").read_text()
    assert len(jsonl(merged)) == 51 and "shard" not in merged


def test_gitlab_parallel_job_runs_its_script(puzzles: Path, tmp_path: Path) -> None:
    yaml = pytest.importorskip("yaml")
    pipeline = yaml.safe_load((RECIPES / "gitlab-ci.yml").read_text())
    solve, merge = pipeline["solve"], pipeline["merge"]
    assert pipeline["stages"] == [solve["stage"], merge["stage"]]
    total = solve["parallel"]
    for index in range(1, total + 1):  # what GitLab sets in each of the parallel jobs
        env = {"PUZZLES": str(puzzles), "CI_NODE_INDEX": str(index), "CI_NODE_TOTAL": str(total)}
        for command in solve["script"][1:]:
            shell(["bash", "-euo", "pipefail", "-c", command], tmp_path, **env)
    for command in merge["script"][1:]:
        shell(["bash", "-c", command], tmp_path)
    assert len(jsonl((tmp_path / "all.jsonl").read_text())) == 51


def test_dask_cluster_of_two_workers_gives_solve_many_answers(puzzles: Path) -> None:
    pytest.importorskip("distributed")
    import sys

    from dask.distributed import Client, LocalCluster

    from sudosat import read_puzzles

    sys.path.insert(0, str(ROOT))
    try:
        from recipes.dask_solve import record, solve_on, solve_part
    finally:
        sys.path.remove(str(ROOT))
    cluster = LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    with cluster, Client(cluster) as client:
        remote = solve_on(client, str(puzzles), partition_size=10)
        workers = {w["id"] for w in client.scheduler_info()["workers"].values()}
    local = solve_part(read_puzzles(str(puzzles)))  # solve_many here, in this process
    assert len(workers) == 2 and len(remote) == 51
    assert [record(e) for e in remote] == [record(e) for e in local]
    assert sum(isinstance(e, Exception) for e in remote) == 1  # the broken line, in its place
