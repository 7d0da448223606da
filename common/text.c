/*
 * text.c - text for people: words wrapped to WB_WIDTH columns. C11, no CUDA.
 */
#include "text.h"

#include <string.h>

void wb_print_wrapped_at(FILE *out, int col, int indent, const char *text)
{
    const char *p = text;
    int at_start = 1; /* nothing of text on this line yet */
    while (*p) {
        const char *gap = p, *word;
        size_t gaplen, wordlen, i;
        while (*p == ' ')
            ++p;
        gaplen = (size_t)(p - gap);
        if (*p == '\n') {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
            at_start = 1;
            ++p;
            continue;
        }
        if (!*p)
            break;
        word = p;
        while (*p && *p != ' ' && *p != '\n')
            ++p;
        wordlen = (size_t)(p - word);
        if (!at_start && col + (int)(gaplen + wordlen) > WB_WIDTH) {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
            gaplen = 0;
        } else if (at_start)
            gaplen = gaplen > 0 && col > indent ? gaplen : 0;
        fprintf(out, "%*s", (int)gaplen, "");
        for (i = 0; i < wordlen; ++i)
            fputc(word[i] == WB_GLUE ? ' ' : word[i], out);
        col += (int)(gaplen + wordlen);
        at_start = 0;
    }
    fputc('\n', out);
}

void wb_print_wrapped(FILE *out, const char *lead, int indent, const char *text)
{
    fputs(lead, out);
    wb_print_wrapped_at(out, (int)strlen(lead), indent, text);
}

