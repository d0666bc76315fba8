/* run.h: running the command under supervision (DESIGN 5). */
#ifndef SBEXEC_RUN_H
#define SBEXEC_RUN_H

#include "audit/audit.h"
#include "policy/policy.h"
#include "run/cgroup.h"
#include "sandbox/landlock.h"
#include "sandbox/sandbox.h"

/* The descriptors bwrap is given, at these numbers in its process. */
#define STATUS_FD 3
#define SECCOMP_FD 4

/* Early in main: save the signal state the command is to inherit, and
 * ignore SIGPIPE so that a vanished reader is an error sbexec sees. */
void supervise_init(void);

/* What a sandboxed run adds. Under bwrap: the seccomp feed, the mount
 * sources bwrap inherits at their own numbers, and the sandbox as
 * planned. Under Landlock: the ruleset, and no feed (fds -1). */
struct sandbox_run {
	struct seccomp_feed feed;
	const struct fdv *keep;
	const int *handin;	/* handin.c: /dev/null at 0-2 where not -1 */
	const struct expect *expect;
	const struct landlock *landlock;	/* NULL under bwrap */
	const struct netpolicy *net;	/* DESIGN 11: the proxy's, or NULL */
	/* "auto" (DESIGN 9): bwrap on trial. Its start record (BEGIN) is
	 * written once bwrap is set up, and one that could not set up is
	 * no run: supervise returns RUN_FALLBACK, bwrap's first line in
	 * FALLBACK, having shown nothing of it. NULL: not on trial. */
	const struct run_start *begin;
	char *fallback;
};

/* audit_start's arguments, for a start record written later. */
struct run_start {
	const struct policy *pol;
	const struct command *cmd;
	char *const *argv;
	struct audit_run rec;
};

#define RUN_FALLBACK (-1)

/* Fork, exec ARGV with ENVP under the policy's limits, copy its output,
 * forward signals, write the end record; returns sbexec's exit status,
 * or RUN_FALLBACK. RUN is NULL for a bypassed command; CG, the run's
 * cgroup, NULL or of version 0 when there is none. */
int supervise(const struct policy *pol, const struct command *cmd,
    char *const *argv, char *const *envp, struct sandbox_run *run,
    struct cgroup *cg);

/* 1 when sbexec copies the stderr of a run under POL, and so can hold
 * back what bwrap writes there before the command starts. */
int supervise_holds_stderr(const struct policy *pol);

/* Exit with STATUS, or die of signal STATUS-128 when it names one. */
_Noreturn void exit_like(int status);

#endif
