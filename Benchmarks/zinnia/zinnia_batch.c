/*
 * zinnia_batch: one long-lived Zinnia process for Benchmarks/zinnia_compare.py.
 *
 *   zinnia_batch MODEL NBEST < characters.sexp     one result line per input line
 *   zinnia_batch MODEL --charset                   the model's characters, one a line
 *
 * Input: one S-expression a line, as the zinnia command reads it:
 *   (character (width 300)(height 300)(strokes ((x y)(x y)...)((x y)...)))
 * Output: first "load<TAB>MICROSECONDS<TAB>CLASSES" (zinnia_recognizer_open), then one line per
 * input line: "ok<TAB>MICROSECONDS<TAB>VALUE<TAB>SCORE<TAB>VALUE<TAB>SCORE..." (the time of
 * zinnia_recognizer_classify alone, best first), or "error<TAB>MESSAGE". Compiled on the fly by
 * zinnia_compare.py: cc -O2 zinnia_batch.c -lzinnia (Debian: libzinnia-dev).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zinnia.h>

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s MODEL NBEST|--charset < characters.sexp\n", argv[0]);
        return 2;
    }
    double t0 = now_us();
    zinnia_recognizer_t *recognizer = zinnia_recognizer_new();
    if (!zinnia_recognizer_open(recognizer, argv[1])) {
        fprintf(stderr, "%s: %s\n", argv[1], zinnia_recognizer_strerror(recognizer));
        return 1;
    }
    double t1 = now_us();
    size_t classes = zinnia_recognizer_size(recognizer);
    if (strcmp(argv[2], "--charset") == 0) {
        for (size_t i = 0; i < classes; i++) printf("%s\n", zinnia_recognizer_value(recognizer, i));
        zinnia_recognizer_destroy(recognizer);
        return 0;
    }
    size_t nbest = (size_t)strtoul(argv[2], NULL, 10);
    if (nbest == 0) nbest = 10;
    printf("load\t%.1f\t%zu\n", t1 - t0, classes);

    zinnia_character_t *character = zinnia_character_new();
    size_t cap = 1 << 16, len = 0;
    char *line = malloc(cap);
    int c;
    for (;;) {
        /* one line of any length */
        len = 0;
        while ((c = getchar()) != EOF && c != '\n') {
            if (len + 1 >= cap) { cap *= 2; line = realloc(line, cap); }
            line[len++] = (char)c;
        }
        if (c == EOF && len == 0) break;
        line[len] = '\0';
        zinnia_character_clear(character);
        if (!zinnia_character_parse2(character, line, len)) {
            printf("error\t%s\n", zinnia_character_strerror(character));
            continue;
        }
        double s = now_us();
        zinnia_result_t *result = zinnia_recognizer_classify(recognizer, character, nbest);
        double e = now_us();
        if (!result) {
            printf("error\t%s\n", zinnia_recognizer_strerror(recognizer));
            continue;
        }
        printf("ok\t%.1f", e - s);
        for (size_t i = 0; i < zinnia_result_size(result); i++)
            printf("\t%s\t%g", zinnia_result_value(result, i), zinnia_result_score(result, i));
        printf("\n");
        zinnia_result_destroy(result);
        if (c == EOF) break;
    }
    free(line);
    zinnia_character_destroy(character);
    zinnia_recognizer_destroy(recognizer);
    return 0;
}
