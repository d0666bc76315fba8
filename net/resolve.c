/* resolve.c: getaddrinfo blocks for as long as DNS takes, which the
 * event loop that copies the command's output and enforces its timeout
 * must not. Each lookup runs on a detached thread that only reads its
 * job and writes one answer; it touches nothing else of sbexec.
 *
 * A proxy that does not terminate TLS cannot see the Host header inside
 * a tunnel: an allowed name's front end may serve a denied one. So the
 * denied names are looked up too, and an address they share with the
 * requested name refuses it ("deny wins" by address as well as by
 * name). A front end that answers the two names at different addresses
 * still serves the denied one: that needs reading inside TLS. */
#include <netdb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "resolve.h"
#include "util.h"

struct job {
	int slot, wfd;
	unsigned gen;
	char host[HOST_MAX + 1];
	size_t ndeny;
	char deny[][HOST_MAX + 1];
};

static const struct addrinfo hints = { .ai_family = AF_UNSPEC,
    .ai_socktype = SOCK_STREAM };

static void addresses(const char *host, struct answer *a)
{
	struct addrinfo *res, *ai;

	a->err = getaddrinfo(host, NULL, &hints, &res);
	for (ai = a->err == 0 ? res : NULL; ai != NULL; ai = ai->ai_next) {
		if (a->n == ADDRS_MAX) {
			a->more = 1;
			break;
		}
		if (ai->ai_addrlen <= sizeof(a->addr[0]))
			memcpy(&a->addr[a->n++], ai->ai_addr, ai->ai_addrlen);
	}
	if (a->err == 0)
		freeaddrinfo(res);
}

static int same_address(const struct sockaddr *x, const struct sockaddr_storage *y)
{
	const struct sockaddr_in *x4 = (const void *)x, *y4 = (const void *)y;
	const struct sockaddr_in6 *x6 = (const void *)x, *y6 = (const void *)y;

	if (x->sa_family != y->ss_family)
		return 0;
	if (x->sa_family == AF_INET)
		return x4->sin_addr.s_addr == y4->sin_addr.s_addr;
	return x->sa_family == AF_INET6 && memcmp(&x6->sin6_addr,
	    &y6->sin6_addr, sizeof(x6->sin6_addr)) == 0;
}

/* Does NAME have an address of A's? A name that is not there has none;
 * a lookup that failed otherwise is an answer nobody can check. */
static int shares(const char *name, struct answer *a)
{
	struct addrinfo *res, *ai;
	int err = getaddrinfo(name, NULL, &hints, &res), hit = 0;

	if (err == EAI_NONAME || err == EAI_NODATA)
		return 0;
	if (err != 0) {
		a->deny_err = err;
		return 1;
	}
	for (ai = res; ai != NULL && !hit; ai = ai->ai_next)
		for (int i = 0; i < a->n && !hit; i++)
			hit = same_address(ai->ai_addr, &a->addr[i]);
	freeaddrinfo(res);
	return hit;
}

static void *lookup(void *arg)
{
	struct job *j = arg;
	struct answer a = { .slot = j->slot, .gen = j->gen };

	addresses(j->host, &a);
	for (size_t i = 0; a.err == 0 && i < j->ndeny; i++)
		if (shares(j->deny[i], &a)) {
			strcpy(a.denied, j->deny[i]);
			break;
		}
	/* Whole or not at all: under PIPE_BUF, a pipe write is atomic.
	 * Once the proxy has stopped nobody reads it: nothing to do. */
	(void)!write(j->wfd, &a, sizeof(a));
	free(j);
	return NULL;
}

int resolve_start(const char *host, const char *const *deny, size_t ndeny,
    int slot, unsigned gen, int wfd)
{
	struct job *j = xmalloc(sizeof(*j) + ndeny * sizeof(j->deny[0]));
	pthread_attr_t attr;
	pthread_t t;
	int rc;

	_Static_assert(sizeof(struct answer) <= 4096, "an answer fits PIPE_BUF");
	*j = (struct job){ .slot = slot, .wfd = wfd, .gen = gen,
	    .ndeny = ndeny };
	strcpy(j->host, host);
	for (size_t i = 0; i < ndeny; i++)
		snprintf(j->deny[i], sizeof(j->deny[i]), "%s", deny[i]);
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
