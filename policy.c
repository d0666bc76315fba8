/* policy.c: read the policy file with the checks of sudoers and sshd's
 * StrictModes, parse it with cJSON and validate it against a closed
 * schema into struct policy. Any error rejects the whole policy with one
 * line that names the key path; nothing is skipped silently. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cJSON.h"
#include "env.h"
#include "netpolicy.h"
#include "path.h"
#include "policy.h"
#include "sha256.h"
#include "trust.h"
#include "util.h"

#define POLICY_MAX_BYTES (1 << 20)	/* DESIGN 1: a policy is small */
#define MAX_ITEMS 1024			/* per object or array: bounds O(n^2) */
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
	int type;			/* cJSON_String, ...; 0: integer */
	key_fn fn;
	size_t off;
	long long lo, hi;
};

static int bad(const struct ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int bad(const struct ctx *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "sbexec: %s: %s%s", c->file, c->key,
	    c->key[0] ? ": " : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

/* Descend into KEY (or index I when KEY is NULL); returns the old length
 * so that leave() can restore the parent's path. */
static size_t enter(struct ctx *c, const char *key, size_t i)
{
	size_t len = strlen(c->key);

	if (key == NULL)
		snprintf(c->key + len, sizeof(c->key) - len, "[%zu]", i);
	else
		snprintf(c->key + len, sizeof(c->key) - len, "%s%s",
		    len ? "." : "", key);
	return len;
}

static void leave(struct ctx *c, size_t len)
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

static int check_type(struct ctx *c, const cJSON *v, int type)
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

static int check_duplicates(struct ctx *c, const cJSON *obj)
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
    long long hi, long long *out);

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

/* A closed object: every member must be in TABLE, each of its type. */
static int check_object(struct ctx *c, const cJSON *obj,
    const struct key *table, size_t n)
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

/* Run FN over every string of array V, with the index in the key path. */
static int each_string(struct ctx *c, const cJSON *v,
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

static int name_ok(const char *s, const char *first, const char *rest)
{
	if (*s == '\0' || strchr(first, *s) == NULL)
		return 0;
	while (*++s != '\0')
		if (strchr(rest, *s) == NULL)
			return 0;
	return 1;
}

#define ALNUM "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

static int command_name_ok(const char *s)
{
	return name_ok(s, ALNUM "._+-", ALNUM "._+-") &&
	    strcmp(s, "sbexec") != 0 && strcmp(s, ".") != 0 &&
	    strcmp(s, "..") != 0;
}

static int absolute(struct ctx *c, const char *s)
{
	if (s[0] != '/')
		return bad(c, "must be an absolute path");
	if (strlen(s) >= PATH_MAX)
		return bad(c, "longer than %d bytes", PATH_MAX - 1);
	return 0;
}

/* A command is its path, or {"path": ..., overrides} (DESIGN 10; the
 * overrides are read once the top level is known). */
static int command_path(struct ctx *c, const cJSON *e, const char **path)
{
	const cJSON *p = e;
	size_t len;
	int rc;

	if (cJSON_IsObject(e)) {
		p = cJSON_GetObjectItemCaseSensitive(e, "path");
		len = enter(c, "path", 0);
		rc = p == NULL ? bad(c, "required") : 0;
		if (rc < 0 || check_type(c, p, cJSON_String) < 0)
			return -1;
		leave(c, len);
	} else if (!cJSON_IsString(e)) {
		return bad(c, "must be a string (the path) or an object with "
		    "\"path\"");
	}
	*path = p->valuestring;
	return absolute(c, *path);
}

static int key_commands(struct ctx *c, const cJSON *v)
{
	struct policy *pol = c->pol;
	const char *path = NULL;
	const cJSON *e;
	size_t len;

	if (check_duplicates(c, v) < 0)
		return -1;
	if (v->child == NULL)
		return bad(c, "must name at least one command");
	pol->cmds = xreallocarray(NULL, (size_t)cJSON_GetArraySize(v),
	    sizeof(*pol->cmds));
	cJSON_ArrayForEach(e, v) {
		len = enter(c, e->string, 0);
		if (!command_name_ok(e->string))
			return bad(c, "a command name matches "
			    "[A-Za-z0-9._+-]+ and is not \"sbexec\"");
		if (command_path(c, e, &path) < 0)
			return -1;
		pol->cmds[pol->ncmds++] = (struct command){
			xstrdup(e->string), xstrdup(path), 0, NULL };
		leave(c, len);
	}
	return 0;
}

static struct command *find_command(struct policy *pol, const char *name)
{
	for (size_t i = 0; i < pol->ncmds; i++)
		if (strcmp(pol->cmds[i].name, name) == 0)
			return &pol->cmds[i];
	return NULL;
}

/* A bypassed command runs unsandboxed with hostile argv: DESIGN 4. */
static int bypass_one(struct ctx *c, const char *name)
{
	struct command *cmd = find_command(c->pol, name);
	char *real, head[2] = { 0, 0 };
	int fd, rc = 0;

	if (cmd == NULL)
		return bad(c, "\"%s\" is not a key of commands", name);
	if (cmd->bypass)
		return bad(c, "\"%s\" is listed twice", name);
	if (is_interpreter(name))
		return bad(c, "\"%s\" is an interpreter or launcher; it may "
		    "never be bypassed", name);
	real = path_resolve(cmd->path);
	if (real != NULL && is_interpreter(base_name(real)))
		rc = bad(c, "\"%s\" resolves to %s, an interpreter or "
		    "launcher; it may never be bypassed", name, real);
	fd = real ? open(real, O_RDONLY | O_CLOEXEC | O_NONBLOCK) : -1;
	if (rc == 0 && fd >= 0 && read(fd, head, 2) == 2 &&
	    head[0] == '#' && head[1] == '!')
		rc = bad(c, "\"%s\" is a #! script; it may never be "
		    "bypassed", name);
	if (fd >= 0)
		close(fd);
	free(real);
	cmd->bypass = 1;
	return rc;
}

static int key_bypass(struct ctx *c, const cJSON *v)
{
	return each_string(c, v, bypass_one);
}

static int key_bin_shell(struct ctx *c, const cJSON *v)
{
	static const char *const shells[] = { "sh", "bash", "dash", "zsh",
	    "ksh" };
	const char *s = v->valuestring;

	if (absolute(c, s) < 0)
		return -1;
	for (size_t i = 0; i < sizeof(shells) / sizeof(*shells); i++)
		if (strcmp(base_name(s), shells[i]) == 0) {
			free(c->pol->bin_shell);
			c->pol->bin_shell = xstrdup(s);
			return 0;
		}
	return bad(c, "must be one of sh, bash, dash, zsh, ksh (the shells "
	    "whose single-quote escaping sbexec is correct for)");
}

static int key_bwrap(struct ctx *c, const cJSON *v)
{
	if (absolute(c, v->valuestring) < 0)
		return -1;
	free(c->pol->bwrap);
	c->pol->bwrap = xstrdup(v->valuestring);
	return 0;
}

static int env_one(struct ctx *c, const char *name)
{
	struct policy *pol = c->pol;

	if (!env_name_valid(name))
		return bad(c, "\"%s\" is not a variable name "
		    "(^[A-Za-z_][A-Za-z0-9_]*$)", name);
	for (size_t i = 0; i < pol->nenv_allow; i++)
		if (strcmp(pol->env_allow[i], name) == 0)
			return bad(c, "\"%s\" is listed twice", name);
	pol->env_allow = xreallocarray(pol->env_allow, pol->nenv_allow + 2,
	    sizeof(*pol->env_allow));
	pol->env_allow[pol->nenv_allow++] = xstrdup(name);
	pol->env_allow[pol->nenv_allow] = NULL;
	return 0;
}

static int key_env_allow(struct ctx *c, const cJSON *v)
{
	struct policy *pol = c->pol;

	/* Given, it replaces the default ["PATH"]. */
	for (size_t i = 0; i < pol->nenv_allow; i++)
		free(pol->env_allow[i]);
	pol->env_allow[0] = NULL;
	pol->nenv_allow = 0;
	return each_string(c, v, env_one);
}

static int add_rule(struct ctx *c, const char *s, enum fs_kind kind)
{
	struct policy *pol = c->pol;
	struct fs_rule *r;
	const char *why = NULL;
	char *norm;

	if (strlen(s) >= PATH_MAX)
		return bad(c, "longer than %d bytes", PATH_MAX - 1);
	norm = path_expand(s, &why);
	if (norm == NULL)
		return bad(c, "\"%s\": %s", s, why);
	pol->rules = xreallocarray(pol->rules, pol->nrules + 1,
	    sizeof(*pol->rules));
	r = &pol->rules[pol->nrules++];
	r->path = xstrdup(s);
	r->kind = kind;
	r->expanded = norm;
	r->resolved = path_resolve(norm);
	return 0;
}

static int deny_read(struct ctx *c, const char *s)
{
	return add_rule(c, s, FS_DENY_READ);
}

static int allow_read(struct ctx *c, const char *s)
{
	return add_rule(c, s, FS_ALLOW_READ);
}

static int allow_write(struct ctx *c, const char *s)
{
	return add_rule(c, s, FS_ALLOW_WRITE);
}

static int deny_write(struct ctx *c, const char *s)
{
	return add_rule(c, s, FS_DENY_WRITE);
}

static int key_deny_read(struct ctx *c, const cJSON *v)
{
	return each_string(c, v, deny_read);
}

static int key_allow_read(struct ctx *c, const cJSON *v)
{
	return each_string(c, v, allow_read);
}

static int key_allow_write(struct ctx *c, const cJSON *v)
{
	return each_string(c, v, allow_write);
}

static int key_deny_write(struct ctx *c, const cJSON *v)
{
	return each_string(c, v, deny_write);
}

#define FIELD(f) offsetof(struct policy, f)

static int key_filesystem(struct ctx *c, const cJSON *v)
{
	static const struct key keys[] = {
		{ "denyRead", cJSON_Array, key_deny_read, 0, 0, 0 },
		{ "allowRead", cJSON_Array, key_allow_read, 0, 0, 0 },
		{ "allowWrite", cJSON_Array, key_allow_write, 0, 0, 0 },
		{ "denyWrite", cJSON_Array, key_deny_write, 0, 0, 0 },
		{ "privateTmp", cJSON_True, NULL, FIELD(private_tmp), 0, 0 },
	};

	return check_object(c, v, keys, sizeof(keys) / sizeof(*keys));
}

/* ---- DESIGN 11: "none", "host", or an allow-list object */

static int grow_rule(struct ctx *c, const char *s, struct host_rule **v,
    size_t *n)
{
	struct host_rule r;
	const char *why;

	if (host_rule_parse(s, &r, &why) < 0)
		return bad(c, "\"%s\": %s", s, why);
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = r;
	return 0;
}

static int net_allow(struct ctx *c, const char *s)
{
	return grow_rule(c, s, &c->pol->net->allow, &c->pol->net->nallow);
}

static int net_deny(struct ctx *c, const char *s)
{
	return grow_rule(c, s, &c->pol->net->deny, &c->pol->net->ndeny);
}

static int net_address(struct ctx *c, const char *s)
{
	struct netpolicy *np = c->pol->net;
	struct cidr r;
	const char *why;

	if (cidr_parse(s, &r, &why) < 0)
		return bad(c, "\"%s\": %s", s, why);
	np->addrs = xreallocarray(np->addrs, np->naddrs + 1, sizeof(r));
	np->addrs[np->naddrs++] = r;
	return 0;
}

static int key_net_allow(struct ctx *c, const cJSON *v)
{
	return each_string(c, v, net_allow);
}

static int key_net_deny(struct ctx *c, const cJSON *v)
{
	return each_string(c, v, net_deny);
}

static int key_net_addresses(struct ctx *c, const cJSON *v)
{
	return each_string(c, v, net_address);
}

static int net_object(struct ctx *c, const cJSON *v)
{
	static const struct key keys[] = {
		{ "allow", cJSON_Array, key_net_allow, 0, 0, 0 },
		{ "deny", cJSON_Array, key_net_deny, 0, 0, 0 },
		{ "allowAddresses", cJSON_Array, key_net_addresses, 0, 0, 0 },
	};

	c->pol->net = xmalloc(sizeof(*c->pol->net));
	*c->pol->net = (struct netpolicy){ 0 };
	if (check_object(c, v, keys, sizeof(keys) / sizeof(*keys)) < 0)
		return -1;
	if (c->pol->net->nallow == 0)
		return bad(c, "allow: required, with at least one host "
		    "(\"none\" is the policy that reaches no host)");
	return 0;
}

static int key_network(struct ctx *c, const cJSON *v)
{
	netpolicy_free(c->pol->net);
	c->pol->net = NULL;
	c->pol->network_host = 0;
	if (cJSON_IsObject(v))
		return net_object(c, v);
	if (cJSON_IsString(v) && strcmp(v->valuestring, "none") == 0)
		return 0;
	if (cJSON_IsString(v) && strcmp(v->valuestring, "host") == 0) {
		c->pol->network_host = 1;
		return 0;
	}
	return bad(c, "must be \"none\", \"host\" or an object "
	    "{\"allow\": [...], \"deny\": [...], \"allowAddresses\": [...]}");
}

static int key_sandbox(struct ctx *c, const cJSON *v)
{
	static const char *const names[] = {
		[BACKEND_BWRAP] = "bwrap",
		[BACKEND_LANDLOCK] = "landlock",
		[BACKEND_AUTO] = "auto",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (strcmp(v->valuestring, names[i]) == 0) {
			c->pol->backend = (enum backend)i;
			return 0;
		}
	return bad(c, "must be \"bwrap\", \"landlock\" or \"auto\"");
}

#define LIMIT(name, f, lo, hi) \
	{ name, 0, NULL, FIELD(limits.f), lo, hi }
#define DAY_MS 86400000LL
#define JSON_INT_MAX 9007199254740992LL		/* 2^53: exact in a double */

static int key_limits(struct ctx *c, const cJSON *v)
{
	static const struct key keys[] = {
		LIMIT("timeoutMs", timeout_ms, 1, DAY_MS),
		LIMIT("killAfterMs", kill_after_ms, 0, DAY_MS),
		LIMIT("maxOutputBytes", max_output_bytes, 0, JSON_INT_MAX),
		LIMIT("cpuSeconds", cpu_seconds, 0, DAY_MS / 1000),
		LIMIT("memoryBytes", memory_bytes, 0, JSON_INT_MAX),
		LIMIT("fileSizeBytes", file_size_bytes, 0, JSON_INT_MAX),
		LIMIT("openFiles", open_files, 0, 1 << 20),
		LIMIT("processes", processes, 0, 1 << 22),
		LIMIT("tmpBytes", tmp_bytes, 1, JSON_INT_MAX),
	};

	return check_object(c, v, keys, sizeof(keys) / sizeof(*keys));
}

static int key_audit(struct ctx *c, const cJSON *v)
{
	struct policy *pol = c->pol;
	const char *s = v->valuestring;

	if (strcmp(s, "stderr") == 0) {
		pol->audit = AUDIT_STDERR;
	} else if (strcmp(s, "syslog") == 0) {
		pol->audit = AUDIT_SYSLOG;
	} else if (s[0] == '/') {
		if (absolute(c, s) < 0)
			return -1;
		pol->audit = AUDIT_FILE;
		pol->audit_path = xstrdup(s);
	} else {
		return bad(c, "must be \"stderr\", \"syslog\" or an "
		    "absolute file path");
	}
	return 0;
}

/* Order matters: bypass names keys of commands. */
static const struct key top_keys[] = {
	{ "commands", cJSON_Object, key_commands, 0, 0, 0 },
	{ "bypass", cJSON_Array, key_bypass, 0, 0, 0 },
	{ "binShell", cJSON_String, key_bin_shell, 0, 0, 0 },
	{ "bwrap", cJSON_String, key_bwrap, 0, 0, 0 },
	{ "envAllowList", cJSON_Array, key_env_allow, 0, 0, 0 },
	{ "inheritHostEnv", cJSON_True, NULL, FIELD(inherit_host_env), 0, 0 },
	{ "enableWeakerNestedSandbox", cJSON_True, NULL,
	    FIELD(weaker_nested), 0, 0 },
	{ "filesystem", cJSON_Object, key_filesystem, 0, 0, 0 },
	{ "network", -1, key_network, 0, 0, 0 },
	{ "allowUnixSockets", cJSON_True, NULL,
	    FIELD(allow_unix_sockets), 0, 0 },
	{ "sandbox", cJSON_String, key_sandbox, 0, 0, 0 },
	{ "limits", cJSON_Object, key_limits, 0, 0, 0 },
	{ "audit", cJSON_String, key_audit, 0, 0, 0 },
};

/* ---- DESIGN 10: per-command policies */

static int not_overridable(struct ctx *c, const cJSON *v)
{
	(void)v;
	return bad(c, "cannot be set for one command (only envAllowList, "
	    "inheritHostEnv, filesystem, network, allowUnixSockets, limits, "
	    "sandbox, enableWeakerNestedSandbox)");
}

static int key_path(struct ctx *c, const cJSON *v)
{
	(void)c;
	(void)v;
	return 0;		/* read by command_path */
}

/* Each filesystem array given replaces the inherited one of its kind. */
static int key_fs_override(struct ctx *c, const cJSON *v)
{
	static const char *const kinds[] = {
		[FS_ALLOW_READ] = "allowRead", [FS_ALLOW_WRITE] = "allowWrite",
		[FS_DENY_WRITE] = "denyWrite", [FS_DENY_READ] = "denyRead",
	};
	struct policy *pol = c->pol;
	size_t i, n = 0;

	for (i = 0; i < pol->nrules; i++) {
		struct fs_rule *r = &pol->rules[i];

		if (cJSON_GetObjectItemCaseSensitive(v, kinds[r->kind])) {
			free(r->path);
			free(r->expanded);
			free(r->resolved);
		} else {
			pol->rules[n++] = *r;
		}
	}
	pol->nrules = n;
	return key_filesystem(c, v);
}

static const struct key command_keys[] = {
	{ "path", cJSON_String, key_path, 0, 0, 0 },
	{ "envAllowList", cJSON_Array, key_env_allow, 0, 0, 0 },
	{ "inheritHostEnv", cJSON_True, NULL, FIELD(inherit_host_env), 0, 0 },
	{ "enableWeakerNestedSandbox", cJSON_True, NULL,
	    FIELD(weaker_nested), 0, 0 },
	{ "filesystem", cJSON_Object, key_fs_override, 0, 0, 0 },
	{ "network", -1, key_network, 0, 0, 0 },
	{ "allowUnixSockets", cJSON_True, NULL,
	    FIELD(allow_unix_sockets), 0, 0 },
	{ "limits", cJSON_Object, key_limits, 0, 0, 0 },
	{ "sandbox", cJSON_String, key_sandbox, 0, 0, 0 },
	{ "commands", -1, not_overridable, 0, 0, 0 },
	{ "bypass", -1, not_overridable, 0, 0, 0 },
	{ "binShell", -1, not_overridable, 0, 0, 0 },
	{ "bwrap", -1, not_overridable, 0, 0, 0 },
	{ "audit", -1, not_overridable, 0, 0, 0 },
};

/* A deep copy of what a command inherits; no commands of its own. */
static struct policy *inherit(const struct policy *top)
{
	struct policy *p = xmalloc(sizeof(*p));

	*p = *top;
	p->cmds = NULL;
	p->ncmds = 0;
	p->overrides = (struct strv){ 0 };
	p->file = xstrdup(top->file);
	p->bin_shell = xstrdup(top->bin_shell);
	p->bwrap = xstrdup(top->bwrap);
	p->audit_path = top->audit_path ? xstrdup(top->audit_path) : NULL;
	p->net = netpolicy_copy(top->net);
	p->env_allow = xreallocarray(NULL, top->nenv_allow + 1,
	    sizeof(*p->env_allow));
	for (size_t i = 0; i <= top->nenv_allow; i++)
		p->env_allow[i] = top->env_allow[i] ?
		    xstrdup(top->env_allow[i]) : NULL;
	p->rules = xreallocarray(NULL, top->nrules + 1, sizeof(*p->rules));
	for (size_t i = 0; i < top->nrules; i++)
		p->rules[i] = (struct fs_rule){ xstrdup(top->rules[i].path),
		    xstrdup(top->rules[i].expanded), top->rules[i].resolved ?
		    xstrdup(top->rules[i].resolved) : NULL, top->rules[i].kind };
	return p;
}

/* The key paths an object of overrides sets, for the audit record. */
static void list_overrides(const cJSON *obj, struct strv *out)
{
	const cJSON *v, *sub;
	char *path;
	int whole;

	for (v = obj->child; v != NULL; v = v->next) {
		if (strcmp(v->string, "path") == 0)
			continue;
		/* network is replaced whole; the others key by key. */
		whole = !cJSON_IsObject(v) || v->child == NULL ||
		    strcmp(v->string, "network") == 0;
		if (whole)
			strv_push(out, v->string);
		for (sub = whole ? NULL : v->child; sub != NULL;
		    sub = sub->next) {
			path = xasprintf("%s.%s", v->string, sub->string);
			strv_push(out, path);
			free(path);
		}
	}
}

/* After the top level: each command given as an object gets its own
 * policy, the top level's with its overrides applied. */
static int command_overrides(struct ctx *top, const cJSON *commands)
{
	struct policy *pol = top->pol;
	struct ctx c = { .file = top->file };
	const cJSON *obj;

	for (size_t i = 0; i < pol->ncmds; i++) {
		obj = cJSON_GetObjectItemCaseSensitive(commands,
		    pol->cmds[i].name);
		if (!cJSON_IsObject(obj))
			continue;
		c.pol = pol->cmds[i].own = inherit(pol);
		snprintf(c.key, sizeof(c.key), "commands.%s", pol->cmds[i].name);
		if (check_object(&c, obj, command_keys,
		    sizeof(command_keys) / sizeof(*command_keys)) < 0)
			return -1;
		list_overrides(obj, &c.pol->overrides);
	}
	return 0;
}

const struct policy *policy_of(const struct policy *pol,
    const struct command *cmd)
{
	return cmd != NULL && cmd->own != NULL ? cmd->own : pol;
}

static void set_defaults(struct policy *pol)
{
	memset(pol, 0, sizeof(*pol));
	pol->bin_shell = xstrdup("/bin/sh");
	pol->bwrap = xstrdup("/usr/bin/bwrap");
	pol->env_allow = xreallocarray(NULL, 2, sizeof(*pol->env_allow));
	pol->env_allow[0] = xstrdup("PATH");
	pol->env_allow[1] = NULL;
	pol->nenv_allow = 1;
	pol->limits.timeout_ms = 120000;
	pol->limits.kill_after_ms = 5000;
	pol->limits.max_output_bytes = 100000000;
	pol->limits.tmp_bytes = 256LL << 20;
	pol->audit = AUDIT_STDERR;
}

/* cJSON decodes "\u0000" into a NUL that would silently cut a key or a
 * path short ("/etc/shadow\u0000/../x"): refuse the escape outright. An
 * escape is a backslash preceded by an even number of backslashes. */
static const char *nul_escape(const char *buf)
{
	const char *p = buf, *q;

	while ((p = strstr(p, "u0000")) != NULL) {
		for (q = p; q > buf && q[-1] == '\\'; q--)
			;
		if ((p - q) % 2 == 1)
			return p;
		p++;
	}
	return NULL;
}

static int json_error(const char *name, const char *buf, const char *end)
{
	size_t line = 1;

	for (const char *p = buf; end != NULL && p < end; p++)
		line += *p == '\n';
	fprintf(stderr, "sbexec: %s: line %zu: invalid JSON\n", name, line);
	return -1;
}

int policy_parse(const char *name, const char *buf, size_t len,
    struct policy *pol)
{
	struct ctx c = { .file = name, .key = "", .pol = pol };
	const char *end = NULL;
	cJSON *root;
	int rc;

	set_defaults(pol);
	pol->file = xstrdup(name);
	sha256_hex(buf, len, pol->sha256);
	if (memchr(buf, '\0', len) != NULL)
		return bad(&c, "contains a NUL byte");
	if (nul_escape(buf) != NULL)
		return bad(&c, "contains \"\\u0000\", a NUL byte");
	/* The length includes the terminator: cJSON then insists on it. */
	root = cJSON_ParseWithLengthOpts(buf, len + 1, &end, 1);
	if (root == NULL)
		return json_error(name, buf, end);
	if (!cJSON_IsObject(root)) {
		cJSON_Delete(root);
		fprintf(stderr, "sbexec: %s: must be a JSON object\n", name);
		return -1;
	}
	rc = check_object(&c, root, top_keys,
	    sizeof(top_keys) / sizeof(*top_keys));
	if (rc == 0 && pol->ncmds == 0) {
		enter(&c, "commands", 0);
		rc = bad(&c, "required");
	}
	if (rc == 0)
		rc = command_overrides(&c, cJSON_GetObjectItemCaseSensitive(root,
		    "commands"));
	cJSON_Delete(root);
	return rc;
}

/* Every directory on the way to the file is trusted (trust.c), and the
 * file opened is the one whose way was checked. */
static void check_way(const char *file, const struct stat *st)
{
	struct stat again;
	char *why;

	if (trust_path(file, &why) < 0)
		diex(EXIT_SBEXEC, "policy %s: %s", file, why);
	if (stat(file, &again) < 0 || again.st_dev != st->st_dev ||
	    again.st_ino != st->st_ino)
		diex(EXIT_SBEXEC, "policy %s: changed while being checked; "
		    "refused", file);
}

/* DESIGN 1: a regular file of at most 1 MiB, owned by root or the
 * invoking user, writable by nobody else, in directories only they can
 * change; checked on the descriptor that is read, as sshd's StrictModes
 * does. */
static char *read_policy(const char *file, size_t *len)
{
	struct stat st;
	ssize_t n;
	char *buf;
	int fd;

	fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0 && errno == ENOENT)
		diex(EXIT_SBEXEC, "%s: no policy file; name one with -p FILE "
		    "or $SBEXEC_POLICY", file);
	if (fd < 0 || fstat(fd, &st) < 0)
		die(EXIT_SBEXEC, "%s", file);
	if (!S_ISREG(st.st_mode))
		diex(EXIT_SBEXEC, "%s: not a regular file", file);
	if (st.st_uid != 0 && st.st_uid != getuid())
		diex(EXIT_SBEXEC, "%s: owned by uid %u, not by root or the "
		    "invoking user; refused", file, (unsigned)st.st_uid);
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		diex(EXIT_SBEXEC, "%s: writable by group or others; refused "
		    "(chmod go-w %s)", file, file);
	if (st.st_size > POLICY_MAX_BYTES)
		diex(EXIT_SBEXEC, "%s: larger than %d bytes; refused", file,
		    POLICY_MAX_BYTES);
	check_way(file, &st);
	buf = xmalloc((size_t)st.st_size + 1);
	n = read(fd, buf, (size_t)st.st_size + 1);
	if (n < 0)
		die(EXIT_SBEXEC, "%s", file);
	if (n > st.st_size)
		diex(EXIT_SBEXEC, "%s: changed while being read", file);
	close(fd);
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

int policy_load(const char *file, struct policy *pol)
{
	size_t len;
	char *buf = read_policy(file, &len);
	int rc = policy_parse(file, buf, len, pol);

	free(buf);
	return rc;
}

void policy_free(struct policy *pol)
{
	for (size_t i = 0; i < pol->ncmds; i++) {
		free(pol->cmds[i].name);
		free(pol->cmds[i].path);
		if (pol->cmds[i].own != NULL) {
			policy_free(pol->cmds[i].own);
			free(pol->cmds[i].own);
		}
	}
	strv_free(&pol->overrides);
	for (size_t i = 0; i < pol->nrules; i++) {
		free(pol->rules[i].path);
		free(pol->rules[i].expanded);
		free(pol->rules[i].resolved);
	}
	for (size_t i = 0; i < pol->nenv_allow; i++)
		free(pol->env_allow[i]);
	free(pol->env_allow);
	free(pol->cmds);
	free(pol->rules);
	free(pol->file);
	free(pol->bin_shell);
	free(pol->bwrap);
	free(pol->audit_path);
	netpolicy_free(pol->net);
	memset(pol, 0, sizeof(*pol));
}
