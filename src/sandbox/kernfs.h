/* kernfs.h: the kernel's own files in the sandbox's /proc and /sys
 * (DESIGN 12: root inside holds no power of root). */
#ifndef SBEXEC_KERNFS_H
#define SBEXEC_KERNFS_H

#include <stddef.h>

#include "sandbox/verify.h"
#include "util.h"

/* bwrap: after /proc is mounted, bind the kernel's tunables read-only
 * and mask what reads the kernel's or the hardware's state, each that
 * exists here; add each mount to what the sandbox is checked against. */
void kernfs_emit(struct strv *out, struct expect *e);

/* Landlock: the trees below /sys that stay hidden (its /proc and /dev
 * are hidden whole); *N gets how many. */
const char *const *kernfs_hidden_sys(size_t *n);

#endif
