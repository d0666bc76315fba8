/* schema.c: the closed schema's walker (schema.h). A policy is small and
 * written by its administrator, but it is checked as if it were not:
 * every object and array is bounded, every key is known, every value
 * has its type, and nothing is skipped silently (DESIGN 2). */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "policy/schema.h"

#define MAX_ITEMS 1024			/* per object or array: bounds O(n^2) */

int bad(const struct ctx *c, const char *fmt, ...)
{
	va_list ap;

	fmt_fprintf(stderr, "sbexec: %s: %s%s", c->file, c->key,
	    c->key[0] ? ": " : "");
	va_start(ap, fmt);
	fmt_vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

size_t enter(struct ctx *c, const char *key, size_t i)
{
	size_t len = strlen(c->key);

	if (key == NULL)
		fmt_snprintf(c->key + len, sizeof(c->key) - len, "[%zu]", i);
	else
		fmt_snprintf(c->key + len, sizeof(c->key) - len, "%s%s",
		    len ? "." : "", key);
	return len;
}

void leave(struct ctx *c, size_t len)
{
	c->key[len] = '\0';
}

static const char *type_name(int type)
{
	switch (type) {
	case cJSON_String:	return "a string";
	case cJSON_Array:	return "an array";
	case cJSON_Object:	return "an object";
	case cJSON_True:	return "a boolean";
	default:		return "an integer";
	}
}

static int has_type(const cJSON *v, int type)
{
	if (type < 0)
		return 1;		/* any: the handler decides */
	if (type == cJSON_True)
		return cJSON_IsBool(v);
	if (type == 0)
		return cJSON_IsNumber(v);
	return (v->type & 0xff) == type;
}

int check_type(struct ctx *c, const cJSON *v, int type)
{
	if (!has_type(v, type))
		return bad(c, "must be %s", type_name(type));
	return 0;
}

static int count_items(struct ctx *c, const cJSON *v)
{
	int n = cJSON_GetArraySize(v);

	if (n > MAX_ITEMS)
		return bad(c, "more than %d entries", MAX_ITEMS);
	return n;
}

int check_duplicates(struct ctx *c, const cJSON *obj)
{
	if (count_items(c, obj) < 0)
		return -1;
	for (const cJSON *a = obj->child; a != NULL; a = a->next)
		for (const cJSON *b = obj->child; b != a; b = b->next)
			if (strcmp(a->string, b->string) == 0)
				return bad(c, "duplicate key \"%s\"",
				    a->string);
	return 0;
}

static int get_int(struct ctx *c, const cJSON *v, long long lo,
    long long hi, long long *out)
{
	double d = v->valuedouble;

	if (!(d >= (double)lo && d <= (double)hi) || floor(d) != d)
		return bad(c, "must be an integer between %lld and %lld",
		    lo, hi);
	*out = (long long)d;
	return 0;
}

static int store(struct ctx *c, const cJSON *v, const struct key *k)
{
	char *field = (char *)c->pol + k->off;

	if (k->fn != NULL)
		return k->fn(c, v);
	if (k->type == cJSON_True) {
		*(int *)(void *)field = cJSON_IsTrue(v);
		return 0;
	}
	return get_int(c, v, k->lo, k->hi, (long long *)(void *)field);
}

int check_object(struct ctx *c, const cJSON *obj, const struct key *table,
    size_t n)
{
	const cJSON *v;
	size_t i, len;

	if (check_duplicates(c, obj) < 0)
		return -1;
	for (v = obj->child; v != NULL; v = v->next) {
		for (i = 0; i < n && strcmp(table[i].name, v->string); i++)
			;
		if (i == n) {
			enter(c, v->string, 0);
			return bad(c, "unknown key");
		}
	}
	for (i = 0; i < n; i++) {
		v = cJSON_GetObjectItemCaseSensitive(obj, table[i].name);
		if (v == NULL)
			continue;
		len = enter(c, table[i].name, 0);
		if (check_type(c, v, table[i].type) < 0 ||
		    store(c, v, &table[i]) < 0)
			return -1;
		leave(c, len);
	}
	return 0;
}

int each_string(struct ctx *c, const cJSON *v,
    int (*fn)(struct ctx *, const char *))
{
	size_t i = 0, len;
	const cJSON *e;

	if (count_items(c, v) < 0)
		return -1;
	cJSON_ArrayForEach(e, v) {
		len = enter(c, NULL, i++);
		if (check_type(c, e, cJSON_String) < 0 ||
		    fn(c, e->valuestring) < 0)
			return -1;
		leave(c, len);
	}
	return 0;
}

int absolute(struct ctx *c, const char *s)
{
	if (s[0] != '/')
		return bad(c, "must be an absolute path");
	if (strlen(s) >= PATH_MAX)
		return bad(c, "longer than %d bytes", PATH_MAX - 1);
	return 0;
}
