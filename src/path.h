/* path.h: the path forms of a policy (absolute, ~, .) made absolute and
 * normal, and the questions the sandbox asks about nested paths. */
#ifndef SBEXEC_PATH_H
#define SBEXEC_PATH_H

#include <stddef.h>

/* Expand and normalise IN into a new string. On error return NULL and
 * point *why at a message fit to follow the key path. */
char *path_expand(const char *in, const char **why);

/* 1 when PATH is BASE or lies below it (both normal and absolute). */
int path_within(const char *path, const char *base);

/* Number of components: "/" is 0, "/a/b" is 2. */
size_t path_depth(const char *path);

/* Resolve symlinks of an existing path; NULL when it does not exist. */
char *path_resolve(const char *path);

/* Open PATH below the directory ROOT, never following a link and never
 * above ROOT (O_PATH): by openat2, or one component at a time where the
 * kernel has none; -1 with errno from the component that failed. */
int path_walk(int root, const char *path);

#endif
