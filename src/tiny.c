/* tiny.c: stand-ins for three libc routines, each smaller than musl's by
 * what sbexec does not need: its qsort is smoothsort (2 KiB, fast on
 * sorted input), its strstr the two-way search (1.2 KiB, linear on any
 * needle), its gmtime_r a general calendar with errno. sbexec sorts a
 * mount plan and a device list, searches short strings for constant
 * needles, and dates its audit records: a heap sort, a plain search and
 * the civil-from-days count do that in a tenth of the bytes. */
#include <string.h>

#include "tiny.h"

static void swap_bytes(char *a, char *b, size_t size)
{
	while (size-- > 0) {
		char t = *a;

		*a++ = *b;
		*b++ = t;
	}
}

/* Move the element at I down the heap of the N at BASE until neither
 * child is larger. */
static void sift(char *base, size_t i, size_t n, size_t size,
    int (*cmp)(const void *, const void *))
{
	for (size_t c; (c = 2 * i + 1) < n; i = c) {
		if (c + 1 < n && cmp(base + c * size, base + (c + 1) * size) < 0)
			c++;
		if (cmp(base + i * size, base + c * size) >= 0)
			return;
		swap_bytes(base + i * size, base + c * size, size);
	}
}

void tiny_sort(void *base, size_t n, size_t size,
    int (*cmp)(const void *, const void *))
{
	char *b = base;

	for (size_t i = n / 2; i-- > 0;)
		sift(b, i, n, size, cmp);
	while (n-- > 1) {
		swap_bytes(b, b + n * size, size);
		sift(b, 0, n, size, cmp);
	}
}

char *tiny_strstr(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay != '\0' || n == 0; hay++)
		if (strncmp(hay, needle, n) == 0)
			return (char *)hay;
	return NULL;
}

/* Days since 1970-01-01 to a date: years counted from March, so that
 * the leap day ends a year; eras of 400 years (146097 days) repeat. */
void tiny_gmtime(time_t t, struct tm *tm)
{
	long long days = t / 86400, secs = t % 86400, era, doe, yoe, doy, mp;

	memset(tm, 0, sizeof(*tm));
	if (secs < 0) {
		secs += 86400;
		days--;
	}
	tm->tm_hour = (int)(secs / 3600);
	tm->tm_min = (int)(secs / 60 % 60);
	tm->tm_sec = (int)(secs % 60);
	days += 719468;			/* from 0000-03-01 */
	era = (days >= 0 ? days : days - 146096) / 146097;
	doe = days - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;	/* 0 is March */
	tm->tm_mday = (int)(doy - (153 * mp + 2) / 5 + 1);
	tm->tm_mon = (int)(mp < 10 ? mp + 2 : mp - 10);
	tm->tm_year = (int)(yoe + era * 400 + (mp >= 10) - 1900);
}
