/* resolve.c: getaddrinfo blocks for as long as DNS takes, which the
 * event loop that copies the command's output and enforces its timeout
 * must not. Each lookup runs on a detached thread that only reads its
 * name and writes one answer; it touches nothing else of sbexec.
 * lookups.c decides which names to look up, and how many at once. */
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmt.h"
#include "net/resolve.h"
#include "util.h"

struct job {
	int wfd;
	char name[HOST_MAX + 1];
};

static const struct addrinfo hints = { .ai_family = AF_UNSPEC,
    .ai_socktype = SOCK_STREAM };

static void put(struct name_answer *a, const struct sockaddr *sa)
{
	struct addr *d = &a->addr[a->n];

	if (sa->sa_family == AF_INET) {
		d->family = AF_INET;
		memcpy(d->a, &((const struct sockaddr_in *)(const void *)sa)->
		    sin_addr, 4);
		a->n++;
	} else if (sa->sa_family == AF_INET6) {
		d->family = AF_INET6;
		memcpy(d->a, &((const struct sockaddr_in6 *)(const void *)sa)->
		    sin6_addr, 16);
		a->n++;
	}
}

static void *lookup(void *arg)
{
	struct job *j = arg;
	struct name_answer a = { 0 };
	struct addrinfo *res, *ai;

	fmt_snprintf(a.name, sizeof(a.name), "%s", j->name);
	a.err = getaddrinfo(j->name, NULL, &hints, &res);
	for (ai = a.err == 0 ? res : NULL; ai != NULL; ai = ai->ai_next) {
		if (a.n == ADDRS_MAX) {
			a.more = 1;
			break;
		}
		put(&a, ai->ai_addr);
	}
	if (a.err == 0)
		freeaddrinfo(res);
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
	/* getaddrinfo needs little stack; 64 KiB each keeps 8 cheap. */
	pthread_attr_setstacksize(&attr, 64 * 1024);
	rc = pthread_create(&t, &attr, lookup, j);
	pthread_attr_destroy(&attr);
	if (rc != 0) {
		free(j);
		return -1;
	}
	return 0;
}
