/* resolve.h: name lookups off the event loop, for the proxy (DESIGN 11). */
#ifndef SBEXEC_RESOLVE_H
#define SBEXEC_RESOLVE_H

#include <sys/socket.h>

#define ADDRS_MAX 16

/* Written whole (under PIPE_BUF) to the descriptor resolve_start got. */
struct answer {
	int slot;
	unsigned gen;
	int err;		/* getaddrinfo's, 0 when found */
	int more;		/* more than ADDRS_MAX addresses */
	int n;
	struct sockaddr_storage addr[ADDRS_MAX];
};

/* Look HOST up with the C library's resolver on a thread of its own,
 * which writes the answer tagged SLOT and GEN to WFD and ends. 0, or -1
 * when no thread could be started. */
int resolve_start(const char *host, int slot, unsigned gen, int wfd);

#endif
