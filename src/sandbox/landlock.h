/* landlock.h: the Landlock backend's rendering of the policy (DESIGN 9). */
#ifndef SBEXEC_LANDLOCK_H
#define SBEXEC_LANDLOCK_H

#include "policy/devices.h"
#include "policy/policy.h"
#include "sandbox/final.h"
#include "util.h"

struct plan;

/* Every ABI: what the older ones lack, the seccomp filter closes or
 * landlock_cost() names. */
#define LANDLOCK_ABI_MIN 1

struct landlock {
	int abi;		/* the running kernel's */
	int ruleset;		/* every rule but the command's own /proc/PID */
	int filter;		/* the seccomp filter's flags (filter.h) */
	unsigned char *bpf;	/* its program, filter.c's */
	size_t bpf_len;		/* in bytes */
	long rules;		/* how many the ruleset holds */
	struct strv narrowed;	/* directories granted only what the
				 * call names (LANDLOCK_SIBLINGS_MAX) */
	char *why;		/* why the policy cannot be rendered */
	struct final fin;	/* the layer entered last (final.c) */
	int map_parent;		/* sbexec's end of fin.map_sock's pair */
};

/* The kernel's Landlock ABI, 0 when Landlock is absent or disabled. */
int landlock_abi(void);

/* What ABI costs a command against the newest, in one line, or NULL:
 * below 3, truncate(2) and open(O_TRUNC) without write access refused;
 * at 1, rename and link across directories too (EXDEV). */
const char *landlock_cost(int abi);

/* Landlock only grants: a directory on the way to a hidden entry has
 * each of its other entries granted by a rule of its own, up to this
 * many; past it, only the entries that the call names (its command,
 * arguments and working directory) or that lie on their way, so that
 * no directory makes a call dearer than this many rules. */
#define LANDLOCK_SIBLINGS_MAX 1000

/* The entries of the directory DIR, counted up to LANDLOCK_SIBLINGS_MAX
 * + 1 (what decides its plan); -1 when it cannot be read. */
long landlock_entries(const char *dir);

/* In sbexec: the ruleset for POL run from CWD with NAMED (the command
 * and its arguments, NULL-terminated), built from the policy's
 * paths opened now, after MADE, the plan of mounts.c for them (one made
 * for bwrap, whose trial failed), or one made here when NULL, and the
 * devices DV (devices.c), read, write and ioctl on each node. 0, or 125
 * (or 126 for a hidden CWD) with the reason in l->why: too old a
 * kernel, or a writable tree holding what Landlock cannot carve out of
 * it. */
int landlock_plan(const struct policy *pol, const char *cwd,
    char *const *named, struct plan *made, const struct devices *dv,
    struct landlock *l);

/* In the command's process, before exec: its own /proc/PID/status, then
 * no_new_privs, landlock_restrict_self and the seccomp filter. -1 with
 * errno set and *WHAT naming the step that failed. */
int landlock_enter(const struct landlock *l, const char **what);

#endif
