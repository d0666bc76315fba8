/* tree.h: a process tree from /proc: its usage, and its end. */
#ifndef SBEXEC_TREE_H
#define SBEXEC_TREE_H

#include <sys/types.h>

struct usage {
	long long cpu_ms;	/* user + system, own and reaped children's */
	long long max_rss_kb;	/* the largest peak of any one process */
};

/* Add ROOT and every live descendant of it to U. For a tree about to be
 * killed outright: a PID namespace's init that dies reaps its processes
 * without accounting them to anyone, so their usage is read before. */
void usage_tree(pid_t root, struct usage *u);

/* SIGKILL every descendant of the calling process, which must be a
 * subreaper (orphans come back to it), and reap them all, until none is
 * left; a second at most. Without a PID namespace this is what makes a
 * command that double-forks or calls setsid end with its run. */
void tree_kill(void);

/* Send SIG to ROOT's descendants, deepest known last, then ROOT. */
void tree_signal(pid_t root, int sig);

#endif
