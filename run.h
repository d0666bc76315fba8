/* run.h: run the command and turn its end into sbexec's exit status. */
#ifndef SBEXEC_RUN_H
#define SBEXEC_RUN_H

#include "policy.h"

int run(const struct policy *pol, const struct command *cmd,
    char *const *argv, char *const *envp);

/* --check and --link, in check.c. */
int check_print(const struct policy *pol);
int link_commands(const struct policy *pol, const char *dir);

#endif
