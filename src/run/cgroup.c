/* cgroup.c: one cgroup per run, what cgroup v1 (cgroup1.c) and v2
 * (cgroup2.c) share. sbexec makes it under a base of its own, sets the
 * run-wide limits in it, and the child moves itself in before it runs
 * anything, so that bwrap, the Landlock guard or the bypassed binary and
 * all they start are inside. At the end the cgroup is killed until empty
 * (cgroup.kill; else frozen, each process killed, thawed, again) and
 * removed. A cgroup whose sbexec is gone (killed with SIGKILL) is removed
 * by the next run that finds it. What tells it apart is a lock its sbexec
 * holds for the run's whole life, an flock on the cgroup's directory
 * (kernfs takes one on v1 and v2 alike): a PID would not do, for a run
 * in another PID namespace is no process here, and a PID is reused. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include "fmt.h"
#include "run/cgroup.h"
#include "util.h"

#define CGROUP2_MAGIC 0x63677270L

int cg_is_fs(const char *path, long magic)
{
	struct statfs f;

	return statfs(path, &f) == 0 && (long)f.f_type == magic;
}

int cg_put(const char *dir, const char *name, const char *val)
{
	char path[PATH_MAX];
	size_t len = strlen(val);
	int fd, ok;

	fmt_snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) < 0)
		return -1;
	ok = write(fd, val, len) == (ssize_t)len;
	close(fd);
	return ok ? 0 : -1;
}

int cg_put_ll(const char *dir, const char *name, long long v)
{
	char buf[32];

	fmt_snprintf(buf, sizeof(buf), "%lld", v);
	return cg_put(dir, name, buf);
}

long long cg_get(const char *dir, const char *name, const char *key)
{
	char path[PATH_MAX], line[256];
	size_t klen = key ? strlen(key) : 0;
	long long v = -1;
	FILE *f;

	fmt_snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((f = fopen(path, "re")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (key == NULL) {
			v = dec_number(line, NULL);
			break;
		}
		if (strncmp(line, key, klen) == 0 && line[klen] == ' ') {
			v = dec_number(line + klen + 1, NULL);
			break;
		}
	}
	fclose(f);
	return v;
}

int cg_fail(struct cgroup *cg, const char *what, const char *path)
{
	if (cg->why == NULL)
		cg->why = xasprintf("cgroup: %s %s: %s", what, path,
		    strerror(errno));
	return -1;
}

void cg_pause_ms(long ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	nanosleep(&ts, NULL);
}

static int where(struct cgroup *cg, char *v1[CG_N])
{
	*cg = (struct cgroup){ .procs = { -1, -1, -1, -1 }, .dirfd = -1,
	    .lockfd = -1 };
	for (int i = 0; i < CG_N; i++)
		v1[i] = NULL;
	if (cg_is_fs(CGROUP_ROOT, CGROUP2_MAGIC))
		return cg2_where(cg);
	return cg1_where(cg, v1);
}

int cgroup_where(struct cgroup *cg, char **controllers)
{
	char *v1[CG_N];

	*controllers = NULL;
	if (where(cg, v1) < 0)
		return -1;
	*controllers = cg->version == 2 ? cg2_controllers(cg) :
	    cg1_controllers(v1);
	for (int i = 0; i < CG_N; i++)
		free(v1[i]);
	return 0;
}

/* Each process in DIR killed; how many there were. */
static int kill_procs(const char *dir)
{
	char path[PATH_MAX];
	unsigned long long pid;
	int n = 0;
	FILE *f;

	fmt_snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	if ((f = fopen(path, "re")) == NULL)
		return 0;
	while (read_number(f, &pid) == 1) {
		if (pid > 0 && pid <= INT_MAX && kill((pid_t)pid, SIGKILL) == 0)
			n++;
	}
	fclose(f);
	return n;
}

static void freeze(int version, char *const *dirs, int on)
{
	if (version == 2)
		cg2_freeze(dirs[0], on);
	else
		cg1_freeze(dirs[CG_FREEZER], on);
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
	if (version == 2 && cg2_kill(d) == 0)
		return;
	if (kill_procs(d) == 0)
		return;		/* empty already: nothing to freeze */
	for (;;) {
		freeze(version, dirs, 1);
		n = kill_procs(d);
		freeze(version, dirs, 0);
		if (n == 0)
			return;
		cg_pause_ms(1);
	}
}

/* The first (the locked one) last: what a sweep finds unlocked in the
 * first hierarchy is all that is left of a run. */
static void remove_dirs(char *const *dirs)
{
	for (int i = CG_N - 1; i >= 0; i--)
		for (int t = 0; dirs[i] != NULL && rmdir(dirs[i]) < 0 &&
		    errno == EBUSY && t < 200; t++)
			cg_pause_ms(1);
}

/* DIR opened and flocked HOW: its descriptor, or -1. */
static int lock_dir(const char *dir, int how)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0 && flock(fd, how) < 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* A run's cgroup NAME in BASE whose sbexec is gone: its lock taken (the
 * descriptor, which holds it until closed), or -1. */
static int stale(const char *base, const char *name)
{
	char path[PATH_MAX];

	if (strncmp(name, "run-", 4) != 0 ||
	    (size_t)fmt_snprintf(path, sizeof(path), "%s/%s", base, name) >=
	    sizeof(path))
		return -1;
	return lock_dir(path, LOCK_EX | LOCK_NB);
}

/* A run removes at most this many left cgroups; the next run, more. */
#define SWEEP_MAX 64

/* The stale cgroups in BASE, their names and locks, found with BASE
 * locked whole: no run is between making its cgroup and locking it
 * (make_locked). BASE is unlocked before they are killed, which may
 * take long, so that new runs need not wait for it. */
static int find_stale(const char *base, char **names, int *fds)
{
	struct dirent *e;
	int bfd, n = 0;
	DIR *d;

	if ((bfd = lock_dir(base, LOCK_EX)) < 0)
		return 0;
	if ((d = opendir(base)) != NULL) {
		while (n < SWEEP_MAX && (e = readdir(d)) != NULL)
			if ((fds[n] = stale(base, e->d_name)) >= 0)
				names[n++] = xstrdup(e->d_name);
		closedir(d);
	}
	close(bfd);
	return n;
}

/* What gone runs left in BASES (one per hierarchy; v2: bases[0]). */
static void sweep(int version, char *const *bases)
{
	const char *first = NULL;
	char *names[SWEEP_MAX], *dirs[CG_N];
	int fds[SWEEP_MAX], n;

	for (int i = 0; first == NULL && i < CG_N; i++)
		first = bases[i];
	n = first != NULL ? find_stale(first, names, fds) : 0;
	for (int k = 0; k < n; k++) {
		for (int i = 0; i < CG_N; i++)
			dirs[i] = bases[i] ? xasprintf("%s/%s", bases[i],
			    names[k]) : NULL;
		kill_all_in(version, dirs);
		remove_dirs(dirs);
		close(fds[k]);
		for (int i = 0; i < CG_N; i++)
			free(dirs[i]);
		free(names[k]);
	}
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
		t = (unsigned long long)dec_number(p + 1, NULL);
	return t;
}

/* DIR made in BASE, and locked, under BASE's shared lock: a sweep, which
 * locks BASE whole, finds it locked or not at all. The lock is held in
 * cg->lockfd until the cgroup is gone. */
static int make_locked(struct cgroup *cg, const char *base, const char *dir)
{
	int bfd = lock_dir(base, LOCK_SH), rc = 0;

	if (bfd < 0)
		return cg_fail(cg, "cannot lock", base);
	if (mkdir(dir, 0755) < 0)
		rc = cg_fail(cg, "cannot make", dir);
	else if ((cg->lockfd = lock_dir(dir, LOCK_EX | LOCK_NB)) < 0)
		rc = cg_fail(cg, "cannot lock", dir);
	close(bfd);
	return rc;
}

static int make_dirs(struct cgroup *cg, char *const *bases,
    const char *name)
{
	char path[PATH_MAX];
	int rc = 0;

	for (int i = 0; i < CG_N; i++) {
		if (bases[i] == NULL)
			continue;
		if (mkdir(bases[i], 0755) < 0 && errno != EEXIST)
			return cg_fail(cg, "cannot make", bases[i]);
		if (cg->version == 2)
			cg2_enable(bases[i]);
		cg->dir[i] = xasprintf("%s/%s", bases[i], name);
		if (cg->lockfd < 0)
			rc = make_locked(cg, bases[i], cg->dir[i]);
		else if (mkdir(cg->dir[i], 0755) < 0)
			rc = cg_fail(cg, "cannot make", cg->dir[i]);
		if (rc < 0) {
			free(cg->dir[i]);	/* not ours to remove */
			cg->dir[i] = NULL;
			return -1;
		}
		fmt_snprintf(path, sizeof(path), "%s/%s", cg->dir[i],
		    cg->version == 1 ? "tasks" : "cgroup.procs");
		if ((cg->procs[i] = open(path, O_WRONLY | O_CLOEXEC)) < 0)
			return cg_fail(cg, "cannot open", path);
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
		cg2_enable(parent);
		free(parent);
		bases[0] = xstrdup(cg->base);
	}
	sweep(cg->version, bases);
	fmt_snprintf(name, sizeof(name), "run-%d-%llu", (int)getpid(),
	    start_time());
	rc = make_dirs(cg, bases, name);
	if (rc == 0 && cg->version == 2 && (cg->dirfd = open(cg->dir[0],
	    O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		rc = cg_fail(cg, "cannot open", cg->dir[0]);
	if (rc == 0)
		rc = cg->version == 2 ? cg2_limits(cg, l) : cg1_limits(cg, l);
	for (int i = 0; i < CG_N; i++)
		free(bases[i]);
	if (rc < 0) {
		cgroup_remove(cg);
		cg->version = 0;
	}
	return rc;
}

/* The child is one thread (spawn.c's vfork): on v1 it moves itself
 * through "tasks", which moves a thread. Through cgroup.procs, which
 * moves a thread group, the kernel write-locks every thread group's
 * fork path first, and that waits out an RCU grace period (perf's
 * sched_switch stacks: percpu_down_write, rcu_sync_enter,
 * synchronize_rcu), 7 to 30 ms of each run on this host against 0.2 ms
 * for "tasks" (6.18; kernels without that shortcut take the lock for
 * both). On v2 the child is born inside (clone3). */
void cgroup_join(const struct cgroup *cg)
{
	if (cg != NULL && cg->dirfd >= 0)
		return;		/* cloned into it */
	for (int i = 0; cg != NULL && i < CG_N; i++)
		if (cg->procs[i] >= 0 && write(cg->procs[i], "0", 1) != 1) {
			fmt_dprintf(2, "sbexec: cgroup: cannot join %s: %s\n",
			    cg->dir[i], strerror(errno));
			_exit(EXIT_SBEXEC);
		}
}

long long cgroup_cpu_ms(const struct cgroup *cg)
{
	if (cg == NULL || cg->version == 0)
		return -1;
	return cg->version == 2 ? cg2_cpu_ms(cg) : cg1_cpu_ms(cg);
}

void cgroup_kill(const struct cgroup *cg)
{
	if (cg != NULL && cg->version != 0)
		kill_all_in(cg->version, cg->dir);
}

void cgroup_usage(const struct cgroup *cg, struct cg_usage *u)
{
	*u = (struct cg_usage){ -1, -1, -1, -1, -1 };
	if (cg->version == 0)
		return;
	u->cpu_ms = cgroup_cpu_ms(cg);
	if (cg->version == 2)
		cg2_usage(cg, u);
	else
		cg1_usage(cg, u);
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
	if (cg->lockfd >= 0) {
		close(cg->lockfd);	/* gone, or a sweep's to remove */
		cg->lockfd = -1;
	}
}

const char *cgroup_sockets(const struct cgroup *cg)
{
	if (cg->version == 2)
		return "counted in memory.max with the rest";
	return cg1_sockets();
}
