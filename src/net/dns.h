/* dns.h: the proxy's name lookups (DESIGN 11): /etc/hosts, then DNS
 * over UDP to /etc/resolv.conf's nameservers, for the names
 * host_normalise has checked (lowercase labels, never a literal). */
#ifndef SBEXEC_DNS_H
#define SBEXEC_DNS_H

#include <stddef.h>

#include "net/resolve.h"

/* A lookup's end: name_answer.err. */
enum {
	DNS_OK,
	DNS_NONAME,		/* the name is not there */
	DNS_NODATA,		/* it is, with no address */
	DNS_AGAIN,		/* a nameserver did not answer in time */
	DNS_SYSTEM		/* no socket to ask with */
};

#define DNS_NS_MAX 3		/* nameservers used, as the C libraries */
#define DNS_SEARCH_MAX 256	/* resolv.conf's search list */

struct dns_conf {
	struct addr ns[DNS_NS_MAX];
	int nns, ndots, timeout_s, attempts;
	char search[DNS_SEARCH_MAX];
};

/* Look NAME up, blocking: A->addr and A->n (A->more past ADDRS_MAX),
 * and the end. Safe on any thread: it keeps nothing. */
int dns_lookup(const char *name, struct name_answer *a);

/* What ERR says, for a message. */
const char *dns_strerror(int err);

/* The parts, for the tests: NAME's addresses in the hosts file PATH
 * (how many); resolv.conf PATH read into C (defaults where it is
 * silent or absent); and reply R (RLEN bytes) to query Q (QLEN): its
 * RCODE with its A and AAAA records added to A (unless NULL), or -1
 * when it is not a reply to Q. */
int dns_hosts(const char *path, const char *name, struct name_answer *a);
void dns_conf_read(const char *path, struct dns_conf *c);
int dns_reply(const unsigned char *r, size_t rlen, const unsigned char *q,
    size_t qlen, struct name_answer *a);

#endif
