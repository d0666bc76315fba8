/* mapwatch.h: the Landlock backend's executable mappings (issue 30,
 * item 3), judged by sbexec. */
#ifndef SBEXEC_MAPWATCH_H
#define SBEXEC_MAPWATCH_H

#include "policy/policy.h"
#include "util.h"

struct mapwatch {
	int sock;		/* the run's end: the listener comes here */
	int listener;		/* the filter's, once received; else -1 */
	struct strv trees;	/* where executable code may come from */
	long refused;		/* mappings refused */
};

/* A socket pair for a Landlock run: PARENT's end is sbexec's, CHILD's
 * goes to the command (final.c). 0, or -1 with errno. */
int mapwatch_pair(int *parent, int *child);

/* The command's side, in final.c: a filter that sends every mapping of
 * a file executable to the listener, which goes to sbexec over SOCK.
 * 0, or -1 with errno. */
int mapwatch_install(int sock);

/* sbexec's side: M watches SOCK (-1: nothing to watch) for the run of
 * CMD under POL, whose executable trees are noexec.c's. */
void mapwatch_init(struct mapwatch *m, int sock, const struct policy *pol,
    const struct command *cmd);

/* The descriptor to poll for input, or -1. */
int mapwatch_fd(const struct mapwatch *m);

/* REVENTS on it: the listener received, one request answered, or the
 * listener closed once no process of the run holds the filter. */
void mapwatch_on(struct mapwatch *m, short revents);

void mapwatch_free(struct mapwatch *m);

#endif
