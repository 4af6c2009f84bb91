/* The compiled reasoning engine: naked and hidden singles to a fixpoint on a
 * board's candidates, as bit masks (one 64-bit word a cell, so up to 64x64).
 *
 * The Python reference is sudosat.logic.forcing.Propagation (singles in rounds,
 * Board.singles_in, the walk a written chain traces too) and a Minicard of the
 * board's "exactly one" constraints (a branch's literals); tests/logic/
 * test_bitboard.py holds this module to both on random boards of every size.
 * The fast singles below (``singles``) answer what is the same in any order
 * (whether a branch breaks, what it sets); the walk in rounds
 * (``singles_as_python``) counts a branch's removals in its chain's order. sudosat.logic.bitboard packs a board's geometry and falls back
 * to Python when this module cannot be built or loaded.
 *
 * A geometry is an int32 buffer: n, cells, houses, K, P, then the houses
 * (houses x n cells), each cell's houses (cells x K) and peers (cells x P),
 * padded with -1.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#define MAX_CELLS 4096
#define MAX_HOUSES 1024

typedef struct {
    int n, cells, nh, K, P;
    const int32_t *houses, *cell_houses, *peers;
    PyObject *obj; /* the buffer's object: what was checked with it is kept by the pair */
} Geometry;

typedef struct {
    uint64_t masks[MAX_CELLS];
    uint8_t placed[MAX_CELLS];
    uint8_t dirty[MAX_HOUSES];
    uint8_t queued[MAX_CELLS]; /* the value a cell waits in todo with (once: todo's bound) */
    uint64_t held[MAX_HOUSES]; /* the values placed in each house */
    int32_t todo[2 * MAX_CELLS];
    int32_t trail[MAX_CELLS]; /* the cells placed since the state was copied */
    int nt, ntr;
} State;

static State state, branch;  /* one at a time: the GIL is held throughout */

static int value_of(uint64_t single) { return __builtin_ctzll(single) + 1; }

/* --- what Python hands in, checked before it indexes anything --- */

/* Buffers checked once and kept (a reference held, so no other object can take
 * the address): the geometries and meetings of a run, a few shapes, are the same
 * bytes objects call after call, and checking them each time would cost a
 * branch's work again. Only immutable bytes are kept; any other buffer is
 * checked at every call. */
#define TRUSTED 16
typedef struct {
    PyObject *held[TRUSTED][2];
    int next;
} Trusted;

static Trusted shapes, boards; /* geometries and meetings; prepared boards (many more) */

static int is_trusted(const Trusted *t, PyObject *x, PyObject *with) {
    for (int i = 0; i < TRUSTED; i++)
        if (t->held[i][0] == x && t->held[i][1] == with) return 1;
    return 0;
}

static void trust(Trusted *t, PyObject *x, PyObject *with) {
    if (!x || !PyBytes_CheckExact(x) || (with && !PyBytes_CheckExact(with))) return;
    Py_XDECREF(t->held[t->next][0]);
    Py_XDECREF(t->held[t->next][1]);
    Py_INCREF(x);
    Py_XINCREF(with);
    t->held[t->next][0] = x, t->held[t->next][1] = with;
    t->next = (t->next + 1) % TRUSTED;
}

/* Whether every one of ``count`` words lies in [low, high). */
static int all_within(const int32_t *x, Py_ssize_t count, int low, int high) {
    for (Py_ssize_t i = 0; i < count; i++)
        if (x[i] < low || x[i] >= high) return 0;
    return 1;
}

static int geometry_of(Py_buffer *buffer, Geometry *g) {
    const int32_t *x = (const int32_t *)buffer->buf;
    Py_ssize_t words = buffer->len / 4;
    if (buffer->len % 4 || words < 5) goto bad;
    g->n = x[0], g->cells = x[1], g->nh = x[2], g->K = x[3], g->P = x[4];
    if (g->n < 1 || g->n > 64 || g->cells < 0 || g->cells > MAX_CELLS || g->nh < 0 ||
        g->nh > MAX_HOUSES || g->K < 0 || g->K > MAX_HOUSES || g->P < 0 || g->P > MAX_CELLS)
        goto bad;
    if (words != 5 + (Py_ssize_t)g->nh * g->n + (Py_ssize_t)g->cells * (g->K + g->P)) goto bad;
    g->houses = x + 5;
    g->cell_houses = g->houses + g->nh * g->n;
    g->peers = g->cell_houses + g->cells * g->K;
    g->obj = buffer->obj;
    if (is_trusted(&shapes, buffer->obj, NULL)) return 1;
    /* a house's cells, a cell's houses and peers (-1: padding) each of the board */
    if (!all_within(g->houses, (Py_ssize_t)g->nh * g->n, 0, g->cells) ||
        !all_within(g->cell_houses, (Py_ssize_t)g->cells * g->K, -1, g->nh) ||
        !all_within(g->peers, (Py_ssize_t)g->cells * g->P, -1, g->cells))
        goto bad;
    trust(&shapes, buffer->obj, NULL);
    return 1;
bad:
    PyErr_SetString(PyExc_ValueError, "not a board geometry");
    return 0;
}

/* All the values a cell of the board may hold. */
static uint64_t full_of(const Geometry *g) {
    return g->n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << g->n) - 1);
}

/* A board's candidates and placements as Python gives them checked: masks of the
 * board's values alone, placements 0 (open) to n; 0 and a ValueError if not. */
static int board_fits(const Geometry *g, const uint64_t *masks, const uint8_t *placed) {
    uint64_t full = full_of(g);
    for (int c = 0; c < g->cells; c++)
        if ((masks[c] & ~full) || placed[c] > g->n) {
            PyErr_Format(PyExc_ValueError, "cell %d: candidates or a value past the board's %d",
                         c, g->n);
            return 0;
        }
    return 1;
}

/* ``masks`` and ``placed`` (lists, a cell each) read into the state, each cell
 * checked as it is read (board_fits' rule, in the one pass). */
static int read_board(const Geometry *g, PyObject *masks, PyObject *placed_list) {
    if (PyList_GET_SIZE(masks) != g->cells || PyList_GET_SIZE(placed_list) != g->cells) {
        PyErr_SetString(PyExc_ValueError, "masks and placed: a cell each");
        return 0;
    }
    uint64_t past = ~full_of(g);
    for (int c = 0; c < g->cells; c++) {
        uint64_t m = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(masks, c));
        long v = PyLong_AsLong(PyList_GET_ITEM(placed_list, c));
        if ((m & past) || v < 0 || v > g->n) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "cell %d: candidates or a value past the board's %d",
                             c, g->n);
            return 0;
        }
        state.masks[c] = m, state.placed[c] = (uint8_t)v;
    }
    return !PyErr_Occurred();
}

/* ``cell`` holds ``value``, to be placed; 0: it waits with another value already
 * (both follow, so the cell would hold two: a contradiction). */
static int push(State *s, int cell, int value) {
    if (s->queued[cell]) return s->queued[cell] == value;
    s->queued[cell] = (uint8_t)value;
    s->todo[s->nt++] = cell;
    s->todo[s->nt++] = value;
    return 1;
}

static void touch(const Geometry *g, State *s, int cell) {
    for (int k = 0; k < g->K; k++) {
        int h = g->cell_houses[cell * g->K + k];
        if (h < 0) break;
        s->dirty[h] = 1;
    }
}

/* Candidates ``gone`` leave ``cell``; 0: none is left. */
static inline __attribute__((always_inline)) int take(const Geometry *g, State *s, int cell,
                                                      uint64_t gone) {
    uint64_t m = s->masks[cell];
    if (!(m & gone)) return 1;
    m &= ~gone;
    s->masks[cell] = m;
    if (!m) return 0;
    touch(g, s, cell);
    if (!s->placed[cell] && !(m & (m - 1))) return push(s, cell, value_of(m));
    return 1;
}

/* Placements, then every dirty house's hidden singles, in house order, until
 * nothing changes; 0: a contradiction (a cell or a house left without a value,
 * a value placed twice in a house or twice in a cell). A house's values placed
 * are kept as they go (``held``): a house is looked at cell by cell only when a
 * value not placed there has one place left. */
static int singles(const Geometry *g, State *s) {
    uint64_t full = g->n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << g->n) - 1);
    for (;;) {
        while (s->nt) {
            s->nt -= 2;
            int c = s->todo[s->nt], v = s->todo[s->nt + 1];
            s->queued[c] = 0;
            if (s->placed[c]) {
                if (s->placed[c] != v) return 0;
                continue;
            }
            uint64_t b = (uint64_t)1 << (v - 1);
            if (!(s->masks[c] & b)) return 0;
            s->placed[c] = (uint8_t)v;
            s->masks[c] = b;
            s->trail[s->ntr++] = c;
            for (int k = 0; k < g->K; k++) {
                int h = g->cell_houses[c * g->K + k];
                if (h < 0) break;
                s->dirty[h] = 1;
                s->held[h] |= b;
            }
            for (int k = 0; k < g->P; k++) {
                int p = g->peers[c * g->P + k];
                if (p < 0) break;
                if (!take(g, s, p, b)) return 0;
            }
        }
        int looked = 0;
        for (int h = 0; h < g->nh; h++) {
            if (!s->dirty[h]) continue;
            s->dirty[h] = 0;
            looked = 1;
            const int32_t *house = g->houses + h * g->n;
            uint64_t seen = 0, once = 0;
            for (int i = 0; i < g->n; i++) {
                uint64_t m = s->masks[house[i]];
                once = (once & ~m) | (m & ~seen);
                seen |= m;
            }
            if (seen != full) return 0;
            once &= ~s->held[h]; /* (a placed value's one place is its own cell) */
            if (!once) continue;
            for (int i = 0; i < g->n; i++) {
                int c = house[i];
                uint64_t hit = s->masks[c] & once;
                if (hit && !s->placed[c]) {
                    if ((hit & (hit - 1)) || !push(s, c, value_of(hit))) return 0;
                }
            }
        }
        if (!looked && !s->nt) return 1;
    }
}

#define PREPARED 0x70726570u /* a prepared board's first word */

/* A prepared board's bytes: the magic word, its candidates, placements and
 * values placed in each house, as load_masks finds them. */
static Py_ssize_t prepared_size(const Geometry *g) {
    return 8 + (Py_ssize_t)g->cells * 9 + (Py_ssize_t)g->nh * 8;
}

static int load_masks(const Geometry *g, State *s, Py_buffer *masks) {
    if (masks->len == prepared_size(g) && *(const uint64_t *)masks->buf == PREPARED) {
        const char *at = (const char *)masks->buf + 8;
        memcpy(s->masks, at, (size_t)g->cells * 8);
        memcpy(s->placed, at + g->cells * 8, (size_t)g->cells);
        memcpy(s->held, at + g->cells * 9, (size_t)g->nh * 8);
        memset(s->dirty, 0, g->nh);
        memset(s->queued, 0, g->cells);
        s->nt = s->ntr = 0;
        if (is_trusted(&boards, masks->obj, g->obj)) return 1;  /* a board's, branch after branch */
        uint64_t full = full_of(g);
        for (int h = 0; h < g->nh; h++)
            if (s->held[h] & ~full) {
                PyErr_SetString(PyExc_ValueError, "a prepared board past its geometry");
                return 0;
            }
        if (!board_fits(g, s->masks, s->placed)) return 0;
        trust(&boards, masks->obj, g->obj);
        return 1;
    }
    if (masks->len != (Py_ssize_t)g->cells * 8) {
        PyErr_SetString(PyExc_ValueError, "masks: 8 bytes a cell");
        return 0;
    }
    memcpy(s->masks, masks->buf, masks->len);
    uint64_t full = full_of(g);
    for (int c = 0; c < g->cells; c++)
        if (s->masks[c] & ~full) {
            PyErr_Format(PyExc_ValueError, "cell %d: candidates past the board's %d", c, g->n);
            return 0;
        }
    for (int c = 0; c < g->cells; c++) {
        uint64_t m = s->masks[c];
        s->placed[c] = (m && !(m & (m - 1))) ? (uint8_t)value_of(m) : 0;
    }
    for (int h = 0; h < g->nh; h++) {
        const int32_t *house = g->houses + h * g->n;
        uint64_t held = 0;
        for (int i = 0; i < g->n; i++)
            if (s->placed[house[i]]) held |= s->masks[house[i]];
        s->held[h] = held;
    }
    memset(s->dirty, 0, g->nh);
    memset(s->queued, 0, g->cells);
    s->nt = s->ntr = 0;
    return 1;
}


/* ``value`` added to ``to`` (a list or a set); 0 on an error (set). */
static int add_long(PyObject *to, long value) {
    PyObject *x = PyLong_FromLong(value);
    int added = x && (PyList_Check(to) ? PyList_Append(to, x) : PySet_Add(to, x)) == 0;
    Py_XDECREF(x);
    return added;
}

/* The cell and value of a literal (its sign aside); 0: past the board (an error set). */
static int literal_of(const Geometry *g, PyObject *item, long *lit, int *cell, int *value) {
    *lit = PyLong_AsLong(item);
    if (*lit == -1 && PyErr_Occurred()) return 0;
    long var = *lit < 0 ? (*lit == LONG_MIN ? 0 : -*lit) : *lit;  /* (LONG_MIN: past any board) */
    *cell = (int)((var - 1) / g->n), *value = (int)((var - 1) % g->n) + 1;
    if (var < 1 || *cell >= g->cells) {
        PyErr_SetString(PyExc_ValueError, "a literal past the board");
        return 0;
    }
    return 1;
}

/* The literals of ``assumed`` set, then singles: 1 if they hold, 0 if they
 * break the board, -1 on an error (set). */
static int assume(const Geometry *g, State *s, PyObject *assumed) {
    int ok = 1;
    Py_ssize_t count = PyList_GET_SIZE(assumed);
    for (Py_ssize_t i = 0; i < count && ok; i++) {
        long lit;
        int c, v;
        if (!literal_of(g, PyList_GET_ITEM(assumed, i), &lit, &c, &v)) return -1;
        ok = lit > 0 ? push(s, c, v) : take(g, s, c, (uint64_t)1 << (v - 1));
    }
    return ok && singles(g, s);
}

static void copy_state(const Geometry *g, State *to, const State *from) {
    memcpy(to->masks, from->masks, (size_t)g->cells * 8);
    memcpy(to->placed, from->placed, (size_t)g->cells);
    memcpy(to->held, from->held, sizeof(uint64_t) * (size_t)g->nh);
    memset(to->dirty, 0, (size_t)g->nh);
    memset(to->queued, 0, (size_t)g->cells);
    to->nt = to->ntr = 0;
}

/* prepare(geometry, masks) -> bytes: the board as the branches load it, read
 * once (propagate, breaks and first_break take it for its masks, many times a
 * board). */
static PyObject *prepare(PyObject *self, PyObject *args) {
    Py_buffer gb, mb;
    if (!PyArg_ParseTuple(args, "y*y*", &gb, &mb)) return NULL;
    PyObject *result = NULL;
    Geometry g;
    if (!geometry_of(&gb, &g) || !load_masks(&g, &state, &mb)) goto done;
    if (mb.len != (Py_ssize_t)g.cells * 8) {
        result = PyBytes_FromStringAndSize(mb.buf, mb.len);
        goto done;
    }
    result = PyBytes_FromStringAndSize(NULL, prepared_size(&g));
    if (!result) goto done;
    char *at = PyBytes_AS_STRING(result);
    *(uint64_t *)at = PREPARED;
    memcpy(at + 8, state.masks, (size_t)g.cells * 8);
    memcpy(at + 8 + g.cells * 8, state.placed, (size_t)g.cells);
    memcpy(at + 8 + g.cells * 9, state.held, (size_t)g.nh * 8);
done:
    PyBuffer_Release(&gb);
    PyBuffer_Release(&mb);
    return result;
}

/* The board of ``gb`` and ``mb`` loaded into ``state`` and the literals of
 * ``assumed`` followed there (:func:`assume`): 1 they hold, 0 they break it, -1
 * on an error (set). */
static int followed(Py_buffer *gb, Py_buffer *mb, PyObject *assumed, Geometry *g) {
    if (!geometry_of(gb, g) || !load_masks(g, &state, mb)) return -1;
    return assume(g, &state, assumed);
}

/* propagate(geometry, masks, assumptions) -> (ok, literals): the board (a cell
 * with one candidate holds it) with ``assumptions`` (literals cell * n + value,
 * negative: the value is ruled out) followed by singles; the literals set
 * beyond the board's, as Minicard's propagate returns them (its numbering). */
static PyObject *propagate(PyObject *self, PyObject *args) {
    Py_buffer gb, mb;
    PyObject *assumed;
    if (!PyArg_ParseTuple(args, "y*y*O!", &gb, &mb, &PyList_Type, &assumed)) return NULL;
    PyObject *result = NULL;
    Geometry g;
    State *s = &state;
    int ok = followed(&gb, &mb, assumed, &g);
    if (ok < 0) goto done;
    const uint64_t *board = (const uint64_t *)mb.buf + (mb.len != (Py_ssize_t)g.cells * 8);
    PyObject *implied = PyList_New(0);
    if (!implied) goto done;
    if (ok) {
        for (int c = 0; c < g.cells; c++) {
            uint64_t was = board[c], now = s->masks[c];
            if (!(was & (was - 1))) continue; /* held on the board already */
            for (int v = 1; v <= g.n; v++) {
                uint64_t b = (uint64_t)1 << (v - 1);
                if (!(was & b)) continue;
                long lit = (long)c * g.n + v;
                int set = !(now & b) ? add_long(implied, -lit) : !s->placed[c] || add_long(implied, lit);
                if (!set) {
                    Py_DECREF(implied);
                    goto done;
                }
            }
        }
    }
    result = Py_BuildValue("(ON)", ok ? Py_True : Py_False, implied);
done:
    PyBuffer_Release(&gb);
    PyBuffer_Release(&mb);
    return result;
}

/* breaks(geometry, masks, assumptions) -> bool: whether singles break the board
 * once ``assumptions`` hold (propagate's ok, negated, without its literals). */
static PyObject *breaks(PyObject *self, PyObject *args) {
    Py_buffer gb, mb;
    PyObject *assumed;
    if (!PyArg_ParseTuple(args, "y*y*O!", &gb, &mb, &PyList_Type, &assumed)) return NULL;
    PyObject *result = NULL;
    Geometry g;
    int ok = followed(&gb, &mb, assumed, &g);
    if (ok < 0) goto done;
    result = PyBool_FromLong(!ok);
done:
    PyBuffer_Release(&gb);
    PyBuffer_Release(&mb);
    return result;
}

static uint32_t safe[MAX_CELLS * 64], safe_stamp; /* placed by a branch that held */

/* A new scan of branches: none is known safe yet. */
static void new_scan(void) {
    if (++safe_stamp == 0) { /* (once in four billion scans: the stamps start again) */
        memset(safe, 0, sizeof safe);
        safe_stamp = 1;
    }
}

/* Candidates as literals, with each one's cell and value. */
typedef struct {
    Py_ssize_t count;
    int32_t *cell, *value, *lit;
} Candidates;

/* The literals of ``list`` read into ``to`` (freed by the caller); 0 on an error (set). */
static int candidates_of(const Geometry *g, PyObject *list, Candidates *to) {
    to->count = PyList_GET_SIZE(list);
    to->cell = PyMem_Malloc(sizeof(int32_t) * (size_t)(3 * to->count + 1));
    if (!to->cell) {
        PyErr_NoMemory();
        return 0;
    }
    to->value = to->cell + to->count, to->lit = to->value + to->count;
    for (Py_ssize_t i = 0; i < to->count; i++) {
        long lit;
        int c, v;
        if (!literal_of(g, PyList_GET_ITEM(list, i), &lit, &c, &v)) return 0;
        to->cell[i] = c, to->value[i] = v, to->lit[i] = (int32_t)lit;
    }
    return 1;
}

/* From ``from`` on, the first of ``ys`` that the branch in ``state`` leaves open
 * (its cell unset, the value still a candidate) and that breaks it once it
 * holds too (-1: none); ``tested`` counts those followed. A candidate that an
 * earlier one placed, in a branch that held, holds too: the branch it starts
 * is part of that one (failed literal probing's rule), so it is passed over. */
static Py_ssize_t first_breaking(const Geometry *g, const Candidates *ys, Py_ssize_t from,
                                 long *tested) {
    new_scan();
    for (Py_ssize_t i = from; i < ys->count; i++) {
        int c = ys->cell[i], v = ys->value[i], lit = ys->lit[i];
        uint64_t b = (uint64_t)1 << (v - 1);
        if (state.placed[c] || !(state.masks[c] & b)) continue; /* the branch says already */
        ++*tested;
        if (lit > 0 && safe[c * g->n + v - 1] == safe_stamp) continue;
        copy_state(g, &branch, &state);
        int holds =
            (lit > 0 ? push(&branch, c, v) : take(g, &branch, c, b)) && singles(g, &branch);
        if (!holds) return i;
        for (int k = 0; k < branch.ntr; k++) {
            int x = branch.trail[k];
            safe[x * g->n + branch.placed[x] - 1] = safe_stamp;
        }
    }
    return -1;
}

/* first_break(geometry, masks, assumed, ys, start) -> (index, tested): the
 * branch of ``assumed`` followed once, then each of ys from ``start`` on that it
 * leaves open (its cell unset, the value still a candidate) assumed as well, in
 * turn: the index of the first that breaks it (-1: none; -2: the branch itself
 * breaks), and how many were followed. A nested chain's round of removals. */
static PyObject *first_break(PyObject *self, PyObject *args) {
    Py_buffer gb, mb;
    PyObject *assumed, *ys;
    Py_ssize_t start;
    if (!PyArg_ParseTuple(args, "y*y*O!O!n", &gb, &mb, &PyList_Type, &assumed, &PyList_Type,
                          &ys, &start))
        return NULL;
    PyObject *result = NULL;
    Geometry g;
    Candidates cands = {0, NULL, NULL, NULL};
    long tested = 0;
    int ok = followed(&gb, &mb, assumed, &g);
    if (ok < 0 || !candidates_of(&g, ys, &cands)) goto done;
    if (start < 0) {
        PyErr_SetString(PyExc_ValueError, "first_break: start 0 or more");
        goto done;
    }
    Py_ssize_t found = ok ? first_breaking(&g, &cands, start, &tested) : -2;
    result = Py_BuildValue("(nl)", found, tested);
done:
    PyMem_Free(cands.cell);
    PyBuffer_Release(&gb);
    PyBuffer_Release(&mb);
    return result;
}

/* --- a nested chain's search: every false candidate's branch, in step --- */

/* One branch of shortest_broken: its candidate, how far its rounds have gone,
 * the candidates it has removed, and its settled state between steps. */
typedef struct {
    int32_t x, xc, xv;
    int started, more;
    Py_ssize_t i;
    Py_ssize_t nrem, cap;
    int32_t *rem; /* (grown as removals come: most branches break within a few) */
    uint64_t *masks, *held;
    uint8_t *placed;
} Probe;

static void run_save(const Geometry *g, Probe *r, const State *s) {
    memcpy(r->masks, s->masks, (size_t)g->cells * 8);
    memcpy(r->placed, s->placed, (size_t)g->cells);
    memcpy(r->held, s->held, (size_t)g->nh * 8);
}

static void run_load(const Geometry *g, const Probe *r, State *s) {
    memcpy(s->masks, r->masks, (size_t)g->cells * 8);
    memcpy(s->placed, r->placed, (size_t)g->cells);
    memcpy(s->held, r->held, (size_t)g->nh * 8);
    memset(s->dirty, 0, (size_t)g->nh);
    memset(s->queued, 0, (size_t)g->cells);
    s->nt = s->ntr = 0;
}

/* The branch's next step, as branches.Branches.removals yields them: 0 it has
 * ended (it never breaks), 1 it holds still, 2 it breaks, -1 out of memory;
 * ``calls`` counts the branches followed, as Branches.calls does. */
static int run_step(const Geometry *g, Probe *r, const State *board, const Candidates *ys,
                    long *calls) {
    if (!r->started) {
        r->started = 1;
        copy_state(g, &state, board);
        ++*calls;
        if (!(push(&state, r->xc, r->xv) && singles(g, &state))) return 2;
        run_save(g, r, &state);
        r->i = 0, r->more = 0;
        return 1;
    }
    run_load(g, r, &state);
    for (;;) {
        Py_ssize_t found = first_breaking(g, ys, r->i, calls);
        if (found >= 0) {
            int c = ys->cell[found], v = ys->value[found];
            uint64_t b = (uint64_t)1 << (v - 1);
            r->i = found + 1, r->more = 1;
            if (r->nrem == r->cap) {
                Py_ssize_t cap = r->cap ? 2 * r->cap : 16;
                int32_t *grown = PyMem_Realloc(r->rem, sizeof(int32_t) * (size_t)cap);
                if (!grown) return -1;
                r->rem = grown, r->cap = cap;
            }
            r->rem[r->nrem++] = -ys->lit[found];
            ++*calls;
            int holds = ys->lit[found] > 0 ? take(g, &state, c, b) && singles(g, &state)
                                           : push(&state, c, v) && singles(g, &state);
            if (!holds) return 2;
            run_save(g, r, &state);
            return 1;
        }
        if (!r->more) return 0;
        r->more = 0, r->i = 0; /* a new round over every candidate */
    }
}

/* shortest_broken(geometry, masks, xs, ys, taken_apart, past) -> (broken, calls):
 * nested._shortest_broken in the engine: each of xs's branches (literals set)
 * followed one removal at a time, all in step, a removal being the first of ys
 * (from where the last was found, round after round) whose branch breaks inside
 * it; the broken ones with their removals, in the order they broke, until
 * ``taken_apart`` have or one breaks with one removal or none; None when
 * ``past()`` is true between two steps. ``calls``: the branches followed. */
static PyObject *shortest_broken(PyObject *self, PyObject *args) {
    Py_buffer gb, mb;
    PyObject *xs, *ys, *past;
    Py_ssize_t taken_apart;
    if (!PyArg_ParseTuple(args, "y*y*O!O!nO", &gb, &mb, &PyList_Type, &xs, &PyList_Type, &ys,
                          &taken_apart, &past))
        return NULL;
    PyObject *result = NULL, *broken = NULL;
    Geometry g;
    Py_ssize_t nxs = PyList_GET_SIZE(xs);
    Candidates cands = {0, NULL, NULL, NULL};
    int32_t *live = NULL;
    uint64_t *words = NULL;
    Probe *runs = NULL;
    State *board = NULL;
    long calls = 0;
    if (!geometry_of(&gb, &g) || !load_masks(&g, &state, &mb)) goto done;
    board = PyMem_Malloc(sizeof(State));
    runs = PyMem_Calloc((size_t)nxs + 1, sizeof(Probe));
    live = PyMem_Malloc(sizeof(int32_t) * (size_t)(nxs + 1));
    Py_ssize_t per = (Py_ssize_t)g.cells + g.nh + (g.cells + 7) / 8;
    words = PyMem_Malloc(sizeof(uint64_t) * (size_t)(nxs * per + 1));
    broken = PyList_New(0);
    if (!board || !runs || !live || !words || !broken) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    copy_state(&g, board, &state);
    if (!candidates_of(&g, ys, &cands)) goto done;
    for (Py_ssize_t k = 0; k < nxs; k++) {
        long lit;
        int c, v;
        if (!literal_of(&g, PyList_GET_ITEM(xs, k), &lit, &c, &v)) goto done;
        if (lit < 0) {
            PyErr_SetString(PyExc_ValueError, "shortest_broken: xs are candidates (literals > 0)");
            goto done;
        }
        Probe *r = runs + k;
        r->x = (int32_t)lit, r->xc = c, r->xv = v;
        r->masks = words + k * per;
        r->held = r->masks + g.cells;
        r->placed = (uint8_t *)(r->held + g.nh);
        live[k] = (int32_t)k;
    }
    Py_ssize_t nlive = nxs;
    int done_early = 0;
    while (nlive && !done_early) {
        PyObject *late = PyObject_CallNoArgs(past);
        if (!late) goto done;
        int is_late = PyObject_IsTrue(late);
        Py_DECREF(late);
        if (is_late < 0) goto done;
        if (is_late) {
            result = Py_BuildValue("(Ol)", Py_None, calls);
            goto done;
        }
        Py_ssize_t going = 0;
        for (Py_ssize_t j = 0; j < nlive && !done_early; j++) {
            Probe *r = runs + live[j];
            int step = run_step(&g, r, board, &cands, &calls);
            if (step < 0) {
                PyErr_NoMemory();
                goto done;
            }
            if (step == 1) live[going++] = live[j];
            if (step != 2) continue;
            PyObject *removed = PyList_New(r->nrem);
            if (!removed) goto done;
            for (Py_ssize_t k = 0; k < r->nrem; k++) {
                PyObject *lit = PyLong_FromLong(r->rem[k]);
                if (!lit) {
                    Py_DECREF(removed);
                    goto done;
                }
                PyList_SET_ITEM(removed, k, lit);
            }
            PyObject *pair = Py_BuildValue("(lN)", (long)r->x, removed);
            if (!pair || PyList_Append(broken, pair) < 0) {
                Py_XDECREF(pair);
                goto done;
            }
            Py_DECREF(pair);
            if (r->nrem <= 1 || PyList_GET_SIZE(broken) == taken_apart) done_early = 1;
        }
        nlive = going;
    }
    result = Py_BuildValue("(Ol)", broken, calls);
done:
    Py_XDECREF(broken);
    PyMem_Free(board);
    PyMem_Free(cands.cell);
    for (Py_ssize_t k = 0; runs && k < nxs; k++) PyMem_Free(runs[k].rem);
    PyMem_Free(runs);
    PyMem_Free(live);
    PyMem_Free(words);
    PyBuffer_Release(&gb);
    PyBuffer_Release(&mb);
    return result;
}

/* first_forcing(geometry, masks, options, bounds) -> index: static forcing chains
 * (forcing.forcing, none of whose branches breaks): the sets of candidates one
 * of which holds (set k: options[bounds[k]:bounds[k + 1]], literals), each
 * candidate followed by singles; the index of the first set whose branches
 * leave some open cell of the board without a candidate they all remove (-1:
 * none). A branch that breaks adds nothing to its set's union. */
static PyObject *first_forcing(PyObject *self, PyObject *args) {
    Py_buffer gb, mb;
    PyObject *options, *bounds;
    if (!PyArg_ParseTuple(args, "y*y*O!O!", &gb, &mb, &PyList_Type, &options, &PyList_Type,
                          &bounds))
        return NULL;
    PyObject *result = NULL;
    Geometry g;
    uint64_t *after = NULL; /* each candidate's masks once followed (cells words each) */
    int32_t *where = NULL;  /* a candidate's place in after (-1: not followed, -2: breaks) */
    uint64_t board[MAX_CELLS], both[MAX_CELLS];
    uint8_t open[MAX_CELLS];
    long found = -1;
    if (!geometry_of(&gb, &g) || !load_masks(&g, &state, &mb)) goto done;
    memcpy(board, state.masks, (size_t)g.cells * 8);
    for (int c = 0; c < g.cells; c++) open[c] = !state.placed[c];
    Py_ssize_t slots = (Py_ssize_t)g.cells * g.n, used = 0;
    after = PyMem_Malloc(sizeof(uint64_t) * (size_t)(PyList_GET_SIZE(options) + 1) * g.cells);
    where = PyMem_Malloc(sizeof(int32_t) * (size_t)slots);
    if (!after || !where) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < slots; i++) where[i] = -1;
    Py_ssize_t sets = PyList_GET_SIZE(bounds) - 1;
    for (Py_ssize_t k = 0; k < sets && found < 0; k++) {
        Py_ssize_t from = PyLong_AsSsize_t(PyList_GET_ITEM(bounds, k));
        Py_ssize_t to = PyLong_AsSsize_t(PyList_GET_ITEM(bounds, k + 1));
        if (PyErr_Occurred()) goto done;
        if (from < 0 || to > PyList_GET_SIZE(options) || from > to) {
            PyErr_SetString(PyExc_ValueError, "first_forcing: bounds past the options");
            goto done;
        }
        memset(both, 0, (size_t)g.cells * 8);
        for (Py_ssize_t i = from; i < to; i++) {
            long lit;
            int c, v;
            if (!literal_of(&g, PyList_GET_ITEM(options, i), &lit, &c, &v)) goto done;
            Py_ssize_t slot = (Py_ssize_t)c * g.n + v - 1;
            if (where[slot] == -1) {
                copy_state(&g, &branch, &state);
                int holds = lit > 0 ? push(&branch, c, v) && singles(&g, &branch)
                                    : take(&g, &branch, c, (uint64_t)1 << (v - 1)) &&
                                          singles(&g, &branch);
                where[slot] = holds ? (int32_t)used : -2;
                if (holds) memcpy(after + used++ * g.cells, branch.masks, (size_t)g.cells * 8);
            }
            if (where[slot] >= 0) {
                const uint64_t *mine = after + (Py_ssize_t)where[slot] * g.cells;
                for (int x = 0; x < g.cells; x++) both[x] |= mine[x];
            }
        }
        for (int x = 0; x < g.cells && found < 0; x++)
            if (open[x] && (board[x] & ~both[x])) found = (long)k;
    }
    result = PyLong_FromLong(found);
done:
    PyMem_Free(after);
    PyMem_Free(where);
    PyBuffer_Release(&gb);
    PyBuffer_Release(&mb);
    return result;
}

/* --- the forcing chains' branches: forcing.Propagation.singles, step for step --- */

/* Python's singles in rounds (forcing.Propagation.singles, Board.singles_in):
 * the placements waiting in ``todo`` first in, first out, each value leaving its
 * peers in the geometry's order (the board's own); then a round over the dirty
 * houses: each of their cells left one candidate, in cell order, then house by
 * house each value with no place (a contradiction) or one; a cell placed or found
 * in the round is not placed again. Where a branch breaks, the candidates left
 * are the same as Python leaves them (a chain's length is counted from them). */
typedef struct {
    int32_t *items;
    Py_ssize_t size, used;
} Stack;

static int stack_push(Stack *t, int cell, int value) {
    if (t->used + 2 > t->size) {
        Py_ssize_t size = t->size ? 2 * t->size : 1024;
        int32_t *grown = PyMem_Realloc(t->items, (size_t)size * sizeof(int32_t));
        if (!grown) return 0;
        t->items = grown, t->size = size;
    }
    t->items[t->used++] = cell;
    t->items[t->used++] = value;
    return 1;
}

/* Candidates a branch removes, counted as it goes, and how many it may remove
 * before it is given up (a shorter chain is known; -1: no bound). */
typedef struct {
    long removed, bound;
} Count;

/* The todo's placements made, first in, first out; 1, 0: a contradiction, 2: past
 * the bound. */
static int place_all(const Geometry *g, uint64_t *m, uint8_t *placed, Stack *todo,
                     uint8_t *dirty, Count *count) {
    for (Py_ssize_t i = 0; i < todo->used; i += 2) {
        int c = todo->items[i], v = todo->items[i + 1];
        if (placed[c]) {
            if (placed[c] != v) return 0;
            continue;
        }
        uint64_t b = (uint64_t)1 << (v - 1);
        if (!(m[c] & b)) return 0;
        placed[c] = (uint8_t)v;
        count->removed += __builtin_popcountll(m[c]) - 1;
        m[c] = b;
        for (int k = 0; k < g->K && g->cell_houses[c * g->K + k] >= 0; k++)
            dirty[g->cell_houses[c * g->K + k]] = 1;
        for (int k = 0; k < g->P; k++) {
            int p = g->peers[c * g->P + k];
            if (p < 0) break;
            if (!(m[p] & b)) continue;
            count->removed++;
            if (!(m[p] &= ~b)) return 0;
            for (int j = 0; j < g->K && g->cell_houses[p * g->K + j] >= 0; j++)
                dirty[g->cell_houses[p * g->K + j]] = 1;
        }
        if (count->bound >= 0 && count->removed >= count->bound) return 2;
    }
    todo->used = 0;
    return 1;
}

/* One round over the houses flagged in ``checking`` (Board.singles_in): its
 * singles pushed on ``todo``; 1, 0: a value has no place, -1: out of memory. */
static int round_in(const Geometry *g, const uint64_t *m, const uint8_t *placed,
                    const uint8_t *checking, Stack *todo) {
    static uint8_t now[MAX_CELLS]; /* each cell's value found this round (0 between rounds) */
    static int32_t found[MAX_CELLS];
    int nf = 0, ok = 1;
    uint64_t full = g->n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << g->n) - 1);
    for (int h = 0; h < g->nh; h++) { /* the naked singles, then in cell order */
        if (!checking[h]) continue;
        for (int i = 0; i < g->n; i++) {
            int c = g->houses[h * g->n + i];
            uint64_t x = m[c];
            if (placed[c] || now[c] || !x || (x & (x - 1))) continue;
            now[c] = (uint8_t)value_of(x);
            int k = nf++;
            for (; k > 0 && found[k - 1] > c; k--) found[k] = found[k - 1];
            found[k] = c;
        }
    }
    for (int k = 0; k < nf && ok > 0; k++)
        if (!stack_push(todo, found[k], now[found[k]])) ok = -1;
    for (int h = 0; h < g->nh && ok > 0; h++) {
        if (!checking[h]) continue;
        const int32_t *house = g->houses + h * g->n;
        uint64_t seen = 0, once = 0, held[64];
        for (int i = 0; i < g->n; i++) {
            int c = house[i], v = placed[c] ? placed[c] : now[c];
            uint64_t x = held[i] = v ? (uint64_t)1 << (v - 1) : m[c];
            once = (once & ~x) | (x & ~seen);
            seen |= x;
        }
        if (seen != full) {
            ok = 0;
            break;
        }
        for (uint64_t left = once; left; left &= left - 1) {
            uint64_t b = left & -left;
            int i = 0;
            while (!(held[i] & b)) i++;
            int c = house[i];
            if (placed[c] || now[c]) continue;
            now[c] = (uint8_t)value_of(b);
            found[nf++] = c;
            if (!stack_push(todo, c, now[c])) {
                ok = -1;
                break;
            }
        }
    }
    for (int k = 0; k < nf; k++) now[found[k]] = 0;
    return ok;
}

/* 1: they hold; 0: a contradiction; 2: ``count`` passed its bound (a branch that
 * cannot be the shortest); -1: out of memory (an error set). */
static int singles_as_python(const Geometry *g, uint64_t *m, uint8_t *placed, Stack *todo,
                             uint8_t *dirty, uint8_t *touched, Count *count) {
    uint8_t checking[MAX_HOUSES]; /* the dirty houses, looked at once dirty is cleared */
    for (;;) {
        int placing = place_all(g, m, placed, todo, dirty, count);
        if (placing != 1) return placing;
        int any = 0;
        for (int h = 0; h < g->nh; h++) {
            any |= dirty[h];
            touched[h] |= dirty[h], checking[h] = dirty[h], dirty[h] = 0;
        }
        if (!any) return 1;
        int ok = round_in(g, m, placed, checking, todo);
        if (ok < 0) PyErr_NoMemory();
        if (ok <= 0) return ok;
        if (!todo->used) return 1;
    }
}

/* A branch that held placed ``placed`` on a board that had ``held``: what it
 * placed holds too (the branches those start are part of this one), safe. */
static void held_too(const Geometry *g, const uint8_t *placed, const uint8_t *held) {
    for (int x = 0; x < g->cells; x++)
        if (placed[x] && !held[x]) safe[x * g->n + placed[x] - 1] = safe_stamp;
}

/* fewest_breaking(geometry, masks, placed, ys) -> index: of the candidates ``ys``
 * (literals cell * n + value), each placed on the board and followed by singles
 * in rounds as Python follows them (forcing.Propagation), the first of those that break
 * it having removed fewest of the board's candidates (-1: none breaks). The
 * static contradiction chain's choice: the fewest removals, the shortest chain
 * (what Sudoku Explainer takes). */
static PyObject *fewest_breaking(PyObject *self, PyObject *args) {
    Py_buffer gb, mb, pb;
    PyObject *ys;
    if (!PyArg_ParseTuple(args, "y*y*y*O!", &gb, &mb, &pb, &PyList_Type, &ys)) return NULL;
    PyObject *result = NULL;
    Geometry g;
    Candidates cands = {0, NULL, NULL, NULL};
    Stack todo = {NULL, 0, 0};
    uint8_t dirty[MAX_HOUSES], touched[MAX_HOUSES];
    if (!geometry_of(&gb, &g) || !candidates_of(&g, ys, &cands)) goto done;
    if (mb.len != (Py_ssize_t)g.cells * 8 || pb.len != (Py_ssize_t)g.cells) {
        PyErr_SetString(PyExc_ValueError, "masks: 8 bytes a cell; placed: 1 byte a cell");
        goto done;
    }
    const uint64_t *board = (const uint64_t *)mb.buf;
    const uint8_t *held = (const uint8_t *)pb.buf;
    if (!board_fits(&g, board, held)) goto done;
    long best = -1, fewest = 0;
    new_scan();
    /* Whether a branch breaks is the same in any order (singles reach one closure),
     * so the fast singles screen each branch where the board's placements are its
     * single candidates (as they load); the walk in rounds counts the removals of
     * those that break. */
    int screened = 1;
    for (int x = 0; x < g.cells && screened; x++) {
        uint64_t m = board[x];
        screened = held[x] == ((m && !(m & (m - 1))) ? value_of(m) : 0);
    }
    if (screened && !load_masks(&g, &state, &mb)) goto done;
    Py_ssize_t *order = PyMem_Malloc((size_t)(cands.count + 1) * sizeof(Py_ssize_t));
    long *guess = PyMem_Malloc((size_t)(cands.count + 1) * sizeof(long));
    if (!order || !guess) {
        PyErr_NoMemory();
        goto freed;
    }
    /* The branches that may break, in the candidates' order; where screened, only
     * those that break, the fewest the fast singles removed first (a short chain
     * found early gives the others up sooner; the choice is the same). */
    Py_ssize_t nb = 0;
    for (Py_ssize_t i = 0; i < cands.count; i++) {
        int c = cands.cell[i], v = cands.value[i];
        if (held[c] || !(board[c] & ((uint64_t)1 << (v - 1)))) continue;
        if (safe[c * g.n + v - 1] == safe_stamp) continue; /* placed where a branch held */
        guess[i] = 0;
        if (screened) {
            copy_state(&g, &branch, &state);
            if (push(&branch, c, v) && singles(&g, &branch)) {
                held_too(&g, branch.placed, held);
                continue;
            }
            for (int x = 0; x < g.cells; x++) guess[i] += __builtin_popcountll(board[x] & ~branch.masks[x]);
        }
        Py_ssize_t k = nb++;
        for (; k > 0 && guess[order[k - 1]] > guess[i]; k--) order[k] = order[k - 1];
        order[k] = i;
    }
    for (Py_ssize_t k = 0; k < nb; k++) {
        Py_ssize_t i = order[k];
        int c = cands.cell[i], v = cands.value[i];
        if (safe[c * g.n + v - 1] == safe_stamp) continue; /* (unscreened: a held one placed it) */
        memcpy(branch.masks, board, (size_t)mb.len);
        memcpy(branch.placed, held, (size_t)pb.len);
        memset(dirty, 0, (size_t)g.nh);
        todo.used = 0;
        if (!stack_push(&todo, c, v)) {
            PyErr_NoMemory();
            goto freed;
        }
        /* a branch is given up once its removals show it cannot be the first of the
         * fewest (an earlier candidate may still tie) */
        Count count = {0, best < 0 ? -1 : (i < best ? fewest + 1 : fewest)};
        int ok = singles_as_python(&g, branch.masks, branch.placed, &todo, dirty, touched, &count);
        if (ok < 0) goto freed;
        if (ok == 2) continue;
        if (ok) {
            if (!screened) held_too(&g, branch.placed, held);
            continue;
        }
        long removed = 0;
        for (int x = 0; x < g.cells; x++) removed += __builtin_popcountll(board[x] & ~branch.masks[x]);
        if (best < 0 || removed < fewest || (removed == fewest && i < best))
            best = (long)i, fewest = removed;
    }
    result = PyLong_FromLong(best);
freed:
    PyMem_Free(order);
    PyMem_Free(guess);
done:
    PyMem_Free(todo.items);
    PyMem_Free(cands.cell);
    PyBuffer_Release(&gb);
    PyBuffer_Release(&mb);
    PyBuffer_Release(&pb);
    return result;
}

/* A Python set of houses (None: -1) as flags; 1, or 0 on an error. */
static int flags_of(PyObject *houses, int nh, uint8_t *flags, int *none) {
    memset(flags, 0, (size_t)nh);
    *none = houses == Py_None;
    if (*none) return 1;
    PyObject *iterator = PyObject_GetIter(houses), *item;
    if (!iterator) return 0;
    while ((item = PyIter_Next(iterator))) {
        long h = PyLong_AsLong(item);
        Py_DECREF(item);
        if (h < 0 || h >= nh) {
            Py_DECREF(iterator);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "not a house of the board");
            return 0;
        }
        flags[h] = 1;
    }
    Py_DECREF(iterator);
    return !PyErr_Occurred();
}

static PyObject *set_of(const uint8_t *flags, int nh, int none) {
    if (none) Py_RETURN_NONE;
    PyObject *found = PySet_New(NULL);
    for (int h = 0; found && h < nh; h++)
        if (flags[h] && !add_long(found, h)) Py_CLEAR(found);
    return found;
}

/* Propagation's lists and set read: its candidates and placements (kept in
 * ``was`` and ``placed_was`` too, to write back only what changes), its todo
 * onto the stack, its dirty houses as flags; 1, or 0 on an error (set). */
static int load_lists(const Geometry *g, PyObject *masks, PyObject *placed_list,
                      PyObject *todo_list, PyObject *dirty_set, uint64_t *was,
                      uint8_t *placed_was, Stack *todo) {
    if (!read_board(g, masks, placed_list)) return 0;
    memcpy(was, state.masks, (size_t)g->cells * 8);
    memcpy(placed_was, state.placed, (size_t)g->cells);
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(todo_list); i++) {
        int c, v;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(todo_list, i), "ii", &c, &v)) return 0;
        if (c < 0 || c >= g->cells || v < 1 || v > g->n) {
            PyErr_SetString(PyExc_ValueError, "todo: (cell, value) of the board");
            return 0;
        }
        if (!stack_push(todo, c, v)) {
            PyErr_NoMemory();
            return 0;
        }
    }
    int none;
    return flags_of(dirty_set, g->nh, state.dirty, &none);
}

/* The lists and set written back as Python's singles leaves them: changed
 * candidates and placements, what is left of todo and of the dirty houses (on a
 * contradiction; else none); 1, or 0 on an error (set). */
static int store_lists(const Geometry *g, PyObject *masks, PyObject *placed_list,
                       PyObject *todo_list, PyObject *dirty_set, const uint64_t *was,
                       const uint8_t *placed_was, const Stack *todo) {
    for (int c = 0; c < g->cells; c++) {
        if (state.masks[c] != was[c]) {
            PyObject *x = PyLong_FromUnsignedLongLong(state.masks[c]);
            if (!x || PyList_SetItem(masks, c, x) < 0) return 0;
        }
        if (state.placed[c] != placed_was[c]) {
            PyObject *x = PyLong_FromLong(state.placed[c]);
            if (!x || PyList_SetItem(placed_list, c, x) < 0) return 0;
        }
    }
    if (PyList_SetSlice(todo_list, 0, PyList_GET_SIZE(todo_list), NULL) < 0) return 0;
    for (Py_ssize_t i = 0; i < todo->used; i += 2) {
        PyObject *pair = Py_BuildValue("(ii)", todo->items[i], todo->items[i + 1]);
        int added = pair && PyList_Append(todo_list, pair) == 0;
        Py_XDECREF(pair);
        if (!added) return 0;
    }
    if (PySet_Clear(dirty_set) < 0) return 0;
    for (int h = 0; h < g->nh; h++)
        if (state.dirty[h] && !add_long(dirty_set, h)) return 0;
    return 1;
}

/* --- the forcing chains' settle: singles, locked candidates, pairs, as Python --- */

/* A board's meetings for locked candidates, an int32 buffer: M, H, then M + 1
 * offsets of each meeting's cells, H + 1 offsets of each house's meetings, then
 * each meeting's cells (the count and cells where two houses meet, of the rest
 * of the first, of the rest of the second: the targets) and each house's
 * meetings (as Board.meeting_cells and Board.meetings_from give them). */
typedef struct {
    int count, houses;
    const int32_t *meeting_at, *house_at, *data;
} Meetings;

/* Whether offsets ``at[0..count]`` start at 0 and never go back. */
static int offsets(const int32_t *at, int count) {
    if (at[0] != 0) return 0;
    for (int i = 0; i < count; i++)
        if (at[i + 1] < at[i]) return 0;
    return 1;
}

static int meetings_of(Py_buffer *buffer, Py_buffer *geometry, const Geometry *g, Meetings *mt) {
    const int32_t *x = (const int32_t *)buffer->buf;
    Py_ssize_t words = buffer->len / 4;
    if (buffer->len % 4 || words < 2 || x[1] != g->nh || x[0] < 0 || x[0] > words) goto bad;
    mt->count = x[0], mt->houses = x[1];
    if (words < 2 + (Py_ssize_t)mt->count + 1 + mt->houses + 1) goto bad;
    mt->meeting_at = x + 2;
    mt->house_at = mt->meeting_at + mt->count + 1;
    mt->data = mt->house_at + mt->houses + 1;
    if (2 + mt->count + 1 + mt->houses + 1 + (Py_ssize_t)mt->meeting_at[mt->count] +
            mt->house_at[mt->houses] != words)
        goto bad;
    if (is_trusted(&shapes, buffer->obj, geometry->obj)) return 1;
    if (!offsets(mt->meeting_at, mt->count) || !offsets(mt->house_at, mt->houses)) goto bad;
    for (int i = 0; i < mt->count; i++) { /* three parts: a count, then so many cells */
        int at = mt->meeting_at[i], end = mt->meeting_at[i + 1];
        for (int part = 0; part < 3; part++) {
            if (at >= end) goto bad;
            int count = mt->data[at];
            if (count < 0 || count > end - at - 1 || !all_within(mt->data + at + 1, count, 0, g->cells))
                goto bad;
            at += count + 1;
        }
        if (at != end) goto bad;
    }
    const int32_t *listed = mt->data + mt->meeting_at[mt->count];
    if (!all_within(listed, mt->house_at[mt->houses], 0, mt->count)) goto bad;
    trust(&shapes, buffer->obj, geometry->obj);
    return 1;
bad:
    PyErr_SetString(PyExc_ValueError, "not a board's meetings");
    return 0;
}

typedef struct {
    const Geometry *g;
    uint64_t *m;
    uint8_t *placed, *dirty;
    Stack *todo;
    int failed; /* out of memory */
} Run;

/* Propagation._remove: ``gone`` leaves ``cell``; a single left is placed next. */
static void remove_from(Run *r, int cell, uint64_t gone) {
    const Geometry *g = r->g;
    uint64_t x = r->m[cell] &= ~gone;
    for (int k = 0; k < g->K && g->cell_houses[cell * g->K + k] >= 0; k++)
        r->dirty[g->cell_houses[cell * g->K + k]] = 1;
    if (x && !(x & (x - 1)) && !stack_push(r->todo, cell, value_of(x))) r->failed = 1;
}

/* Meeting ``i``'s cells: where the two houses meet, the rest of the first, the
 * rest of the second (the targets), each with its count. */
typedef struct {
    int nc, nr, nt;
    const int32_t *common, *rest, *targets;
} Meeting;

static Meeting meeting_of(const Meetings *mt, int i) {
    Meeting x;
    const int32_t *d = mt->data + mt->meeting_at[i];
    x.nc = d[0], x.common = d + 1;
    x.nr = x.common[x.nc], x.rest = x.common + x.nc + 1;
    x.nt = x.rest[x.nr], x.targets = x.rest + x.nr + 1;
    return x;
}

static int meeting_round(Run *r, const Meetings *mt, int i) {
    Meeting x = meeting_of(mt, i);
    int nc = x.nc, nr = x.nr, nt = x.nt;
    const int32_t *common = x.common, *rest = x.rest, *targets = x.targets;
    uint64_t inside = 0, twice = 0, outside = 0;
    for (int k = 0; k < nc; k++) twice |= inside & r->m[common[k]], inside |= r->m[common[k]];
    if (!twice) return 0;
    for (int k = 0; k < nr; k++) outside |= r->m[rest[k]];
    uint64_t locked = twice & ~outside;
    if (!locked) return 0;
    int changed = 0;
    for (int k = 0; k < nt; k++) {
        int c = targets[k];
        if ((r->m[c] & locked) && !r->placed[c]) remove_from(r, c, locked), changed = 1;
    }
    return changed;
}

/* Propagation.locked: one round over every meeting (``all``) or those of the
 * houses ``touched`` (ascending); they are then cleared. */
static int locked_round(Run *r, const Meetings *mt, int all, uint8_t *touched) {
    int changed = 0;
    if (all) {
        for (int i = 0; i < mt->count; i++) changed |= meeting_round(r, mt, i);
    } else {
        for (int h = 0; h < mt->houses; h++) {
            if (!touched[h]) continue;
            for (int k = mt->house_at[h]; k < mt->house_at[h + 1]; k++)
                changed |= meeting_round(r, mt, mt->data[mt->meeting_at[mt->count] + k]);
        }
    }
    memset(touched, 0, (size_t)mt->houses);
    return changed;
}

/* Propagation.pairs in one house: naked pairs (two cells with the same two
 * values, the first two of a mask in house order) then hidden pairs (two values
 * with the same two places), groups taken in the order first found. */
static int pairs_in(Run *r, int h) {
    const Geometry *g = r->g;
    const int32_t *house = g->houses + h * g->n;
    uint64_t group_mask[64];
    int group_first[64], group_second[64], group_count[64], groups = 0, changed = 0;
    for (int i = 0; i < g->n; i++) {
        int c = house[i];
        uint64_t x = r->m[c];
        if (r->placed[c] || __builtin_popcountll(x) != 2) continue;
        int k = 0;
        while (k < groups && group_mask[k] != x) k++;
        if (k == groups) group_mask[k] = x, group_count[k] = 0, groups++;
        if (group_count[k] == 0) group_first[k] = c;
        else if (group_count[k] == 1) group_second[k] = c;
        group_count[k]++;
    }
    for (int k = 0; k < groups; k++) {
        if (group_count[k] < 2) continue;
        for (int i = 0; i < g->n; i++) {
            int c = house[i];
            if (r->placed[c] || c == group_first[k] || c == group_second[k]) continue;
            if (r->m[c] & group_mask[k]) remove_from(r, c, group_mask[k]), changed = 1;
        }
    }
    uint64_t once = 0, twice = 0, more = 0;
    for (int i = 0; i < g->n; i++) {
        uint64_t x = r->m[house[i]];
        more |= twice & x, twice |= once & x, once |= x;
    }
    int place_a[64], place_b[64];
    uint64_t place_values[64];
    int found = 0;
    uint64_t two = twice & ~more;
    while (two) {
        uint64_t b = two & (~two + 1);
        two ^= b;
        int a = -1, z = -1;
        for (int i = 0; i < g->n; i++) {
            if (!(r->m[house[i]] & b)) continue;
            if (a < 0) a = house[i];
            else if (z < 0) z = house[i];
        }
        if (r->placed[a] || r->placed[z]) continue;
        int k = 0;
        while (k < found && !(place_a[k] == a && place_b[k] == z)) k++;
        if (k == found) place_a[k] = a, place_b[k] = z, place_values[k] = 0, found++;
        place_values[k] |= b;
    }
    for (int k = 0; k < found; k++) {
        uint64_t values = place_values[k];
        if (__builtin_popcountll(values) < 2) continue;
        uint64_t low = values & (~values + 1);
        uint64_t keep = low | ((values ^ low) & (~(values ^ low) + 1));
        int cells[2] = {place_a[k], place_b[k]};
        for (int j = 0; j < 2; j++)
            if (r->m[cells[j]] & ~keep) remove_from(r, cells[j], r->m[cells[j]] & ~keep), changed = 1;
    }
    return changed;
}

static int pairs_round(Run *r, int all, uint8_t *touched) {
    int changed = 0;
    for (int h = 0; h < r->g->nh; h++)
        if (all || touched[h]) changed |= pairs_in(r, h);
    memset(touched, 0, (size_t)r->g->nh);
    return changed;
}

/* Propagation.within, on the loaded state: its candidates narrowed to ``theirs``
 * (a later board's), the houses of each cell that lost some dirty, a single left
 * placed next; 0: a cell has none left, -1: an error (set). */
static int carried(const Geometry *g, PyObject *theirs, Stack *todo) {
    if (PyList_GET_SIZE(theirs) != g->cells) {
        PyErr_SetString(PyExc_ValueError, "theirs: a cell each");
        return -1;
    }
    for (int c = 0; c < g->cells; c++) {
        uint64_t mine = state.masks[c];
        uint64_t x = mine & PyLong_AsUnsignedLongLong(PyList_GET_ITEM(theirs, c));
        if (PyErr_Occurred()) return -1;
        if (x == mine) continue;
        if (!x) return 0;
        for (int k = 0; k < g->K && g->cell_houses[c * g->K + k] >= 0; k++)
            state.dirty[g->cell_houses[c * g->K + k]] = 1;
        if (!state.placed[c] && !(x & (x - 1)) && !stack_push(todo, c, value_of(x))) {
            PyErr_NoMemory();
            return -1;
        }
        state.masks[c] = x;
    }
    return 1;
}

/* settle(geometry, meetings, masks, placed, todo, dirty, touched, touched_locked,
 * locked, pairs, theirs) -> (ok, touched, touched_locked): Propagation.settle,
 * step for step, its lists and sets changed in place (the two sets of houses
 * returned); with ``theirs`` (a later board's candidates, or None), the branch
 * carried there first (Propagation.within). */
static PyObject *python_settle(PyObject *self, PyObject *args) {
    Py_buffer gb, mb;
    PyObject *masks, *placed_list, *todo_list, *dirty_set, *touched_obj, *locked_obj, *theirs;
    int locked, pairs;
    if (!PyArg_ParseTuple(args, "y*y*O!O!O!O!OOppO", &gb, &mb, &PyList_Type, &masks, &PyList_Type,
                          &placed_list, &PyList_Type, &todo_list, &PySet_Type, &dirty_set,
                          &touched_obj, &locked_obj, &locked, &pairs, &theirs))
        return NULL;
    PyObject *result = NULL;
    Stack todo = {NULL, 0, 0};
    Geometry g;
    Meetings mt;
    uint64_t was[MAX_CELLS];
    uint8_t placed_was[MAX_CELLS], seen[MAX_HOUSES], touched[MAX_HOUSES], touched_locked[MAX_HOUSES];
    int touched_none, locked_none;
    if (!geometry_of(&gb, &g) || !meetings_of(&mb, &gb, &g, &mt)) goto done;
    if (!load_lists(&g, masks, placed_list, todo_list, dirty_set, was, placed_was, &todo)) goto done;
    if (!flags_of(touched_obj, g.nh, touched, &touched_none)) goto done;
    if (!flags_of(locked_obj, g.nh, touched_locked, &locked_none)) goto done;
    Run run = {&g, state.masks, state.placed, state.dirty, &todo, 0};
    int ok = 1;
    if (theirs != Py_None) {
        if (!PyList_Check(theirs)) {
            PyErr_SetString(PyExc_TypeError, "theirs: a list or None");
            goto done;
        }
        ok = carried(&g, theirs, &todo);
        if (ok < 0) goto done;
    }
    while (ok) {
        memset(seen, 0, (size_t)g.nh);
        Count count = {0, -1};
        ok = singles_as_python(&g, state.masks, state.placed, &todo, state.dirty, seen, &count);
        for (int h = 0; h < g.nh; h++) {
            if (!touched_none) touched[h] |= seen[h];
            if (!locked_none) touched_locked[h] |= seen[h];
        }
        if (ok <= 0) break;
        if (locked) {
            int changed = locked_round(&run, &mt, locked_none, touched_locked);
            locked_none = 0;
            if (run.failed) break;
            if (changed) continue;
        }
        if (!pairs) break;
        int changed = pairs_round(&run, touched_none, touched);
        touched_none = 0;
        if (run.failed || !changed) break;
    }
    if (ok < 0 || run.failed) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    if (!store_lists(&g, masks, placed_list, todo_list, dirty_set, was, placed_was, &todo)) goto done;
    PyObject *a = set_of(touched, g.nh, touched_none), *b = set_of(touched_locked, g.nh, locked_none);
    if (a && b) result = Py_BuildValue("(ONN)", ok ? Py_True : Py_False, a, b);
    else Py_XDECREF(a), Py_XDECREF(b);
done:
    PyMem_Free(todo.items);
    PyBuffer_Release(&gb);
    PyBuffer_Release(&mb);
    return result;
}

/* --- a logical path's singles, one at a time, as the path takes them --- */

/* Sudoku Explainer's weight of the easiest single on the board, in tenths: a
 * house's last open cell 10, a hidden single in a box 12, in another house 15,
 * else (a naked single) 23; as sudosat.logic.solve_path.easiest_single. */
static int easiest_single(const Geometry *g, const uint64_t *m, const uint8_t *placed,
                          int box_first, int box_last) {
    int best = 23;
    for (int h = 0; h < g->nh; h++) {
        const int32_t *house = g->houses + h * g->n;
        uint64_t once = 0, twice = 0, held = 0;
        int left = 0;
        for (int i = 0; i < g->n; i++) {
            int c = house[i];
            if (placed[c]) {
                held |= (uint64_t)1 << (placed[c] - 1);
                continue;
            }
            left++;
            twice |= once & m[c];
            once |= m[c];
        }
        if (left == 1) return 10;
        if (once & ~twice & ~held) {
            int kind = (h >= box_first && h < box_last) ? 12 : 15;
            if (kind < best) best = kind;
        }
    }
    return best;
}

/* Board.contradiction: a cell without a candidate, or a house without a place
 * for a value. */
static int broken(const Geometry *g, const uint64_t *m, uint64_t full) {
    for (int c = 0; c < g->cells; c++)
        if (!m[c]) return 1;
    for (int h = 0; h < g->nh; h++) {
        const int32_t *house = g->houses + h * g->n;
        uint64_t left = 0;
        for (int i = 0; i < g->n; i++) left |= m[house[i]];
        if (left != full) return 1;
    }
    return 0;
}

/* The path's next single: the first open cell with one candidate (naked, 1), else
 * the first house, then value, with one place (hidden, 2); 0: none. */
static int next_single(const Geometry *g, const uint64_t *m, const uint8_t *placed, int *cell,
                       int *value) {
    for (int c = 0; c < g->cells; c++) {
        if (!placed[c] && m[c] && !(m[c] & (m[c] - 1))) {
            *cell = c, *value = value_of(m[c]);
            return 1;
        }
    }
    for (int h = 0; h < g->nh; h++) {
        const int32_t *house = g->houses + h * g->n;
        uint64_t once = 0, twice = 0, held = 0;
        for (int i = 0; i < g->n; i++) {
            int c = house[i];
            if (placed[c]) {
                held |= (uint64_t)1 << (placed[c] - 1);
                continue;
            }
            twice |= once & m[c];
            once |= m[c];
        }
        uint64_t lone = once & ~twice & ~held;
        if (!lone) continue;
        uint64_t b = lone & (~lone + 1);
        for (int i = 0; i < g->n; i++) {
            int c = house[i];
            if (!placed[c] && (m[c] & b)) {
                *cell = c, *value = value_of(b);
                return 2;
            }
        }
    }
    return 0;
}

/* path_singles(geometry, masks, placed, box_first, box_last) -> (end, naked,
 * hidden, first, heaviest): the singles a logical path takes one at a time from
 * the board (Path.path with naked_single, then hidden_single, each applied as
 * Board.apply does), until a contradiction (end 2), the grid is full (1) or none
 * is left (0); the lists changed in place. ``first`` and ``heaviest``: Sudoku
 * Explainer's weight (easiest_single) of the board before the first single and
 * the most of any, in tenths (0: no single). */
static PyObject *path_singles(PyObject *self, PyObject *args) {
    Py_buffer gb;
    PyObject *masks, *placed_list;
    int box_first, box_last;
    if (!PyArg_ParseTuple(args, "y*O!O!ii", &gb, &PyList_Type, &masks, &PyList_Type, &placed_list,
                          &box_first, &box_last))
        return NULL;
    PyObject *result = NULL;
    Geometry g;
    uint64_t was[MAX_CELLS];
    uint8_t placed_was[MAX_CELLS];
    Stack none = {NULL, 0, 0};
    if (!geometry_of(&gb, &g)) goto done;
    PyObject *no_todo = PyList_New(0), *no_dirty = PySet_New(NULL);
    int loaded = no_todo && no_dirty &&
                 load_lists(&g, masks, placed_list, no_todo, no_dirty, was, placed_was, &none);
    Py_XDECREF(no_todo);
    Py_XDECREF(no_dirty);
    if (!loaded) goto done;
    uint64_t full = g.n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << g.n) - 1);
    uint64_t *m = state.masks;
    uint8_t *placed = state.placed;
    int end = 0, naked = 0, hidden = 0, first = 0, heaviest = 0;
    for (;;) {
        if (broken(&g, m, full)) {
            end = 2;
            break;
        }
        int open = 0;
        for (int c = 0; c < g.cells && !open; c++) open = !placed[c];
        if (!open) {
            end = 1;
            break;
        }
        int cell, value, kind = next_single(&g, m, placed, &cell, &value);
        if (!kind) break;
        int weight = easiest_single(&g, m, placed, box_first, box_last);
        if (!naked && !hidden) first = weight;
        if (weight > heaviest) heaviest = weight;
        if (kind == 1) naked++;
        else hidden++;
        uint64_t b = (uint64_t)1 << (value - 1);
        for (int k = 0; k < g.P; k++) {
            int p = g.peers[cell * g.P + k];
            if (p < 0) break;
            m[p] &= ~b;
        }
        m[cell] = b;
        placed[cell] = (uint8_t)value;
    }
    for (int c = 0; c < g.cells; c++) {
        if (m[c] != was[c]) {
            PyObject *x = PyLong_FromUnsignedLongLong(m[c]);
            if (!x || PyList_SetItem(masks, c, x) < 0) goto done;
        }
        if (placed[c] != placed_was[c]) {
            PyObject *x = PyLong_FromLong(placed[c]);
            if (!x || PyList_SetItem(placed_list, c, x) < 0) goto done;
        }
    }
    result = Py_BuildValue("(iiiii)", end, naked, hidden, first, heaviest);
done:
    PyBuffer_Release(&gb);
    return result;
}

/* --- whether a technique finds a step: the path asks Python only where one does --- */

static int popcount(uint64_t x) { return __builtin_popcountll(x); }

/* Locked candidates (techniques.locked_candidates): a meeting of two houses
 * where a value not placed in the first lies in two or more of its open cells,
 * all where they meet, and in an open cell of the second's rest. */
static int finds_locked(const Geometry *g, const Meetings *mt, const uint64_t *m,
                        const uint8_t *placed, int *meeting, int *value) {
    for (int i = 0; i < mt->count; i++) {
        Meeting x = meeting_of(mt, i);
        int nc = x.nc, nr = x.nr, nt = x.nt;
        const int32_t *common = x.common, *rest = x.rest, *targets = x.targets;
        uint64_t inside = 0, twice = 0, outside = 0, held = 0, there = 0;
        for (int k = 0; k < nc; k++) {
            int c = common[k];
            if (placed[c]) held |= (uint64_t)1 << (placed[c] - 1);
            else twice |= inside & m[c], inside |= m[c];
        }
        if (!twice) continue;
        for (int k = 0; k < nr; k++) {
            int c = rest[k];
            if (placed[c]) held |= (uint64_t)1 << (placed[c] - 1);
            else outside |= m[c];
        }
        for (int k = 0; k < nt; k++)
            if (!placed[targets[k]]) there |= m[targets[k]];
        uint64_t locked = twice & ~outside & ~held & there;
        if (locked) {
            *meeting = i, *value = value_of(locked & (~locked + 1));
            return 1;
        }
    }
    return 0;
}

/* The next ``k``-combination of 0..n-1 in ``at`` (lexicographic, as
 * itertools.combinations); 0 after the last. */
static int next_combination(int *at, int k, int n) {
    int i = k - 1;
    while (i >= 0 && at[i] == n - k + i) i--;
    if (i < 0) return 0;
    at[i]++;
    for (int j = i + 1; j < k; j++) at[j] = at[j - 1] + 1;
    return 1;
}

/* Naked subsets of ``size`` (techniques.naked_subset): in a house of more open
 * cells than ``size``, that many cells of 2..size candidates holding ``size``
 * values between them, one of which another open cell holds. */
static int finds_naked(const Geometry *g, const uint64_t *m, const uint8_t *placed, int size) {
    int open[64], small[64], at[8];
    for (int h = 0; h < g->nh; h++) {
        const int32_t *house = g->houses + h * g->n;
        int no = 0, ns = 0;
        for (int i = 0; i < g->n; i++) {
            int c = house[i];
            if (placed[c]) continue;
            open[no++] = c;
            int p = popcount(m[c]);
            if (p >= 2 && p <= size) small[ns++] = c;
        }
        if (no <= size || ns < size) continue;
        for (int i = 0; i < size; i++) at[i] = i;
        do {
            uint64_t both = 0;
            for (int i = 0; i < size; i++) both |= m[small[at[i]]];
            if (popcount(both) != size) continue;
            for (int j = 0; j < no; j++) {
                int c = open[j], in = 0;
                for (int i = 0; i < size; i++) in |= small[at[i]] == c;
                if (!in && (m[c] & both)) return 1;
            }
        } while (next_combination(at, size, ns));
    }
    return 0;
}

/* Hidden subsets of ``size`` (techniques.hidden_subset): in a house of more open
 * cells than ``size``, that many values not placed there, each with 2..size
 * places, lying in ``size`` cells between them, one of which holds another value. */
static int finds_hidden(const Geometry *g, const uint64_t *m, const uint8_t *placed, int size) {
    uint64_t where[64];
    int few[64], at[8];
    for (int h = 0; h < g->nh; h++) {
        const int32_t *house = g->houses + h * g->n;
        int no = 0;
        uint64_t held = 0;
        for (int i = 0; i < g->n; i++) {
            int c = house[i];
            if (placed[c]) held |= (uint64_t)1 << (placed[c] - 1);
            else no++;
        }
        if (no <= size) continue;
        int nf = 0;
        for (int v = 0; v < g->n; v++) {
            if (held >> v & 1) continue;
            uint64_t spots = 0;
            for (int i = 0; i < g->n; i++)
                if (!placed[house[i]] && (m[house[i]] >> v & 1)) spots |= (uint64_t)1 << i;
            int p = popcount(spots);
            if (p >= 2 && p <= size) where[nf] = spots, few[nf++] = v;
        }
        if (nf < size) continue;
        for (int i = 0; i < size; i++) at[i] = i;
        do {
            uint64_t cells = 0, kept = 0;
            for (int i = 0; i < size; i++) cells |= where[at[i]], kept |= (uint64_t)1 << few[at[i]];
            if (popcount(cells) != size) continue;
            for (int i = 0; i < g->n; i++)
                if ((cells >> i & 1) && (m[house[i]] & ~kept)) return 1;
        } while (next_combination(at, size, nf));
    }
    return 0;
}

/* Fish of ``size`` (techniques.fish): for a value, that many rows (columns) with
 * 2..size open places for it, all in ``size`` columns (rows), one of which has
 * an open place for it outside those rows. Rows are the first n houses,
 * columns the next n, cell r * n + c. */
/* The places of ``v`` in each row (``by_rows``) or column, by their cross lines
 * (``spots``), and the lines with 2 to ``most`` of them (``lines``, their
 * indices in ``base``): how many. */
static int fish_lines(int n, const uint64_t *m, const uint8_t *placed, int v, int by_rows,
                      int most, uint64_t *spots, uint64_t *lines, int *base) {
    uint64_t b = (uint64_t)1 << v;
    int nb = 0;
    for (int i = 0; i < n; i++) {
        spots[i] = 0;
        for (int j = 0; j < n; j++) {
            int c = by_rows ? i * n + j : j * n + i;
            if (!placed[c] && (m[c] & b)) spots[i] |= (uint64_t)1 << j;
        }
        int p = popcount(spots[i]);
        if (p >= 2 && p <= most) lines[nb] = spots[i], base[nb++] = i;
    }
    return nb;
}

static int finds_fish(const Geometry *g, const uint64_t *m, const uint8_t *placed, int size) {
    int n = g->n, at[8], base[64];
    uint64_t lines[64], spots[64];
    for (int v = 0; v < n; v++) {
        for (int by_rows = 1; by_rows >= 0; by_rows--) {
            int nb = fish_lines(n, m, placed, v, by_rows, size, spots, lines, base);
            if (nb < size) continue;
            for (int i = 0; i < size; i++) at[i] = i;
            do {
                uint64_t covers = 0, bases = 0;
                for (int i = 0; i < size; i++)
                    covers |= lines[at[i]], bases |= (uint64_t)1 << base[at[i]];
                if (popcount(covers) != size) continue;
                for (int i = 0; i < n; i++)
                    if (!(bases >> i & 1) && (spots[i] & covers)) return 1;
            } while (next_combination(at, size, nb));
        }
    }
    return 0;
}

/* Finned fish (intermediate.finned_fish): ``size`` lines whose places for a value
 * lie in ``size`` cross lines but for the fins, every fin in one region (the
 * houses 2n to 3n-1), a place of the region in a cross line outside the lines
 * to remove. Each line has 2 to size+3 places; the cross lines are those the
 * places outside the fins' region need, and as many more of the lines' own as
 * it takes; the fins are the places outside them (one at least), and every
 * line keeps a place in them. 1 found, 0 none. */
static int finds_finned(const Geometry *g, const uint64_t *m, const uint8_t *placed, int size) {
    int n = g->n, at[8], base[64];
    uint64_t lines[64], spots[64];
    for (int v = 0; v < n; v++) {
        uint64_t b = (uint64_t)1 << v;
        for (int by_rows = 1; by_rows >= 0; by_rows--) {
            int nb = fish_lines(n, m, placed, v, by_rows, size + 3, spots, lines, base);
            if (nb < size) continue;
            for (int i = 0; i < size; i++) at[i] = i;
            do {
                uint64_t uni = 0, bases = 0;
                for (int i = 0; i < size; i++)
                    uni |= lines[at[i]], bases |= (uint64_t)1 << base[at[i]];
                int width = popcount(uni);
                if (width <= size || width > size + 3) continue;
                for (int r = 2 * n; r < 3 * n && r < g->nh; r++) {
                    const int32_t *region = g->houses + r * n;
                    uint64_t part[8] = {0}, must = 0;
                    int touched = 0;
                    for (int k = 0; k < n; k++) { /* the group's places in region r */
                        int c = region[k];
                        if (placed[c] || !(m[c] & b)) continue;
                        int line = by_rows ? c / n : c % n, cross = by_rows ? c % n : c / n;
                        for (int i = 0; i < size; i++)
                            if (base[at[i]] == line) part[i] |= (uint64_t)1 << cross, touched = 1;
                    }
                    if (!touched) continue;
                    for (int i = 0; i < size; i++) must |= lines[at[i]] & ~part[i];
                    int need = size - popcount(must);
                    if (need < 0) continue;
                    uint64_t rest = uni & ~must;
                    for (uint64_t sub = rest;; sub = (sub - 1) & rest) { /* each cover set */
                        if (popcount(sub) == need) {
                            uint64_t covers = must | sub;
                            int ok = (uni & ~covers) != 0;
                            for (int i = 0; i < size && ok; i++) ok = (lines[at[i]] & covers) != 0;
                            for (int k = 0; k < n && ok; k++) {
                                int c = region[k];
                                if (placed[c] || !(m[c] & b)) continue;
                                int line = by_rows ? c / n : c % n;
                                int cross = by_rows ? c % n : c / n;
                                if ((covers >> cross & 1) && !(bases >> line & 1)) return 1;
                            }
                        }
                        if (!sub) break;
                    }
                }
            } while (next_combination(at, size, nb));
        }
    }
    return 0;
}

/* Empty rectangles (intermediate.empty_rectangle): a value whose places in a
 * region (the houses 2n to 3n-1) lie in one row and one column of it, not in one
 * alone; a strong link in a column from that row outside the region (or in a
 * row from that column) whose other end's row (column) meets the region's
 * column (row) outside it on a place of the value. 1 found, 0 none. */
static int finds_empty_rectangle(const Geometry *g, const uint64_t *m, const uint8_t *placed) {
    int n = g->n, region[MAX_CELLS], count[2 * 64];
    if (g->nh < 3 * n) return 0;
    for (int r = 2 * n; r < 3 * n; r++)
        for (int k = 0; k < n; k++) region[g->houses[r * n + k]] = r;
    for (int v = 0; v < n; v++) {
        uint64_t b = (uint64_t)1 << v;
        int any = 0;
        for (int line = 0; line < 2 * n; line++) {
            count[line] = 0;
            for (int k = 0; k < n; k++) {
                int c = line < n ? line * n + k : k * n + (line - n);
                count[line] += !placed[c] && (m[c] & b);
            }
            any |= count[line] == 2;
        }
        if (!any) continue;
        for (int r = 2 * n; r < 3 * n; r++) {
            const int32_t *box = g->houses + r * n;
            uint64_t rows = 0, cols = 0;
            int places = 0;
            for (int k = 0; k < n; k++) {
                int c = box[k];
                if (placed[c] || !(m[c] & b)) continue;
                places++, rows |= (uint64_t)1 << (c / n), cols |= (uint64_t)1 << (c % n);
            }
            if (places < 2 || popcount(rows) == 1 || popcount(cols) == 1) continue;
            for (uint64_t rs = rows; rs; rs &= rs - 1) {
                int row = __builtin_ctzll(rs);
                for (uint64_t cs = cols; cs; cs &= cs - 1) {
                    int column = __builtin_ctzll(cs), crossed = 1;
                    for (int k = 0; k < n && crossed; k++) {
                        int c = box[k];
                        if (!placed[c] && (m[c] & b)) crossed = c / n == row || c % n == column;
                    }
                    if (!crossed) continue;
                    for (int across = 1; across >= 0; across--)
                        for (int k = 0; k < n; k++) {
                            int near = across ? row * n + k : k * n + column;
                            if (placed[near] || !(m[near] & b)) continue;
                            int other = across ? n + near % n : near / n;
                            if (count[other] != 2 || region[near] == r) continue;
                            int far = -1;
                            for (int j = 0; j < n; j++) {
                                int c = other < n ? other * n + j : j * n + (other - n);
                                if (c != near && !placed[c] && (m[c] & b)) far = c;
                            }
                            int target = across ? (far / n) * n + column : row * n + far % n;
                            if (region[target] == r || target == far || placed[target]) continue;
                            if (m[target] & b) return 1;
                        }
                }
            }
        }
    }
    return 0;
}

/* Whether ``item`` is in ``list`` (of ``length`` at most, ended early by -1). */
static int listed(const int32_t *list, int length, int item) {
    for (int k = 0; k < length && list[k] >= 0; k++)
        if (list[k] == item) return 1;
    return 0;
}

/* Whether ``cell`` lies in the house ``h``. */
static int in_house(const Geometry *g, int cell, int h) {
    return listed(g->cell_houses + cell * g->K, g->K, h);
}

/* A unique rectangle's step of any type (intermediate.unique_rectangle): four
 * open cells in two rows, two columns and two regions, each holding the pair of
 * a two-valued one; type 1 (one holds more), 2 (the other two hold one same
 * value more, which a cell seeing both holds), 4 (the other two, in one row or
 * column, are a value's only places in a house they share), 3 (their other
 * values and one or two cells of a house they share, none holding the pair:
 * as many values as cells, which a further cell of the house holds). 1 found. */
static int finds_unique_rectangle(const Geometry *g, const uint64_t *m, const uint8_t *placed) {
    int n = g->n, region[MAX_CELLS];
    if (g->nh < 3 * n) return 0;
    for (int r = 2 * n; r < 3 * n; r++)
        for (int k = 0; k < n; k++) region[g->houses[r * n + k]] = r;
    for (int a = 0; a < g->cells; a++) {
        uint64_t pair = m[a];
        if (placed[a] || popcount(pair) != 2) continue;
        int row = a / n, column = a % n;
        for (int j = 0; j < n; j++) {
            int b = row * n + j;
            if (j == column || placed[b] || (m[b] & pair) != pair) continue;
            for (int i = 0; i < n; i++) {
                int c = i * n + column, d = i * n + j;
                if (i == row || placed[c] || placed[d]) continue;
                if ((m[c] & pair) != pair || (m[d] & pair) != pair) continue;
                int corners[4] = {a, b, c, d}, roof[4], nr = 0, regions = 0, seen[4];
                for (int k = 0; k < 4; k++) {
                    int fresh = 1;
                    for (int q = 0; q < regions; q++) fresh &= seen[q] != region[corners[k]];
                    if (fresh) seen[regions++] = region[corners[k]];
                    if (m[corners[k]] != pair) roof[nr++] = corners[k];
                }
                if (regions != 2) continue;
                if (nr == 1) return 1;
                if (nr != 2) continue;
                int p = roof[0] < roof[1] ? roof[0] : roof[1], q = roof[0] ^ roof[1] ^ p;
                uint64_t extra_p = m[p] & ~pair, extra_q = m[q] & ~pair;
                if (extra_p == extra_q && popcount(extra_p) == 1) { /* type 2 */
                    for (int k = 0; k < g->P; k++) {
                        int x = g->peers[p * g->P + k];
                        if (x < 0) break;
                        if (placed[x] || !(m[x] & extra_p)) continue;
                        for (int t = 0; t < g->P; t++) {
                            int y = g->peers[q * g->P + t];
                            if (y < 0) break;
                            if (y == x) return 1;
                        }
                    }
                }
                if (p / n != q / n && p % n != q % n) continue;
                uint64_t extra = (m[p] | m[q]) & ~pair;
                for (int k = 0; k < g->K; k++) {
                    int h = g->cell_houses[p * g->K + k];
                    if (h < 0) break;
                    if (!in_house(g, q, h)) continue;
                    const int32_t *house = g->houses + h * n;
                    for (uint64_t vs = pair; vs; vs &= vs - 1) { /* type 4 */
                        uint64_t only = vs & -vs;
                        int places = 0, ours = 0;
                        for (int t = 0; t < n; t++) {
                            int x = house[t];
                            if (placed[x] || !(m[x] & only)) continue;
                            places++, ours += x == p || x == q;
                        }
                        if (places == 2 && ours == 2) return 1;
                    }
                    int others[64], no = 0; /* type 3 */
                    for (int t = 0; t < n; t++) {
                        int x = house[t];
                        if (x != p && x != q && !placed[x]) others[no++] = x;
                    }
                    for (int u = 0; u < no; u++) {
                        if (m[others[u]] & pair) continue;
                        for (int w = u; w < no; w++) {
                            if (w > u && (m[others[w]] & pair)) continue;
                            uint64_t held = extra | m[others[u]] | (w > u ? m[others[w]] : 0);
                            if (popcount(held) != (w > u ? 3 : 2)) continue;
                            for (int t = 0; t < no; t++)
                                if (t != u && t != w && (m[others[t]] & held)) return 1;
                        }
                    }
                }
            }
        }
    }
    return 0;
}

/* Alternating chains (alternating.chain): from a candidate with a strong link,
 * assumed false, within CHAIN_LINKS links (strong: the only other place in a
 * house, or, XY and AIC, the other value of a bivalue cell; weak: a peer's same
 * value, or, AIC, another value of the cell), a candidate proved true such that
 * "one of the two is true" removes something; no candidate passed twice (a
 * state whose candidate was reached the other way first is checked against
 * its chain, as alternating._passed). ``kind``: 0 X-chain (places of one
 * value), 1 XY-chain (bivalue cells alone), 2 AIC. A chain to a candidate weakly
 * linked to the start closes a continuous loop, which removes along every weak
 * link (alternating._chain_from).
 * ``shortest``: go on past the
 * first start that finds one, each later start looking for a shorter chain
 * only: ``*best_start`` and ``*best_links`` say the first start of the
 * shortest and its links. 1 found, 0 none, -1 out of memory. */
#define CHAIN_LINKS 16
static int passed(const int32_t *parent, int state, int node) {
    for (; state >= 0; state = parent[state])
        if (state >> 1 == node) return 1;
    return 0;
}

static int sees(const Geometry *g, int a, int b) { return listed(g->peers + a * g->P, g->P, b); }

/* Whether "a or e is true" (candidates as cell * n + value) removes something,
 * as alternating._either_removes: a continuous loop's weak links. */
static int either_removes(const Geometry *g, const uint64_t *m, int a, int e) {
    int n = g->n, ca = a / n, va = a % n, ce = e / n, ve = e % n;
    uint64_t ba = (uint64_t)1 << va, be = (uint64_t)1 << ve;
    if (va == ve) {
        if (ca == ce) return 0;
        for (int k = 0; k < g->P; k++) {
            int p = g->peers[ce * g->P + k];
            if (p < 0) break;
            if ((m[p] & ba) && sees(g, ca, p)) return 1;
        }
        return 0;
    }
    if (ca == ce) return (m[ca] & ~(ba | be)) != 0;
    return sees(g, ca, ce) && ((m[ca] & be) || (m[ce] & ba));
}

static int finds_chain(const Geometry *g, const uint64_t *m, const uint8_t *placed, int kind,
                       int shortest, int *best_start, int *best_links) {
    int n = g->n, cells = g->cells, K = g->K + 1, found = -1;
    int total = cells * n;
    int32_t *strong = PyMem_Malloc(sizeof(int32_t) * (size_t)total * K);
    uint8_t *count = PyMem_Calloc((size_t)total, 1);
    int32_t *seen = PyMem_Calloc((size_t)total * 2, sizeof(int32_t));
    int32_t *parent = PyMem_Malloc(sizeof(int32_t) * (size_t)total * 2);
    int32_t *queue = PyMem_Malloc(sizeof(int32_t) * (size_t)total * 2);
    int32_t *mark = PyMem_Calloc((size_t)cells, sizeof(int32_t));
    if (!strong || !count || !seen || !parent || !queue || !mark) goto done;
    found = 0;
    *best_start = -1, *best_links = 0;
    int limit = CHAIN_LINKS;
    if (kind != 0) /* a bivalue cell's two values */
        for (int c = 0; c < cells; c++) {
            if (placed[c] || popcount(m[c]) != 2) continue;
            int a = c * n + __builtin_ctzll(m[c]), b = c * n + 63 - __builtin_clzll(m[c]);
            strong[a * K + count[a]++] = b, strong[b * K + count[b]++] = a;
        }
    if (kind != 1) /* a value's two places in a house */
        for (int h = 0; h < g->nh; h++) {
            const int32_t *house = g->houses + h * n;
            for (int v = 0; v < n; v++) {
                int p = -1, q = -1, k = 0;
                for (int i = 0; i < n && k < 3; i++) {
                    int c = house[i];
                    if (!placed[c] && (m[c] >> v & 1)) (k++ ? (q = c) : (p = c));
                }
                if (k != 2) continue;
                int a = p * n + v, b = q * n + v, dup = 0;
                for (int i = 0; i < count[a]; i++) dup |= strong[a * K + i] == b;
                if (dup) continue; /* (two cells alike in a row and a box) */
                if (count[a] < K && count[b] < K)
                    strong[a * K + count[a]++] = b, strong[b * K + count[b]++] = a;
            }
        }
    int stamp = 0;
    for (int start = 0; start < total && limit >= 1; start++) {
        if (!count[start]) continue;
        found = 0;
        stamp++;
        int ca = start / n, va = start % n;
        for (int k = 0; k < g->P; k++) {
            int p = g->peers[ca * g->P + k];
            if (p < 0) break;
            mark[p] = stamp;
        }
        int head = 0, tail = 0;
        seen[start * 2] = stamp; /* (start, false) */
        parent[start * 2] = -1;
        queue[tail++] = start * 2;
        int layer = 0;
        for (; layer < limit && head < tail && !found; layer++) {
            int end = tail;
            for (; head < end && !found; head++) {
                int at = queue[head], node = at >> 1, truth = at & 1;
                int c = node / n, v = node % n;
                if (!truth) {
                    for (int i = 0; i < count[node] && !found; i++) {
                        int next = strong[node * K + i];
                        if (next == start || seen[next * 2 + 1] == stamp) continue;
                        if (seen[next * 2] == stamp && passed(parent, at, next)) continue;
                        seen[next * 2 + 1] = stamp;
                        parent[next * 2 + 1] = at;
                        queue[tail++] = next * 2 + 1;
                        int ce = next / n, ve = next % n; /* proved true: start or next */
                        uint64_t ba = (uint64_t)1 << va, be = (uint64_t)1 << ve;
                        if (ve == va ? ce != ca && mark[ce] == stamp
                                           && (kind != 1 || popcount(m[ce]) == 2)
                                     : kind == 2 && ce == ca) { /* a continuous loop */
                            found = either_removes(g, m, next, start);
                            for (int s = at; !found && parent[s] >= 0; s = parent[parent[s]])
                                found = either_removes(g, m, parent[s] >> 1, s >> 1);
                            continue;
                        }
                        if (ve == va) {
                            if (ce == ca) continue;
                            for (int k = 0; k < g->P && !found; k++) {
                                int p = g->peers[ce * g->P + k];
                                if (p < 0) break;
                                found = mark[p] == stamp && (m[p] & ba);
                            }
                        } else if (ce == ca) {
                            found = (m[ca] & ~(ba | be)) != 0;
                        } else if (mark[ce] == stamp) {
                            found = (m[ca] & be) || (m[ce] & ba);
                        }
                    }
                } else {
                    uint64_t b = (uint64_t)1 << v;
                    for (int k = 0; k < g->P; k++) {
                        int p = g->peers[c * g->P + k];
                        if (p < 0) break;
                        if (placed[p] || !(m[p] & b) || (kind == 1 && popcount(m[p]) != 2))
                            continue;
                        int next = p * n + v;
                        if (next == start || seen[next * 2] == stamp) continue;
                        if (seen[next * 2 + 1] == stamp && passed(parent, at, next)) continue;
                        seen[next * 2] = stamp;
                        parent[next * 2] = at;
                        queue[tail++] = next * 2;
                    }
                    if (kind == 2)
                        for (uint64_t rest = m[c] & ~b; rest; rest &= rest - 1) {
                            int next = c * n + __builtin_ctzll(rest);
                            if (next == start || seen[next * 2] == stamp) continue;
                            if (seen[next * 2 + 1] == stamp && passed(parent, at, next)) continue;
                            seen[next * 2] = stamp;
                            parent[next * 2] = at;
                            queue[tail++] = next * 2;
                        }
                }
            }
        }
        if (found) { /* (found in the layer just done: layer links) */
            *best_start = start, *best_links = layer;
            if (!shortest) break;
            limit = layer - 2;
        }
    }
    found = *best_start >= 0;
done:
    PyMem_Free(strong);
    PyMem_Free(count);
    PyMem_Free(parent);
    PyMem_Free(seen);
    PyMem_Free(queue);
    PyMem_Free(mark);
    return found;
}

/* --- almost locked sets (intermediate.als_xz, intermediate.als_xy_wing) ------- */

/* Sets of up to 128 cells (grids up to 11x11; the sets are asked up to 9x9). */
typedef struct {
    uint64_t w[2];
} Cells;

static inline void cells_add(Cells *s, int c) { s->w[c >> 6] |= (uint64_t)1 << (c & 63); }
static inline int cells_any(Cells a) { return (a.w[0] | a.w[1]) != 0; }
static inline Cells cells_and(Cells a, Cells b) { return (Cells){{a.w[0] & b.w[0], a.w[1] & b.w[1]}}; }
static inline Cells cells_minus(Cells a, Cells b) {
    return (Cells){{a.w[0] & ~b.w[0], a.w[1] & ~b.w[1]}};
}

#define ALS_CELLS 4
#define ALS_MOST 8192
#define ALS_VALUES 16
typedef struct {
    Cells cells;
    uint64_t mask;
    Cells holders[ALS_VALUES]; /* its cells holding each value */
    Cells seen[ALS_VALUES];    /* the cells that see every one of those */
} Als;

static Als als_found[ALS_MOST];
static int32_t als_partner[ALS_MOST], als_common[ALS_MOST];

/* Every almost locked set, house by house, fewest cells first, cells in the
 * house's order: ``size`` open cells (1 to ALS_CELLS, fewer than the house's
 * open cells) holding ``size`` + 1 values between them. How many. */
static int als_sets(const Geometry *g, const uint64_t *m, const uint8_t *placed,
                    const Cells *peers) {
    int n = g->n, count = 0, at[ALS_CELLS];
    for (int h = 0; h < g->nh; h++) {
        const int32_t *house = g->houses + h * n;
        int open[64], no = 0;
        for (int k = 0; k < n; k++)
            if (!placed[house[k]]) open[no++] = house[k];
        for (int size = 1; size <= ALS_CELLS && size < no; size++) {
            for (int i = 0; i < size; i++) at[i] = i;
            do {
                uint64_t mask = 0;
                for (int i = 0; i < size; i++) mask |= m[open[at[i]]];
                if (popcount(mask) != size + 1 || count >= ALS_MOST) continue;
                Als *a = &als_found[count++];
                memset(a, 0, sizeof(Als));
                a->mask = mask;
                for (uint64_t vs = mask; vs; vs &= vs - 1) {
                    int v = __builtin_ctzll(vs);
                    a->seen[v] = (Cells){{~(uint64_t)0, ~(uint64_t)0}};
                }
                for (int i = 0; i < size; i++) {
                    int c = open[at[i]];
                    cells_add(&a->cells, c);
                    for (uint64_t vs = m[c]; vs; vs &= vs - 1) {
                        int v = __builtin_ctzll(vs);
                        cells_add(&a->holders[v], c);
                        a->seen[v] = cells_and(a->seen[v], peers[c]);
                    }
                }
            } while (next_combination(at, size, no));
        }
    }
    return count;
}

/* A set's cells as a tuple, in order (0 on an error, set). */
static PyObject *als_cells(const Als *a) {
    PyObject *cells = PyList_New(0);
    for (int w = 0; w < 2 && cells; w++)
        for (uint64_t bits = a->cells.w[w]; bits; bits &= bits - 1) {
            PyObject *cell = PyLong_FromLong(w * 64 + __builtin_ctzll(bits));
            if (!cell || PyList_Append(cells, cell) < 0) Py_CLEAR(cells);
            Py_XDECREF(cell);
            if (!cells) break;
        }
    PyObject *found = cells ? PyList_AsTuple(cells) : NULL;
    Py_XDECREF(cells);
    return found;
}

/* Whether ``x`` is a restricted common value of two disjoint sets: every cell of
 * one holding it sees every cell of the other holding it. */
static inline int als_rcc(const Als *a, const Als *b, int x) {
    return !cells_any(cells_minus(b->holders[x], a->seen[x]));
}

/* Whether an open cell outside both sets holds ``z`` and sees every cell of both
 * that holds it (``holding``: the open cells holding each value). */
static inline int als_removes(const Als *a, const Als *b, int z, const Cells *holding) {
    Cells t = cells_and(cells_and(a->seen[z], b->seen[z]), holding[z]);
    return cells_any(cells_minus(cells_minus(t, a->cells), b->cells));
}

/* als(geometry, masks, placed, wing) -> None or the first step's sets and values,
 * in the order intermediate.py asks them: ALS-XZ (wing 0) as (a, b, x), the
 * cells of two disjoint sets and their restricted common value (1-based), some
 * other common value of which a cell outside sees them all; ALS-XY-wing (wing
 * 1) as (a, b, c, x, y): c's restricted commons x with a and y with b, a and b
 * disjoint, some value of a and b but x and y so seen. */
static PyObject *python_als(PyObject *self, PyObject *args) {
    Py_buffer gb;
    PyObject *masks, *placed_list, *result = NULL;
    int wing;
    if (!PyArg_ParseTuple(args, "y*O!O!i", &gb, &PyList_Type, &masks, &PyList_Type, &placed_list,
                          &wing))
        return NULL;
    Geometry g;
    if (!geometry_of(&gb, &g)) goto done;
    if (PyList_GET_SIZE(masks) != g.cells || PyList_GET_SIZE(placed_list) != g.cells ||
        g.cells > 128 || g.n > ALS_VALUES) {
        PyErr_SetString(PyExc_ValueError, "als: a board's masks and placed, up to 128 cells");
        goto done;
    }
    if (!read_board(&g, masks, placed_list)) goto done;
    const uint64_t *m = state.masks;
    const uint8_t *placed = state.placed;
    Cells peers[128], holding[ALS_VALUES];
    memset(peers, 0, sizeof(peers));
    memset(holding, 0, sizeof(holding));
    for (int c = 0; c < g.cells; c++) {
        for (int k = 0; k < g.P; k++) {
            int p = g.peers[c * g.P + k];
            if (p < 0) break;
            cells_add(&peers[c], p);
        }
        if (!placed[c])
            for (uint64_t vs = m[c]; vs; vs &= vs - 1) cells_add(&holding[__builtin_ctzll(vs)], c);
    }
    int count = als_sets(&g, m, placed, peers);
    const Als *sets = als_found;
    if (!wing) {
        for (int a = 0; a < count; a++)
            for (int b = 0; b < count; b++) {
                uint64_t both = sets[a].mask & sets[b].mask;
                if (a == b || popcount(both) < 2) continue;
                if (cells_any(cells_and(sets[a].cells, sets[b].cells))) continue;
                for (uint64_t xs = both; xs; xs &= xs - 1) {
                    int x = __builtin_ctzll(xs);
                    if (!als_rcc(&sets[a], &sets[b], x)) continue;
                    for (uint64_t zs = both & ~((uint64_t)1 << x); zs; zs &= zs - 1)
                        if (als_removes(&sets[a], &sets[b], __builtin_ctzll(zs), holding)) {
                            result = Py_BuildValue("(NNi)", als_cells(&sets[a]),
                                                   als_cells(&sets[b]), x + 1);
                            goto done;
                        }
                }
            }
    } else {
        for (int c = 0; c < count; c++) {
            int np = 0; /* c's partners: a set and a restricted common value */
            for (int a = 0; a < count; a++) {
                uint64_t both = sets[a].mask & sets[c].mask;
                if (a == c || !both || cells_any(cells_and(sets[a].cells, sets[c].cells)))
                    continue;
                for (uint64_t xs = both; xs; xs &= xs - 1)
                    if (als_rcc(&sets[a], &sets[c], __builtin_ctzll(xs)) && np < ALS_MOST)
                        als_partner[np] = a, als_common[np++] = __builtin_ctzll(xs);
            }
            for (int i = 0; i < np; i++)
                for (int j = 0; j < np; j++) {
                    int a = als_partner[i], b = als_partner[j];
                    if (a == b || als_common[i] == als_common[j]) continue;
                    if (cells_any(cells_and(sets[a].cells, sets[b].cells))) continue;
                    uint64_t xy = ((uint64_t)1 << als_common[i]) | ((uint64_t)1 << als_common[j]);
                    for (uint64_t zs = sets[a].mask & sets[b].mask & ~xy; zs; zs &= zs - 1)
                        if (als_removes(&sets[a], &sets[b], __builtin_ctzll(zs), holding)) {
                            result = Py_BuildValue(
                                "(NNNii)", als_cells(&sets[a]), als_cells(&sets[b]),
                                als_cells(&sets[c]), als_common[i] + 1, als_common[j] + 1);
                            goto done;
                        }
                }
        }
    }
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&gb);
    return result;
}

/* finds(geometry, meetings, masks, placed, kind, size) -> bool: whether the
 * technique finds a step on the board: kind 0 locked candidates (its first
 * step's meeting and value, or None, as techniques.locked_candidates), 1 naked
 * subsets, 2 hidden subsets, 3 fish (the three of ``size``, 2 to 4), 4
 * X-chains, 5 XY-chains, 6 AICs. */
static PyObject *finds(PyObject *self, PyObject *args) {
    Py_buffer gb, mb;
    PyObject *masks, *placed_list;
    int kind, size;
    if (!PyArg_ParseTuple(args, "y*y*O!O!ii", &gb, &mb, &PyList_Type, &masks, &PyList_Type,
                          &placed_list, &kind, &size))
        return NULL;
    PyObject *result = NULL;
    Geometry g;
    Meetings mt;
    if (!geometry_of(&gb, &g) || !meetings_of(&mb, &gb, &g, &mt)) goto done;
    if (PyList_GET_SIZE(masks) != g.cells || PyList_GET_SIZE(placed_list) != g.cells ||
        (kind > 0 && kind < 4 && (size < 1 || size > 8)) || kind < 0 || kind > 9 ||
        (kind == 7 && (size < 2 || size > 4)) || (kind >= 3 && kind != 4 && kind != 5 && kind != 6
        && g.cells != g.n * g.n) ||
        (kind > 3 && kind < 7 && g.K > 254)) {
        PyErr_SetString(PyExc_ValueError, "finds: a board's masks and placed, a kind 0-3, a size");
        goto done;
    }
    if (!read_board(&g, masks, placed_list)) goto done;
    int meeting = -1, value = 0, start = -1, links = 0;
    int found = kind == 0   ? finds_locked(&g, &mt, state.masks, state.placed, &meeting, &value)
                : kind == 1 ? finds_naked(&g, state.masks, state.placed, size)
                : kind == 2 ? finds_hidden(&g, state.masks, state.placed, size)
                : kind == 3 ? finds_fish(&g, state.masks, state.placed, size)
                : kind == 7 ? finds_finned(&g, state.masks, state.placed, size)
                : kind == 8 ? finds_empty_rectangle(&g, state.masks, state.placed)
                : kind == 9 ? finds_unique_rectangle(&g, state.masks, state.placed)
                            : finds_chain(&g, state.masks, state.placed, kind - 4, size, &start,
                                          &links);
    if (found < 0) {
        PyErr_NoMemory();
        goto done;
    }
    if (kind == 0)
        result = found ? Py_BuildValue("(ii)", meeting, value) : Py_NewRef(Py_None);
    else if (kind > 3 && kind < 7 && size) /* the shortest chain's first start and links */
        result = found ? Py_BuildValue("(ii)", start, links) : Py_NewRef(Py_None);
    else
        result = PyBool_FromLong(found);
done:
    PyBuffer_Release(&gb);
    PyBuffer_Release(&mb);
    return result;
}


/* --- a complete search: singles, then a branch on an open cell with fewest
 * candidates, its values in ascending order (DPLL with the engine's propagation).
 * It answers questions about a board's solutions outright where a SAT call
 * would take seconds: whether a grid of many clues has a second solution.
 * A frame is a board as a branch found it: candidates, placements, and the
 * values placed in each house. --- */

static size_t frame_size(const Geometry *g) { return (size_t)g->cells * 9 + (size_t)g->nh * 8; }

static void frame_save(const Geometry *g, const State *s, char *at) {
    memcpy(at, s->masks, (size_t)g->cells * 8);
    memcpy(at + g->cells * 8, s->placed, (size_t)g->cells);
    memcpy(at + g->cells * 9, s->held, (size_t)g->nh * 8);
}

static void frame_load(const Geometry *g, State *s, const char *at) {
    memcpy(s->masks, at, (size_t)g->cells * 8);
    memcpy(s->placed, at + g->cells * 8, (size_t)g->cells);
    memcpy(s->held, at + g->cells * 9, (size_t)g->nh * 8);
    memset(s->dirty, 0, (size_t)g->nh);
    memset(s->queued, 0, (size_t)g->cells); /* (a broken branch may leave some) */
    s->nt = s->ntr = 0;
}

/* The open cell with fewest candidates; -1: every cell is placed. */
static int fewest_open(const Geometry *g, const State *s) {
    int best = -1, least = 65;
    for (int c = 0; c < g->cells; c++) {
        if (s->placed[c]) continue;
        int k = __builtin_popcountll(s->masks[c]);
        if (k < least) {
            best = c, least = k;
            if (k == 2) break;
        }
    }
    return best;
}

/* Singles, and the one clause "not every literal of ``avoid`` holds" (cell,
 * value pairs) as a propagator: when all hold the branch breaks, when all but
 * one hold and that one is open its value is ruled out. 0: broken. */
static int settle_avoiding(const Geometry *g, State *s, const int32_t *avoid, int na) {
    for (;;) {
        if (!singles(g, s)) return 0;
        if (!na) return 1;
        int open = -1, opens = 0;
        for (int i = 0; i < na && opens < 2; i++) {
            int c = avoid[2 * i], v = avoid[2 * i + 1];
            if (s->placed[c] == v) continue;
            if (s->placed[c] || !(s->masks[c] & ((uint64_t)1 << (v - 1)))) return 1; /* met */
            open = i, opens++;
        }
        if (opens > 1) return 1;
        if (!opens) return 0;
        if (!take(g, s, avoid[2 * open], (uint64_t)1 << (avoid[2 * open + 1] - 1))) return 0;
    }
}

/* Killer cages for the search: each cage's cells and the digit sets its sum
 * allows (a cage without a sum: every value, one set), as search() reads them. */
typedef struct {
    int nc;
    const int32_t *start, *sets_at, *cells; /* cage i: cells[start[i]..start[i+1]) */
    const uint64_t *sets;                   /* and sets[sets_at[i]..sets_at[i+1]) */
    uint64_t *quiet; /* per cage cell, its candidates when its cage last changed nothing */
} Cages;

#define CAGE_MOST 64

/* Each cage's digit sets kept to those its cells still fit (the values it holds
 * and a place for each other one): its open cells keep the values of those sets
 * and lose the values it holds, and a value every fitting set has, with one
 * place left, is placed there. 0: broken; ``changed`` set when a candidate went
 * or a value was placed. */
static int cages_settle(const Geometry *g, State *s, const Cages *k, int *changed) {
    int open[CAGE_MOST];
    for (int i = 0; i < k->nc; i++) {
        const int32_t *cells = k->cells + k->start[i];
        int size = k->start[i + 1] - k->start[i], no = 0, same = 1;
        uint64_t *quiet = k->quiet + k->start[i];
        for (int j = 0; j < size && same; j++) same = quiet[j] == s->masks[cells[j]];
        if (same) continue; /* as it was when it last changed nothing: it changes nothing */
        int moved = 0;
        uint64_t held = 0;
        for (int j = 0; j < size; j++) {
            int c = cells[j];
            if (!s->placed[c]) {
                open[no++] = c;
                continue;
            }
            uint64_t b = (uint64_t)1 << (s->placed[c] - 1);
            if (held & b) return 0;
            held |= b;
        }
        /* a cage with a sum: sets of its own size, each value of one in some cell */
        int exact = k->sets_at[i + 1] > k->sets_at[i] && popcount(k->sets[k->sets_at[i]]) == size;
        uint64_t fit = 0, every = ~(uint64_t)0;
        int fits = 0;
        for (int x = k->sets_at[i]; x < k->sets_at[i + 1]; x++) {
            uint64_t set = k->sets[x];
            if ((set & held) != held) continue;
            uint64_t rest = set & ~held, seen = 0;
            int j = 0;
            for (; j < no; j++) {
                uint64_t m = s->masks[open[j]] & rest;
                if (!m) break;
                seen |= m;
            }
            if (j < no || (exact && seen != rest)) continue;
            fits = 1, fit |= rest, every &= rest;
        }
        if (!fits) return 0;
        for (int j = 0; j < no; j++) {
            uint64_t gone = s->masks[open[j]] & ~fit;
            if (!gone) continue;
            moved = 1;
            if (!take(g, s, open[j], gone)) return 0;
        }
        if (exact)
            for (uint64_t vs = every & fit; vs; vs &= vs - 1) {
                uint64_t b = vs & -vs;
                int at = -1, places = 0;
                for (int j = 0; j < no && places < 2; j++)
                    if (s->masks[open[j]] & b) at = open[j], places++;
                if (!places) return 0;
                if (places == 1 && popcount(s->masks[at]) > 1) {
                    moved = 1;
                    if (!push(s, at, value_of(b))) return 0;
                }
            }
        if (moved)
            *changed = 1;
        else
            for (int j = 0; j < size; j++) quiet[j] = s->masks[cells[j]];
    }
    return 1;
}

/* Singles, the avoid clause and the cages, until none changes anything. */
static int settle_searched(const Geometry *g, State *s, const int32_t *avoid, int na,
                           const Cages *k) {
    for (;;) {
        if (!settle_avoiding(g, s, avoid, na)) return 0;
        if (!k->nc) return 1;
        int changed = 0; /* (a value pushed is a change: singles place it) */
        if (!cages_settle(g, s, k, &changed)) return 0;
        if (!changed) return 1;
    }
}

/* The cages search() is handed, checked: int32 words nc, start[nc + 1],
 * sets_at[nc + 1], then the cells; the sets as uint64 words. */
static int cages_of(const Geometry *g, Py_buffer *cb, Py_buffer *sb, Cages *k) {
    k->nc = 0;
    if (!cb->buf) return 1;
    const int32_t *w = cb->buf;
    Py_ssize_t words = cb->len / 4, nsets = sb->len / 8;
    if (cb->len % 4 || sb->len % 8 || words < 1 || w[0] < 0 || 1 + 2 * ((Py_ssize_t)w[0] + 1) > words)
        goto bad;
    int nc = w[0];
    const int32_t *start = w + 1, *sets_at = w + 2 + nc, *cells = w + 3 + 2 * nc;
    Py_ssize_t ncells = words - (3 + 2 * (Py_ssize_t)nc);
    uint64_t full = full_of(g);
    if (start[0] != 0 || sets_at[0] != 0 || start[nc] != ncells || sets_at[nc] != nsets) goto bad;
    for (int i = 0; i < nc; i++) {
        if (start[i + 1] - start[i] < 1 || start[i + 1] - start[i] > CAGE_MOST ||
            sets_at[i + 1] < sets_at[i])
            goto bad;
    }
    for (Py_ssize_t j = 0; j < ncells; j++)
        if (cells[j] < 0 || cells[j] >= g->cells) goto bad;
    const uint64_t *sets = sb->buf;
    for (Py_ssize_t x = 0; x < nsets; x++)
        if (sets[x] & ~full) goto bad;
    k->nc = nc, k->start = start, k->sets_at = sets_at, k->cells = cells, k->sets = sets;
    return 1;
bad:
    PyErr_SetString(PyExc_ValueError, "cages: counts, offsets and cells as search() reads them");
    return 0;
}

#define SEARCH_LOOK 16384 /* branches between looks for a signal */

/* search(geometry, masks, avoid, limit, budget[, cages, sets]) -> (solutions,
 * settled, branches): up to ``limit`` solutions of the board (each a bytes of
 * the cells' values, in the order the search meets them) that do not hold every
 * literal of ``avoid`` (a list of cell * n + value literals; empty: any
 * solution) and whose killer cages (cages_of) hold one of their digit sets;
 * settled is False when ``budget`` branches ran out first (then the solutions
 * are those found). */
static PyObject *search(PyObject *self, PyObject *args) {
    Py_buffer gb, mb, cb = {0}, sb = {0};
    PyObject *avoid_list;
    long limit, budget;
    if (!PyArg_ParseTuple(args, "y*y*O!ll|y*y*", &gb, &mb, &PyList_Type, &avoid_list, &limit,
                          &budget, &cb, &sb))
        return NULL;
    Cages cages = {0};
    PyObject *result = NULL, *found = NULL;
    char *frames = NULL;
    struct { int cell; uint64_t left; } *choices = NULL;
    int32_t *avoid = NULL;
    Geometry g;
    State *s = &state;
    if (!geometry_of(&gb, &g) || !load_masks(&g, s, &mb) || !cages_of(&g, &cb, &sb, &cages))
        goto done;
    if (cages.nc && !(cages.quiet = PyMem_Calloc((size_t)cages.start[cages.nc] + 1, 8))) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t na = PyList_GET_SIZE(avoid_list);
    avoid = PyMem_Malloc(sizeof(int32_t) * 2 * (size_t)(na ? na : 1));
    found = PyList_New(0);
    if (!avoid || !found) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < na; i++) {
        long lit;
        int c, v;
        if (!literal_of(&g, PyList_GET_ITEM(avoid_list, i), &lit, &c, &v)) goto done;
        if (lit < 0) {
            PyErr_SetString(PyExc_ValueError, "avoid: positive literals");
            goto done;
        }
        avoid[2 * i] = c, avoid[2 * i + 1] = v;
    }
    size_t size = frame_size(&g);
    int depth = 0, room = 0, settled = 1;
    long branches = 0;
    /* the board's values placed anew, so that singles take them from their peers */
    memset(s->held, 0, (size_t)g.nh * 8);
    for (int c = 0; c < g.cells; c++) {
        int v = s->placed[c];
        s->placed[c] = 0;
        if (v && !push(s, c, v)) goto answer;
    }
    if (!settle_searched(&g, s, avoid, (int)na, &cages)) goto answer;
    for (;;) {
        int cell = fewest_open(&g, s);
        if (cell < 0) { /* a solution */
            PyObject *grid = PyBytes_FromStringAndSize((const char *)s->placed, g.cells);
            if (!grid || PyList_Append(found, grid) < 0) {
                Py_XDECREF(grid);
                goto done;
            }
            Py_DECREF(grid);
            if (PyList_GET_SIZE(found) >= limit) goto answer;
        } else {
            if (depth == room) {
                int more = room ? 2 * room : 64;
                char *f = PyMem_Realloc(frames, size * (size_t)more);
                if (!f) {
                    PyErr_NoMemory();
                    goto done;
                }
                frames = f;
                void *ch = PyMem_Realloc(choices, sizeof *choices * (size_t)more);
                if (!ch) {
                    PyErr_NoMemory();
                    goto done;
                }
                choices = ch, room = more;
            }
            frame_save(&g, s, frames + size * (size_t)depth);
            choices[depth].cell = cell, choices[depth].left = s->masks[cell];
            depth++;
        }
        /* the next value of the deepest choice with one left; none: every branch ran */
        for (;;) {
            if (!depth) goto answer;
            uint64_t left = choices[depth - 1].left;
            if (!left) {
                depth--;
                continue;
            }
            if (++branches > budget) {
                settled = 0;
                goto answer;
            }
            if (!(branches % SEARCH_LOOK) && PyErr_CheckSignals() < 0) goto done;
            uint64_t b = left & -left;
            choices[depth - 1].left = left & ~b;
            frame_load(&g, s, frames + size * (size_t)(depth - 1));
            if (push(s, choices[depth - 1].cell, value_of(b)) &&
                settle_searched(&g, s, avoid, (int)na, &cages))
                break;
        }
    }
answer:
    result = Py_BuildValue("(OOl)", found, settled ? Py_True : Py_False, branches);
done:
    Py_XDECREF(found);
    PyMem_Free(frames);
    PyMem_Free(choices);
    PyMem_Free(avoid);
    PyBuffer_Release(&gb);
    PyBuffer_Release(&mb);
    PyMem_Free(cages.quiet);
    if (cb.obj) PyBuffer_Release(&cb);
    if (sb.obj) PyBuffer_Release(&sb);
    return result;
}

static PyMethodDef methods[] = {
    {"settle", python_settle, METH_VARARGS,
     "settle(geometry, meetings, masks, placed, todo, dirty, touched, touched_locked, locked, "
     "pairs) -> (ok, touched, touched_locked): Propagation's settle."},
    {"als", python_als, METH_VARARGS,
     "als(geometry, masks, placed, wing) -> None or (sets and values): the first ALS-XZ or "
     "ALS-XY-wing."},
    {"finds", finds, METH_VARARGS,
     "finds(geometry, meetings, masks, placed, kind, size) -> bool: whether a technique "
     "finds a step."},
    {"path_singles", path_singles, METH_VARARGS,
     "path_singles(geometry, masks, placed, box_first, box_last) -> (end, naked, hidden, "
     "first, heaviest): a path's singles, one at a time."},
    {"first_break", first_break, METH_VARARGS,
     "first_break(geometry, masks, assumed, ys, start) -> (index, tested)."},
    {"propagate", propagate, METH_VARARGS,
     "propagate(geometry, masks, assumptions) -> (ok, literals): singles after the assumptions."},
    {"shortest_broken", shortest_broken, METH_VARARGS,
     "shortest_broken(geometry, masks, xs, ys, taken_apart, past) -> (broken, calls)."},
    {"fewest_breaking", fewest_breaking, METH_VARARGS,
     "fewest_breaking(geometry, masks, placed, ys) -> index: the breaking candidate with the "
     "fewest removals."},
    {"first_forcing", first_forcing, METH_VARARGS,
     "first_forcing(geometry, masks, options, bounds) -> index: static forcing chains."},
    {"prepare", prepare, METH_VARARGS,
     "prepare(geometry, masks) -> bytes: the board read once, for its branches."},
    {"search", search, METH_VARARGS,
     "search(geometry, masks, avoid, limit, budget[, cages, sets]) -> (solutions, settled, "
     "branches): up to limit solutions that do not hold every literal of avoid and keep the "
     "cages' digit sets, by singles, the cages and branches."},
    {"breaks", breaks, METH_VARARGS,
     "breaks(geometry, masks, assumptions) -> bool: whether singles break the board."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "sudosat.logic._engine",
    "The compiled reasoning engine: singles on bit masks.", -1, methods};

PyMODINIT_FUNC PyInit__engine(void) { return PyModule_Create(&module); }
