/* entries.c: see entries.h. musl's readdir reads 2 KiB a call, and
 * counting a directory before granting its entries read it twice. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox/entries.h"
#include "util.h"

/* The first buffer holds a hundred short names, as most directories on
 * the way to a hidden path have, from the heap sbexec already has;
 * each next one is twice as large, so a directory of 10,000 takes
 * about as many calls as it would in chunks of 32 KiB. A first buffer
 * of 64 KiB was an mmap and a munmap of its own, and its faults, for
 * each directory. */
#define FIRST 4096

struct rec {			/* struct linux_dirent64 */
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

static int dots(const char *name)
{
	return strcmp(name, ".") == 0 || strcmp(name, "..") == 0;
}

static long count(const char *buf, size_t len)
{
	const struct rec *r;
	long n = 0;

	for (size_t at = 0; at < len; at += r->reclen) {
		r = (const struct rec *)(const void *)(buf + at);
		n += !dots(r->name);
	}
	return n;
}

int entries_read(int fd, long max, struct entries *e)
{
	long got;

	*e = (struct entries){ 0 };
	do {
		if (e->cap - e->len < e->cap / 2 || e->cap == 0) {
			e->cap = e->cap ? 2 * e->cap : FIRST;
			e->buf = xreallocarray(e->buf, e->cap, 1);
		}
		got = syscall(SYS_getdents64, fd, e->buf + e->len,
		    e->cap - e->len);
		if (got < 0) {
			entries_free(e);
			return -1;
		}
		e->n += count(e->buf + e->len, (size_t)got);
		e->len += (size_t)got;
	} while (got > 0 && e->n <= max);
	return 0;
}

const char *entries_next(struct entries *e, unsigned char *type)
{
	const struct rec *r;

	while (e->at < e->len) {
		r = (const struct rec *)(const void *)(e->buf + e->at);
		e->at += r->reclen;
		if (!dots(r->name)) {
			*type = r->type;
			return r->name;
		}
	}
	return NULL;
}

void entries_free(struct entries *e)
{
	free(e->buf);
	*e = (struct entries){ 0 };
}
