/* json.c: see json.h. Records are built in memory so that each is one
 * write(2): concurrent writers on an O_APPEND file never interleave. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "util.h"

static void put(struct json *j, const char *s, size_t n)
{
	if (j->len + n + 1 > j->cap) {
		while (j->len + n + 1 > j->cap)
			j->cap = j->cap ? j->cap * 2 : 512;
		j->buf = xreallocarray(j->buf, j->cap, 1);
	}
	memcpy(j->buf + j->len, s, n);
	j->len += n;
	j->buf[j->len] = '\0';
}

static void puts_(struct json *j, const char *s)
{
	put(j, s, strlen(s));
}

/* Length of the valid UTF-8 sequence at S, or 0 (RFC 3629 table 3-7). */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

void json_quote(struct json *j, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	char esc[8];
	size_t n;

	put(j, "\"", 1);
	while (*s != '\0') {
		n = utf8_len(s);
		if (n == 0) {
			snprintf(esc, sizeof(esc), "\\udc%02x", *s);
			puts_(j, esc);
			n = 1;
		} else if (*s == '"' || *s == '\\') {
			put(j, "\\", 1);
			put(j, (const char *)s, 1);
		} else if (*s < 0x20 || *s == 0x7f) {
			snprintf(esc, sizeof(esc), "\\u%04x", *s);
			puts_(j, esc);
		} else {
			put(j, (const char *)s, n);
		}
		s += n;
	}
	put(j, "\"", 1);
}

static void key(struct json *j, const char *k)
{
	if (!j->first)
		put(j, ",", 1);
	j->first = 0;
	json_quote(j, k);
	put(j, ":", 1);
}

void json_begin(struct json *j)
{
	*j = (struct json){ .first = 1 };
	put(j, "{", 1);
}

void json_end(struct json *j)
{
	put(j, "}\n", 2);
}

void json_str(struct json *j, const char *k, const char *val)
{
	key(j, k);
	if (val == NULL)
		puts_(j, "null");
	else
		json_quote(j, val);
}

void json_int(struct json *j, const char *k, long long val)
{
	char buf[24];

	key(j, k);
	snprintf(buf, sizeof(buf), "%lld", val);
	puts_(j, buf);
}

void json_bool(struct json *j, const char *k, int val)
{
	key(j, k);
	puts_(j, val ? "true" : "false");
}

void json_null(struct json *j, const char *k)
{
	key(j, k);
	puts_(j, "null");
}

void json_strv(struct json *j, const char *k, char *const *v)
{
	key(j, k);
	put(j, "[", 1);
	for (size_t i = 0; v[i] != NULL; i++) {
		if (i > 0)
			put(j, ",", 1);
		json_quote(j, v[i]);
	}
	put(j, "]", 1);
}
