/* links.h: links in writable places, which one run can point elsewhere
 * for the next (links.c). */
#ifndef SBEXEC_LINKS_H
#define SBEXEC_LINKS_H

#include "policy.h"

/* 1 when PATH passes through a symbolic link (PATH itself included)
 * in a place an allowWrite of POL covers: what --check warns of. */
int links_unstable(const struct policy *pol, const char *path);

#endif
