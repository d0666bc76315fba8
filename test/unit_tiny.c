/* unit_tiny.c: TAP unit test of tiny.c against libc: tiny_sort orders
 * as qsort does (random arrays of every length to 300, ints and records
 * with ties broken by a second key), tiny_strstr finds what strstr
 * finds, and tiny_gmtime gives gmtime_r's date and time from before
 * 1970 to past 9999. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tap.h"
#include "tiny.h"

struct rec {
	int key, tie;
	char pad[5];
};

static int by_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int by_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->tie > y->tie) - (x->tie < y->tie);
}

static void check_sort(void)
{
	static int a[300], b[300];
	static struct rec r[300], s[300];
	int bad_int = 0, bad_rec = 0;

	for (size_t n = 0; n <= 300; n++)
		for (int round = 0; round < 20; round++) {
			for (size_t i = 0; i < n; i++) {
				a[i] = b[i] = rand() % (round % 2 ? 7 : 100000);
				memset(&r[i], 0, sizeof(r[i]));
				r[i].key = rand() % 5;
				r[i].tie = (int)i;
				s[i] = r[i];
			}
			if (round == 3)	/* sorted already */
				qsort(a, n, sizeof(*a), by_int);
			memcpy(b, a, n * sizeof(*a));
			tiny_sort(a, n, sizeof(*a), by_int);
			qsort(b, n, sizeof(*b), by_int);
			bad_int += memcmp(a, b, n * sizeof(*a)) != 0;
			tiny_sort(r, n, sizeof(*r), by_rec);
			qsort(s, n, sizeof(*s), by_rec);
			bad_rec += memcmp(r, s, n * sizeof(*r)) != 0;
		}
	ok(bad_int == 0, "tiny_sort orders 6020 int arrays as qsort");
	ok(bad_rec == 0, "tiny_sort orders 6020 record arrays as qsort");
}

static void check_strstr(void)
{
	static const char *const hays[] = { "", "a", "abc", "aaab",
	    "/sys/fs/cgroup/user.slice/x.scope", "memory pids cpu io",
	    "http://host", "ababababc", "u0000\\u0000" };
	static const char *const needles[] = { "", "a", "b", "c", "ab",
	    "abc", "aab", "://", "pids", "io", "abababc", "u0000", "x.scope",
	    "zz", "abcd" };
	int bad = 0;

	for (size_t h = 0; h < sizeof(hays) / sizeof(*hays); h++)
		for (size_t n = 0; n < sizeof(needles) / sizeof(*needles); n++)
			bad += tiny_strstr(hays[h], needles[n]) !=
			    strstr(hays[h], needles[n]);
	ok(bad == 0, "tiny_strstr finds what strstr finds (9 x 15 pairs)");
}

static int same_date(time_t t)
{
	struct tm a, b;

	tiny_gmtime(t, &a);
	if (gmtime_r(&t, &b) == NULL)
		return 1;	/* outside libc's range: nothing to compare */
	return a.tm_year == b.tm_year && a.tm_mon == b.tm_mon &&
	    a.tm_mday == b.tm_mday && a.tm_hour == b.tm_hour &&
	    a.tm_min == b.tm_min && a.tm_sec == b.tm_sec;
}

static void check_gmtime(void)
{
	static const time_t edges[] = { 0, -1, 86399, 86400, -86400,
	    951782400, 951868800, 4107456000, 4107542400, 253402300799,
	    -62135596800, 1798761600 };
	int bad = 0;

	for (size_t i = 0; i < sizeof(edges) / sizeof(*edges); i++)
		bad += !same_date(edges[i]);
	for (int i = 0; i < 400000; i++) {
		long long t = ((long long)rand() << 31 | rand()) %
		    (400LL * 366 * 86400) - 100LL * 366 * 86400;
		bad += !same_date((time_t)t);
	}
	ok(bad == 0, "tiny_gmtime is gmtime_r's date and time, 1870 to 2270");
	for (long long d = -800000; d < 3000000; d += 13)
		bad += !same_date((time_t)(d * 86400 + 43210));
	ok(bad == 0, "tiny_gmtime is gmtime_r's on every 13th day, "
	    "year -220 to 10183");
}

int main(void)
{
	srand(5);
	check_sort();
	check_strstr();
	check_gmtime();
	return tap_done();
}
