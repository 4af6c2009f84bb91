// Issue 36's measurement of a compiled propagator (BENCHMARKS.md, "A compiled
// propagator, measured"): sudosat's digit-set rules (killer cages: the digit sets
// of the cage's size and sum; renban lines: the runs of the line's length) made
// generalised arc consistent by a propagator in CaDiCaL 1.9.5's IPASIR-UP
// interface, against the CNF alone. Not part of sudosat: a measuring tool, built
// by benchmarks/setprop/build.sh and run by benchmarks/search_floor.py.
//
//   setprop MODE FORMULA.cnf RULES.txt [option=value ...]
//
// MODE: plain (the CNF alone), with (the CNF and the propagator), instead (a CNF
// without the rules' clauses, the propagator in their place). RULES.txt: "n N
// VARIABLES", then "m CELL VALUE VARIABLE" for each cell literal, "g CELL VALUE"
// for each decided cell, "r CELLS... | SETS..." for each rule: its cells hold
// distinct digits that make one of the sets (bit masks, bit v for digit v).
// Finds a solution, blocks it, solves again (sudosat's proof of uniqueness), and
// prints "MODE FIRST SECOND SECONDS PROPAGATED" (10 SAT, 20 UNSAT), then CaDiCaL's
// statistics ("c conflicts: ...").
//
// A propagated literal's reason is the digits the rule's other cells have lost
// that some allowed set holding the removed digit needs (so that clause alone
// forbids it); consequences of root-level literals only are given as clauses.
#include "cadical.hpp"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace std;

struct Rule {
  vector<int> cells;
  vector<char> allowed;   // mask -> is an allowed digit set (of the open cells)
  vector<unsigned> with;  // v -> union of the allowed sets holding v
};

struct SetPropagator : CaDiCaL::ExternalPropagator {
  int n, masks;
  vector<int> cell_of, value_of;
  vector<vector<int>> var_of;
  vector<unsigned> dom, initial;
  vector<vector<int>> cause;
  vector<Rule> rules;
  vector<vector<int>> rules_of;
  vector<pair<int, unsigned>> trail;
  vector<size_t> marks;
  vector<char> queued;
  vector<int> queue, pending;
  vector<vector<int>> reason_of; // by literal index
  vector<int> memo_stamp;
  vector<char> memo_value;
  int stamp = 0;
  long propagated = 0;
  const vector<int> *reading = nullptr;
  size_t read_at = 0;
  vector<char> fixed;                    // by variable: assigned for good
  vector<vector<int>> clauses;           // consequences of the root level, as clauses
  size_t clause_at = 0;

  explicit SetPropagator (int n_) : n (n_), masks (1 << (n_ + 1)) {}

  int index (int lit) const { return lit > 0 ? 2 * lit : -2 * lit + 1; }

  void notify_assignment (int lit, bool is_fixed) override {
    int var = abs (lit);
    if (is_fixed && var < (int) fixed.size ())
      fixed[var] = 1;
    if (var >= (int) value_of.size () || !value_of[var])
      return;
    int c = cell_of[var], v = value_of[var];
    unsigned d = dom[c];
    unsigned now = lit > 0 ? (d & (1u << v)) : (d & ~(1u << v));
    if (now == d)
      return;
    trail.push_back ({c, d});
    for (unsigned gone = d & ~now; gone; gone &= gone - 1)
      cause[c][__builtin_ctz (gone)] = lit;
    dom[c] = now;
    for (int r : rules_of[c])
      if (!queued[r]) {
        queued[r] = 1;
        queue.push_back (r);
      }
  }
  void notify_new_decision_level () override { marks.push_back (trail.size ()); }
  void notify_backtrack (size_t level) override {
    if (level < marks.size ()) {
      while (trail.size () > marks[level]) {
        dom[trail.back ().first] = trail.back ().second;
        trail.pop_back ();
      }
      marks.resize (level);
    }
    for (int r : queue)
      queued[r] = 0;
    queue.clear ();
    pending.clear ();
  }
  bool cb_check_found_model (const vector<int> &) override { return true; }
  bool cb_has_external_clause () override { return !clauses.empty (); }
  int cb_add_external_clause_lit () override {
    vector<int> &clause = clauses.back ();
    if (clause_at < clause.size ())
      return clause[clause_at++];
    clauses.pop_back ();
    clause_at = 0;
    return 0;
  }

  // can cells i.. of the rule take distinct digits completing `used` to an allowed set
  bool completes (const Rule &r, const unsigned *d, int i, unsigned used) {
    int k = r.cells.size ();
    if (i == k)
      return r.allowed[used];
    size_t key = (size_t) i * masks + used;
    if (memo_stamp[key] == stamp)
      return memo_value[key];
    bool found = false;
    for (unsigned m = d[i] & ~used; m && !found; m &= m - 1)
      found = completes (r, d, i + 1, used | (m & -m));
    memo_stamp[key] = stamp;
    memo_value[key] = found;
    return found;
  }
  // the digits each cell takes in some completion
  void supports (const Rule &r, const unsigned *d, unsigned *held) {
    int k = r.cells.size ();
    stamp++;
    fill (held, held + k, 0u);
    vector<unsigned> level{0}, next;
    for (int i = 0; i < k && !level.empty (); i++) {
      next.clear ();
      for (unsigned used : level)
        for (unsigned m = d[i] & ~used; m; m &= m - 1) {
          unsigned b = m & -m;
          if (completes (r, d, i + 1, used | b)) {
            held[i] |= b;
            next.push_back (used | b);
          }
        }
      sort (next.begin (), next.end ());
      next.erase (unique (next.begin (), next.end ()), next.end ());
      swap (level, next);
    }
  }
  void run (int ri) {
    const Rule &r = rules[ri];
    int k = r.cells.size ();
    unsigned d[64], held[64];
    for (int i = 0; i < k; i++)
      d[i] = dom[r.cells[i]];
    supports (r, d, held);
    for (int i = 0; i < k; i++) {
      int c = r.cells[i];
      for (unsigned bad = dom[c] & ~held[i]; bad; bad &= bad - 1) {
        int v = __builtin_ctz (bad);
        int lit = -var_of[c][v];
        // why: the digits the other cells lost that some allowed set with v holds
        vector<int> &why = reason_of[index (lit)];
        why.assign (1, lit);
        for (int j = 0; j < k; j++) {
          if (j == i)
            continue;
          int o = r.cells[j];
          for (unsigned lost = initial[o] & ~dom[o] & r.with[v]; lost; lost &= lost - 1) {
            int because = -cause[o][__builtin_ctz (lost)];
            if (find (why.begin (), why.end (), because) == why.end ())
              why.push_back (because);
          }
        }
        bool root = true; // a reason of root-level literals only: a clause instead
        for (size_t j = 1; j < why.size () && root; j++)
          root = fixed[abs (why[j])];
        if (root)
          clauses.push_back (why);
        else
          pending.push_back (lit);
      }
    }
  }
  int cb_propagate () override {
    while (pending.empty () && !queue.empty ()) {
      int r = queue.back ();
      queue.pop_back ();
      queued[r] = 0;
      run (r);
    }
    if (pending.empty () || !clauses.empty ())
      return 0;
    int lit = pending.back ();
    pending.pop_back ();
    propagated++;
    return lit;
  }
  int cb_add_reason_clause_lit (int lit) override {
    if (!reading) {
      reading = &reason_of[index (lit)];
      read_at = 0;
    }
    if (read_at < reading->size ())
      return (*reading)[read_at++];
    reading = nullptr;
    return 0;
  }
};

int main (int argc, char **argv) {
  if (argc < 4) {
    fprintf (stderr, "usage: setprop plain|with|instead FORMULA.cnf RULES.txt [option=value ...]\n");
    return 2;
  }
  string mode = argv[1];
  CaDiCaL::Solver solver;
  solver.set ("stabilizeonly", 1); // as sudosat configures CaDiCaL
  for (int i = 4; i < argc; i++) {
    string option = argv[i];
    size_t eq = option.find ('=');
    solver.set (option.substr (0, eq).c_str (), atoi (option.c_str () + eq + 1));
  }
  int vars = 0;
  if (const char *err = solver.read_dimacs (argv[2], vars)) {
    fprintf (stderr, "%s\n", err);
    return 2;
  }
  ifstream in (argv[3]);
  string line;
  int n = 9, top = 0;
  vector<tuple<int, int, int>> literals;
  vector<pair<vector<int>, vector<unsigned>>> read_rules;
  vector<int> given;
  while (getline (in, line)) {
    istringstream words (line);
    string kind;
    words >> kind;
    if (kind == "n")
      words >> n >> top;
    else if (kind == "m") {
      int c, v, x;
      words >> c >> v >> x;
      literals.push_back ({c, v, x});
    } else if (kind == "g") {
      int c, v;
      words >> c >> v;
      given.resize (max ((int) given.size (), c + 1));
      given[c] = v;
    } else if (kind == "r") {
      vector<int> cells;
      vector<unsigned> sets;
      string w;
      bool after = false;
      while (words >> w) {
        if (w == "|")
          after = true;
        else if (after)
          sets.push_back (stoul (w));
        else
          cells.push_back (stoi (w));
      }
      read_rules.push_back ({cells, sets});
    }
  }
  given.resize (n * n);
  SetPropagator p (n);
  p.cell_of.assign (top + 1, 0);
  p.value_of.assign (top + 1, 0);
  p.var_of.assign (n * n, vector<int> (n + 1, 0));
  p.dom.assign (n * n, 0);
  p.cause.assign (n * n, vector<int> (n + 1, 0));
  p.reason_of.assign (2 * top + 2, {});
  p.fixed.assign (top + 1, 0);
  for (auto [c, v, x] : literals) {
    p.cell_of[x] = c;
    p.value_of[x] = v;
    p.var_of[c][v] = x;
    p.dom[c] |= 1u << v;
  }
  p.initial = p.dom;
  p.rules_of.assign (n * n, {});
  size_t longest = 0;
  for (auto &[cells, sets] : read_rules) {
    Rule r;
    unsigned placed = 0;
    for (int c : cells)
      if (given[c])
        placed |= 1u << given[c];
      else
        r.cells.push_back (c);
    if (r.cells.size () < 2)
      continue;
    r.allowed.assign (p.masks, 0);
    r.with.assign (n + 1, 0);
    for (unsigned s : sets)
      if ((s & placed) == placed) {
        unsigned rest = s & ~placed;
        r.allowed[rest] = 1;
        for (unsigned m = rest; m; m &= m - 1)
          r.with[__builtin_ctz (m)] |= rest;
      }
    longest = max (longest, r.cells.size ());
    for (int c : r.cells)
      p.rules_of[c].push_back (p.rules.size ());
    p.rules.push_back (r);
  }
  p.memo_stamp.assign ((longest + 1) * p.masks, 0);
  p.memo_value.assign ((longest + 1) * p.masks, 0);
  p.queued.assign (p.rules.size (), 1);
  for (size_t r = 0; r < p.rules.size (); r++)
    p.queue.push_back (r);
  if (mode != "plain") {
    solver.connect_external_propagator (&p);
    for (auto [c, v, x] : literals)
      solver.add_observed_var (x);
  }
  auto start = chrono::steady_clock::now ();
  int first = solver.solve ();
  int second = 0;
  if (first == 10) {
    vector<int> held;
    for (auto [c, v, x] : literals)
      if (solver.val (x) > 0)
        held.push_back (x);
    for (int x : held)
      solver.add (-x);
    solver.add (0);
    second = solver.solve ();
  }
  double seconds = chrono::duration<double> (chrono::steady_clock::now () - start).count ();
  printf ("%s %d %d %.3f %ld\n", mode.c_str (), first, second, seconds, p.propagated);
  fflush (stdout);
  solver.statistics ();
  return 0;
}
