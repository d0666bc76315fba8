/* quote.c: every argument in single quotes, each ' written as '\'' .
 * Inside single quotes a POSIX shell gives every byte but ' its literal
 * meaning, so this round-trips any NUL-free string through sh, bash,
 * dash, zsh and ksh; test/quote_roundtrip proves it, it is not argued. */
#include <stdlib.h>
#include <string.h>

#include "quote.h"
#include "util.h"

size_t quote_len(const char *s)
{
	size_t n = 2;

	for (; *s != '\0'; s++)
		n += *s == '\'' ? 4 : 1;
	return n;
}

char *quote_put(char *out, const char *s)
{
	*out++ = '\'';
	for (; *s != '\0'; s++) {
		if (*s == '\'') {
			memcpy(out, "'\\''", 4);
			out += 4;
		} else {
			*out++ = *s;
		}
	}
	*out++ = '\'';
	return out;
}

char *quote_command(char *const *argv, size_t max)
{
	static const char prefix[] = "exec";
	size_t len = sizeof(prefix) - 1;
	char *buf, *p;

	if (len > max)
		return NULL;
	for (char *const *a = argv; *a != NULL; a++) {
		len += 1 + quote_len(*a);
		if (len > max)
			return NULL;
	}
	buf = xmalloc(len + 1);
	p = memcpy(buf, prefix, sizeof(prefix) - 1);
	p += sizeof(prefix) - 1;
	for (char *const *a = argv; *a != NULL; a++) {
		*p++ = ' ';
		p = quote_put(p, *a);
	}
	*p = '\0';
	return buf;
}
