/* env.h: the child's environment, built from nothing (DESIGN 2). */
#ifndef SBEXEC_ENV_H
#define SBEXEC_ENV_H

#include <stddef.h>

/* 1 when NAME matches ^[A-Za-z_][A-Za-z0-9_]*$. */
int env_name_valid(const char *name);

/* A new NULL-terminated envp: all of HOST when INHERIT, else the first
 * HOST entry of each name in ALLOW (NULL-terminated), in ALLOW's order.
 * Returns NULL when the result would pass the bounds of env.c. */
char **env_build(char *const *host, char *const *allow, int inherit);

/* DESIGN 11: ENVP (from env_build, consumed) without any *_proxy or
 * no_proxy variable, in any case, and with http_proxy=URL. */
char **env_proxy(char **envp, const char *url);

/* DESIGN 13: ENVP (from env_build, consumed) for a sandboxed command:
 * with JACK_NO_START_SERVER=1 and ALSA_CONFIG_PATH=/dev/null unless it
 * holds a non-empty value of its own for the name (the first is kept,
 * any other entry of that name dropped). */
char **env_quiet(char **envp);

#endif
