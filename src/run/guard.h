/* guard.h: the first process of the Landlock backend (DESIGN 9). */
#ifndef SBEXEC_GUARD_H
#define SBEXEC_GUARD_H

#include <signal.h>

#include "sandbox/landlock.h"

/* In sbexec's child, its descriptors placed (the status pipe at
 * STATUS_FD) and its limits set. Plays the part of bwrap's init: becomes
 * a subreaper, starts the command under Landlock and seccomp in a new
 * session with MASK and PIPE restored, reports as bwrap does on
 * --json-status-fd ({"child-pid"}, {"exec"} once the command executes,
 * then {"exit-code"} only when the command ran to its end), and kills
 * every process left when the command ends or when sbexec dies. Never
 * returns. */
_Noreturn void guard_run(const struct landlock *l, char *const *argv,
    char *const *envp, const sigset_t *mask, const struct sigaction *pipe);

#endif
