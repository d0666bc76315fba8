/* launch.h: the last step inside bwrap's sandbox, before the command. */
#ifndef SBEXEC_LAUNCH_H
#define SBEXEC_LAUNCH_H

#include "sandbox/final.h"
#include "sandbox/mounts.h"
#include "util.h"

/* Push the launcher onto OUT (bwrap's argv, just after "--"): sbexec
 * itself and a memfd holding ENVP, the command's environment, from
 * descriptors bwrap inherits (added to KEEP), and the descriptors of
 * HANDIN (handin.c), -1 where none. */
void launch_push(struct strv *out, struct fdv *keep, char *const *envp,
    const struct final *f, const int handin[3]);

/* Push the preflight's launcher onto OUT: sbexec's own binary, which
 * exits 0 at once, from a descriptor bwrap inherits (added to KEEP). */
void launch_push_nothing(struct strv *out, struct fdv *keep);

/* First thing in main: when ARGV is the launcher's, put the handed-in
 * files at 0-2 (handin.c), close every descriptor above 2 and exec the
 * rest of ARGV with the environment of the memfd, never the launcher's
 * own; when it is the preflight's, exit 0. Never returns then. */
void launch_maybe(int argc, char **argv);

#endif
