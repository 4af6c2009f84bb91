/* Sudoku Explainer's rating search, for the ER at the top of its scale (issue 77).

   Sudoku Explainer (SE, Nicolas Juillerat, LGPL) rates a classic 9x9 by taking, at
   every step, the easiest hint of the first producer that has one, and keeping the
   heaviest.  Past dynamic forcing chains its producers are nested chains: each
   candidate's branch is followed dynamically and, where it stalls, level L's inner
   rules are asked of the branch's board:
     level 1  locked candidates, hidden and naked pairs, X-wings;
     level 2  those, then static forcing chains;
     level 3  those, then static multiple (cell and region) forcing chains;
     level 4  those rules, then dynamic forcing chains;
     level 5  those rules, then dynamic forcing chains of level 2.
   Each fact a rule adds there keeps as premises the branch's removals the rule
   needed.  A hint's complexity is the number of distinct facts behind its ends plus
   each distinct inner chain's complexity; its ER is the level's base (8.5 + 0.5
   level, 9.5 from level 2 up) plus 0.1 for each threshold 4, 6, 8, 12, 16, 24, ...
   that its complexity minus 2 passes.

   The algorithm is SE's, read from its source; the code is sudosat's.  It rates
   only (the path a person reads keeps its own steps).  Its lower producers are the
   ones that change what the boards at the top look like (singles, locked
   candidates, subsets and fish up to 4, forcing chains, multiple, dynamic and
   nested ones); uniqueness rules and aligned exclusions are left out.

   A potential is a cell and value (cell * 9 + value, values 0-8); a node is a
   potential on or off (potential * 2 + on). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CELLS 81
#define POTS 729
#define NODES 1458
#define TEMP NODES /* a contradiction's new half, outside the sets */
#define NODE(p, on) (((p) << 1) | (on))
#define POT(n) ((n) >> 1)
#define ISON(n) ((n) & 1)
#define PCELL(p) ((p) / 9)
#define PVAL(p) ((p) % 9)
#define BIT(v) ((uint16_t)(1u << (v)))

enum { BLOCK, ROW, COL };
enum { CAUSE_NONE, CAUSE_CELL, CAUSE_BLOCK, CAUSE_ROW, CAUSE_COL, CAUSE_RULE };

static int HOUSE[3][9][9]; /* kind (SE's order: block, row, column), index, position -> cell */
static int HOUSE_OF[CELLS][3];
static int POS_OF[CELLS][3]; /* a cell's position in each of its houses */
static uint8_t POP[512];
static int CROSS[3][9][3][9]; /* whether two houses share a cell */
static uint16_t INSIDE[3][9][3][9]; /* the positions of a house that lie in another */
static int COMBOS[5][128], NCOMBOS[5]; /* the 9-bit masks of each size up to 4 */

static void houses(void) {
    for (int i = 0; i < 9; i++)
        for (int j = 0; j < 9; j++) {
            HOUSE[ROW][i][j] = i * 9 + j;
            HOUSE[COL][i][j] = j * 9 + i;
            HOUSE[BLOCK][i][j] = (i / 3 * 3 + j / 3) * 9 + i % 3 * 3 + j % 3;
        }
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 9; i++)
            for (int j = 0; j < 9; j++) {
                HOUSE_OF[HOUSE[k][i][j]][k] = i;
                POS_OF[HOUSE[k][i][j]][k] = j;
            }
    for (int m = 0; m < 512; m++) {
        POP[m] = (uint8_t)__builtin_popcount((unsigned)m);
        if (POP[m] <= 4) COMBOS[POP[m]][NCOMBOS[POP[m]]++] = m;
    }
    for (int k1 = 0; k1 < 3; k1++)
        for (int i1 = 0; i1 < 9; i1++)
            for (int k2 = 0; k2 < 3; k2++)
                for (int i2 = 0; i2 < 9; i2++)
                    for (int j = 0; j < 9; j++)
                        if (HOUSE_OF[HOUSE[k1][i1][j]][k2] == i2) {
                            CROSS[k1][i1][k2][i2] = 1;
                            INSIDE[k1][i1][k2][i2] |= (uint16_t)(1u << j);
                        }
}

static int in_house(int cell, int kind, int index) { return HOUSE_OF[cell][kind] == index; }

typedef struct {
    uint16_t cand[CELLS];       /* candidates, bits 0-8 */
    uint16_t where[3][9][9];    /* a value's places in a house, by position */
    uint8_t value[CELLS];       /* 1-9 placed, 0 open */
} Grid;

/* The places from the candidates (once: drop() keeps them after). */
static void refresh(Grid *g) {
    memset(g->where, 0, sizeof(g->where));
    for (int c = 0; c < CELLS; c++)
        for (int v = 0; v < 9; v++)
            if (g->cand[c] >> v & 1)
                for (int k = 0; k < 3; k++) g->where[k][HOUSE_OF[c][k]][v] |= (uint16_t)(1u << POS_OF[c][k]);
}

static void drop(Grid *g, int cell, int v) {
    g->cand[cell] &= (uint16_t)~(1u << v);
    for (int k = 0; k < 3; k++) g->where[k][HOUSE_OF[cell][k]][v] &= (uint16_t)~(1u << POS_OF[cell][k]);
}

/* ---------------------------------------------------------------- the work budget */

/* Why a search stopped before its end (spend.over): each reason is the caller's
   to report; none is a rating. */
enum { GOING, OVER_BUDGET, OVER_DEADLINE, OVER_SIGNAL, OVER_MEMORY };

typedef struct {
    long long work, budget; /* node expansions; past the budget the search gives up */
    int over;               /* GOING, or why it stopped */
    double deadline;        /* CLOCK_MONOTONIC seconds (Python's time.monotonic); 0: none */
    long long next_look;    /* the work at which the clock and signals are next looked at */
} Spend;

static Spend spend;

/* The search stops, for ``why`` (the first reason stays). */
static void halt(int why) {
    if (!spend.over) spend.over = why;
}

#define LOOK_EVERY 16384 /* expansions between looks at the clock and signals (about 1 ms) */

static double monotonic(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + now.tv_nsec / 1e9;
}

/* Whether the search must stop: it has stopped, its budget is spent, its deadline
   has passed, or a signal came for Python (Ctrl-C, SIGTERM: its handler runs
   here and raises, and the search ends at once instead of when it is done). */
static int must_stop(void) {
    if (spend.over) return 1;
    if (spend.budget && spend.work > spend.budget) {
        halt(OVER_BUDGET);
        return 1;
    }
    if (spend.work >= spend.next_look) {
        spend.next_look = spend.work + LOOK_EVERY;
        if (spend.deadline > 0 && monotonic() > spend.deadline) halt(OVER_DEADLINE);
        else if (PyErr_CheckSignals() < 0) halt(OVER_SIGNAL);
    }
    return spend.over != GOING;
}

/* ---------------------------------------------------------------- memory */

/* Every allocation goes through these: one that fails stops the search (out of
   memory: a MemoryError in Python, never "no rating"), whatever its caller then
   does. A test makes the n-th fail (fail_after), to walk every failure path. */
static long long allocations, fail_at; /* fail_at 0: none fails */

static void *failed(void *p) {
    if (!p) halt(OVER_MEMORY);
    return p;
}

static int injected(void) { return fail_at && ++allocations >= fail_at; }

static void *x_malloc(size_t bytes) { return failed(injected() ? NULL : malloc(bytes)); }

static void *x_calloc(size_t count, size_t bytes) {
    return failed(injected() ? NULL : calloc(count, bytes));
}

static void *x_realloc(void *p, size_t bytes) {
    return failed(injected() ? NULL : realloc(p, bytes));
}

/* ---------------------------------------------------------------- runs */

/* One branch's facts (SE's toOn and toOff sets): each node once, with its cause,
   its premises (parents) and the inner chain that gave it, if any. */
typedef struct Run {
    uint8_t in[NODES + 1];
    uint8_t cause[NODES + 1];
    int32_t first[NODES + 1];
    uint16_t count[NODES + 1];
    int32_t nested[NODES + 1];
    int temp_node;
    int16_t order[NODES];
    int n;
    int32_t *pool;
    int plen, pcap;
    struct Run *next_free;
} Run;

static Run *free_runs;

static Run *run_new(void) {
    Run *r = free_runs;
    if (r) {
        free_runs = r->next_free;
    } else {
        r = x_calloc(1, sizeof(Run));
        if (!r) return NULL;
        r->pcap = 4096;
        r->pool = x_malloc(sizeof(int32_t) * r->pcap);
        if (!r->pool) {
            free(r);
            return NULL;
        }
    }
    return r;
}

static void run_clear(Run *r) {
    for (int i = 0; i < r->n; i++) r->in[r->order[i]] = 0;
    r->in[TEMP] = 0;
    r->n = 0;
    r->plen = 0;
}

static void run_free(Run *r) {
    if (!r) return;
    run_clear(r);
    r->next_free = free_runs;
    free_runs = r;
}

static int run_parents(Run *r, int slot, const int *parents, int np) {
    if (r->plen + np > r->pcap) {
        int cap = r->pcap * 2 + np;
        int32_t *grown = x_realloc(r->pool, sizeof(int32_t) * cap);
        if (!grown) { /* the node stays, with no premises: the search stops (halt) */
            r->first[slot] = 0;
            r->count[slot] = 0;
            return -1;
        }
        r->pool = grown;
        r->pcap = cap;
    }
    r->first[slot] = r->plen;
    r->count[slot] = (uint16_t)np;
    for (int i = 0; i < np; i++) r->pool[r->plen++] = parents[i];
    return 0;
}

static int run_add(Run *r, int node, int cause, const int *parents, int np, int nested) {
    r->in[node] = 1;
    r->cause[node] = (uint8_t)cause;
    r->nested[node] = nested;
    r->order[r->n++] = (int16_t)node;
    return run_parents(r, node, parents, np);
}

static int run_temp(Run *r, int node, int cause, const int *parents, int np) {
    r->in[TEMP] = 1;
    r->temp_node = node;
    r->cause[TEMP] = (uint8_t)cause;
    r->nested[TEMP] = -1;
    return run_parents(r, TEMP, parents, np);
}

static int node_of(Run *r, int slot) { return slot == TEMP ? r->temp_node : slot; }

/* ---------------------------------------------------------------- inner chains */

/* Each inner chain a fact came from: its complexity and a key for SE's "the same
   chain" (the nodes behind its ends), so a chain is counted once in a hint. */
typedef struct {
    int complexity;
    uint64_t key;
} Nest;

static Nest *nests;
static int nnests, nests_cap;

static int nest_new(int complexity, uint64_t key) {
    if (nnests == nests_cap) {
        int cap = nests_cap ? nests_cap * 2 : 1024;
        Nest *grown = x_realloc(nests, sizeof(Nest) * cap);
        if (!grown) return -1;
        nests = grown;
        nests_cap = cap;
    }
    nests[nnests].complexity = complexity;
    nests[nnests].key = key;
    return nnests++;
}

static uint64_t mix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* ---------------------------------------------------------------- hints */

typedef struct {
    int complexity, sortkey, tenths; /* tenths: the ER, times ten */
    int rem_at, nrem;                /* removals (potentials) in Hints.ints */
    int par_at, npar;                /* premises the rule needs (potentials off), likewise */
    uint64_t key;
    int order;
} Hint;

typedef struct {
    Hint *list;
    int n, cap;
    int *ints;
    int nints, icap;
} Hints;

static void hints_free(Hints *h) {
    free(h->list);
    free(h->ints);
    memset(h, 0, sizeof(*h));
}

static int hints_ints(Hints *h, int more) {
    if (h->nints + more > h->icap) {
        int cap = h->icap * 2 + more + 256;
        int *grown = x_realloc(h->ints, sizeof(int) * cap);
        if (!grown) return -1;
        h->ints = grown;
        h->icap = cap;
    }
    return 0;
}

static Hint *hints_add(Hints *h) {
    if (h->n == h->cap) {
        int cap = h->cap ? h->cap * 2 : 64;
        Hint *grown = x_realloc(h->list, sizeof(Hint) * cap);
        if (!grown) return NULL;
        h->list = grown;
        h->cap = cap;
    }
    Hint *hint = &h->list[h->n];
    memset(hint, 0, sizeof(*hint));
    hint->order = h->n++;
    return hint;
}

static int length_tenths(int complexity) {
    int added = 0, ceil = 4, odd = 0, length = complexity - 2;
    while (length > ceil) {
        added++;
        ceil = odd ? ceil * 4 / 3 : ceil * 3 / 2;
        odd = !odd;
    }
    return added;
}

static int hint_cmp(const void *a, const void *b) {
    const Hint *x = a, *y = b;
    if (x->tenths != y->tenths) return x->tenths - y->tenths;
    if (x->complexity != y->complexity) return x->complexity - y->complexity;
    if (x->sortkey != y->sortkey) return x->sortkey - y->sortkey;
    return x->order - y->order;
}

/* ---------------------------------------------------------------- links */

typedef struct {
    int node, cause, np;
    int parents[12];
} Fact;

/* SE's "on to off": the cell's other values (Y-links), the value's other places in
   each house of the cell (their premise is the fact followed: the caller's). */
static int on_to_off(const Grid *g, int p, int ylinks, Fact *out) {
    int cell = PCELL(p), v = PVAL(p), n = 0, block = HOUSE_OF[cell][BLOCK];
    spend.work++;
    if (ylinks)
        for (int w = 0; w < 9; w++)
            if (w != v && (g->cand[cell] & BIT(w))) {
                out[n].node = NODE(cell * 9 + w, 0);
                out[n++].cause = CAUSE_CELL;
            }
    for (int k = 0; k < 3; k++) {
        int h = HOUSE_OF[cell][k];
        for (unsigned places = g->where[k][h][v]; places; places &= places - 1) {
            int c = HOUSE[k][h][__builtin_ctz(places)];
            if (c != cell && (k == BLOCK || HOUSE_OF[c][BLOCK] != block)) {
                out[n].node = NODE(c * 9 + v, 0);
                out[n++].cause = CAUSE_BLOCK + k;
            }
        }
    }
    return n;
}

/* SE's "off to on": a cell's last other value (Y-links), a house's last other place
   (X-links); in a dynamic branch, the values already gone from the cell or house
   are premises too ("hidden parents"). */
static int off_to_on(const Grid *g, const Grid *source, const Run *r, int p, int ylinks,
                     int xlinks, Fact *out) {
    int cell = PCELL(p), v = PVAL(p), n = 0;
    spend.work++;
    if (ylinks && POP[g->cand[cell]] == 2) {
        int w = __builtin_ctz(g->cand[cell] & ~BIT(v));
        Fact *f = &out[n++];
        f->node = NODE(cell * 9 + w, 1);
        f->cause = CAUSE_CELL;
        f->np = 1;
        f->parents[0] = -1;
        for (int u = 0; u < 9; u++)
            if ((source->cand[cell] & BIT(u)) && !(g->cand[cell] & BIT(u))) {
                int hidden = NODE(cell * 9 + u, 0);
                if (r->in[hidden] && f->np < 12) f->parents[f->np++] = hidden;
            }
    }
    if (xlinks)
        for (int k = 0; k < 3; k++) {
            int h = HOUSE_OF[cell][k];
            unsigned places = g->where[k][h][v];
            if (POP[places] != 2 || !(places >> POS_OF[cell][k] & 1)) continue;
            int other = HOUSE[k][h][__builtin_ctz(places & ~(1u << POS_OF[cell][k]))];
            int node = NODE(other * 9 + v, 1), dup = 0;
            for (int j = 0; j < n; j++) dup |= out[j].node == node;
            if (dup) continue;
            Fact *f = &out[n++];
            f->node = node;
            f->cause = CAUSE_BLOCK + k;
            f->np = 1;
            f->parents[0] = -1;
            for (unsigned gone = source->where[k][h][v] & ~g->where[k][h][v]; gone; gone &= gone - 1) {
                int hidden = NODE(HOUSE[k][h][__builtin_ctz(gone)] * 9 + v, 0);
                if (r->in[hidden] && f->np < 12) f->parents[f->np++] = hidden;
            }
        }
    return n;
}

/* ---------------------------------------------------------------- premises */

/* A walk's stack: each node pushes its premises once, so a run's premises bound it. */
static int *walk_stack;
static int walk_cap;

static int *walk_room(const Run *r) {
    int need = r->plen + NODES + 2;
    if (need > walk_cap) {
        int *grown = x_realloc(walk_stack, sizeof(int) * need);
        if (!grown) return NULL;
        walk_stack = grown;
        walk_cap = need;
    }
    return walk_stack;
}

/* Walks the facts behind a run's node: counts them, adds each inner chain not yet
   counted (by key) to *nested, and folds the nodes into *key. */
static int ancestors(Run *r, int slot, uint8_t *seen, uint64_t *keys, int *nkeys, int *nested,
                     uint64_t *key) {
    int count = 0, top = 0;
    int touched[NODES + 1], nt = 0;
    int *stack = walk_room(r);
    if (!stack) return -1;
    stack[top++] = slot;
    while (top) {
        int s = stack[--top];
        if (seen[s]) continue;
        seen[s] = 1;
        touched[nt++] = s;
        count++;
        if (key) *key ^= mix((uint64_t)node_of(r, s));
        int nest = r->nested[s];
        if (nest >= 0 && nested) {
            int known = 0;
            for (int i = 0; i < *nkeys; i++) known |= keys[i] == nests[nest].key;
            if (!known && *nkeys < 4096) {
                keys[(*nkeys)++] = nests[nest].key;
                *nested += nests[nest].complexity;
            }
        }
        for (int i = 0; i < r->count[s]; i++) {
            int parent = r->pool[r->first[s] + i];
            if (!seen[parent]) stack[top++] = parent;
        }
    }
    for (int i = 0; i < nt; i++) seen[touched[i]] = 0;
    return count;
}

/* SE's rule premises of a chain used inside another's branch: for each "on" fact,
   the values its cell lost (a naked single) or the places its house lost for the
   value (a hidden single), between the outer branch's start and its board now. */
static void rule_parents(Run *r, int slot, int initial_cause, const Grid *initial,
                         const Grid *current, uint8_t *marked, int *out, int *nout, int flip) {
    uint8_t seen[NODES + 1];
    int top = 0, *stack = walk_room(r);
    if (!stack) return;
    memset(seen, 0, sizeof(seen));
    stack[top++] = slot;
    while (top) {
        int s = stack[--top];
        if (seen[s]) continue;
        seen[s] = 1;
        int node = node_of(r, s), cause = r->cause[s];
        if (cause == CAUSE_NONE) cause = initial_cause;
        int on = ISON(node) ^ flip;
        if (on && cause != CAUSE_NONE && cause != CAUSE_RULE) {
            int cell = PCELL(POT(node)), v = PVAL(POT(node));
            if (cause == CAUSE_CELL) {
                for (int u = 0; u < 9; u++)
                    if ((initial->cand[cell] & BIT(u)) && !(current->cand[cell] & BIT(u)) &&
                        !marked[cell * 9 + u]) {
                        marked[cell * 9 + u] = 1;
                        out[(*nout)++] = cell * 9 + u;
                    }
            } else {
                int k = cause - CAUSE_BLOCK, h = HOUSE_OF[cell][k];
                for (int i = 0; i < 9; i++) {
                    int c = HOUSE[k][h][i];
                    if ((initial->cand[c] & BIT(v)) && !(current->cand[c] & BIT(v)) &&
                        !marked[c * 9 + v]) {
                        marked[c * 9 + v] = 1;
                        out[(*nout)++] = c * 9 + v;
                    }
                }
            }
        }
        for (int i = 0; i < r->count[s]; i++) {
            int parent = r->pool[r->first[s] + i];
            if (!seen[parent]) stack[top++] = parent;
        }
    }
}

/* ---------------------------------------------------------------- a search's settings */

typedef struct {
    int multiple, dynamic, level;
    int base; /* the ER of its hints before their length, in tenths */
} Mode;

/* Where a search's hints go: the easiest kept (the top level), or every one with
   its premises in the enclosing branch (inside another chain). */
typedef struct {
    int all;
    Hints *hints;
    const Grid *initial, *current; /* the enclosing branch's start and board now */
    /* the easiest, at the top */
    int best_tenths, best_complexity, best_sortkey, best_rank;
    int best_rem[POTS], best_nrem;
} Sink;

typedef struct {
    Run *run;
    int slot;
} Target;

/* Where SE would have listed the next hint among its producer's, for ties of ER,
   complexity and kind (its sort is stable); -1: in the order found. */
static int emit_rank = -1;

static int chain(const Mode *m, Grid *g, Run *r, int *ab_on, int *ab_off);
static int forcing_chains(const Grid *g, Sink *sink);

/* One hint found: its removals, the facts at its ends.  initial_cause: what the
   starting assumption counts as among a cell or region chain's premises. */
static int emit(Sink *sink, const Target *ends, int nends, const int *rem, int nrem,
                int sortkey, int base_tenths, int initial_cause) {
    static uint8_t seen[NODES + 1];
    static uint64_t keys[4096];
    int nkeys = 0, nested = 0, flat = 0;
    uint64_t key = 0;
    if (nrem == 0) return 0;
    for (int i = 0; i < nends; i++) {
        /* SE's "same chain": the same ends, each with the same facts behind it */
        uint64_t behind = mix((uint64_t)node_of(ends[i].run, ends[i].slot) + 1);
        int count = ancestors(ends[i].run, ends[i].slot, seen, keys, &nkeys, &nested, &behind);
        if (count < 0) return -1;
        flat += count;
        key = mix(key ^ behind);
    }
    int complexity = flat + nested;
    int tenths = base_tenths + length_tenths(complexity);
    if (!sink->all) {
        int rank = emit_rank >= 0 ? emit_rank : 0;
        if (sink->best_nrem == 0 || tenths < sink->best_tenths ||
            (tenths == sink->best_tenths &&
             (complexity < sink->best_complexity ||
              (complexity == sink->best_complexity &&
               (sortkey < sink->best_sortkey ||
                (sortkey == sink->best_sortkey && rank < sink->best_rank)))))) {
            sink->best_tenths = tenths;
            sink->best_complexity = complexity;
            sink->best_sortkey = sortkey;
            sink->best_rank = rank;
            sink->best_nrem = nrem;
            memcpy(sink->best_rem, rem, sizeof(int) * nrem);
        }
        return 0;
    }
    Hints *h = sink->hints;
    Hint *hint = hints_add(h);
    if (!hint) return -1;
    if (emit_rank >= 0) hint->order = emit_rank;
    hint->complexity = complexity;
    hint->tenths = tenths;
    hint->sortkey = sortkey;
    hint->key = mix(key ^ (uint64_t)complexity);
    if (hints_ints(h, nrem + POTS) < 0) return -1;
    hint->rem_at = h->nints;
    hint->nrem = nrem;
    for (int i = 0; i < nrem; i++) h->ints[h->nints++] = rem[i];
    uint8_t marked[POTS];
    memset(marked, 0, sizeof(marked));
    hint->par_at = h->nints;
    int npar = 0;
    for (int i = 0; i < nends; i++)
        rule_parents(ends[i].run, ends[i].slot, initial_cause, sink->initial, sink->current, marked,
                     h->ints + h->nints, &npar, 0);
    hint->npar = npar;
    h->nints += npar;
    return 0;
}

/* The removals a target gives: "on" takes the cell's other values, "off" the value. */
static int target_removals(const Grid *g, int node, int *rem) {
    int p = POT(node), cell = PCELL(p), v = PVAL(p), n = 0;
    if (!ISON(node)) {
        rem[n++] = p;
        return n;
    }
    for (int w = 0; w < 9; w++)
        if (w != v && (g->cand[cell] & BIT(w))) rem[n++] = cell * 9 + w;
    return n;
}

/* ---------------------------------------------------------------- inner rules */

static int advanced(const Mode *m, Grid *g, const Grid *source, Hints *out);

static void run_queue_push(int *q, int *tail, int node) { q[(*tail)++] = node; }

/* SE's doChaining: follows a branch's facts, "on" facts first, to its end or to a
   contradiction (a node both on and off); in a dynamic search each fact off is
   taken from the board as it is followed, and where the branch stalls the level's
   inner rules are asked.  The board is left as it was. */
static int chain(const Mode *m, Grid *g, Run *r, int *ab_on, int *ab_off) {
    Grid save = *g;
    int qon[NODES + 8], qoff[NODES + 8], hon = 0, ton = 0, hoff = 0, toff = 0, found = 0;
    Fact facts[40];
    for (int i = 0; i < r->n; i++) {
        int node = r->order[i];
        if (ISON(node))
            run_queue_push(qon, &ton, node);
        else
            run_queue_push(qoff, &toff, node);
    }
    while (hon < ton || hoff < toff) {
        if (must_stop()) break;
        if (hon < ton) {
            int p = qon[hon++];
            int n = on_to_off(g, POT(p), 1, facts);
            for (int i = 0; i < n; i++) {
                int off = facts[i].node, parent = p;
                if (r->in[off | 1]) {
                    run_temp(r, off, facts[i].cause, &parent, 1);
                    *ab_on = off | 1;
                    *ab_off = TEMP;
                    found = 1;
                    goto done;
                }
                if (!r->in[off]) {
                    run_add(r, off, facts[i].cause, &parent, 1, -1);
                    run_queue_push(qoff, &toff, off);
                }
            }
        } else {
            int p = qoff[hoff++];
            int n = off_to_on(g, &save, r, POT(p), 1, 1, facts);
            if (m->dynamic) drop(g, PCELL(POT(p)), PVAL(POT(p)));
            for (int i = 0; i < n; i++) {
                int on = facts[i].node;
                facts[i].parents[0] = p;
                if (r->in[on & ~1]) {
                    run_temp(r, on, facts[i].cause, facts[i].parents, facts[i].np);
                    *ab_on = TEMP;
                    *ab_off = on & ~1;
                    found = 1;
                    goto done;
                }
                if (!r->in[on]) {
                    run_add(r, on, facts[i].cause, facts[i].parents, facts[i].np, -1);
                    run_queue_push(qon, &ton, on);
                }
            }
        }
        if (hon == ton && hoff == toff && m->level > 0) {
            Hints inner = {0};
            if (advanced(m, g, &save, &inner) < 0) {
                hints_free(&inner);
                halt(OVER_MEMORY); /* (its allocation has said so already) */
                break;
            }
            for (int i = 0; i < inner.n; i++) {
                Hint *h = &inner.list[i];
                if (h->npar == 0) continue;
                int parents[POTS], np = 0;
                for (int j = 0; j < h->npar; j++) {
                    int node = NODE(inner.ints[h->par_at + j], 0);
                    if (r->in[node]) parents[np++] = node;
                }
                int nest = h->complexity > 0 ? nest_new(h->complexity, h->key) : -1;
                for (int j = 0; j < h->nrem; j++) {
                    int off = NODE(inner.ints[h->rem_at + j], 0);
                    if (!r->in[off]) {
                        run_add(r, off, CAUSE_RULE, parents, np, nest);
                        run_queue_push(qoff, &toff, off);
                    }
                }
            }
            hints_free(&inner);
        }
    }
done:
    *g = save;
    return found;
}

/* SE's doForcingChains for static forcing X- and XY-chains: layer by layer from one
   assumption; the targets are the assumption's own negation. */
/* A static board's links, found once for all the static chains on it (each
   candidate's branch would find them again): what a fact on puts off (the cell's
   other values, the value's other places) and what a fact off puts on (the cell's
   last value, each house's last place), with their causes. */
typedef struct {
    int16_t mate[POTS][8], peer[POTS][20], house_on[POTS][3], cell_on[POTS];
    uint8_t nmate[POTS], npeer[POTS], peer_cause[POTS][20], nhouse[POTS], house_cause[POTS][3];
} Links;

static Links links;

static void find_links(const Grid *g) {
    Fact facts[40];
    for (int p = 0; p < POTS; p++) {
        int cell = PCELL(p), v = PVAL(p);
        links.nmate[p] = links.npeer[p] = links.nhouse[p] = 0;
        links.cell_on[p] = -1;
        if (!(g->cand[cell] & BIT(v))) continue;
        int n = on_to_off(g, p, 1, facts);
        for (int i = 0; i < n; i++) {
            if (facts[i].cause == CAUSE_CELL) {
                links.mate[p][links.nmate[p]++] = (int16_t)facts[i].node;
            } else {
                links.peer_cause[p][links.npeer[p]] = (uint8_t)facts[i].cause;
                links.peer[p][links.npeer[p]++] = (int16_t)facts[i].node;
            }
        }
        n = off_to_on(g, g, NULL, p, 1, 1, facts);
        for (int i = 0; i < n; i++) {
            if (facts[i].cause == CAUSE_CELL) {
                links.cell_on[p] = (int16_t)facts[i].node;
            } else {
                links.house_cause[p][links.nhouse[p]] = (uint8_t)facts[i].cause;
                links.house_on[p][links.nhouse[p]++] = (int16_t)facts[i].node;
            }
        }
    }
}

/* on_to_off and off_to_on over the links found: Y-links (the cell's) first, as SE
   lists them.  off_to_on's cell link comes first too, and a house link to the same
   node is dropped. */
static int linked_offs(int p, int ylinks, Fact *out) {
    int n = 0;
    spend.work++;
    if (ylinks)
        for (int i = 0; i < links.nmate[p]; i++) {
            out[n].node = links.mate[p][i];
            out[n++].cause = CAUSE_CELL;
        }
    for (int i = 0; i < links.npeer[p]; i++) {
        out[n].node = links.peer[p][i];
        out[n++].cause = links.peer_cause[p][i];
    }
    return n;
}

static int linked_ons(int p, int ylinks, int xlinks, Fact *out) {
    int n = 0;
    spend.work++;
    if (ylinks && links.cell_on[p] >= 0) {
        out[n].node = links.cell_on[p];
        out[n++].cause = CAUSE_CELL;
    }
    if (xlinks)
        for (int i = 0; i < links.nhouse[p]; i++) {
            if (n && out[0].node == links.house_on[p][i]) continue;
            out[n].node = links.house_on[p][i];
            out[n++].cause = links.house_cause[p][i];
        }
    return n;
}

static int forcing_chain(Run *r, int source, int ylinks, int *target) {
    int qon[NODES + 8], qoff[NODES + 8], hon = 0, ton = 0, hoff = 0, toff = 0;
    Fact facts[40];
    *target = -1;
    if (ISON(source))
        qon[ton++] = source;
    else
        qoff[toff++] = source;
    while (hon < ton || hoff < toff) {
        if (must_stop()) return 0;
        while (hon < ton) {
            int p = qon[hon++];
            int n = linked_offs(POT(p), ylinks, facts);
            for (int i = 0; i < n; i++) {
                int off = facts[i].node;
                if (r->in[off]) continue;
                run_add(r, off, facts[i].cause, &p, 1, -1);
                qoff[toff++] = off;
                if ((off | 1) == source && *target < 0) *target = off;
            }
        }
        while (hoff < toff) {
            int p = qoff[hoff++];
            int n = linked_ons(POT(p), ylinks, 1, facts);
            for (int i = 0; i < n; i++) {
                int on = facts[i].node;
                if (r->in[on]) continue;
                run_add(r, on, facts[i].cause, &p, 1, -1);
                qon[ton++] = on;
                if ((on & ~1) == source && *target < 0) *target = on;
            }
        }
        if (*target >= 0) return 1; /* no shorter one can follow: the layers only grow */
    }
    return 0;
}

/* SE's doCycles: from a candidate assumed on, layer by layer, never stepping back
   to a fact of the branch's own chain; a cycle is a branch that comes back to the
   candidate after four links or more.  Facts "off" may be reached by several
   branches, each kept (an object each, as SE's are). */
#define CYCLE_OBJECTS 65536

typedef struct {
    int node, parent, cause; /* parent: an object, -1 at the root */
} Object;

static Object objects[CYCLE_OBJECTS];

/* Each "on" object's ancestors, as a set of nodes (an on node has one object):
   whether a fact is on a branch's own chain is one test. */
#define WORDS ((NODES + 63) / 64)
static uint64_t above[NODES][WORDS];

static int descends(int object, int node) {
    return (int)(above[objects[object].node][node >> 6] >> (node & 63) & 1);
}

static void descend(int on_object) {
    int off = objects[on_object].parent, from = objects[off].parent;
    uint64_t *set = above[objects[on_object].node];
    memcpy(set, above[objects[from].node], sizeof(above[0]));
    set[objects[off].node >> 6] |= 1ULL << (objects[off].node & 63);
    set[objects[from].node >> 6] |= 1ULL << (objects[from].node & 63);
}

/* The hint a cycle gives: the candidates that see both a fact on and a fact off of
   the same value along it (outside its cells). */
static int cycle_hint(const Grid *g, int end, int base, int sortkey, Sink *sink) {
    uint8_t in_chain[CELLS] = {0};
    uint8_t forward[POTS] = {0}, backward[POTS] = {0};
    int rem[POTS], nrem = 0;
    for (int o = end; objects[o].parent >= 0; o = objects[o].parent) in_chain[PCELL(POT(objects[o].node))] = 1;
    for (int o = end; objects[o].parent >= 0; o = objects[o].parent) {
        int p = POT(objects[o].node), cell = PCELL(p), v = PVAL(p);
        for (int k = 0; k < 3; k++) {
            int h = HOUSE_OF[cell][k];
            for (int i = 0; i < 9; i++) {
                int c = HOUSE[k][h][i];
                if (c == cell || in_chain[c] || !(g->cand[c] & BIT(v))) continue;
                if (ISON(objects[o].node))
                    forward[c * 9 + v] = 1;
                else
                    backward[c * 9 + v] = 1;
            }
        }
    }
    for (int q = 0; q < POTS; q++)
        if (forward[q] && backward[q]) rem[nrem++] = q;
    if (!nrem) return 0;
    /* the chain as a run: each object's node once, its premise the next */
    Run *r = run_new();
    if (!r) return -1;
    for (int o = end; o >= 0; o = objects[o].parent) {
        int node = objects[o].node, parent = objects[o].parent;
        if (r->in[node]) continue;
        int premise = parent >= 0 ? objects[parent].node : 0;
        run_add(r, node, objects[o].cause, &premise, parent >= 0, -1);
    }
    Target ends[1] = {{r, objects[end].node}};
    int status = emit(sink, ends, 1, rem, nrem, sortkey, base, CAUSE_NONE);
    emit_rank++;
    /* SE's cycle hint has two ends, the cycle and its reverse: the reverse's
       premises are those of the facts off, read as on */
    if (status == 0 && sink->all && sink->hints->n) {
        Hints *h = sink->hints;
        Hint *hint = &h->list[h->n - 1];
        uint8_t marked[POTS];
        int npar = 0, *out;
        if (hints_ints(h, POTS) < 0) {
            run_free(r);
            return -1;
        }
        hint = &h->list[h->n - 1];
        memset(marked, 0, sizeof(marked));
        for (int i = 0; i < hint->npar; i++) marked[h->ints[hint->par_at + i]] = 1;
        out = h->ints + h->nints;
        rule_parents(r, objects[end].node, CAUSE_NONE, sink->initial, sink->current, marked, out,
                     &npar, 1);
        hint->npar += npar;
        h->nints += npar;
    }
    run_free(r);
    return status;
}

static int cycles_from(const Grid *g, int source, int ylinks, int xlinks, int base, int sortkey,
                       Sink *sink) {
    /* an "off" fact's links are those of the board alone: each is followed once, and
       a second branch to it matters only where it closes the cycle */
    uint8_t on_in[NODES] = {0}, followed[NODES] = {0}, closes[NODES] = {0};
    int pending_on[NODES], non = 0, nobjects = 0, length = 0;
    static int pending_off[CYCLE_OBJECTS];
    Fact facts[40];
    objects[nobjects++] = (Object){source, -1, CAUSE_NONE};
    memset(above[source], 0, sizeof(above[0]));
    on_in[source] = 1;
    pending_on[non++] = 0;
    int noff = 0;
    while (non || noff) {
        if (must_stop()) return 0;
        length++;
        noff = 0;
        for (int i = 0; i < non; i++) {
            int o = pending_on[i];
            int n = linked_offs(POT(objects[o].node), ylinks, facts);
            for (int j = 0; j < n; j++) {
                int node = facts[j].node;
                if (followed[node] && !closes[node]) continue;
                if (descends(o, node)) continue;
                if (nobjects == CYCLE_OBJECTS) return 0;
                objects[nobjects] = (Object){facts[j].node, o, facts[j].cause};
                pending_off[noff++] = nobjects++;
            }
        }
        length++;
        non = 0;
        for (int i = 0; i < noff; i++) {
            int o = pending_off[i], off = objects[o].node;
            if (followed[off]) {
                if (closes[off] && length >= 4) {
                    if (nobjects == CYCLE_OBJECTS) return 0;
                    objects[nobjects] = (Object){source, o, closes[off] - 1};
                    if (cycle_hint(g, nobjects, base, sortkey, sink) < 0) return -1;
                    nobjects++;
                }
                continue;
            }
            followed[off] = 1;
            int n = linked_ons(POT(off), ylinks, xlinks, facts);
            for (int j = 0; j < n; j++) {
                int node = facts[j].node;
                if (nobjects == CYCLE_OBJECTS) return 0;
                if (node == source) closes[off] = (uint8_t)(facts[j].cause + 1);
                if (length >= 4 && node == source) {
                    objects[nobjects] = (Object){node, o, facts[j].cause};
                    if (cycle_hint(g, nobjects, base, sortkey, sink) < 0) return -1;
                    nobjects++;
                }
                if (!on_in[node]) {
                    on_in[node] = 1;
                    objects[nobjects] = (Object){node, o, facts[j].cause};
                    descend(nobjects);
                    pending_on[non++] = nobjects++;
                }
            }
        }
    }
    return 0;
}

/* SE's static "forcing chains and cycles": X-, Y- and XY-cycles (6.5, 6.5, 7.0),
   X-chains (6.6) and XY-chains (7.0), each chain the shortest from one candidate
   to its own negation. */
/* SE lists a board's X, Y and XY passes in turn, and in each, cell by cell and
   value by value, a candidate's cycles, then its chains from it on and off. */
static int rank_of(int pass, int p, int sub) { return (pass * POTS + p) * 4096 + sub; }

static int loops(const Grid *g, Sink *sink) {
    static const int passes[3][4] = {{0, 1, 65, 2}, {1, 0, 65, 3}, {1, 1, 70, 4}}; /* y, x, ER, kind */
    int status = 0;
    find_links(g);
    for (int pass = 0; pass < 3 && !status; pass++)
        for (int cell = 0; cell < CELLS && !status; cell++) {
            int card = POP[g->cand[cell]];
            if (g->value[cell] || card < 2 || (card > 2 && !passes[pass][1])) continue;
            for (int v = 0; v < 9 && !status; v++) {
                if (!(g->cand[cell] & BIT(v))) continue;
                emit_rank = rank_of(pass, cell * 9 + v, 0);
                status = cycles_from(g, NODE(cell * 9 + v, 1), passes[pass][0], passes[pass][1],
                                     passes[pass][2], passes[pass][3], sink);
                if (spend.over) break;
            }
        }
    if (!status && !spend.over) status = forcing_chains(g, sink);
    emit_rank = -1;
    return status;
}

static int forcing_chains(const Grid *g, Sink *sink) {
    for (int cell = 0; cell < CELLS; cell++) {
        if (g->value[cell] || POP[g->cand[cell]] < 2) continue;
        for (int v = 0; v < 9; v++) {
            if (!(g->cand[cell] & BIT(v))) continue;
            for (int on = 1; on >= 0; on--) {
                /* an X-chain's links are among an XY-chain's: where the XY search finds
                   nothing, the X search would not either */
                Run *xy = run_new(), *x = NULL;
                int source = NODE(cell * 9 + v, on), target, xtarget, rem[9], status = 0;
                if (!xy) return -1;
                run_add(xy, source, CAUSE_NONE, NULL, 0, -1);
                if (forcing_chain(xy, source, 1, &target)) {
                    int nrem = target_removals(g, target, rem);
                    Target end = {xy, target};
                    x = run_new();
                    if (!x) status = -1;
                    if (x) {
                        run_add(x, source, CAUSE_NONE, NULL, 0, -1);
                        if (forcing_chain(x, source, 0, &xtarget)) {
                            Target xend = {x, xtarget};
                            emit_rank = rank_of(0, cell * 9 + v, 4001 - on);
                            status = emit(sink, &xend, 1, rem, nrem, 2, 66, CAUSE_NONE);
                        }
                    }
                    emit_rank = rank_of(2, cell * 9 + v, 4001 - on);
                    if (status == 0)
                        status = emit(sink, &end, 1, rem, nrem, 4, 70, CAUSE_NONE);
                }
                run_free(xy);
                run_free(x);
                if (status < 0) return -1;
                if (spend.over) return 0;
            }
        }
    }
    return 0;
}

/* SE's multiple and dynamic forcing chains on one cell: each value's branch on and
   off (contradictions, double implications), the regions the value shares with
   the cell, then the cell's own forcing. */
static int multiple_cell(const Mode *m, Grid *g, int cell, Sink *sink) {
    Run *on_runs[9] = {0};
    int card = POP[g->cand[cell]], status = 0, rem[POTS], nrem;
    int base = m->base;
    for (int v = 0; v < 9 && !spend.over; v++) {
        if (!(g->cand[cell] & BIT(v))) continue;
        int p = cell * 9 + v, ab_on, ab_off;
        Run *on = run_new(), *off = NULL;
        if (!on) goto fail;
        on_runs[v] = on;
        run_add(on, NODE(p, 1), CAUSE_NONE, NULL, 0, -1);
        if (chain(m, g, on, &ab_on, &ab_off) && m->dynamic) {
            Target ends[2] = {{on, ab_on}, {on, ab_off}};
            rem[0] = p;
            if (emit(sink, ends, 2, rem, 1, 7, base, CAUSE_NONE) < 0) goto fail;
        }
        int doubles = card >= 3 && m->dynamic;
        if (m->dynamic || doubles) {
            off = run_new();
            if (!off) goto fail;
            run_add(off, NODE(p, 0), CAUSE_NONE, NULL, 0, -1);
            if (chain(m, g, off, &ab_on, &ab_off)) {
                Target ends[2] = {{off, ab_on}, {off, ab_off}};
                nrem = target_removals(g, NODE(p, 1), rem);
                if (emit(sink, ends, 2, rem, nrem, 7, base, CAUSE_NONE) < 0) goto fail;
            }
            if (doubles)
                for (int i = 0; i < on->n; i++) {
                    int node = on->order[i];
                    if (!off->in[node]) continue;
                    Target ends[2] = {{on, node}, {off, node}};
                    nrem = target_removals(g, node, rem);
                    if (emit(sink, ends, 2, rem, nrem, 1, base, CAUSE_NONE) < 0) goto fail;
                }
            run_free(off);
        }
        /* the regions where this cell is the value's first place */
        for (int k = 0; k < 3 && !spend.over; k++) {
            int h = HOUSE_OF[cell][k], places[9], np = 0;
            for (int i = 0; i < 9; i++)
                if (g->cand[HOUSE[k][h][i]] & BIT(v)) places[np++] = HOUSE[k][h][i];
            if (!(np == 2 || (m->multiple && np > 2)) || places[0] != cell) continue;
            Run *others[9] = {0};
            others[0] = on;
            for (int i = 1; i < np && !spend.over; i++) {
                others[i] = run_new();
                if (!others[i]) goto fail;
                run_add(others[i], NODE(places[i] * 9 + v, 1), CAUSE_NONE, NULL, 0, -1);
                chain(m, g, others[i], &ab_on, &ab_off);
            }
            if (!spend.over)
                for (int i = 0; i < on->n; i++) {
                    int node = on->order[i], everywhere = 1;
                    for (int j = 1; j < np; j++) everywhere &= others[j]->in[node];
                    if (!everywhere) continue;
                    Target ends[9];
                    for (int j = 0; j < np; j++) ends[j] = (Target){others[j], node};
                    nrem = target_removals(g, node, rem);
                    if (emit(sink, ends, np, rem, nrem, 6, base, CAUSE_BLOCK + k) < 0) {
                        for (int j = 1; j < np; j++) run_free(others[j]);
                        goto fail;
                    }
                }
            for (int j = 1; j < np; j++) run_free(others[j]);
        }
    }
    if (!spend.over && (card == 2 || (m->multiple && card > 2))) {
        int firstv = __builtin_ctz(g->cand[cell]);
        Run *first = on_runs[firstv];
        for (int i = 0; i < first->n; i++) {
            int node = first->order[i], everywhere = 1;
            for (int v = 0; v < 9; v++)
                if (on_runs[v]) everywhere &= on_runs[v]->in[node];
            if (!everywhere) continue;
            Target ends[9];
            int ne = 0;
            for (int v = 0; v < 9; v++)
                if (on_runs[v]) ends[ne++] = (Target){on_runs[v], node};
            nrem = target_removals(g, node, rem);
            if (emit(sink, ends, ne, rem, nrem, 5, base, CAUSE_CELL) < 0) goto fail;
        }
    }
    goto out;
fail:
    status = -1;
out:
    for (int v = 0; v < 9; v++) run_free(on_runs[v]);
    return status;
}

static int multiple(const Mode *m, Grid *g, Sink *sink) {
    for (int cell = 0; cell < CELLS && !spend.over; cell++) {
        int card = POP[g->cand[cell]];
        if (g->value[cell] || !(card > 2 || (card > 1 && m->dynamic))) continue;
        if (multiple_cell(m, g, cell, sink) < 0) return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- the basic rules */

static int empty_cells(const Grid *g, int k, int h) {
    int n = 0;
    for (int i = 0; i < 9; i++) n += !g->value[HOUSE[k][h][i]];
    return n;
}

static int places_of(const Grid *g, int k, int h, int v) { return g->where[k][h][v]; }

static int placed_count(const Grid *g, int v) {
    int n = 0;
    for (int c = 0; c < CELLS; c++) n += g->value[c] == v + 1;
    return n;
}

/* A rule's hint: its removals and premises in out (a NULL initial: no premises). */
static int rule_hint(Hints *out, const int *rem, int nrem, const int *par, int npar, int tenths) {
    if (nrem == 0) return 0;
    Hint *h = hints_add(out);
    if (!h || hints_ints(out, nrem + npar) < 0) return -1;
    h->tenths = tenths;
    h->rem_at = out->nints;
    h->nrem = nrem;
    for (int i = 0; i < nrem; i++) out->ints[out->nints++] = rem[i];
    h->par_at = out->nints;
    h->npar = npar;
    for (int i = 0; i < npar; i++) out->ints[out->nints++] = par[i];
    return 0;
}

static int locking(const Grid *g, const Grid *initial, Hints *out) {
    static const int pairs[4][2] = {{BLOCK, COL}, {BLOCK, ROW}, {COL, BLOCK}, {ROW, BLOCK}};
    for (int t = 0; t < 4; t++) {
        int k1 = pairs[t][0], k2 = pairs[t][1];
        for (int i1 = 0; i1 < 9; i1++)
            for (int i2 = 0; i2 < 9; i2++) {
                if (!CROSS[k1][i1][k2][i2]) continue;
                for (int v = 0; v < 9; v++) {
                    int places = places_of(g, k1, i1, v);
                    if (POP[places] < 2 || (places & ~INSIDE[k1][i1][k2][i2])) continue;
                    unsigned outside = g->where[k2][i2][v] & ~INSIDE[k2][i2][k1][i1];
                    if (!outside) continue;
                    int rem[9], nrem = 0, par[9], npar = 0;
                    for (; outside; outside &= outside - 1)
                        rem[nrem++] = HOUSE[k2][i2][__builtin_ctz(outside)] * 9 + v;
                    if (initial)
                        for (int i = 0; i < 9; i++) {
                            int c = HOUSE[k1][i1][i];
                            if ((initial->cand[c] & BIT(v)) && !(g->cand[c] & BIT(v)) &&
                                !in_house(c, k2, i2))
                                par[npar++] = c * 9 + v;
                        }
                    if (rule_hint(out, rem, nrem, par, npar, k1 == BLOCK ? 26 : 28) < 0) return -1;
                }
            }
    }
    return 0;
}

static const int SUBSET_KINDS[3] = {BLOCK, COL, ROW};

/* Hidden subsets of a degree: the degree's values with the same degree places. */
static int hidden_sets(const Grid *g, const Grid *initial, int degree, int tenths, Hints *out) {
    for (int t = 0; t < 3; t++) {
        int k = SUBSET_KINDS[t];
        for (int h = 0; h < 9; h++) {
            if (empty_cells(g, k, h) <= degree * 2) continue;
            int places[9], eligible = 0;
            for (int v = 0; v < 9; v++) {
                places[v] = places_of(g, k, h, v);
                if (places[v] && POP[places[v]] <= degree) eligible |= 1 << v;
            }
            if (POP[eligible] < degree) continue;
            for (int ci = 0; ci < NCOMBOS[degree]; ci++) {
                int values = COMBOS[degree][ci];
                if (values & ~eligible) continue;
                int all = 0, empty = 0;
                for (int v = 0; v < 9; v++)
                    if (values >> v & 1) {
                        empty |= !places[v];
                        all |= places[v];
                    }
                if (empty || POP[all] != degree) continue;
                int rem[POTS], nrem = 0, par[POTS], npar = 0;
                for (int i = 0; i < 9; i++) {
                    int c = HOUSE[k][h][i];
                    if (all >> i & 1) {
                        for (int w = 0; w < 9; w++)
                            if (!(values >> w & 1) && (g->cand[c] & BIT(w))) rem[nrem++] = c * 9 + w;
                    } else if (initial) {
                        for (int w = 0; w < 9; w++)
                            if ((values >> w & 1) && (initial->cand[c] & BIT(w)))
                                par[npar++] = c * 9 + w;
                    }
                }
                if (rule_hint(out, rem, nrem, par, npar, tenths) < 0) return -1;
            }
        }
    }
    return 0;
}

/* Naked subsets: the degree's cells holding the degree's values between them. */
static int naked_sets(const Grid *g, const Grid *initial, int degree, int tenths, Hints *out) {
    for (int t = 0; t < 3; t++) {
        int k = SUBSET_KINDS[t];
        for (int h = 0; h < 9; h++) {
            if (empty_cells(g, k, h) < degree * 2) continue;
            int eligible = 0;
            for (int i = 0; i < 9; i++) {
                int c = HOUSE[k][h][i];
                if (g->cand[c] && POP[g->cand[c]] <= degree) eligible |= 1 << i;
            }
            if (POP[eligible] < degree) continue;
            for (int ci = 0; ci < NCOMBOS[degree]; ci++) {
                int cells = COMBOS[degree][ci];
                if (cells & ~eligible) continue;
                int all = 0, empty = 0;
                for (int i = 0; i < 9; i++)
                    if (cells >> i & 1) {
                        int c = HOUSE[k][h][i];
                        empty |= !g->cand[c];
                        all |= g->cand[c];
                    }
                if (empty || POP[all] != degree) continue;
                int rem[POTS], nrem = 0, par[POTS], npar = 0;
                for (int i = 0; i < 9; i++) {
                    int c = HOUSE[k][h][i];
                    if (!(cells >> i & 1)) {
                        for (int w = 0; w < 9; w++)
                            if ((all >> w & 1) && (g->cand[c] & BIT(w))) rem[nrem++] = c * 9 + w;
                    } else if (initial) {
                        for (int w = 0; w < 9; w++)
                            if (!(all >> w & 1) && (initial->cand[c] & BIT(w)))
                                par[npar++] = c * 9 + w;
                    }
                }
                if (rule_hint(out, rem, nrem, par, npar, tenths) < 0) return -1;
            }
        }
    }
    return 0;
}

/* Fish of a degree: a value's places in the degree's base lines lie in as many
   cover lines. */
static int fish(const Grid *g, const Grid *initial, int degree, int tenths, Hints *out) {
    static const int kinds[2][2] = {{COL, ROW}, {ROW, COL}};
    int placed[9];
    for (int v = 0; v < 9; v++) placed[v] = placed_count(g, v);
    for (int t = 0; t < 2; t++) {
        int base = kinds[t][0], cover = kinds[t][1];
        int eligible[9] = {0};
        for (int v = 0; v < 9; v++)
            for (int i = 0; i < 9; i++) {
                int places = places_of(g, base, i, v);
                if (places && POP[places] <= degree) eligible[v] |= 1 << i;
            }
        for (int ci = 0; ci < NCOMBOS[degree]; ci++) {
            int lines = COMBOS[degree][ci];
            for (int v = 0; v < 9; v++) {
                if (placed[v] + degree * 2 > 9 || (lines & ~eligible[v])) continue;
                int all = 0, empty = 0;
                for (int i = 0; i < 9; i++)
                    if (lines >> i & 1) {
                        int places = places_of(g, base, i, v);
                        empty |= !places;
                        all |= places;
                    }
                if (empty || POP[all] != degree) continue;
                int rem[POTS], nrem = 0, par[POTS], npar = 0;
                for (int j = 0; j < 9; j++) {
                    if (!(all >> j & 1)) continue;
                    for (int i = 0; i < 9; i++) {
                        int c = HOUSE[cover][j][i];
                        if (!(lines >> i & 1) && (g->cand[c] & BIT(v))) rem[nrem++] = c * 9 + v;
                    }
                }
                if (initial)
                    for (int i = 0; i < 9; i++) {
                        if (!(lines >> i & 1)) continue;
                        for (int j = 0; j < 9; j++) {
                            int c = HOUSE[base][i][j];
                            if ((initial->cand[c] & BIT(v)) && !(g->cand[c] & BIT(v)) &&
                                !(all >> j & 1))
                                par[npar++] = c * 9 + v;
                        }
                    }
                if (rule_hint(out, rem, nrem, par, npar, tenths) < 0) return -1;
            }
        }
    }
    return 0;
}

/* A search of SE's chains on g, its hints into sink. */
static int chains(const Mode *m, Grid *g, Sink *sink) {
    if (!m->multiple && !m->dynamic) return loops(g, sink);
    return multiple(m, g, sink);
}

static Mode mode_of(int multiple, int dynamic, int level) {
    Mode m = {multiple, dynamic, level, 0};
    if (level >= 2)
        m.base = 95 + 5 * (level - 2);
    else if (level > 0)
        m.base = 85 + 5 * level;
    else if (dynamic)
        m.base = 85;
    else
        m.base = 80;
    return m;
}

/* SE's getAdvancedPotentials: the first inner rule with a hint that needs the
   branch (a premise among its removals so far). */
static int has_premises(const Hints *h) {
    for (int i = 0; i < h->n; i++)
        if (h->list[i].npar) return 1;
    return 0;
}

/* ---------------------------------------------------------------- the stalls' cache */

/* A stall's inner hints depend only on the branch's start, its board now and the
   level; different branches stall on the same boards (two in three of AI
   Escargot's stalls), so the answers are kept (direct-mapped, bounded). */
#define KEPT 65536
#define KEPT_BYTES (256LL << 20)

typedef struct {
    uint64_t start, now;
    int level, used;
    Hints hints;
} Kept;

static Kept *kept;
static long long kept_bytes;

static uint64_t grid_hash(const Grid *g) {
    uint64_t h = 0x243f6a8885a308d3ULL;
    for (int c = 0; c < CELLS; c++) h = mix(h ^ g->cand[c] ^ ((uint64_t)c << 16));
    return h;
}

static void kept_clear(void) {
    if (!kept) return;
    for (int i = 0; i < KEPT; i++) hints_free(&kept[i].hints);
    memset(kept, 0, sizeof(Kept) * KEPT);
    kept_bytes = 0;
}

static int hints_copy(Hints *to, const Hints *from) {
    to->n = to->nints = 0;
    for (int i = 0; i < from->n; i++) {
        Hint *h = hints_add(to);
        if (!h) return -1;
        *h = from->list[i];
    }
    if (hints_ints(to, from->nints) < 0) return -1;
    memcpy(to->ints, from->ints, sizeof(int) * from->nints);
    to->nints = from->nints;
    return 0;
}

static int rules_asked(const Mode *m, Grid *g, const Grid *source, Hints *out);

static int advanced(const Mode *m, Grid *g, const Grid *source, Hints *out) {
    if (!kept && !(kept = x_calloc(KEPT, sizeof(Kept)))) return -1;
    uint64_t start = grid_hash(source), now = grid_hash(g);
    Kept *slot = &kept[(start ^ now ^ (uint64_t)m->level * 0x9e3779b97f4a7c15ULL) % KEPT];
    if (slot->used && slot->start == start && slot->now == now && slot->level == m->level)
        return hints_copy(out, &slot->hints);
    if (rules_asked(m, g, source, out) < 0) return -1;
    if (spend.over) return 0;
    long long bytes = (long long)out->n * sizeof(Hint) + (long long)out->nints * sizeof(int);
    if (kept_bytes + bytes > KEPT_BYTES) kept_clear();
    kept_bytes -= (long long)slot->hints.cap * sizeof(Hint) + (long long)slot->hints.icap * sizeof(int);
    if (hints_copy(&slot->hints, out) < 0) return -1;
    kept_bytes += (long long)slot->hints.cap * sizeof(Hint) + (long long)slot->hints.icap * sizeof(int);
    slot->start = start;
    slot->now = now;
    slot->level = m->level;
    slot->used = 1;
    return 0;
}

static int rules_asked(const Mode *m, Grid *g, const Grid *source, Hints *out) {
    if (locking(g, source, out) < 0) return -1;
    if (has_premises(out)) return 0;
    out->n = out->nints = 0;
    if (hidden_sets(g, source, 2, 34, out) < 0) return -1;
    if (has_premises(out)) return 0;
    out->n = out->nints = 0;
    if (naked_sets(g, source, 2, 30, out) < 0) return -1;
    if (has_premises(out)) return 0;
    out->n = out->nints = 0;
    if (fish(g, source, 2, 32, out) < 0) return -1;
    if (has_premises(out)) return 0;
    out->n = out->nints = 0;
    Mode inner[2];
    int ninner = 0;
    if (m->level < 4) {
        if (m->level >= 2) inner[ninner++] = mode_of(0, 0, 0);
        if (m->level >= 3) inner[ninner++] = mode_of(1, 0, 0);
    } else {
        inner[ninner++] = mode_of(1, 1, 0);
        if (m->level >= 5) inner[ninner++] = mode_of(1, 1, m->level - 3);
    }
    for (int i = 0; i < ninner; i++) {
        Sink sink = {0};
        sink.all = 1;
        sink.hints = out;
        sink.initial = source;
        sink.current = g;
        if (chains(&inner[i], g, &sink) < 0) return -1;
        if (spend.over) return 0;
        qsort(out->list, out->n, sizeof(Hint), hint_cmp);
        if (has_premises(out)) return 0;
        out->n = out->nints = 0;
    }
    return 0;
}

/* ---------------------------------------------------------------- the rating loop */

static void place(Grid *g, int cell, int v) {
    g->value[cell] = (uint8_t)(v + 1);
    for (int w = 0; w < 9; w++)
        if (g->cand[cell] >> w & 1) drop(g, cell, w);
    for (int k = 0; k < 3; k++) {
        int h = HOUSE_OF[cell][k];
        for (int i = 0; i < 9; i++)
            if (g->cand[HOUSE[k][h][i]] & BIT(v)) drop(g, HOUSE[k][h][i], v);
    }
}

/* Singles to a fixpoint: how many were placed; -1: a cell or a house has nothing
   left (no solution). */
static int singles(Grid *g) {
    int changed = 1, placed = 0;
    while (changed) {
        changed = 0;
        for (int c = 0; c < CELLS; c++) {
            if (g->value[c]) continue;
            if (!g->cand[c]) return -1;
            if (POP[g->cand[c]] == 1) {
                place(g, c, __builtin_ctz(g->cand[c]));
                changed = 1;
                placed++;
            }
        }
        for (int k = 0; k < 3; k++)
            for (int h = 0; h < 9; h++)
                for (int v = 0; v < 9; v++) {
                    int places = places_of(g, k, h, v), there = 0;
                    for (int i = 0; i < 9; i++) there |= g->value[HOUSE[k][h][i]] == v + 1;
                    if (there) continue;
                    if (!places) return -1;
                    if (POP[places] == 1) {
                        place(g, HOUSE[k][h][__builtin_ctz(places)], v);
                        changed = 1;
                        placed++;
                    }
                }
    }
    return placed;
}

static int solved(const Grid *g) {
    for (int c = 0; c < CELLS; c++)
        if (!g->value[c]) return 0;
    return 1;
}

static int apply_all(Grid *g, const Hints *h) {
    int removed = 0;
    for (int i = 0; i < h->n; i++)
        for (int j = 0; j < h->list[i].nrem; j++) {
            int p = h->ints[h->list[i].rem_at + j];
            if (g->cand[PCELL(p)] & BIT(PVAL(p))) {
                drop(g, PCELL(p), PVAL(p));
                removed++;
            }
        }
    return removed;
}

/* One step of the loop below dynamic forcing chains' nesting: the first basic rule
   with a removal, all its removals at once (the board SE meets at the top is the
   fixpoint of these). The weight taken, in tenths; 0: none. */
static int basic_step(Grid *g) {
    typedef int (*Rule)(const Grid *, const Grid *, int, int, Hints *);
    static const struct {
        Rule rule;
        int degree, tenths;
    } rules[] = {{naked_sets, 2, 30}, {fish, 2, 32},        {hidden_sets, 2, 34},
                 {naked_sets, 3, 36}, {fish, 3, 38},        {hidden_sets, 3, 40},
                 {naked_sets, 4, 50}, {fish, 4, 52},        {hidden_sets, 4, 54}};
    Hints h = {0};
    int weight = 0;
    if (locking(g, NULL, &h) == 0 && h.n) weight = h.list[0].tenths;
    for (int i = 0; !weight && i < (int)(sizeof(rules) / sizeof(rules[0])); i++) {
        h.n = h.nints = 0;
        if (rules[i].rule(g, NULL, rules[i].degree, rules[i].tenths, &h) == 0 && h.n)
            weight = rules[i].tenths;
    }
    if (weight) {
        h.n = 1; /* SE takes the first hint found */
        apply_all(g, &h);
    }
    hints_free(&h);
    return weight;
}

/* One step of chains: the easiest hint of the first producer (SE's order) that
   has one, applied alone (a board's hints are not all found again on the board
   the easiest leaves: a branch that breaks sooner proves less).  Returns its ER
   in tenths, 0: none, -1: error or past the budget. */
static int chain_step(Grid *g, int top_level) {
    static const int producers[][3] = {
        /* multiple, dynamic, level */
        {0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {1, 1, 1}, {1, 1, 2}, {1, 1, 3}, {1, 1, 4}, {1, 1, 5}};
    for (int i = 0; i < 8; i++) {
        if (producers[i][2] > top_level) break;
        Mode m = mode_of(producers[i][0], producers[i][1], producers[i][2]);
        Sink sink = {0};
        sink.initial = g;
        sink.current = g;
        nnests = 0;
        if (chains(&m, g, &sink) < 0 || spend.over) return -1;
        if (sink.best_nrem) {
            for (int j = 0; j < sink.best_nrem; j++) {
                int p = sink.best_rem[j];
                drop(g, PCELL(p), PVAL(p));
            }
            return sink.best_tenths;
        }
    }
    return 0;
}

typedef struct {
    int er, ep, ed; /* in tenths; EP, ED 0: a single came first (the search does not
                       weigh singles as SE does) */
} Rated;

/* Whether the board still holds the solution (each step is checked, as the path's
   are: a removal of a true candidate would be a bug). */
static int holds(const Grid *g, const uint8_t *solution) {
    if (!solution) return 1;
    for (int c = 0; c < CELLS; c++)
        if (g->value[c] ? g->value[c] != solution[c] : !(g->cand[c] & BIT(solution[c] - 1))) return 0;
    return 1;
}

#define UNSOUND -2

/* ER, EP and ED of a classic 9x9 (81 values, 0 open) by SE's search; ER -1: not
   rated (no solution, past the budget, or past level 5), UNSOUND: a step removed
   a value of ``solution`` (when given). */
static Rated rate(const uint8_t *givens, const uint8_t *solution, int top_level) {
    Rated rated = {-1, 0, 0};
    Grid g;
    memset(&g, 0, sizeof(g));
    for (int c = 0; c < CELLS; c++) g.cand[c] = 0x1ff;
    refresh(&g);
    for (int c = 0; c < CELLS; c++)
        if (givens[c]) {
            if (!(g.cand[c] & BIT(givens[c] - 1))) return rated;
            place(&g, c, givens[c] - 1);
        }
    int heaviest = 0, steps = 0, placing = 1;
    while (1) {
        int placed = singles(&g);
        if (placed < 0) return rated;
        if (placed && placing) {
            placing = 0;
            rated.ep = steps ? heaviest : 0;
        }
        if (solved(&g)) {
            rated.er = holds(&g, solution) ? heaviest : UNSOUND;
            return rated;
        }
        int weight = basic_step(&g);
        if (!weight) weight = chain_step(&g, top_level);
        if (weight <= 0) return rated;
        if (!holds(&g, solution)) {
            rated.er = UNSOUND;
            return rated;
        }
        if (!steps++ && placing) rated.ed = weight;
        if (weight > heaviest) heaviest = weight;
    }
}

/* ---------------------------------------------------------------- Python */

/* The values of ``buffer``: 81 bytes, each from ``low`` to 9; 0 and a ValueError
   (set) for anything else. */
static int values_of(Py_buffer *buffer, int low, uint8_t *out, const char *what) {
    if (buffer->len != CELLS) {
        PyErr_Format(PyExc_ValueError, "%s: a classic 9x9: 81 values", what);
        return 0;
    }
    const uint8_t *at = buffer->buf;
    for (int c = 0; c < CELLS; c++)
        if (at[c] < low || at[c] > 9) {
            PyErr_Format(PyExc_ValueError, "%s: cell %d holds %d, not %d to 9", what, c, at[c], low);
            return 0;
        }
    memcpy(out, at, CELLS);
    return 1;
}

static PyObject *py_rate(PyObject *self, PyObject *args) {
    Py_buffer givens = {0}, truth = {0};
    long long budget = 0;
    int top_level = 5;
    double deadline = 0;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*|Liz*d", &givens, &budget, &top_level, &truth, &deadline))
        return NULL;
    uint8_t values[CELLS], solution[CELLS];
    int known = truth.buf != NULL;
    int read = values_of(&givens, 0, values, "givens") &&
               (!known || values_of(&truth, 1, solution, "solution"));
    PyBuffer_Release(&givens);
    if (known) PyBuffer_Release(&truth);
    if (!read) return NULL;
    if (budget < 0 || top_level < 0 || top_level > 5 || deadline < 0 || deadline != deadline) {
        PyErr_SetString(PyExc_ValueError,
                        "rate: a budget of 0 or more, a top level of 0 to 5, a deadline of 0 or more");
        return NULL;
    }
    /* the GIL is kept: the search's scratch (runs, inner chains, the budget) is shared */
    spend.work = 0;
    spend.budget = budget;
    spend.over = GOING;
    spend.deadline = deadline;
    spend.next_look = LOOK_EVERY;
    allocations = 0;
    Rated rated = rate(values, known ? solution : NULL, top_level);
    long long work = spend.work;
    kept_clear();
    switch (spend.over) {
    case OVER_MEMORY:
        PyErr_Clear(); /* (a signal's exception, if one came too: memory is the news) */
        return PyErr_NoMemory();
    case OVER_SIGNAL:
        return NULL; /* the signal handler's exception (KeyboardInterrupt, ...) */
    case OVER_DEADLINE:
        PyErr_Format(PyExc_TimeoutError, "SE's rating search passed its deadline after %lld link expansions", work);
        return NULL;
    }
    if (rated.er == UNSOUND) {
        PyErr_SetString(PyExc_AssertionError, "SE's search removed a value of the solution");
        return NULL;
    }
    if (rated.er < 0) return Py_BuildValue("OL", Py_None, work);
    return Py_BuildValue("(iii)L", rated.er, rated.ep, rated.ed, work);
}

/* fail_after(n): the n-th allocation of each later search fails (0: none), to
   test that every failure is a MemoryError. */
static PyObject *py_fail_after(PyObject *self, PyObject *args) {
    long long n;
    (void)self;
    if (!PyArg_ParseTuple(args, "L", &n)) return NULL;
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "fail_after: 0 or more");
        return NULL;
    }
    fail_at = n;
    Py_RETURN_NONE;
}

static PyMethodDef METHODS[] = {
    {"rate", py_rate, METH_VARARGS,
     "rate(givens: bytes of 81 values 0-9, budget=0, top_level=5, solution=None, deadline=0) -> "
     "((ER, EP, ED) in tenths or None, work). ``deadline``: time.monotonic() seconds (0: none), "
     "past it TimeoutError; a signal's handler raises inside the search; out of memory: "
     "MemoryError; AssertionError: a step removed a value of the solution"},
    {"fail_after", py_fail_after, METH_VARARGS,
     "fail_after(n): the n-th allocation of each later search fails (0: none); for tests"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT,
                                    "_explainer",
                                    "Sudoku Explainer's rating search (see explainer.py).",
                                    -1,
                                    METHODS,
                                    NULL,
                                    NULL,
                                    NULL,
                                    NULL};

PyMODINIT_FUNC PyInit__explainer(void) {
    houses();
    return PyModule_Create(&MODULE);
}
