/* eyeballs.h: connecting to one of a name's checked addresses as RFC
 * 8305 (Happy Eyeballs) does, for the proxy (DESIGN 11, issue 31). */
#ifndef SBEXEC_EYEBALLS_H
#define SBEXEC_EYEBALLS_H

#include <sys/socket.h>

#include "net/resolve.h"

#define EYEBALLS_MAX 4		/* attempts in flight at once */
#define EYEBALLS_DELAY_MS 250	/* RFC 8305's Connection Attempt Delay */

struct eyeballs {
	const struct sockaddr_storage *addr;
	int order[ADDRS_MAX];	/* families interleaved, the first's first */
	int n, next;		/* addresses; the next in ORDER to try */
	int fd[EYEBALLS_MAX];	/* attempts in flight, -1 where none */
	int which[EYEBALLS_MAX];	/* the address of each */
	long long next_at;	/* when the next attempt starts */
	int err;		/* the last attempt's error */
};

/* The order of N addresses ADDR (kept by the caller): the families
 * interleaved, starting with the first address's, each family in the
 * resolver's order. No attempt yet. */
void eyeballs_init(struct eyeballs *e, const struct sockaddr_storage *addr,
    int n);

/* Start the attempts due at NOW: the first, a new one each
 * EYEBALLS_DELAY_MS while none has answered, and one at once for each
 * that failed. Then, as for eyeballs_check, the winner's descriptor
 * (its address index in *WHICH, the others closed), -1 while attempts
 * go on, or -2 when every address failed (e->err). */
int eyeballs_step(struct eyeballs *e, long long now, int *which);

/* The attempts' descriptors answered (poll them for POLLOUT): take
 * their outcomes, then as eyeballs_step. */
int eyeballs_check(struct eyeballs *e, long long now, int *which);

/* When eyeballs_step must run again without an event, or -1. */
long long eyeballs_due(const struct eyeballs *e);

/* Close every attempt. */
void eyeballs_free(struct eyeballs *e);

#endif
