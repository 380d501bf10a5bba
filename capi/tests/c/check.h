/* The C test programs' check counter: one line per failure (the first 20),
 * counts of passed and failed checks for the summary. The counts are
 * defined once, in check.c, so that a program built from several files
 * keeps one pair. */
#ifndef CHECK_H
#define CHECK_H

#include <stdio.h>

extern unsigned long passed, failed;

#define CHECK(cond, ...)                                             \
    do {                                                             \
        if (cond) {                                                  \
            passed++;                                                \
        } else {                                                     \
            failed++;                                                \
            if (failed <= 20) {                                      \
                fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
                fprintf(stderr, __VA_ARGS__);                        \
                fputc('\n', stderr);                                 \
            }                                                        \
        }                                                            \
    } while (0)

#endif
