/* programs.h: the programs a policy names, trusted as the policy is. */
#ifndef SBEXEC_PROGRAMS_H
#define SBEXEC_PROGRAMS_H

#include "policy/policy.h"

/* Check bwrap, binShell and every command's path (DESIGN 12): the walk
 * of trust.c to each, and none of it inside any allowWrite of POL or of
 * a command's own policy. Prints one line per program refused, naming
 * its key path, and returns -1 if any was; else 0. */
int programs_check(const struct policy *pol);

#endif
