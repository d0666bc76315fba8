/* json.h: a small JSON writer for audit records: one line, valid JSON
 * whatever bytes the strings hold. */
#ifndef SBEXEC_JSON_H
#define SBEXEC_JSON_H

#include <stddef.h>

struct json {
	char *buf;
	size_t len, cap;
	int first;		/* no member written yet at this level */
};

void json_begin(struct json *j);	/* "{" */
void json_end(struct json *j);		/* "}\n" */
void json_str(struct json *j, const char *key, const char *val);
void json_int(struct json *j, const char *key, long long val);
void json_bool(struct json *j, const char *key, int val);
void json_null(struct json *j, const char *key);
void json_strv(struct json *j, const char *key, char *const *v);

/* Bounded values (DESIGN 12): a record has a bound every sink keeps
 * whole, so a value that would pass its share is cut, never dropped
 * silently. A string whose JSON would pass MAX bytes (at least
 * JSON_CUT_MIN) is written as {"cut": PREFIX, "bytes": N}: PREFIX is
 * cut between characters, the object fits MAX, N is the whole value's
 * length in bytes. An object is unambiguous: the strings of argv and
 * paths are only ever JSON strings. Returns 1 when VAL was cut. */
#define JSON_CUT_MIN 48
int json_str_max(struct json *j, const char *key, const char *val,
    size_t max);

/* An array of strings whose JSON fits MAX bytes (at least
 * JSON_CUT_MIN + JSON_OMIT_ROOM + 2): each element in at most ELEM bytes,
 * cut as json_str_max cuts; the elements that no longer fit become one
 * last element {"omitted": COUNT, "bytes": N}. Returns 1 when anything
 * was cut or omitted. */
#define JSON_OMIT_ROOM 64	/* ,{"omitted":N,"bytes":N} with 20 digits */
int json_strv_max(struct json *j, const char *key, char *const *v,
    size_t max, size_t elem);

/* Append S as a JSON string: valid UTF-8 is kept, control characters
 * are escaped, and each byte that is not valid UTF-8 becomes \udcXX
 * (the surrogate-escape convention, reversible and visible). */
void json_quote(struct json *j, const char *s);

#endif
