/* keys.c: the keys of the closed schema, top level and per command,
 * each with what its value must be and where it is stored (DESIGN 2, 9,
 * 10 and 11). A table of keys per object, never a chain of strcmp. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "path.h"
#include "policy/devices.h"
#include "policy/env.h"
#include "policy/netpolicy.h"
#include "policy/schema.h"
#include "util.h"

static int key_bin_shell(struct ctx *c, const cJSON *v)
{
	static const char *const shells[] = { "sh", "bash", "dash", "zsh",
	    "ksh" };
	const char *s = v->valuestring;

	if (absolute(c, s) < 0)
		return -1;
	for (size_t i = 0; i < NELEM(shells); i++)
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


static int key_filesystem(struct ctx *c, const cJSON *v)
{
	static const struct key keys[] = {
		{ "denyRead", cJSON_Array, key_deny_read, 0, 0, 0 },
		{ "allowRead", cJSON_Array, key_allow_read, 0, 0, 0 },
		{ "allowWrite", cJSON_Array, key_allow_write, 0, 0, 0 },
		{ "denyWrite", cJSON_Array, key_deny_write, 0, 0, 0 },
		{ "privateTmp", cJSON_True, NULL, FIELD(private_tmp), 0, 0 },
	};

	return check_object(c, v, keys, NELEM(keys));
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
	if (c->pol->net->ndeny == NET_DENY_MAX)
		return bad(c, "more than %d names", NET_DENY_MAX);
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
	if (check_object(c, v, keys, NELEM(keys)) < 0)
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

	for (size_t i = 0; i < NELEM(names); i++)
		if (strcmp(v->valuestring, names[i]) == 0) {
			c->pol->backend = (enum backend)i;
			return 0;
		}
	return bad(c, "must be \"bwrap\", \"landlock\" or \"auto\"");
}

/* ---- DESIGN 12: the character devices admitted, by set or path */

static int device_one(struct ctx *c, const char *s)
{
	struct strv *d = &c->pol->devices;
	char *why;

	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->v[i], s) == 0)
			return bad(c, "\"%s\" is listed twice", s);
	if (!devices_is_set(s) && s[0] != '/')
		return bad(c, "\"%s\": must be \"dri\", \"nvidia\" or the "
		    "absolute path of a character device", s);
	if (!devices_is_set(s) && absolute(c, s) < 0)
		return -1;
	if (!devices_is_set(s) && devices_check(s, &why) < 0) {
		bad(c, "%s", why);
		free(why);
		return -1;
	}
	strv_push(d, s);
	return 0;
}

/* Given, it replaces what a command would inherit. */
static int key_devices(struct ctx *c, const cJSON *v)
{
	strv_free(&c->pol->devices);
	c->pol->devices = (struct strv){ 0 };
	return each_string(c, v, device_one);
}

/* ---- DESIGN 13: trees the command may execute besides the system's */

/* One absolute path more for list X (execPaths, programs): never "/"
 * (ROOT says why), never twice, at most MAX of them (NOUN). */
static int path_one(struct ctx *c, struct strv *x, const char *s, size_t max,
    const char *noun, const char *root)
{
	if (absolute(c, s) < 0)
		return -1;
	if (strcmp(s, "/") == 0)
		return bad(c, "\"/\" would %s", root);
	for (size_t i = 0; i < x->n; i++)
		if (strcmp(x->v[i], s) == 0)
			return bad(c, "\"%s\" is listed twice", s);
	if (x->n == max)
		return bad(c, "more than %zu %s", max, noun);
	strv_push(x, s);
	return 0;
}

static int exec_one(struct ctx *c, const char *s)
{
	return path_one(c, &c->pol->exec_paths, s, NOEXEC_PATHS_MAX, "trees",
	    "make every mount executable: name the tree of the custom ffmpeg");
}

/* Given, it replaces what a command would inherit. */
static int key_exec_paths(struct ctx *c, const cJSON *v)
{
	strv_free(&c->pol->exec_paths);
	c->pol->exec_paths = (struct strv){ 0 };
	return each_string(c, v, exec_one);
}

/* ---- issue 30: what a command may start (none by default) */

static int program_one(struct ctx *c, const char *s)
{
	return path_one(c, &c->pol->programs, s, PROGRAMS_MAX, "programs",
	    "let the command start anything: name the programs");
}

static int key_programs(struct ctx *c, const cJSON *v)
{
	return each_string(c, v, program_one);
}

#define LIMIT(name, f, lo, hi) \
	{ name, 0, NULL, FIELD(limits.f), lo, hi }
#define DAY_MS 86400000LL
#define JSON_INT_MAX 9007199254740992LL		/* 2^53: exact in a double */

/* "required" (the default): a run-wide limit with no cgroup to hold it
 * is refused; "optional": the run goes on under the per-process ones. */
static int key_cgroup(struct ctx *c, const cJSON *v)
{
	if (strcmp(v->valuestring, "required") == 0)
		c->pol->limits.cgroup_optional = 0;
	else if (strcmp(v->valuestring, "optional") == 0)
		c->pol->limits.cgroup_optional = 1;
	else
		return bad(c, "must be \"required\" or \"optional\"");
	return 0;
}

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
		LIMIT("runMemoryBytes", run_memory_bytes, 0, JSON_INT_MAX),
		LIMIT("runTasks", run_tasks, 0, 1 << 22),
		LIMIT("runCpuSeconds", run_cpu_seconds, 0, DAY_MS / 1000),
		{ "cgroup", cJSON_String, key_cgroup, 0, 0, 0 },
	};

	return check_object(c, v, keys, NELEM(keys));
}

static int key_audit(struct ctx *c, const cJSON *v)
{
	struct policy *pol = c->pol;
	const char *s = v->valuestring;

	if (strcmp(s, "stderr") == 0) {
		pol->audit = AUDIT_STDERR;
	} else if (strcmp(s, "syslog") == 0) {
		pol->audit = AUDIT_SYSLOG;
	} else if (strcmp(s, "auto") == 0) {
		pol->audit = AUDIT_AUTO;
	} else if (s[0] == '/') {
		if (absolute(c, s) < 0)
			return -1;
		pol->audit = AUDIT_FILE;
		pol->audit_path = xstrdup(s);
	} else {
		return bad(c, "must be \"stderr\", \"syslog\", \"auto\" or "
		    "an absolute file path");
	}
	return 0;
}

/* Order matters: bypass names keys of commands. */
const struct key top_keys[] = {
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
	{ "devices", cJSON_Array, key_devices, 0, 0, 0 },
	{ "execPaths", cJSON_Array, key_exec_paths, 0, 0, 0 },
	{ "limits", cJSON_Object, key_limits, 0, 0, 0 },
	{ "audit", cJSON_String, key_audit, 0, 0, 0 },
};
const size_t ntop_keys = NELEM(top_keys);

/* ---- DESIGN 10: per-command policies */

static int not_overridable(struct ctx *c, const cJSON *v)
{
	(void)v;
	return bad(c, "cannot be set for one command (only envAllowList, "
	    "inheritHostEnv, filesystem, network, allowUnixSockets, limits, "
	    "sandbox, enableWeakerNestedSandbox, devices, execPaths, "
	    "programs, allowWriteExecute)");
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

const struct key command_keys[] = {
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
	{ "devices", cJSON_Array, key_devices, 0, 0, 0 },
	{ "execPaths", cJSON_Array, key_exec_paths, 0, 0, 0 },
	{ "programs", cJSON_Array, key_programs, 0, 0, 0 },
	{ "allowWriteExecute", cJSON_True, NULL, FIELD(allow_wx), 0, 0 },
	{ "commands", -1, not_overridable, 0, 0, 0 },
	{ "bypass", -1, not_overridable, 0, 0, 0 },
	{ "binShell", -1, not_overridable, 0, 0, 0 },
	{ "bwrap", -1, not_overridable, 0, 0, 0 },
	{ "audit", -1, not_overridable, 0, 0, 0 },
};
const size_t ncommand_keys = NELEM(command_keys);

