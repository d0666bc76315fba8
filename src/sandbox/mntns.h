/* mntns.h: the sandbox's mount tree, cut off from the host's. */
#ifndef SBEXEC_MNTNS_H
#define SBEXEC_MNTNS_H

#include <sys/types.h>

#include "util.h"

/* Make every mount of PID's mount namespace (bwrap's sandbox, all its
 * mounts made, the command not started) private: no mount the host
 * makes from now on appears inside; then noexec but the executable
 * TREES (noexec.c). 0, or -1 with the reason in *WHY. */
int mntns_private(pid_t pid, const struct strv *trees, char **why);

#endif
