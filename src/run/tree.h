/* tree.h: a process tree from /proc: its usage, and its end. */
#ifndef SBEXEC_TREE_H
#define SBEXEC_TREE_H

#include <sys/types.h>

struct usage {
	long long cpu_ms;	/* user + system, own and reaped children's */
	long long max_rss_kb;	/* the largest peak of any one process */
};

/* Add ROOT and every live descendant of it to U (those a walk can list:
 * LIST_MAX in tree.c, or memory, may cut it). For a tree about to be
 * killed outright: a PID namespace's init that dies reaps its processes
 * without accounting them to anyone, so their usage is read before. */
void usage_tree(pid_t root, struct usage *u);

/* Stop, then SIGKILL, every descendant of the calling process, which
 * must be a subreaper (orphans come back to it) and have no child but
 * those of the tree (the Landlock guard), and reap them all,
 * pass after pass, until a pass finds none and no child is left. No
 * give-up count: it returns only when the tree is gone (a process the
 * kernel cannot kill, stuck in the D state, keeps it waiting). Without a
 * PID namespace this is what makes a command that double-forks, calls
 * setsid or floods forks end with its run. */
void tree_kill(void);

#endif
