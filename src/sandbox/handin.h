/* handin.h: the standard streams the caller hands a bwrap sandbox. */
#ifndef SBEXEC_HANDIN_H
#define SBEXEC_HANDIN_H

#include "sandbox/mounts.h"

/* In sbexec, before bwrap starts: each of descriptors 0-2 that is a
 * readable regular file reaching the command as itself (stdin always;
 * stdout and stderr only when OUTPUT_PIPED is 0, else sbexec's pipes
 * stand there) is copied above 10 into KEEP, its number in OUT[i];
 * -1 for the others. bwrap gets /dev/null in its place (spawn.c). */
void handin_pick(int output_piped, struct fdv *keep, int out[3]);

/* In the launcher, inside the sandbox: each FDS[i] (not -1) reopened
 * by its path through the sandbox's own mounts and put at i, with its
 * access mode, status flags and offset. Exits 125 with a message when
 * the sandbox does not show that same file there. */
void handin_reopen(const int fds[3]);

#endif
