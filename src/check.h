/* check.h: the --check and --link modes. */
#ifndef SBEXEC_CHECK_H
#define SBEXEC_CHECK_H

#include "policy/policy.h"

/* The policy as a person reads it, with its warnings; returns 0. */
int check_print(const struct policy *pol);

/* DIR/NAME -> sbexec for every command; 0, or 125 when one failed. */
int link_commands(const struct policy *pol, const char *dir);

#endif
