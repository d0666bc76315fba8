/* cgroup2.c: a run's cgroup on cgroup v2: "sbexec" under the cgroup root
 * for root (the container's own in a cgroup namespace), under the
 * user@UID.service subtree systemd delegates for a user. The child is
 * cloned into it (CLONE_INTO_CGROUP, spawn.c). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmt.h"
#include "run/cgroup.h"
#include "tiny.h"
#include "util.h"

/* This process's v2 cgroup, from /proc/self/cgroup ("0::PATH"). */
static int own_v2(char *buf, size_t size)
{
	char line[PATH_MAX + 8];
	int found = 0;
	FILE *f = fopen("/proc/self/cgroup", "re");

	if (f == NULL)
		return -1;
	while (!found && fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "0::", 3) == 0) {
			line[strcspn(line, "\n")] = '\0';
			found = strlen(line + 3) < size;
			if (found)
				memcpy(buf, line + 3, strlen(line + 3) + 1);
		}
	fclose(f);
	return found ? 0 : -1;
}

/* The directory sbexec's base goes in, or NULL with cg->why. */
static char *v2_parent(struct cgroup *cg)
{
	char own[PATH_MAX], unit[64], *at;

	if (getuid() == 0)
		return xstrdup(CGROUP_ROOT);
	fmt_snprintf(unit, sizeof(unit), "/user@%u.service",
	    (unsigned)getuid());
	if (own_v2(own, sizeof(own)) < 0 || (at = tiny_strstr(own, unit)) == NULL) {
		cg->why = xasprintf("cgroup: uid %u is outside the subtree "
		    "systemd delegates to it (user@%u.service): run sbexec as "
		    "root, or under systemd-run --user", (unsigned)getuid(),
		    (unsigned)getuid());
		return NULL;
	}
	at[strlen(unit)] = '\0';
	return xasprintf(CGROUP_ROOT "%s", own);
}

void cg2_enable(const char *dir)
{
	static const char *const ctl[] = { "+pids", "+memory", "+cpu" };

	for (size_t i = 0; i < sizeof(ctl) / sizeof(*ctl); i++)
		cg_put(dir, "cgroup.subtree_control", ctl[i]);
}

int cg2_where(struct cgroup *cg)
{
	char *parent = v2_parent(cg);

	if (parent == NULL)
		return -1;
	cg->version = 2;
	cg->base = xasprintf("%s/sbexec", parent);
	free(parent);
	return 0;
}

char *cg2_controllers(const struct cgroup *cg)
{
	char path[PATH_MAX], line[256] = "";
	FILE *f;

	fmt_snprintf(path, sizeof(path), "%s/cgroup.controllers",
	    access(cg->base, F_OK) == 0 ? cg->base : CGROUP_ROOT);
	if ((f = fopen(path, "re")) != NULL) {
		if (fgets(line, sizeof(line), f) == NULL)
			line[0] = '\0';
		fclose(f);
	}
	line[strcspn(line, "\n")] = '\0';
	return xstrdup(line);
}

/* Everything in DIR killed at once; -1 before Linux 5.14. */
int cg2_kill(const char *dir)
{
	return cg_put(dir, "cgroup.kill", "1");
}

void cg2_freeze(const char *dir, int on)
{
	cg_put(dir, "cgroup.freeze", on ? "1" : "0");
}

static int has(const char *dir, const char *controller)
{
	char path[PATH_MAX], line[256] = "", *p;
	size_t len = strlen(controller);
	FILE *f;

	fmt_snprintf(path, sizeof(path), "%s/cgroup.controllers", dir);
	if ((f = fopen(path, "re")) == NULL)
		return 0;
	if (fgets(line, sizeof(line), f) == NULL)
		line[0] = '\0';
	fclose(f);
	for (p = line; (p = tiny_strstr(p, controller)) != NULL; p += len)
		if ((p == line || p[-1] == ' ') && (p[len] == ' ' ||
		    p[len] == '\n' || p[len] == '\0'))
			return 1;
	return 0;
}

/* The limits in the run's cgroup. */
int cg2_limits(struct cgroup *cg, const struct limits *l)
{
	const char *d = cg->dir[0];

	if (l->run_memory_bytes && !has(d, "memory")) {
		errno = ENOTSUP;
		return cg_fail(cg, "no memory controller in", cg->base);
	}
	if (l->run_tasks && !has(d, "pids")) {
		errno = ENOTSUP;
		return cg_fail(cg, "no pids controller in", cg->base);
	}
	if (l->run_memory_bytes && (cg_put_ll(d, "memory.max",
	    l->run_memory_bytes) < 0 || (cg_put(d, "memory.swap.max", "0") < 0 &&
	    errno != ENOENT)))
		return cg_fail(cg, "memory.max in", d);
	if (l->run_tasks && cg_put_ll(d, "pids.max", l->run_tasks) < 0)
		return cg_fail(cg, "pids.max in", d);
	return 0;
}

long long cg2_cpu_ms(const struct cgroup *cg)
{
	long long v = cg_get(cg->dir[0], "cpu.stat", "usage_usec");

	return v < 0 ? -1 : v / 1000;
}

void cg2_usage(const struct cgroup *cg, struct cg_usage *u)
{
	const char *d = cg->dir[0];

	u->peak_bytes = cg_get(d, "memory.peak", NULL);
	u->oom_kills = cg_get(d, "memory.events", "oom_kill");
	u->tasks_peak = cg_get(d, "pids.peak", NULL);
	u->tasks_refused = cg_get(d, "pids.events", "max");
}
