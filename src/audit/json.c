/* json.c: see json.h. Records are built in memory so that each is one
 * write(2): concurrent writers on an O_APPEND file never interleave. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "audit/json.h"
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

/* The JSON form of the character at S into OUT (at most 6 bytes): its
 * length, with in *N the bytes of S it stands for. */
static size_t escape(const unsigned char *s, char out[8], size_t *n)
{
	size_t len = utf8_len(s);

	*n = len ? len : 1;
	if (len == 0)
		return (size_t)fmt_snprintf(out, 8, "\\udc%02x", *s);
	if (*s == '"' || *s == '\\') {
		out[0] = '\\';
		out[1] = (char)*s;
		return 2;
	}
	if (*s < 0x20 || *s == 0x7f)
		return (size_t)fmt_snprintf(out, 8, "\\u%04x", *s);
	memcpy(out, s, len);
	return len;
}

/* The length of S quoted, or of its first characters once that passes
 * LIMIT: a long value is not read to its end to be found too long. */
static size_t quoted_len(const char *str, size_t limit)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len = 2, n;
	char esc[8];

	while (*s != '\0' && len <= limit) {
		len += escape(s, esc, &n);
		s += n;
	}
	return len;
}

/* Quote the longest prefix of S, cut between characters, whose quoted
 * form fits MAX bytes (at least 2); returns the bytes of S taken. */
static size_t quote_upto(struct json *j, const char *str, size_t max)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t used = 2, len, n;
	char esc[8];

	put(j, "\"", 1);
	while (*s != '\0') {
		len = escape(s, esc, &n);
		if (used + len > max)
			break;
		put(j, esc, len);
		used += len;
		s += n;
	}
	put(j, "\"", 1);
	return (size_t)(s - (const unsigned char *)str);
}

void json_quote(struct json *j, const char *s)
{
	quote_upto(j, s, (size_t)-1);
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

static void json_int_value(struct json *j, long long val)
{
	char buf[24];

	fmt_snprintf(buf, sizeof(buf), "%lld", val);
	puts_(j, buf);
}

void json_int(struct json *j, const char *k, long long val)
{
	key(j, k);
	json_int_value(j, val);
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

static size_t digits(size_t v)
{
	size_t n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* {"cut":PREFIX,"bytes":N} in MAX bytes (at least JSON_CUT_MIN). */
static void cut(struct json *j, const char *s, size_t max)
{
	size_t bytes = strlen(s);
	size_t frame = sizeof("{\"cut\":,\"bytes\":}") - 1 + digits(bytes);

	puts_(j, "{\"cut\":");
	quote_upto(j, s, max > frame + 2 ? max - frame : 2);
	puts_(j, ",\"bytes\":");
	json_int_value(j, (long long)bytes);
	put(j, "}", 1);
}

/* VAL whole when its JSON fits MAX, else cut: 1 when cut. */
static int value_max(struct json *j, const char *val, size_t max)
{
	if (val == NULL) {
		puts_(j, "null");
		return 0;
	}
	if (quoted_len(val, max) <= max) {
		json_quote(j, val);
		return 0;
	}
	cut(j, val, max);
	return 1;
}

int json_str_max(struct json *j, const char *k, const char *val, size_t max)
{
	key(j, k);
	return value_max(j, val, max);
}

/* The elements from V on, said in one: {"omitted":COUNT,"bytes":N}. */
static void omitted(struct json *j, char *const *v)
{
	size_t count = 0, bytes = 0;

	for (; v[count] != NULL; count++)
		bytes += strlen(v[count]);
	puts_(j, "{\"omitted\":");
	json_int_value(j, (long long)count);
	puts_(j, ",\"bytes\":");
	json_int_value(j, (long long)bytes);
	put(j, "}", 1);
}

int json_strv_max(struct json *j, const char *k, char *const *v,
    size_t max, size_t elem)
{
	size_t start, room, i;
	int cuts = 0;

	key(j, k);
	start = j->len;
	put(j, "[", 1);
	for (i = 0; v[i] != NULL; i++) {
		/* What is left once "]", a comma and the omission fit. */
		room = j->len - start + 2 + JSON_OMIT_ROOM;
		room = room < max ? max - room : 0;
		if (room < JSON_CUT_MIN)
			break;
		if (i > 0)
			put(j, ",", 1);
		cuts |= value_max(j, v[i], room < elem ? room : elem);
	}
	if (v[i] != NULL) {
		if (i > 0)
			put(j, ",", 1);
		omitted(j, v + i);
		cuts = 1;
	}
	put(j, "]", 1);
	return cuts;
}
