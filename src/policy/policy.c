/* policy.c: read the policy file with the checks of sudoers and sshd's
 * StrictModes, parse it with cJSON and validate it against the closed
 * schema of keys.c and commands.c into struct policy. Any error rejects
 * the whole policy with one line that names the key path; nothing is
 * skipped silently. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fmt.h"
#include "policy/netpolicy.h"
#include "policy/programs.h"
#include "policy/schema.h"
#include "policy/trust.h"
#include "sha256.h"
#include "tiny.h"
#include "util.h"

#define POLICY_MAX_BYTES (1 << 20)	/* DESIGN 1: a policy is small */

static void set_defaults(struct policy *pol)
{
	memset(pol, 0, sizeof(*pol));
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

	while ((p = tiny_strstr(p, "u0000")) != NULL) {
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
	fmt_fprintf(stderr, "sbexec: %s: line %zu: invalid JSON\n", name, line);
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
		fmt_fprintf(stderr, "sbexec: %s: must be a JSON object\n",
		    name);
		return -1;
	}
	rc = check_object(&c, root, top_keys, ntop_keys);
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

/* Where a CI checkout is writable by anyone, chmod is not the answer:
 * the policy belongs where only root writes. */
#define UMASK_HINT ". A checkout made with umask 0000 (GitLab's Docker " \
	"and Kubernetes executors) is writable by anyone: install the " \
	"policy with install -D -m 644 FILE /etc/sbexec/policy.json and " \
	"leave SBEXEC_POLICY unset"

/* Every directory on the way to the file is trusted (trust.c), and the
 * file opened is the one whose way was checked. */
static void check_way(const char *file, const struct stat *st)
{
	struct stat again;
	char *why;

	if (trust_path(file, &why) < 0)
		diex(EXIT_SBEXEC, "policy %s: %s%s", file, why,
		    tiny_strstr(why, "writable by group or others") ? UMASK_HINT : "");
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
		    "(chmod go-w %s)%s", file, file, UMASK_HINT);
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
	/* A program the command could replace is no better than a policy
	 * it could rewrite (DESIGN 12). */
	if (rc == 0)
		rc = programs_check(pol);
	trust_end();
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
	strv_free(&pol->devices);
	strv_free(&pol->exec_paths);
	strv_free(&pol->programs);
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
