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

/* Append S as a JSON string: valid UTF-8 is kept, control characters
 * are escaped, and each byte that is not valid UTF-8 becomes \udcXX
 * (the surrogate-escape convention, reversible and visible). */
void json_quote(struct json *j, const char *s);

#endif
