/* cgroup.c: one cgroup per run. sbexec makes it under a base of its own
 * (root: "sbexec" under the cgroup root, the container's own in a cgroup
 * namespace; a user: "sbexec" under the user@UID.service subtree systemd
 * delegates), sets the run-wide limits in it, and the child moves itself
 * in before it runs anything, so that bwrap, the Landlock guard or the
 * bypassed binary and all they start are inside. At the end the cgroup
 * is killed until empty (cgroup.kill; else frozen, each process killed,
 * thawed, again) and removed. A cgroup whose sbexec is gone (killed with
 * SIGKILL) is removed by the next run that finds it: its name carries its
 * sbexec's PID, and only a cgroup whose PID is no process is touched. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "util.h"

#define CGROUP_ROOT "/sys/fs/cgroup"
#define CGROUP2_MAGIC 0x63677270L
#define CGROUP1_MAGIC 0x27e0ebL

/* v1's hierarchies, by CG_: the first name that is mounted. */
static const char *const v1_names[CG_N][2] = {
	{ "pids", NULL }, { "memory", NULL }, { "cpuacct", "cpu,cpuacct" },
	{ "freezer", NULL },
};

static int is_fs(const char *path, long magic)
{
	struct statfs f;

	return statfs(path, &f) == 0 && (long)f.f_type == magic;
}

static int put(const char *dir, const char *name, const char *val)
{
	char path[PATH_MAX];
	size_t len = strlen(val);
	int fd, ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) < 0)
		return -1;
	ok = write(fd, val, len) == (ssize_t)len;
	close(fd);
	return ok ? 0 : -1;
}

static int put_ll(const char *dir, const char *name, long long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", v);
	return put(dir, name, buf);
}

/* The number after KEY (the file's first one when KEY is NULL), or -1. */
static long long get(const char *dir, const char *name, const char *key)
{
	char path[PATH_MAX], line[256];
	size_t klen = key ? strlen(key) : 0;
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((f = fopen(path, "re")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (key == NULL) {
			v = strtoll(line, NULL, 10);
			break;
		}
		if (strncmp(line, key, klen) == 0 && line[klen] == ' ') {
			v = strtoll(line + klen + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}

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

/* v2: the directory sbexec's base goes in, or NULL with cg->why. */
static char *v2_parent(struct cgroup *cg)
{
	char own[PATH_MAX], unit[64], *at;

	if (getuid() == 0)
		return xstrdup(CGROUP_ROOT);
	snprintf(unit, sizeof(unit), "/user@%u.service", (unsigned)getuid());
	if (own_v2(own, sizeof(own)) < 0 || (at = strstr(own, unit)) == NULL) {
		cg->why = xasprintf("cgroup: uid %u is outside the subtree "
		    "systemd delegates to it (user@%u.service): run sbexec as "
		    "root, or under systemd-run --user", (unsigned)getuid(),
		    (unsigned)getuid());
		return NULL;
	}
	at[strlen(unit)] = '\0';
	return xasprintf(CGROUP_ROOT "%s", own);
}

static void enable(const char *dir)
{
	static const char *const ctl[] = { "+pids", "+memory", "+cpu" };

	for (size_t i = 0; i < sizeof(ctl) / sizeof(*ctl); i++)
		put(dir, "cgroup.subtree_control", ctl[i]);
}

static int where_v2(struct cgroup *cg)
{
	char *parent = v2_parent(cg);

	if (parent == NULL)
		return -1;
	cg->version = 2;
	cg->base = xasprintf("%s/sbexec", parent);
	free(parent);
	return 0;
}

/* v1: each hierarchy mounted; root only (v1 delegates nothing). */
static int where_v1(struct cgroup *cg, char *v1[CG_N])
{
	char path[PATH_MAX];
	int any = 0;

	for (int i = 0; i < CG_N; i++) {
		v1[i] = NULL;
		for (int j = 0; j < 2 && v1[i] == NULL && v1_names[i][j]; j++) {
			snprintf(path, sizeof(path), CGROUP_ROOT "/%s",
			    v1_names[i][j]);
			if (is_fs(path, CGROUP1_MAGIC))
				v1[i] = xasprintf("%s/sbexec", path);
		}
		any |= v1[i] != NULL;
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

static int where(struct cgroup *cg, char *v1[CG_N])
{
	*cg = (struct cgroup){ .procs = { -1, -1, -1, -1 }, .dirfd = -1 };
	for (int i = 0; i < CG_N; i++)
		v1[i] = NULL;
	if (is_fs(CGROUP_ROOT, CGROUP2_MAGIC))
		return where_v2(cg);
	return where_v1(cg, v1);
}

int cgroup_where(struct cgroup *cg, char **controllers)
{
	char *v1[CG_N], *list;

	*controllers = NULL;
	if (where(cg, v1) < 0)
		return -1;
	if (cg->version == 2) {
		char path[PATH_MAX], line[256] = "";
		FILE *f;

		snprintf(path, sizeof(path), "%s/cgroup.controllers",
		    access(cg->base, F_OK) == 0 ? cg->base : CGROUP_ROOT);
		if ((f = fopen(path, "re")) != NULL) {
			if (fgets(line, sizeof(line), f) == NULL)
				line[0] = '\0';
			fclose(f);
		}
		line[strcspn(line, "\n")] = '\0';
		*controllers = xstrdup(line);
		return 0;
	}
	list = xstrdup("");
	for (int i = 0; i < CG_N; i++)
		if (v1[i] != NULL) {
			char *next = xasprintf("%s%s%s", list, *list ? " " : "",
			    v1_names[i][0]);

			free(list);
			list = next;
			free(v1[i]);
		}
	*controllers = list;
	return 0;
}

/* Each process in DIR killed; how many there were. */
static int kill_procs(const char *dir)
{
	char path[PATH_MAX];
	unsigned long long pid;
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	if ((f = fopen(path, "re")) == NULL)
		return 0;
	while (read_number(f, &pid) == 1) {
		if (pid > 0 && pid <= INT_MAX && kill((pid_t)pid, SIGKILL) == 0)
			n++;
	}
	fclose(f);
	return n;
}

static void pause_ms(long ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	nanosleep(&ts, NULL);
}

/* v1's freezer: FROZEN (waited for, a second at most) or THAWED. */
static void freeze(const char *dir, int on)
{
	char path[PATH_MAX], state[16] = "";

	if (dir == NULL || put(dir, "freezer.state", on ? "FROZEN" :
	    "THAWED") < 0 || !on)
		return;
	snprintf(path, sizeof(path), "%s/freezer.state", dir);
	for (int i = 0; i < 1000; i++) {
		FILE *f = fopen(path, "re");

		if (f == NULL)
			return;
		if (fgets(state, sizeof(state), f) == NULL)
			state[0] = '\0';
		fclose(f);
		if (strncmp(state, "FROZEN", 6) == 0)
			return;
		pause_ms(1);
	}
}

/* Everything in the cgroup of DIR (v2) or DIRS (v1), until none is
 * left: what was frozen cannot fork while it is being killed. */
static void kill_all_in(int version, char *const *dirs)
{
	const char *d = dirs[0];
	int n;

	for (int i = 0; d == NULL && i < CG_N; i++)
		d = dirs[i];
	if (d == NULL)
		return;
	if (version == 2 && put(d, "cgroup.kill", "1") == 0)
		return;
	if (kill_procs(d) == 0)
		return;		/* empty already: nothing to freeze */
	for (;;) {
		if (version == 2)
			put(d, "cgroup.freeze", "1");
		else
			freeze(dirs[CG_FREEZER], 1);
		n = kill_procs(d);
		if (version == 2)
			put(d, "cgroup.freeze", "0");
		else
			freeze(dirs[CG_FREEZER], 0);
		if (n == 0)
			return;
		pause_ms(1);
	}
}

static void remove_dirs(char *const *dirs)
{
	for (int i = 0; i < CG_N; i++)
		for (int t = 0; dirs[i] != NULL && rmdir(dirs[i]) < 0 &&
		    errno == EBUSY && t < 200; t++)
			pause_ms(1);
}

/* A run's cgroup whose sbexec (the PID in its name) is no process. */
static int stale(const char *name)
{
	char *end;
	long pid;

	if (strncmp(name, "run-", 4) != 0)
		return 0;
	pid = strtol(name + 4, &end, 10);
	return *end == '-' && pid > 0 && pid <= INT_MAX &&
	    kill((pid_t)pid, 0) < 0 && errno == ESRCH;
}

/* What gone runs left in BASES (one per hierarchy; v2: bases[0]). */
static void sweep(int version, char *const *bases)
{
	const char *first = NULL;
	struct dirent *e;
	char *dirs[CG_N];
	DIR *d;

	for (int i = 0; first == NULL && i < CG_N; i++)
		first = bases[i];
	if (first == NULL || (d = opendir(first)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (!stale(e->d_name))
			continue;
		for (int i = 0; i < CG_N; i++)
			dirs[i] = bases[i] ? xasprintf("%s/%s", bases[i],
			    e->d_name) : NULL;
		kill_all_in(version, dirs);
		remove_dirs(dirs);
		for (int i = 0; i < CG_N; i++)
			free(dirs[i]);
	}
	closedir(d);
}

static unsigned long long start_time(void)
{
	char buf[1024], *p;
	unsigned long long t = 0;
	ssize_t n;
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	if ((p = strrchr(buf, ')')) == NULL)
		return 0;
	/* Field 22, starttime: the 20th after the command's name. */
	for (int i = 0; i < 20 && p != NULL; i++)
		p = strchr(p + 1, ' ');
	if (p != NULL)
		t = strtoull(p + 1, NULL, 10);
	return t;
}

static int fail(struct cgroup *cg, const char *what, const char *path)
{
	if (cg->why == NULL)
		cg->why = xasprintf("cgroup: %s %s: %s", what, path,
		    strerror(errno));
	return -1;
}

static int has(const char *dir, const char *controller)
{
	char path[PATH_MAX], line[256] = "", *p;
	size_t len = strlen(controller);
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.controllers", dir);
	if ((f = fopen(path, "re")) == NULL)
		return 0;
	if (fgets(line, sizeof(line), f) == NULL)
		line[0] = '\0';
	fclose(f);
	for (p = line; (p = strstr(p, controller)) != NULL; p += len)
		if ((p == line || p[-1] == ' ') && (p[len] == ' ' ||
		    p[len] == '\n' || p[len] == '\0'))
			return 1;
	return 0;
}

/* v2: the limits in the run's cgroup. */
static int limits_v2(struct cgroup *cg, const struct limits *l)
{
	const char *d = cg->dir[0];

	if (l->run_memory_bytes && !has(d, "memory")) {
		errno = ENOTSUP;
		return fail(cg, "no memory controller in", cg->base);
	}
	if (l->run_tasks && !has(d, "pids")) {
		errno = ENOTSUP;
		return fail(cg, "no pids controller in", cg->base);
	}
	if (l->run_memory_bytes && (put_ll(d, "memory.max",
	    l->run_memory_bytes) < 0 || (put(d, "memory.swap.max", "0") < 0 &&
	    errno != ENOENT)))
		return fail(cg, "memory.max in", d);
	if (l->run_tasks && put_ll(d, "pids.max", l->run_tasks) < 0)
		return fail(cg, "pids.max in", d);
	return 0;
}

/* v1: the same, in the memory and pids hierarchies. */
static int limits_v1(struct cgroup *cg, const struct limits *l)
{
	const char *m = cg->dir[CG_MEMORY], *p = cg->dir[CG_PIDS];

	errno = ENOTSUP;
	if (l->run_memory_bytes && m == NULL)
		return fail(cg, "no memory hierarchy at", CGROUP_ROOT);
	if (l->run_tasks && p == NULL)
		return fail(cg, "no pids hierarchy at", CGROUP_ROOT);
	if (l->run_memory_bytes && (put_ll(m, "memory.limit_in_bytes",
	    l->run_memory_bytes) < 0 || (put_ll(m,
	    "memory.memsw.limit_in_bytes", l->run_memory_bytes) < 0 &&
	    errno != ENOENT)))
		return fail(cg, "memory.limit_in_bytes in", m);
	if (l->run_tasks && put_ll(p, "pids.max", l->run_tasks) < 0)
		return fail(cg, "pids.max in", p);
	return 0;
}

static int make_dirs(struct cgroup *cg, char *const *bases,
    const char *name)
{
	char path[PATH_MAX];

	for (int i = 0; i < CG_N; i++) {
		if (bases[i] == NULL)
			continue;
		if (mkdir(bases[i], 0755) < 0 && errno != EEXIST)
			return fail(cg, "cannot make", bases[i]);
		if (cg->version == 2)
			enable(bases[i]);
		cg->dir[i] = xasprintf("%s/%s", bases[i], name);
		if (mkdir(cg->dir[i], 0755) < 0)
			return fail(cg, "cannot make", cg->dir[i]);
		snprintf(path, sizeof(path), "%s/cgroup.procs", cg->dir[i]);
		if ((cg->procs[i] = open(path, O_WRONLY | O_CLOEXEC)) < 0)
			return fail(cg, "cannot open", path);
	}
	return 0;
}

int cgroup_make(const struct limits *l, struct cgroup *cg)
{
	char *bases[CG_N], name[64];
	int rc;

	if (where(cg, bases) < 0)
		return -1;
	if (cg->version == 2) {
		char *parent = xstrdup(cg->base);

		*strrchr(parent, '/') = '\0';
		enable(parent);
		free(parent);
		bases[0] = xstrdup(cg->base);
	}
	sweep(cg->version, bases);
	snprintf(name, sizeof(name), "run-%d-%llu", (int)getpid(),
	    start_time());
	rc = make_dirs(cg, bases, name);
	if (rc == 0 && cg->version == 2 && (cg->dirfd = open(cg->dir[0],
	    O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		rc = fail(cg, "cannot open", cg->dir[0]);
	if (rc == 0)
		rc = cg->version == 2 ? limits_v2(cg, l) : limits_v1(cg, l);
	for (int i = 0; i < CG_N; i++)
		free(bases[i]);
	if (rc < 0) {
		cgroup_remove(cg);
		cg->version = 0;
	}
	return rc;
}

void cgroup_join(const struct cgroup *cg)
{
	if (cg != NULL && cg->dirfd >= 0)
		return;		/* cloned into it */
	for (int i = 0; cg != NULL && i < CG_N; i++)
		if (cg->procs[i] >= 0 && write(cg->procs[i], "0", 1) != 1) {
			dprintf(2, "sbexec: cgroup: cannot join %s: %s\n",
			    cg->dir[i], strerror(errno));
			_exit(EXIT_SBEXEC);
		}
}

long long cgroup_cpu_ms(const struct cgroup *cg)
{
	long long v;

	if (cg == NULL || cg->version == 0)
		return -1;
	if (cg->version == 2)
		return (v = get(cg->dir[0], "cpu.stat", "usage_usec")) < 0 ?
		    -1 : v / 1000;
	if (cg->dir[CG_CPU] == NULL)
		return -1;
	return (v = get(cg->dir[CG_CPU], "cpuacct.usage", NULL)) < 0 ? -1 :
	    v / 1000000;
}

void cgroup_kill(const struct cgroup *cg)
{
	if (cg != NULL && cg->version != 0)
		kill_all_in(cg->version, cg->dir);
}

void cgroup_usage(const struct cgroup *cg, struct cg_usage *u)
{
	const char *m = cg->version == 2 ? cg->dir[0] : cg->dir[CG_MEMORY];
	const char *p = cg->version == 2 ? cg->dir[0] : cg->dir[CG_PIDS];

	*u = (struct cg_usage){ -1, -1, -1, -1, -1 };
	if (cg->version == 0)
		return;
	u->cpu_ms = cgroup_cpu_ms(cg);
	if (m != NULL) {
		u->peak_bytes = get(m, cg->version == 2 ? "memory.peak" :
		    "memory.max_usage_in_bytes", NULL);
		u->oom_kills = cg->version == 2 ? get(m, "memory.events",
		    "oom_kill") : get(m, "memory.oom_control", "oom_kill");
	}
	if (p != NULL) {
		u->tasks_peak = get(p, "pids.peak", NULL);
		u->tasks_refused = get(p, "pids.events", "max");
	}
}

void cgroup_remove(struct cgroup *cg)
{
	if (cg->dirfd >= 0) {
		close(cg->dirfd);
		cg->dirfd = -1;
	}
	for (int i = 0; i < CG_N; i++)
		if (cg->procs[i] >= 0) {
			close(cg->procs[i]);
			cg->procs[i] = -1;
		}
	remove_dirs(cg->dir);
	for (int i = 0; i < CG_N; i++) {
		free(cg->dir[i]);
		cg->dir[i] = NULL;
	}
}
