/* entries.h: a directory's entries read in one pass, in as few
 * getdents64 calls as a buffer allows (landlock.c grants them one by
 * one, and decides from their number first). */
#ifndef SBEXEC_ENTRIES_H
#define SBEXEC_ENTRIES_H

#include <stddef.h>

struct entries {
	char *buf;		/* the kernel's records, as it wrote them */
	size_t len, cap, at;	/* bytes held, allocated, read by next */
	long n;			/* entries but . and .. */
};

/* The entries of the directory FD, read until its end or until more
 * than MAX are held. 0, or -1 with errno set. */
int entries_read(int fd, long max, struct entries *e);

/* The next entry of E but . and .., its d_type in *TYPE; NULL at the
 * end. */
const char *entries_next(struct entries *e, unsigned char *type);

void entries_free(struct entries *e);

#endif
