/* sandbox.h: the argv of bwrap for one sandboxed command (DESIGN 3). */
#ifndef SBEXEC_SANDBOX_H
#define SBEXEC_SANDBOX_H

#include "policy.h"
#include "util.h"

struct sandbox_io {
	const char *cwd;	/* the caller's working directory, resolved */
	int status_fd;		/* --json-status-fd, or -1 */
	int seccomp_fd;		/* --seccomp, or -1 */
};

/* Append to OUT the whole argv: bwrap, its options, binShell and the
 * command string for CMD with ARGS (argv of the command without its
 * name). Returns 0, or the exit status of mounts_plan's refusal with its
 * reason, allocated, in *WHY. */
int sandbox_argv(const struct policy *pol, const struct command *cmd,
    char *const *args, const struct sandbox_io *io, struct strv *out,
    char **why);

/* A pipe holding the seccomp filter for bwrap's --seccomp: the full
 * one, or without the AF_UNIX rule when allowUnixSockets is set. */
int sandbox_seccomp(const struct policy *pol);

#endif
