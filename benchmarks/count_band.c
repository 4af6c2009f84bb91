/* Exact number of 9x9 Sudoku grids whose first band is the given one: every
 * second band is enumerated, and the third bands of each are counted (memoized
 * on the columns' remaining digit sets). Usage: count_band ROW1ROW2ROW3 (27 digits). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

static int grid[81];
static int col[9], box[9], row_[9];

/* a hash map from the nine columns' remaining sets to the third bands' count */
#define SLOTS (1u << 24)
static uint64_t *keys_lo, *keys_hi; static uint64_t *vals; static unsigned char *used;

static int rem3[9];
static int r3row[3], r3box[3];
static uint64_t third(int cell) {
    if (cell == 27) return 1;
    int r = cell / 9, c = cell % 9, b = c / 3;
    int free = rem3[c] & ~r3row[r] & ~r3box[b];
    uint64_t n = 0;
    while (free) {
        int bit = free & -free; free ^= bit;
        rem3[c] ^= bit; r3row[r] |= bit; r3box[b] |= bit;
        n += third(cell + 1);
        rem3[c] ^= bit; r3row[r] ^= bit; r3box[b] ^= bit;
    }
    return n;
}
static uint64_t third_band(void) {
    uint64_t lo = 0, hi = 0;
    for (int c = 0; c < 5; c++) lo = lo * 512 + (0x1FF & ~col[c]);
    for (int c = 5; c < 9; c++) hi = hi * 512 + (0x1FF & ~col[c]);
    uint64_t h = (lo * 0x9E3779B97F4A7C15ull) ^ (hi * 0xC2B2AE3D27D4EB4Full);
    unsigned slot = (unsigned)(h >> 40) & (SLOTS - 1);
    while (used[slot]) {
        if (keys_lo[slot] == lo && keys_hi[slot] == hi) return vals[slot];
        slot = (slot + 1) & (SLOTS - 1);
    }
    for (int c = 0; c < 9; c++) rem3[c] = 0x1FF & ~col[c];
    memset(r3row, 0, sizeof r3row); memset(r3box, 0, sizeof r3box);
    uint64_t n = third(0);
    used[slot] = 1; keys_lo[slot] = lo; keys_hi[slot] = hi; vals[slot] = n;
    return n;
}
static uint64_t second(int cell) {  /* cells 27..53 */
    if (cell == 54) return third_band();
    int r = cell / 9, c = cell % 9, b = (r / 3) * 3 + c / 3;
    int free = 0x1FF & ~col[c] & ~box[b] & ~row_[r];
    uint64_t n = 0;
    while (free) {
        int bit = free & -free; free ^= bit;
        col[c] |= bit; box[b] |= bit; row_[r] |= bit;
        n += second(cell + 1);
        col[c] ^= bit; box[b] ^= bit; row_[r] ^= bit;
    }
    return n;
}
int main(int argc, char **argv) {
    if (argc != 2 || strlen(argv[1]) != 27) { fprintf(stderr, "usage: count_band 27-DIGITS\n"); return 2; }
    keys_lo = calloc(SLOTS, 8); keys_hi = calloc(SLOTS, 8); vals = calloc(SLOTS, 8); used = calloc(SLOTS, 1);
    for (int i = 0; i < 27; i++) {
        int d = argv[1][i] - '0', r = i / 9, c = i % 9, bit = 1 << (d - 1);
        grid[i] = d; col[c] |= bit; box[(r / 3) * 3 + c / 3] |= bit; row_[r] |= bit;
    }
    printf("%llu\n", (unsigned long long)second(27));
    return 0;
}
