/* schema.h: the closed schema's walker, shared by the files that read a
 * policy (policy.c, keys.c, commands.c). Every value is checked against
 * a table of the keys its object may hold; an error names the key path
 * ("limits.timeoutMs") and rejects the whole policy. Not for other
 * files: they see struct policy only. */
#ifndef SBEXEC_SCHEMA_H
#define SBEXEC_SCHEMA_H

#include <stddef.h>

#include "cJSON.h"
#include "policy/policy.h"

#define KEYPATH_MAX 512

struct ctx {
	const char *file;
	char key[KEYPATH_MAX];		/* the key path being checked */
	struct policy *pol;
};

typedef int (*key_fn)(struct ctx *, const cJSON *);

/* One key of the closed schema. Without FN, a boolean is stored as an
 * int and an integer as a long long at OFF in struct policy. */
struct key {
	const char *name;
	int type;			/* cJSON_String, ...; 0: integer; -1: any */
	key_fn fn;
	size_t off;
	long long lo, hi;
};

#define FIELD(f) offsetof(struct policy, f)
#define NELEM(a) (sizeof(a) / sizeof(*(a)))

/* Print "sbexec: FILE: KEYPATH: MESSAGE" and return -1. */
int bad(const struct ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Descend into KEY, or index I when KEY is NULL; leave() restores the
 * parent's path from what enter() returned. */
size_t enter(struct ctx *c, const char *key, size_t i);
void leave(struct ctx *c, size_t len);

int check_type(struct ctx *c, const cJSON *v, int type);
int check_duplicates(struct ctx *c, const cJSON *obj);

/* A closed object: every member must be in TABLE, each of its type,
 * and each is then stored or handed to its key's function. */
int check_object(struct ctx *c, const cJSON *obj, const struct key *table,
    size_t n);

/* FN over every string of array V, with the index in the key path. */
int each_string(struct ctx *c, const cJSON *v,
    int (*fn)(struct ctx *, const char *));

/* An absolute path that fits PATH_MAX. */
int absolute(struct ctx *c, const char *s);

/* keys.c: the keys of the top level, and those a command may set. */
extern const struct key top_keys[], command_keys[];
extern const size_t ntop_keys, ncommand_keys;

/* commands.c: commands and bypass, and, once the top level is known,
 * the policy of each command given as an object (DESIGN 10). */
int key_commands(struct ctx *c, const cJSON *v);
int key_bypass(struct ctx *c, const cJSON *v);
int command_overrides(struct ctx *top, const cJSON *commands);

#endif
