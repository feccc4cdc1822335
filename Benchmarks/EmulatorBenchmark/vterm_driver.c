/* Feeds a file through libvterm (with its screen layer, as a terminal would use it)
 * in 4096-byte chunks and prints the best parse time in seconds over RUNS runs.
 * Built by the EmulatorBenchmark at run time: cc -O2 vterm_driver.c -lvterm
 * usage: vterm_driver FILE COLS ROWS RUNS */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <vterm.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s FILE COLS ROWS RUNS\n", argv[0]);
        return 64;
    }
    FILE *file = fopen(argv[1], "rb");
    if (!file) { perror(argv[1]); return 1; }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *data = malloc(size);
    if (!data || fread(data, 1, size, file) != (size_t)size) { perror("read"); return 1; }
    fclose(file);
    int cols = atoi(argv[2]), rows = atoi(argv[3]), runs = atoi(argv[4]);
    double best = 1e30;
    for (int run = 0; run < runs; run++) {
        VTerm *vt = vterm_new(rows, cols);
        vterm_set_utf8(vt, 1);
        VTermScreen *screen = vterm_obtain_screen(vt);
        vterm_screen_reset(screen, 1);
        double start = now();
        for (long offset = 0; offset < size; offset += 4096) {
            long n = size - offset < 4096 ? size - offset : 4096;
            vterm_input_write(vt, data + offset, n);
        }
        double elapsed = now() - start;
        if (elapsed < best) best = elapsed;
        vterm_free(vt);
    }
    printf("%.6f\n", best);
    free(data);
    return 0;
}
