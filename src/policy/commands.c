/* commands.c: the commands a policy names, those it bypasses, and the
 * policy of each command given as an object (DESIGN 4 and 10): the top
 * level's, copied, with the command's overrides applied once the top
 * level is known. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmt.h"
#include "path.h"
#include "policy/netpolicy.h"
#include "policy/schema.h"
#include "util.h"

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

int key_commands(struct ctx *c, const cJSON *v)
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

int key_bypass(struct ctx *c, const cJSON *v)
{
	return each_string(c, v, bypass_one);
}

/* A deep copy of what a command inherits; no commands of its own. */
static struct policy *inherit(const struct policy *top)
{
	struct policy *p = xmalloc(sizeof(*p));

	*p = *top;
	p->cmds = NULL;
	p->ncmds = 0;
	p->overrides = (struct strv){ 0 };
	p->file = xstrdup(top->file);
	p->bin_shell = top->bin_shell ? xstrdup(top->bin_shell) : NULL;
	p->bwrap = xstrdup(top->bwrap);
	p->audit_path = top->audit_path ? xstrdup(top->audit_path) : NULL;
	p->net = netpolicy_copy(top->net);
	p->devices = (struct strv){ 0 };
	strv_pushn(&p->devices, (const char *const *)top->devices.v,
	    top->devices.n);
	p->programs = (struct strv){ 0 };
	p->allow_wx = 0;
	p->exec_paths = (struct strv){ 0 };
	strv_pushn(&p->exec_paths, (const char *const *)top->exec_paths.v,
	    top->exec_paths.n);
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

/* Keys only a sandbox can honour: on a bypassed command they would read
 * as confinement and be none (issue: a bypassed "fetch" with a network
 * allow-list reached 127.0.0.1). The environment, the limits sbexec
 * itself applies (tmpBytes excepted: privateTmp's) and the audit do. */
static int sandbox_only(struct ctx *c, const cJSON *obj, const char *name)
{
	static const char *const keys[] = { "filesystem", "network",
	    "allowUnixSockets", "enableWeakerNestedSandbox", "sandbox",
	    "devices", "execPaths", "programs", "allowWriteExecute" };
	const cJSON *limits = cJSON_GetObjectItemCaseSensitive(obj, "limits");
	const char *key = NULL;

	for (size_t i = 0; key == NULL && i < NELEM(keys); i++)
		if (cJSON_GetObjectItemCaseSensitive(obj, keys[i]) != NULL)
			key = keys[i];
	if (key == NULL && cJSON_GetObjectItemCaseSensitive(limits,
	    "tmpBytes") != NULL)
		key = "limits.tmpBytes";
	if (key == NULL)
		return 0;
	fmt_snprintf(c->key, sizeof(c->key), "commands.%s.%s", name, key);
	return bad(c, "%s is bypassed: it runs without the sandbox, which "
	    "alone could honour this key; remove the key, or the command "
	    "from bypass", name);
}

/* After the top level: each command given as an object gets its own
 * policy, the top level's with its overrides applied. */
int command_overrides(struct ctx *top, const cJSON *commands)
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
		fmt_snprintf(c.key, sizeof(c.key), "commands.%s",
		    pol->cmds[i].name);
		if (check_object(&c, obj, command_keys, ncommand_keys) < 0 ||
		    (pol->cmds[i].bypass && sandbox_only(&c, obj,
		    pol->cmds[i].name) < 0))
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
