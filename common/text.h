/*
 * text.h - text for people: the widest line a program prints, and words
 * wrapped to it.
 */
#ifndef WB_TEXT_H
#define WB_TEXT_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The widest line a program prints for people: a projector with a large
 * font shows 100 columns whole. */
#define WB_WIDTH 100

/* Inside a text to wrap, WB_GLUE is a blank the wrap may not break at (it
 * prints as ' '): "93.2% of the theoretical 3352 GB/s" stays whole. */
#define WB_GLUE '\x1f'

/* Print text word-wrapped to WB_WIDTH columns: the first line starts with
 * `lead`, each following one with `indent` blanks; a '\n' in text starts a
 * new (indented) line. Runs of blanks inside a line are kept. Ends with a
 * newline. */
void wb_print_wrapped(FILE *out, const char *lead, int indent, const char *text);

/* The same with the first line's column already at `col` (nothing printed
 * before the text here). */
void wb_print_wrapped_at(FILE *out, int col, int indent, const char *text);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* WB_TEXT_H */
