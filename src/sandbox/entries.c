/* entries.c: see entries.h. musl's readdir reads 2 KiB a call, and
 * counting a directory before granting its entries read it twice. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox/entries.h"
#include "util.h"

#define CHUNK 32768		/* about 1000 short names a call */

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
		if (e->cap - e->len < CHUNK) {
			e->cap += 2 * CHUNK;
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
