/* mtab.h: a process's mount table, as plain data. */
#ifndef SBEXEC_MTAB_H
#define SBEXEC_MTAB_H

#include <stddef.h>
#include <sys/types.h>

struct mtab_entry {
	int id, parent;
	char *mp;		/* escaped as in mountinfo */
	int ro;			/* mounted read-only */
	int noexec;		/* mounted noexec */
	int unbindable;		/* propagation: a recursive bind skips it */
	int visible;		/* reachable by a path: not under a cover */
};

struct mtab {
	struct mtab_entry *m;
	size_t n;
};

/* Read /proc/PID/mountinfo (0: sbexec's own); -1 with errno set when
 * it cannot be. */
int mtab_read(pid_t pid, struct mtab *t);
void mtab_free(struct mtab *t);

#endif
