/* netpolicy.h: the network allow-list of DESIGN 11 as inert data, and
 * the pure checks over it: host patterns, ports, resolved addresses. */
#ifndef SBEXEC_NETPOLICY_H
#define SBEXEC_NETPOLICY_H

#include <stddef.h>
#include <sys/socket.h>

#define HOST_MAX 253		/* a DNS name, without a trailing dot */

/* What an entry's scheme lets through (sbexec.json(5)). */
enum rule_scheme {
	SCHEME_ANY,		/* "host[:port]": CONNECT and GET/HEAD */
	SCHEME_HTTPS,		/* "https://": CONNECT only, default 443 */
	SCHEME_HTTP,		/* "http://": GET/HEAD only, default 80 */
};

struct host_rule {
	char *name;		/* lowercase; for "*.d", d */
	int wildcard;		/* "*.d": subdomains of d, not d itself */
	int port;		/* 0 (not written): in allow, 443 for CONNECT
				 * and 80 for GET/HEAD; in deny without a
				 * scheme, every port */
	enum rule_scheme scheme;
};

struct cidr {
	int family;		/* AF_INET or AF_INET6 */
	unsigned char addr[16];	/* network byte order */
	int bits;
};

/* Each request looks every denied name that covers its port up: a
 * bound on them bounds a request's lookups (lookups.c). */
#define NET_DENY_MAX 64

struct netpolicy {
	struct host_rule *allow, *deny;
	size_t nallow, ndeny;
	struct cidr *addrs;	/* allowAddresses */
	size_t naddrs;
};

/* Parse one entry of allow or deny: "name" or "*.name", with ":port",
 * after "https://" or "http://". 0, or -1 with the reason in *WHY
 * (static). */
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
 * default port and which schemes apply. NULL when allowed, else why
 * not. */
const char *netpolicy_host(const struct netpolicy *np, const char *host,
    int port, int connect);

/* Does deny entry R cover a request to PORT (CONNECT or GET/HEAD)? A
 * bare "host" covers every port, "host:port" that port, a scheme only
 * what the same entry admits in allow. The name is not compared. */
int host_rule_denies(const struct host_rule *r, int port, int connect);

/* Is a resolved address one to connect to? NULL when it is public or
 * allowAddresses covers it, else the class that refuses it
 * ("loopback", "private", "link-local", ...). */
const char *netpolicy_addr(const struct netpolicy *np,
    const struct sockaddr *sa);

struct netpolicy *netpolicy_copy(const struct netpolicy *np);
void netpolicy_free(struct netpolicy *np);

/* "host", "*.host:port", "https://host": the rule as the policy wrote
 * it (allocated). */
char *host_rule_str(const struct host_rule *r);
char *cidr_str(const struct cidr *c);

#endif
