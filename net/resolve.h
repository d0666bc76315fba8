/* resolve.h: name lookups off the event loop, for the proxy (DESIGN 11). */
#ifndef SBEXEC_RESOLVE_H
#define SBEXEC_RESOLVE_H

#include <stddef.h>
#include <sys/socket.h>

#include "netpolicy.h"

#define ADDRS_MAX 16

/* Written whole (under PIPE_BUF) to the descriptor resolve_start got. */
struct answer {
	int slot;
	unsigned gen;
	int err;		/* getaddrinfo's, 0 when found */
	int more;		/* more than ADDRS_MAX addresses */
	int n;
	struct sockaddr_storage addr[ADDRS_MAX];
	/* A denied name that has one of those addresses (deny_err 0), or
	 * that could not be looked up for a reason other than not being
	 * there (deny_err is getaddrinfo's); "" when neither. */
	char denied[HOST_MAX + 1];
	int deny_err;
};

/* Look HOST up with the C library's resolver on a thread of its own,
 * then each of the NDENY names DENY (copied) to see whether it shares an
 * address with HOST; the thread writes the answer tagged SLOT and GEN to
 * WFD and ends. 0, or -1 when no thread could be started. */
int resolve_start(const char *host, const char *const *deny, size_t ndeny,
    int slot, unsigned gen, int wfd);

#endif
