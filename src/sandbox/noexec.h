/* noexec.h: what the bwrap sandbox may execute (DESIGN 13). */
#ifndef SBEXEC_NOEXEC_H
#define SBEXEC_NOEXEC_H

#include "policy/policy.h"
#include "util.h"

/* The executable trees of a run of CMD under POL, resolved: /usr, each
 * of /bin, /sbin and /lib* that is a real directory (not merged-/usr's
 * link), binShell's and the command's binaries where they lie outside
 * those, and POL's execPaths. Appended to OUT, none twice, none inside
 * another. */
void noexec_trees(const struct policy *pol, const struct command *cmd,
    struct strv *out);

/* Inside the sandbox's mount namespace, with its capabilities: every
 * mount noexec, then each of TREES bound onto itself executable.
 * Returns 0, -1 when the mounts could not be made noexec, or 1 + the
 * index of the tree that could not be bound. */
int noexec_apply(const struct strv *trees);

#endif
