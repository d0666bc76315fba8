/* resolve.c: getaddrinfo blocks for as long as DNS takes, which the
 * event loop that copies the command's output and enforces its timeout
 * must not. Each lookup runs on a detached thread that only reads its
 * job and writes one answer; it touches nothing else of sbexec. */
#include <netdb.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "netpolicy.h"
#include "resolve.h"
#include "util.h"

struct job {
	int slot, wfd;
	unsigned gen;
	char host[HOST_MAX + 1];
};

static void *lookup(void *arg)
{
	struct job *j = arg;
	struct answer a = { .slot = j->slot, .gen = j->gen };
	struct addrinfo hints = { .ai_family = AF_UNSPEC,
	    .ai_socktype = SOCK_STREAM }, *res, *ai;

	a.err = getaddrinfo(j->host, NULL, &hints, &res);
	for (ai = a.err == 0 ? res : NULL; ai != NULL; ai = ai->ai_next) {
		if (a.n == ADDRS_MAX) {
			a.more = 1;
			break;
		}
		if (ai->ai_addrlen <= sizeof(a.addr[0]))
			memcpy(&a.addr[a.n++], ai->ai_addr, ai->ai_addrlen);
	}
	if (a.err == 0)
		freeaddrinfo(res);
	/* Whole or not at all: under PIPE_BUF, a pipe write is atomic.
	 * Once the proxy has stopped nobody reads it: nothing to do. */
	(void)!write(j->wfd, &a, sizeof(a));
	free(j);
	return NULL;
}

int resolve_start(const char *host, int slot, unsigned gen, int wfd)
{
	struct job *j = xmalloc(sizeof(*j));
	pthread_attr_t attr;
	pthread_t t;
	int rc;

	_Static_assert(sizeof(struct answer) <= 4096, "an answer fits PIPE_BUF");
	*j = (struct job){ .slot = slot, .wfd = wfd, .gen = gen };
	strcpy(j->host, host);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	rc = pthread_create(&t, &attr, lookup, j);
	pthread_attr_destroy(&attr);
	if (rc != 0) {
		free(j);
		return -1;
	}
	return 0;
}
