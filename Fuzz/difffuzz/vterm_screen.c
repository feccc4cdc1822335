/* See CVTermScreen/vterm_screen.h. Built by Scripts/difffuzz.sh: cc -O2 -c vterm_screen.c */
#include <stdlib.h>
#include <vterm.h>
#include "CVTermScreen/vterm_screen.h"

struct DFZTerminal {
    VTerm *vt;
    VTermScreen *screen;
    VTermState *state;
    int cursor_visible;
    int alternate;
};

static int settermprop(VTermProp prop, VTermValue *value, void *user) {
    DFZTerminal *terminal = user;
    if (prop == VTERM_PROP_CURSORVISIBLE) terminal->cursor_visible = value->boolean;
    if (prop == VTERM_PROP_ALTSCREEN) terminal->alternate = value->boolean;
    return 1;
}

/* Answers (DA, DSR) are dropped: the comparison is about the screen. */
static void discard_output(const char *bytes, size_t count, void *user) {
    (void)bytes; (void)count; (void)user;
}

static const VTermScreenCallbacks callbacks = { .settermprop = settermprop };

DFZTerminal *dfz_new(int rows, int cols) {
    DFZTerminal *terminal = calloc(1, sizeof *terminal);
    if (!terminal) abort();
    terminal->vt = vterm_new(rows, cols);
    vterm_set_utf8(terminal->vt, 1);
    vterm_output_set_callback(terminal->vt, discard_output, NULL);
    terminal->screen = vterm_obtain_screen(terminal->vt);
    terminal->state = vterm_obtain_state(terminal->vt);
    vterm_screen_set_callbacks(terminal->screen, &callbacks, terminal);
    vterm_screen_enable_altscreen(terminal->screen, 1);
    terminal->cursor_visible = 1;
    vterm_screen_reset(terminal->screen, 1);
    return terminal;
}

void dfz_free(DFZTerminal *terminal) {
    vterm_free(terminal->vt);
    free(terminal);
}

void dfz_write(DFZTerminal *terminal, const uint8_t *bytes, size_t count) {
    vterm_input_write(terminal->vt, (const char *)bytes, count);
}

static DFZColor color(VTermColor c) {
    DFZColor result = {0, 0};
    if (VTERM_COLOR_IS_DEFAULT_FG(&c) || VTERM_COLOR_IS_DEFAULT_BG(&c)) return result;
    if (VTERM_COLOR_IS_INDEXED(&c)) {
        result.kind = 1;
        result.value = c.indexed.idx;
    } else {
        result.kind = 2;
        result.value = (uint32_t)c.rgb.red << 16 | (uint32_t)c.rgb.green << 8 | c.rgb.blue;
    }
    return result;
}

void dfz_cell(const DFZTerminal *terminal, int row, int col, DFZCell *out) {
    VTermScreenCell cell;
    VTermPos pos = { .row = row, .col = col };
    vterm_screen_get_cell(terminal->screen, pos, &cell);
    *out = (DFZCell){0};
    if (cell.chars[0] == (uint32_t)-1) {  /* the right half of a wide character */
        out->width = 0;
    } else {
        out->width = cell.width;
        for (int i = 0; i < VTERM_MAX_CHARS_PER_CELL && cell.chars[i]; i++) {
            out->chars[i] = cell.chars[i];
            out->count = i + 1;
        }
    }
    out->bold = cell.attrs.bold;
    out->underline = cell.attrs.underline != 0;
    out->italic = cell.attrs.italic;
    out->blink = cell.attrs.blink;
    out->inverse = cell.attrs.reverse;
    out->strike = cell.attrs.strike;
    out->fg = color(cell.fg);
    out->bg = color(cell.bg);
}

void dfz_cursor(const DFZTerminal *terminal, int *row, int *col, int *visible) {
    VTermPos pos;
    vterm_state_get_cursorpos(terminal->state, &pos);
    *row = pos.row;
    *col = pos.col;
    *visible = terminal->cursor_visible;
}

int dfz_alternate(const DFZTerminal *terminal) {
    return terminal->alternate;
}
