/* quote_fuzz: libFuzzer target for quote.c. The input, split at NUL
 * bytes into arguments, is quoted, then unquoted by a reference parser
 * of POSIX single-quote rules; the arguments must come back exactly. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "quote.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Parse one 'quoted' word (with '\'' joins) at *p into out. */
static size_t unquote(const char **p, char *out)
{
	const char *s = *p;
	size_t n = 0;

	assert(*s == '\'');
	for (;;) {
		s++;
		while (*s != '\'')
			out[n++] = *s++;
		s++;
		if (strncmp(s, "\\''", 3) != 0)
			break;
		out[n++] = '\'';
		s += 2;
	}
	*p = s;
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *in = malloc(size + 1), **argv = calloc(size + 2, sizeof(char *));
	char *cmd, *word = malloc(size + 1);
	const char *p;
	size_t n = 0, len;

	memcpy(in, data, size);
	in[size] = '\0';
	for (char *s = in; s <= in + size; s += strlen(s) + 1)
		argv[n++] = s;
	cmd = quote_command(argv, (size_t)-1);
	assert(strncmp(cmd, "exec", 4) == 0);
	p = cmd + 4;
	for (size_t i = 0; i < n; i++) {
		assert(*p++ == ' ');
		len = unquote(&p, word);
		assert(len == strlen(argv[i]) && memcmp(word, argv[i], len) == 0);
	}
	assert(*p == '\0');
	free(cmd);
	free(word);
	free(argv);
	free(in);
	return 0;
}
