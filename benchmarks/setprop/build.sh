#!/usr/bin/env bash
# Builds CaDiCaL 1.9.5 from python-sat's source distribution (PyPI: the same
# CaDiCaL sudosat runs through python-sat) and benchmarks/setprop/setprop.cpp
# against it, into build/setprop/ (make clean removes it). Needs g++ and make.
#
#   benchmarks/setprop/build.sh        # then: python benchmarks/search_floor.py propagator
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/build/setprop"
mkdir -p "$out"
cd "$out"
if [ ! -f python_sat-1.9.dev17.tar.gz ]; then
    "$root/.venv/bin/python" -m pip download -q --no-binary :all: --no-deps python-sat==1.9.dev17 -d .
fi
if [ ! -d cadical-rel-1.9.5 ]; then
    tar xzf python_sat-1.9.dev17.tar.gz --strip-components=2 python_sat-1.9.dev17/solvers/cadical195.tar.gz
    tar xzf cadical195.tar.gz
    (cd cadical-rel-1.9.5 && ./configure -O3 >/dev/null && make -j2 >/dev/null)
fi
g++ -O3 -std=c++17 -I cadical-rel-1.9.5/src "$here/setprop.cpp" cadical-rel-1.9.5/build/libcadical.a -o setprop
echo "built $out/setprop"
