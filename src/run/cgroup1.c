/* cgroup1.c: a run's cgroup on cgroup v1, for root only (v1 delegates
 * nothing): one directory in each of the pids, memory, cpuacct and
 * freezer hierarchies that is mounted under /sys/fs/cgroup. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmt.h"
#include "run/cgroup.h"
#include "util.h"

#define CGROUP1_MAGIC 0x27e0ebL

/* v1's hierarchies, by CG_: the first name that is mounted. */
static const char *const v1_names[CG_N][2] = {
	{ "pids", NULL }, { "memory", NULL }, { "cpuacct", "cpu,cpuacct" },
	{ "freezer", NULL },
};

int cg1_where(struct cgroup *cg, char *bases[CG_N])
{
	char path[PATH_MAX];
	int any = 0;

	for (int i = 0; i < CG_N; i++) {
		bases[i] = NULL;
		for (int j = 0; j < 2 && bases[i] == NULL && v1_names[i][j];
		    j++) {
			fmt_snprintf(path, sizeof(path), CGROUP_ROOT "/%s",
			    v1_names[i][j]);
			if (cg_is_fs(path, CGROUP1_MAGIC))
				bases[i] = xasprintf("%s/sbexec", path);
		}
		any |= bases[i] != NULL;
	}
	if (!any) {
		cg->why = xstrdup("cgroup: none mounted at " CGROUP_ROOT);
		return -1;
	}
	if (getuid() != 0) {
		cg->why = xstrdup("cgroup: v1 here, which is not delegated to "
		    "users: run sbexec as root");
		return -1;
	}
	cg->version = 1;
	cg->base = xstrdup(CGROUP_ROOT);
	return 0;
}

char *cg1_controllers(char *const *bases)
{
	char *list = xstrdup("");

	for (int i = 0; i < CG_N; i++)
		if (bases[i] != NULL) {
			char *next = xasprintf("%s%s%s", list, *list ? " " : "",
			    v1_names[i][0]);

			free(list);
			list = next;
		}
	return list;
}

/* v1's freezer: FROZEN (waited for, a second at most) or THAWED. */
void cg1_freeze(const char *dir, int on)
{
	char path[PATH_MAX], state[16] = "";

	if (dir == NULL || cg_put(dir, "freezer.state", on ? "FROZEN" :
	    "THAWED") < 0 || !on)
		return;
	fmt_snprintf(path, sizeof(path), "%s/freezer.state", dir);
	for (int i = 0; i < 1000; i++) {
		FILE *f = fopen(path, "re");

		if (f == NULL)
			return;
		if (fgets(state, sizeof(state), f) == NULL)
			state[0] = '\0';
		fclose(f);
		if (strncmp(state, "FROZEN", 6) == 0)
			return;
		cg_pause_ms(1);
	}
}

/* Where v1 counts a cgroup's socket buffers: apart from the rest of its
 * memory, and only once a limit is written here (before, its sockets
 * are charged to nothing but the host-wide tcp_mem). */
#define TCP_LIMIT "memory.kmem.tcp.limit_in_bytes"

/* The limits in the memory and pids hierarchies. Socket buffers get
 * runMemoryBytes of their own, or there is no cgroup: a run would
 * otherwise hold the host's tcp_mem, which every TCP socket shares. */
int cg1_limits(struct cgroup *cg, const struct limits *l)
{
	const char *m = cg->dir[CG_MEMORY], *p = cg->dir[CG_PIDS];

	errno = ENOTSUP;
	if (l->run_memory_bytes && m == NULL)
		return cg_fail(cg, "no memory hierarchy at", CGROUP_ROOT);
	if (l->run_tasks && p == NULL)
		return cg_fail(cg, "no pids hierarchy at", CGROUP_ROOT);
	if (l->run_memory_bytes && (cg_put_ll(m, "memory.limit_in_bytes",
	    l->run_memory_bytes) < 0 || (cg_put_ll(m,
	    "memory.memsw.limit_in_bytes", l->run_memory_bytes) < 0 &&
	    errno != ENOENT)))
		return cg_fail(cg, "memory.limit_in_bytes in", m);
	if (l->run_memory_bytes && cg_put_ll(m, TCP_LIMIT,
	    l->run_memory_bytes) < 0)
		return cg_fail(cg, TCP_LIMIT " (socket buffers) in", m);
	if (l->run_tasks && cg_put_ll(p, "pids.max", l->run_tasks) < 0)
		return cg_fail(cg, "pids.max in", p);
	return 0;
}

long long cg1_cpu_ms(const struct cgroup *cg)
{
	long long v;

	if (cg->dir[CG_CPU] == NULL)
		return -1;
	return (v = cg_get(cg->dir[CG_CPU], "cpuacct.usage", NULL)) < 0 ? -1 :
	    v / 1000000;
}

void cg1_usage(const struct cgroup *cg, struct cg_usage *u)
{
	const char *m = cg->dir[CG_MEMORY], *p = cg->dir[CG_PIDS];

	if (m != NULL) {
		long long tcp = cg_get(m, "memory.kmem.tcp.max_usage_in_bytes",
		    NULL);

		u->peak_bytes = cg_get(m, "memory.max_usage_in_bytes", NULL);
		if (u->peak_bytes >= 0 && tcp > 0)
			u->peak_bytes += tcp;
		u->oom_kills = cg_get(m, "memory.oom_control", "oom_kill");
	}
	if (p != NULL) {
		u->tasks_peak = cg_get(p, "pids.peak", NULL);
		u->tasks_refused = cg_get(p, "pids.events", "max");
	}
}

const char *cg1_sockets(void)
{
	if (access(CGROUP_ROOT "/memory/" TCP_LIMIT, F_OK) == 0)
		return "counted apart on v1 (" TCP_LIMIT ", set to "
		    "runMemoryBytes): a run holds up to twice runMemoryBytes";
	return "not counted here (no " CGROUP_ROOT "/memory/" TCP_LIMIT
	    "): runMemoryBytes refuses the cgroup";
}
