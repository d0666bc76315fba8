/* cgroup.h: one cgroup per run (DESIGN 5): the run-wide limits, the
 * teardown that nothing in the run can hide from, and what the run used.
 * cgroup v2 (cgroup2.c), or v1's pids, memory, cpuacct and freezer
 * hierarchies (cgroup1.c); what both share is cgroup.c. */
#ifndef SBEXEC_CGROUP_H
#define SBEXEC_CGROUP_H

#include "policy/policy.h"

enum { CG_PIDS, CG_MEMORY, CG_CPU, CG_FREEZER, CG_N };

struct cgroup {
	int version;		/* 2 or 1; 0: none (why says why) */
	char *base;		/* the parent of the runs' cgroups */
	char *dir[CG_N];	/* the run's own: v2 in dir[0] alone */
	int procs[CG_N];	/* v1 tasks, v2 cgroup.procs, for the child */
	int dirfd;		/* v2: the run's, for CLONE_INTO_CGROUP */
	int lockfd;		/* its first directory, flocked: it is live */
	char *why;
};

/* What the run used, read before its cgroup goes; -1: not known. */
struct cg_usage {
	long long peak_bytes, cpu_ms, tasks_peak, oom_kills, tasks_refused;
};

/* Where this process's runs get their cgroups, without making one: the
 * base and the controllers, or why none (for --check). */
int cgroup_where(struct cgroup *cg, char **controllers);

/* The run's cgroup with L's run-wide limits, after removing what runs of
 * sbexec that are gone left behind. 0, or -1 with cg->why set: then no
 * cgroup at all. */
int cgroup_make(const struct limits *l, struct cgroup *cg);

/* In the child, before anything runs: into the run's cgroup, or _exit.
 * Nothing to do for a child cloned into it (cg->dirfd). */
void cgroup_join(const struct cgroup *cg);

/* CPU time of the whole run so far, in ms; -1 when not known. */
long long cgroup_cpu_ms(const struct cgroup *cg);

/* Kill every process in the run's cgroup until it is empty. */
void cgroup_kill(const struct cgroup *cg);

/* The run's peak counts its socket buffers too (v1: the sum of two
 * peaks, memory.max_usage_in_bytes and memory.kmem.tcp's). */
void cgroup_usage(const struct cgroup *cg, struct cg_usage *u);

/* How runMemoryBytes counts socket buffers here, for --check. */
const char *cgroup_sockets(const struct cgroup *cg);

/* Remove the run's cgroup (once its processes are reaped). */
void cgroup_remove(struct cgroup *cg);

/* Between cgroup.c, cgroup1.c and cgroup2.c only. */

#define CGROUP_ROOT "/sys/fs/cgroup"

/* A file of the cgroup at DIR: written (0, or -1 with errno), or its
 * number after KEY (its first number when KEY is NULL; -1: none). */
int cg_put(const char *dir, const char *name, const char *val);
int cg_put_ll(const char *dir, const char *name, long long v);
long long cg_get(const char *dir, const char *name, const char *key);
int cg_is_fs(const char *path, long magic);
int cg_fail(struct cgroup *cg, const char *what, const char *path);
void cg_pause_ms(long ms);

/* Each version's own: where the bases are, the controllers as --check
 * prints them, the limits, freezing, and what the run used. BASES (v1)
 * gets one base per hierarchy that is mounted. */
int cg1_where(struct cgroup *cg, char *bases[CG_N]);
char *cg1_controllers(char *const *bases);
int cg1_limits(struct cgroup *cg, const struct limits *l);
void cg1_freeze(const char *dir, int on);
long long cg1_cpu_ms(const struct cgroup *cg);
void cg1_usage(const struct cgroup *cg, struct cg_usage *u);
const char *cg1_sockets(void);

int cg2_where(struct cgroup *cg);
char *cg2_controllers(const struct cgroup *cg);
void cg2_enable(const char *dir);
int cg2_kill(const char *dir);
void cg2_freeze(const char *dir, int on);
int cg2_limits(struct cgroup *cg, const struct limits *l);
long long cg2_cpu_ms(const struct cgroup *cg);
void cg2_usage(const struct cgroup *cg, struct cg_usage *u);

#endif
