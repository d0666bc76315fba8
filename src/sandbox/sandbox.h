/* sandbox.h: the argv of bwrap for one sandboxed command (DESIGN 3). */
#ifndef SBEXEC_SANDBOX_H
#define SBEXEC_SANDBOX_H

#include "policy/devices.h"
#include "policy/policy.h"
#include "sandbox/landlock.h"
#include "sandbox/mounts.h"
#include "sandbox/verify.h"
#include "util.h"

struct sandbox_io {
	const char *cwd;	/* the caller's working directory, resolved */
	char *const *envp;	/* the command's environment (launch.c) */
	int status_fd;		/* --json-status-fd, or -1 */
	int seccomp_fd;		/* --seccomp, or -1 */
	int can_try;		/* a run that can hold back what bwrap says */
	struct fdv keep;	/* out: descriptors bwrap must inherit */
	int handin[3];		/* out: files handed in (handin.c), or -1 */
	struct strv masked;	/* out: links in writable places */
	struct strv masked_why;	/* out: for each, what became of it */
	struct strv left;	/* out: a line for each rule left out */
	struct expect expect;	/* out: the sandbox as planned */
	struct devices devices;	/* out: the policy's, opened once */
	struct landlock landlock;	/* out: the Landlock backend's */
	enum backend backend;	/* out: the one that runs */
	char *fallback;		/* out: why auto fell back to Landlock */
	int trial;		/* out: auto, bwrap on trial (run.h) */
	struct plan *plan;	/* out: on trial, the mounts planned, for
				 * the Landlock backend should it fail */
};

/* bwrap reads its --seccomp descriptor after every mount is made and
 * before the command runs: the pipe holds one buffer of the filter, and
 * the rest is written once the sandbox has been verified (verify.c).
 * bwrap draining the first buffer is the sign that it is done. */
struct seccomp_feed {
	int rd, wr;		/* wr: non-blocking, -1 when all is written */
	unsigned char *rest;
	size_t len;
};

/* The argv and sandbox of the policy's backend for CMD with ARGS (argv
 * of the command without its name): bwrap, its options, binShell and the
 * command string, Landlock (binShell -c "exec ..." and the ruleset in
 * io->landlock). For "auto" where io->can_try, bwrap on trial
 * (io->trial); else bwrap where a run of bwrap on nothing sets up, or
 * Landlock with the reason in io->fallback. Returns 0, or the exit status
 * of the plan's refusal with its reason, allocated, in *WHY. */
int sandbox_build(const struct policy *pol, const struct command *cmd,
    char *const *args, struct sandbox_io *io, struct strv *out,
    char **why);

/* bwrap on trial could not set up, saying REASON (its first line): OUT
 * becomes the Landlock backend's argv, as sandbox_build's. */
int sandbox_fallback(const struct policy *pol, const struct command *cmd,
    char *const *args, struct sandbox_io *io, struct strv *out,
    const char *reason, char **why);

/* The pipe for bwrap's --seccomp, with the run's filter (filter.c's, for
 * the policy's flags) and after it one instruction that is never
 * reached: the program in the pipe's one buffer, the instruction left
 * for after the check (padded to fill a larger pipe, where one page
 * cannot be set). */
void sandbox_seccomp(const struct policy *pol, struct seccomp_feed *f);

#endif
