/* resolve.c: a lookup blocks for as long as DNS takes, which the
 * event loop that copies the command's output and enforces its timeout
 * must not. Each lookup runs on a detached thread that only reads its
 * name and writes one answer; it touches nothing else of sbexec.
 * lookups.c decides which names to look up, and how many at once. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmt.h"
#include "net/dns.h"
#include "net/resolve.h"
#include "util.h"

struct job {
	int wfd;
	char name[HOST_MAX + 1];
};

static void *lookup(void *arg)
{
	struct job *j = arg;
	struct name_answer a = { 0 };

	fmt_snprintf(a.name, sizeof(a.name), "%s", j->name);
	a.err = dns_lookup(j->name, &a);
	/* Whole or not at all: under PIPE_BUF, a pipe write is atomic.
	 * Once the proxy has stopped nobody reads it: nothing to do. */
	(void)!write(j->wfd, &a, sizeof(a));
	free(j);
	return NULL;
}

int resolve_start(const char *name, int wfd)
{
	struct job *j = xmalloc(sizeof(*j));
	pthread_attr_t attr;
	pthread_t t;
	int rc;

	_Static_assert(sizeof(struct name_answer) <= 4096,
	    "an answer fits PIPE_BUF");
	j->wfd = wfd;
	fmt_snprintf(j->name, sizeof(j->name), "%s", name);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	/* A lookup needs little stack; 64 KiB each keeps 16 cheap. */
	pthread_attr_setstacksize(&attr, 64 * 1024);
	rc = pthread_create(&t, &attr, lookup, j);
	pthread_attr_destroy(&attr);
	if (rc != 0) {
		free(j);
		return -1;
	}
	return 0;
}
