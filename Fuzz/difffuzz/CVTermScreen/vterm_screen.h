/* The libvterm side of the differential fuzzer (Scripts/difffuzz.sh): a terminal with libvterm's
 * screen layer, set up as the fuzzer compares it (UTF-8, alternate screen enabled, hard reset),
 * read back as flat cells. Compiled by the script; never part of the SwiftPM build. */
#ifndef DIFFFUZZ_VTERM_SCREEN_H
#define DIFFFUZZ_VTERM_SCREEN_H

#include <stddef.h>
#include <stdint.h>

typedef struct DFZTerminal DFZTerminal;

/* A colour as the comparer sees it: kind 0 default, 1 palette index, 2 RGB (value 0xRRGGBB). */
typedef struct {
    int kind;
    uint32_t value;
} DFZColor;

typedef struct {
    uint32_t chars[6];   /* the cell's scalars, 0-terminated when fewer than 6 */
    int count;           /* how many of chars are set: 0 for a blank cell */
    int width;           /* 1, 2 (left half of a wide character), 0 (its right half) */
    int bold, underline, italic, blink, inverse, strike;
    DFZColor fg, bg;
} DFZCell;

DFZTerminal *dfz_new(int rows, int cols);
void dfz_free(DFZTerminal *terminal);
void dfz_write(DFZTerminal *terminal, const uint8_t *bytes, size_t count);
void dfz_cell(const DFZTerminal *terminal, int row, int col, DFZCell *cell);
void dfz_cursor(const DFZTerminal *terminal, int *row, int *col, int *visible);
/* Which screen is shown: 0 main, 1 alternate. */
int dfz_alternate(const DFZTerminal *terminal);

#endif
