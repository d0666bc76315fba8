/* netpolicy.h: the network allow-list of DESIGN 11 as inert data, and
 * the pure checks over it: host patterns, ports, resolved addresses. */
#ifndef SBEXEC_NETPOLICY_H
#define SBEXEC_NETPOLICY_H

#include <stddef.h>
#include <sys/socket.h>

#define HOST_MAX 253		/* a DNS name, without a trailing dot */

struct host_rule {
	char *name;		/* lowercase; for "*.d", d */
	int wildcard;		/* "*.d": subdomains of d, not d itself */
	int port;		/* 0: in allow, 443 for CONNECT and 80 for
				 * GET/HEAD; in deny, every port */
};

struct cidr {
	int family;		/* AF_INET or AF_INET6 */
	unsigned char addr[16];	/* network byte order */
	int bits;
};

struct netpolicy {
	struct host_rule *allow, *deny;
	size_t nallow, ndeny;
	struct cidr *addrs;	/* allowAddresses */
	size_t naddrs;
};

/* Parse one entry of allow or deny: "name", "*.name", with ":port".
 * 0, or -1 with the reason in *WHY (static). */
int host_rule_parse(const char *s, struct host_rule *r, const char **why);

/* Parse one entry of allowAddresses: "a.b.c.d/n" or "x::y/n" (an address
 * alone is /32 or /128). Host bits must be zero. */
int cidr_parse(const char *s, struct cidr *c, const char **why);

/* Normalise HOST as a request names it into OUT (HOST_MAX + 1 bytes):
 * lowercase, one trailing dot dropped, [a-z0-9.-] only, labels of 1-63
 * bytes, and not an IPv4 literal in any spelling (the last label does
 * not start with a digit). 0, or -1 with the reason in *WHY. */
int host_normalise(const char *host, size_t len, char *out,
    const char **why);

/* May a request reach HOST:PORT (normalised)? CONNECT says which
 * default port applies. NULL when allowed, else why not. */
const char *netpolicy_host(const struct netpolicy *np, const char *host,
    int port, int connect);

/* Is a resolved address one to connect to? NULL when it is public or
 * allowAddresses covers it, else the class that refuses it
 * ("loopback", "private", "link-local", ...). */
const char *netpolicy_addr(const struct netpolicy *np,
    const struct sockaddr *sa);

struct netpolicy *netpolicy_copy(const struct netpolicy *np);
void netpolicy_free(struct netpolicy *np);

/* "host", "*.host:port": the rule as the policy wrote it (allocated). */
char *host_rule_str(const struct host_rule *r);
char *cidr_str(const struct cidr *c);

#endif
