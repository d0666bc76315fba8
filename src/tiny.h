/* tiny.h: sbexec's own sort, substring search and UTC date. */
#ifndef SBEXEC_TINY_H
#define SBEXEC_TINY_H

#include <stddef.h>
#include <time.h>

/* qsort's contract, by heap sort: N elements of SIZE bytes at BASE in
 * CMP's order, in O(n log n) whatever the input, in place. */
void tiny_sort(void *base, size_t n, size_t size,
    int (*cmp)(const void *, const void *));

/* strstr's: the first NEEDLE in HAY, or NULL (HAY itself when NEEDLE is
 * empty). */
char *tiny_strstr(const char *hay, const char *needle);

/* gmtime_r's date and time of T (tm_year from 1900, tm_mon from 0,
 * tm_mday, tm_hour, tm_min, tm_sec); the other fields 0. */
void tiny_gmtime(time_t t, struct tm *tm);

#endif
