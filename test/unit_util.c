/* unit_util.c: TAP unit test of util.c's read_number, the reader of the
 * number lists in /proc (a task's children): blanks skipped, one
 * unsigned decimal number taken, 0 at the end or at anything that is
 * not a clean number (a letter glued to it, a value past its bound).
 * And of dec_number, the reader of one number in a kernel file, against
 * libc's strtoll: the same value and the same end.
 * Build: gcc -std=c11 -D_GNU_SOURCE -Wall ... -I. -o /tmp/unit_util
 *        test/unit_util.c util.c */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "util.h"

/* The numbers read from TEXT until read_number says 0, as "a b c". */
static void numbers(const char *text, char *out, size_t size)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	unsigned long long v;
	size_t n = 0;

	out[0] = '\0';
	if (f == NULL) {
		snprintf(out, size, "fmemopen failed");
		return;
	}
	while (read_number(f, &v) == 1 && n < size)
		n += (size_t)snprintf(out + n, size - n, "%s%llu",
		    n ? " " : "", v);
	fclose(f);
}

/* TEXT on one line, a newline written \n. */
static void shown(const char *text, char *out, size_t size)
{
	size_t n = 0;

	for (; *text != '\0' && n + 3 < size; text++)
		if (*text == '\n') {
			out[n++] = '\\';
			out[n++] = 'n';
		} else {
			out[n++] = *text;
		}
	out[n] = '\0';
}

static void check(const char *text, const char *want)
{
	char got[256], show[128], name[512];

	numbers(text, got, sizeof(got));
	shown(text, show, sizeof(show));
	snprintf(name, sizeof(name), "\"%s\" reads as \"%s\" (got \"%s\")",
	    show, want, got);
	ok(strcmp(got, want) == 0, name);
}

/* dec_number and strtoll read TEXT alike: value and end. */
static int same_as_strtoll(const char *text)
{
	char *a, *b;
	long long x = dec_number(text, &a), y = strtoll(text, &b, 10);

	return x == y && a == b;
}

static void check_dec(const char *text)
{
	char show[128], name[256];

	shown(text, show, sizeof(show));
	snprintf(name, sizeof(name), "dec_number(\"%s\") is strtoll's", show);
	ok(same_as_strtoll(text), name);
}

/* Random numbers, blanks and tails: every one read as strtoll does. */
static void check_dec_random(void)
{
	static const char *const tails[] = { "", " ", "\n", "x", ":1" };
	char text[64];
	int bad = 0;

	srand(7);
	for (int i = 0; i < 200000; i++) {
		unsigned long long v = (unsigned long long)rand() << 33 ^
		    (unsigned long long)rand() << 11 ^ (unsigned long long)rand();
		snprintf(text, sizeof(text), "%s%s%llu%s", i % 3 ? "" : " \t",
		    i % 5 ? "" : "-", v >> (i % 64), tails[i % 5]);
		bad += !same_as_strtoll(text);
	}
	ok(bad == 0, "dec_number reads 200000 random numbers as strtoll");
}

int main(void)
{
	check("", "");
	check("123 456 789 \n", "123 456 789");
	check("  7", "7");
	check("1\n2\n", "1 2");
	check("0 4194304 ", "0 4194304");
	check("12x 3", "");
	check("-5", "");
	check("5 a 6", "5");
	check("18446744073709551615 1", "");
	check("99999999999999999 1", "99999999999999999 1");
	check_dec("");
	check_dec("0");
	check_dec("  42x");
	check_dec("\t-17 ");
	check_dec("abc");
	check_dec("-");
	check_dec(" -x");
	check_dec("9223372036854775807");
	check_dec("9223372036854775808");
	check_dec("99999999999999999999999 1");
	check_dec("-9223372036854775807");
	check_dec("-9223372036854775808");
	check_dec("-99999999999999999999");
	check_dec_random();
	return tap_done();
}
