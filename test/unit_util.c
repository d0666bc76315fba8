/* unit_util.c: TAP unit test of util.c's read_number, the reader of the
 * number lists in /proc (a task's children): blanks skipped, one
 * unsigned decimal number taken, 0 at the end or at anything that is
 * not a clean number (a letter glued to it, a value past its bound).
 * Build: gcc -std=c11 -D_GNU_SOURCE -Wall ... -I. -o /tmp/unit_util
 *        test/unit_util.c util.c */
#include <stdio.h>
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
	return tap_done();
}
