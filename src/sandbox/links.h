/* links.h: links in writable places, which one run can point elsewhere
 * for the next (links.c). */
#ifndef SBEXEC_LINKS_H
#define SBEXEC_LINKS_H

#include "policy/policy.h"

/* 1 when rule R of POL passes through a symbolic link (its path
 * included) that a run could have made or re-pointed, as a run decides
 * it: what --check warns of. */
int links_unstable(const struct policy *pol, const struct fs_rule *r);

#endif
