/* proxyreq.h: the one request a connection to sbexec's proxy may make
 * (DESIGN 11): "CONNECT host:port", or "GET"/"HEAD" of an absolute
 * http:// URI, parsed strictly from a bounded head. Pure: no system
 * call (a libFuzzer target drives it). */
#ifndef SBEXEC_PROXYREQ_H
#define SBEXEC_PROXYREQ_H

#include <stddef.h>

#include "policy/netpolicy.h"

#define HEAD_MAX 8192		/* request line and headers */

struct proxy_req {
	char *method;		/* as sent: "CONNECT", "GET", "HEAD", or
				 * another token, cut to 16 bytes and "..." */
	int connect;
	char host[HOST_MAX + 1];	/* normalised */
	int port;
	char *target;		/* for the audit: the URI, or host:port */
	char *head;		/* GET/HEAD: the request for the origin */
	size_t head_len;
};

/* The length of the head at the start of BUF (through the blank line),
 * or 0 when it has not all arrived. */
size_t proxy_head_len(const char *buf, size_t len);

/* Parse the head BUF[LEN] (as proxy_head_len measured it) into *R.
 * 0, or the HTTP status to answer (400, 405, 505) with the reason in
 * *WHY; R holds what could be read (method, host, target) either way,
 * another method's included. */
int proxy_req_parse(const char *buf, size_t len, struct proxy_req *r,
    const char **why);

void proxy_req_free(struct proxy_req *r);

#endif
