/* resolve.h: one name lookup off the event loop, for the proxy (DESIGN
 * 11); lookups.c keeps their answers and bounds their threads. */
#ifndef SBEXEC_RESOLVE_H
#define SBEXEC_RESOLVE_H

#include <stddef.h>
#include <sys/socket.h>

#include "policy/netpolicy.h"

#define ADDRS_MAX 16

/* An address without its port: AF_INET (4 bytes of A) or AF_INET6. */
struct addr {
	sa_family_t family;
	unsigned char a[16];
};

/* One name's answer, written whole (under PIPE_BUF) by its thread. */
struct name_answer {
	int err;		/* dns.h's DNS_*, DNS_OK when found */
	int more;		/* more than ADDRS_MAX addresses */
	int n;
	struct addr addr[ADDRS_MAX];
	char name[HOST_MAX + 1];
};

/* What the proxy checks for a request: its host's addresses, and the
 * denied name that shares one of them (deny_err 0) or could not be
 * looked up for a reason other than not being there (deny_err is
 * dns.h's); "" when neither. */
struct answer {
	int err, more, n;
	struct sockaddr_storage addr[ADDRS_MAX];
	char denied[HOST_MAX + 1];
	int deny_err;
};

/* Look NAME up (dns.c) on a detached thread of its own, which writes
 * its name_answer to WFD and ends. 0, or -1 when
 * no thread could be started. */
int resolve_start(const char *name, int wfd);

#endif
