/* sup.h: the state of one supervised run, shared by the files of the
 * supervisor (supervise.c: the loop; spawn.c: the child's side;
 * outcome.c: the exit status and the end record; pty.c: the command's
 * terminal). Private to them. */
#ifndef SBEXEC_SUP_H
#define SBEXEC_SUP_H

#include <sys/resource.h>
#include <sys/types.h>

#include "policy/policy.h"
#include "run/cgroup.h"
#include "run/pty.h"
#include "run/pump.h"
#include "run/run.h"
#include "run/tree.h"
#include "sandbox/mapwatch.h"

/* bwrap's status records: its first, the init's pid and seven
 * namespaces, is about 200 bytes, and the exit code's 20 more. The
 * struct is zeroed on the stack of every call: 1 KiB, not a page. */
#define STATUS_MAX 1024

struct sup {
	const struct policy *pol;
	const struct command *cmd;
	struct sandbox_run *run;	/* NULL for a bypassed command */
	const char *refused;	/* why the sandbox was not let run */
	pid_t child, init_pid;	/* bwrap; the sandbox's PID 1 */
	int sandboxed, sigfd, status_fd, exit_code, reaped, wstatus;
	int timed_out;
	int released;		/* the command was let start (bwrap has the
				 * whole filter, or the guard saw the exec) */
	int audit_lost;		/* a net record could not be written */
	int holding;		/* auto: bwrap's output held back (trial.c) */
	int fall;		/* auto: bwrap could not set up; fall back */
	int pending;		/* a signal for a command not yet known */
	const char *limit;	/* the stream past its cap, or NULL */
	long long start, deadline, kill_at;
	char status[STATUS_MAX];
	size_t status_len;
	struct rusage ru;
	struct usage killed;	/* read just before the tree was killed */
	struct stream out, err;
	struct stream term;	/* the pty's output when it serves stdin
				 * alone (else it is out or err) */
	struct pty pty;		/* DESIGN 12: a standard stream is a terminal */
	long net_refused;	/* the proxy's, read before it stops */
	struct proxy *proxy;	/* DESIGN 11, once the sandbox is verified */
	struct cgroup *cg;	/* the run's, or NULL (cgroup.c) */
	int cpu_exceeded;	/* the run passed runCpuSeconds */
	struct mapwatch mw;	/* Landlock: executable mappings */
};

/* Fork the child (bwrap, the Landlock guard or the bypassed binary)
 * with its pty or output pipes and status descriptor, as spawn.c says. */
void spawn(struct sup *s, char *const *argv, char *const *envp);

/* trial.c, "auto": bwrap on trial until it is set up. */
void trial_init(struct sup *s);
/* 0, or -1 when the start record could not be written (said). */
int trial_begin(struct sup *s);
/* bwrap is gone: decide between falling back and ending as a run. */
void trial_settle(struct sup *s);
/* The end of a trial that falls back: bwrap's first line, its output
 * dropped; or the start record of one that ends as a run. */
void trial_end(struct sup *s);

/* sbexec's exit status for the run, saying why on stderr when the
 * sandbox was refused or could not be set up; then its end record. */
int outcome_status(const struct sup *s);
void outcome_record(const struct sup *s, int status);

#endif
