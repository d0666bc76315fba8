/* unit_quote.c: TAP unit test of quote.c. quote_len and quote_put agree
 * on every input, each ' becomes '\'' and every other byte stays as it
 * is; quote_command writes "exec 'a0' 'a1' ..." and returns NULL exactly
 * when the result would be longer than max bytes.
 * Build: gcc -std=c11 -D_GNU_SOURCE -Wall ... -I. -o /tmp/unit_quote
 *        test/unit_quote.c quote.c util.c */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quote.h"
#include "tap.h"

/* Print LEN bytes of S as a C string literal, for # diagnostics. */
static void put_escaped(const char *s, size_t len)
{
	putchar('"');
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\n')
			fputs("\\n", stdout);
		else if (c == '\\' || c == '"')
			printf("\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
	putchar('"');
}

/* One test: GOT (GOTLEN bytes, or NULL) must be the bytes of WANT. */
static void check_bytes(const char *name, const char *got, size_t gotlen,
    const char *want)
{
	int same = got != NULL && gotlen == strlen(want) &&
	    memcmp(got, want, gotlen) == 0;

	ok(same, name);
	if (same)
		return;
	fputs("#   got:  ", stdout);
	if (got == NULL)
		fputs("NULL", stdout);
	else
		put_escaped(got, gotlen);
	fputs("\n#   want: ", stdout);
	put_escaped(want, strlen(want));
	putchar('\n');
}

/* quote_put of S into a guarded buffer must give WANT, return its end,
 * write no NUL past it, and quote_len must give the same length. */
static void check_quote(const char *name, const char *s, const char *want)
{
	size_t n = quote_len(s), cap = 4 * strlen(s) + 3;
	char *buf = malloc(cap + 1), *end;
	char label[160];

	if (buf == NULL) {
		printf("Bail out! malloc failed\n");
		exit(1);
	}
	memset(buf, '#', cap + 1);
	end = quote_put(buf, s);
	snprintf(label, sizeof(label), "quote_put: %s", name);
	check_bytes(label, buf, (size_t)(end - buf), want);
	snprintf(label, sizeof(label), "quote_len: %s is %zu", name,
	    strlen(want));
	ok(n == strlen(want) && end == buf + n && *end == '#', label);
	if (n != strlen(want))
		printf("#   got:  %zu\n#   want: %zu\n", n, strlen(want));
	free(buf);
}

/* Every byte 1..255 except ' goes through quote_put unchanged. */
static void check_all_bytes(void)
{
	char s[256], want[258];
	size_t n = 0;

	for (int c = 1; c < 256; c++)
		if (c != '\'')
			s[n++] = (char)c;
	s[n] = '\0';
	want[0] = '\'';
	memcpy(want + 1, s, n);
	want[n + 1] = '\'';
	want[n + 2] = '\0';
	check_quote("every byte but ' is verbatim", s, want);
}

static void check_command(void)
{
	char *const argv[] = { "/usr/bin/ffprobe", "-v", "it's", NULL };
	char *const none[] = { NULL };
	const char *want = "exec '/usr/bin/ffprobe' '-v' 'it'\\''s'";
	size_t len = strlen(want);
	char *got;

	got = quote_command(argv, 4096);
	check_bytes("quote_command: ffprobe -v it's", got,
	    got ? strlen(got) : 0, want);
	free(got);
	got = quote_command(argv, len);
	check_bytes("quote_command: max == length succeeds", got,
	    got ? strlen(got) : 0, want);
	free(got);
	got = quote_command(argv, len - 1);
	ok(got == NULL, "quote_command: max == length - 1 returns NULL");
	if (got != NULL)
		printf("#   got:  \"%s\"\n#   want: NULL\n", got);
	free(got);
	got = quote_command(none, 4);
	check_bytes("quote_command: empty argv is \"exec\"", got,
	    got ? strlen(got) : 0, "exec");
	free(got);
	got = quote_command(none, 3);
	ok(got == NULL, "quote_command: empty argv with max 3 returns NULL");
	free(got);
}

int main(void)
{
	printf("1..17\n");
	check_quote("empty string", "", "''");
	check_quote("plain word", "ffprobe", "'ffprobe'");
	check_quote("single quote", "'", "''\\'''");
	check_quote("several quotes", "a''b'", "'a'\\'''\\''b'\\'''");
	check_quote("spaces $ ` \\ newline \" verbatim",
	    " a b $HOME `id` \\n \\\n\"x\" ! * ? ~ # % { }",
	    "' a b $HOME `id` \\n \\\n\"x\" ! * ? ~ # % { }'");
	check_all_bytes();
	check_command();
	return failures ? 1 : 0;
}
