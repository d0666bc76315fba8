/* usage.h: the CPU time and peak memory of a process tree, from /proc. */
#ifndef SBEXEC_USAGE_H
#define SBEXEC_USAGE_H

#include <sys/types.h>

struct usage {
	long long cpu_ms;	/* user + system, own and reaped children's */
	long long max_rss_kb;	/* the largest peak of any one process */
};

/* Add ROOT and every live descendant of it to U. For a tree about to be
 * killed outright: a PID namespace's init that dies reaps its processes
 * without accounting them to anyone, so their usage is read before. */
void usage_tree(pid_t root, struct usage *u);

#endif
