/* netpolicy.c: host patterns, ports and address classes for the proxy
 * of DESIGN 11. Pure: no system call, so that the policy parser, the
 * proxy and the unit tests share one reading of each rule. */
#include <arpa/inet.h>
#include <ctype.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netpolicy.h"
#include "util.h"

#define LABEL_MAX 63

/* NAME (LEN bytes): lowercase DNS labels of [a-z0-9-], 1-63 bytes, not
 * starting or ending with '-', the last not starting with a digit (no
 * IPv4 literal, whatever spelling inet_aton accepts). */
static const char *name_check(const char *name, size_t len)
{
	size_t label = 0;
	const char *last = name;

	if (len == 0 || len > HOST_MAX)
		return "a host name has 1 to 253 bytes";
	for (size_t i = 0; i < len; i++) {
		char ch = name[i];

		if (ch == '.') {
			if (label == 0 || name[i - 1] == '-')
				return "an empty label or one ending in '-'";
			label = 0;
			last = name + i + 1;
			continue;
		}
		if (!(ch >= 'a' && ch <= 'z') && !(ch >= '0' && ch <= '9') &&
		    ch != '-')
			return "a host name has only [a-z0-9.-]";
		if ((label == 0 && ch == '-') || ++label > LABEL_MAX)
			return "a label starting in '-' or over 63 bytes";
	}
	if (label == 0 || name[len - 1] == '-')
		return "an empty label or one ending in '-'";
	if (*last >= '0' && *last <= '9')
		return "an IP address, not a name";
	return NULL;
}

static int port_parse(const char *s, int *port)
{
	long v = 0;

	if (*s == '\0' || *s == '0')
		return -1;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9' || (v = v * 10 + (*s - '0')) > 65535)
			return -1;
	}
	*port = (int)v;
	return 0;
}

int host_rule_parse(const char *s, struct host_rule *r, const char **why)
{
	const char *colon = strchr(s, ':');
	size_t len = colon ? (size_t)(colon - s) : strlen(s);

	*r = (struct host_rule){ 0 };
	if (colon != NULL && port_parse(colon + 1, &r->port) < 0) {
		*why = "the port after ':' must be 1 to 65535";
		return -1;
	}
	if (len >= 2 && s[0] == '*' && s[1] == '.') {
		r->wildcard = 1;
		s += 2;
		len -= 2;
	}
	if ((*why = name_check(s, len)) != NULL) {
		if (strchr(s, '*') != NULL)
			*why = "the only wildcard is a leading \"*.\"";
		return -1;
	}
	r->name = xasprintf("%.*s", (int)len, s);
	return 0;
}

static int prefix_bits(const char *s, int max, int *bits)
{
	int v = 0;

	if (*s == '\0')
		return -1;
	for (; *s != '\0'; s++)
		if (*s < '0' || *s > '9' || (v = v * 10 + (*s - '0')) > max)
			return -1;
	*bits = v;
	return 0;
}

/* Does ADDR (LEN bytes) have any bit set past the first BITS? */
static int host_bits(const unsigned char *addr, size_t len, int bits)
{
	for (size_t i = 0; i < len; i++) {
		int keep = bits - (int)i * 8;
		unsigned mask = keep >= 8 ? 0 : keep <= 0 ? 0xff :
		    0xffU >> keep;

		if (addr[i] & mask)
			return 1;
	}
	return 0;
}

int cidr_parse(const char *s, struct cidr *c, const char **why)
{
	char buf[64];
	char *slash;
	int max;

	*c = (struct cidr){ 0 };
	if (strlen(s) >= sizeof(buf)) {
		*why = "not an address with a prefix length";
		return -1;
	}
	strcpy(buf, s);
	slash = strchr(buf, '/');
	if (slash != NULL)
		*slash++ = '\0';
	c->family = strchr(buf, ':') ? AF_INET6 : AF_INET;
	max = c->family == AF_INET ? 32 : 128;
	c->bits = max;
	if (inet_pton(c->family, buf, c->addr) != 1 || (slash != NULL &&
	    prefix_bits(slash, max, &c->bits) < 0)) {
		*why = "not an address with a prefix length "
		    "(\"10.0.0.0/8\", \"fd00::/8\")";
		return -1;
	}
	if (host_bits(c->addr, (size_t)max / 8, c->bits)) {
		*why = "bits set past the prefix length";
		return -1;
	}
	return 0;
}

int host_normalise(const char *host, size_t len, char *out,
    const char **why)
{
	if (len > 0 && host[len - 1] == '.')
		len--;
	if (len == 0 || len > HOST_MAX) {
		*why = "a host name has 1 to 253 bytes";
		return -1;
	}
	for (size_t i = 0; i < len; i++)
		out[i] = (char)tolower((unsigned char)host[i]);
	out[len] = '\0';
	*why = name_check(out, len);
	return *why ? -1 : 0;
}

/* "*.d" matches x.d and x.y.d, on a label boundary; "d" matches d. */
static int name_match(const struct host_rule *r, const char *host)
{
	size_t h = strlen(host), n = strlen(r->name);

	if (!r->wildcard)
		return strcmp(host, r->name) == 0;
	return h > n + 1 && host[h - n - 1] == '.' &&
	    strcmp(host + h - n, r->name) == 0;
}

static int port_match(const struct host_rule *r, int port, int connect)
{
	return port == (r->port ? r->port : connect ? 443 : 80);
}

const char *netpolicy_host(const struct netpolicy *np, const char *host,
    int port, int connect)
{
	int named = 0;

	for (size_t i = 0; i < np->ndeny; i++)
		if (name_match(&np->deny[i], host) && (np->deny[i].port == 0 ||
		    np->deny[i].port == port))
			return "denied";
	for (size_t i = 0; i < np->nallow; i++) {
		if (!name_match(&np->allow[i], host))
			continue;
		if (port_match(&np->allow[i], port, connect))
			return NULL;
		named = 1;
	}
	return named ? "port not allowed" : "host not allowed";
}

/* ---- addresses */

struct range {
	unsigned char net[16];
	int bits;
	const char *what;
};

static const struct range v4[] = {
	{ { 0 }, 8, "unspecified" },
	{ { 10 }, 8, "private" },
	{ { 100, 64 }, 10, "shared (CGNAT)" },
	{ { 127 }, 8, "loopback" },
	{ { 169, 254 }, 16, "link-local" },
	{ { 172, 16 }, 12, "private" },
	{ { 192, 0, 0 }, 24, "reserved (IETF)" },
	{ { 192, 0, 2 }, 24, "documentation" },
	{ { 192, 88, 99 }, 24, "reserved (6to4 relay)" },
	{ { 192, 168 }, 16, "private" },
	{ { 198, 18 }, 15, "benchmarking" },
	{ { 198, 51, 100 }, 24, "documentation" },
	{ { 203, 0, 113 }, 24, "documentation" },
	{ { 224 }, 4, "multicast" },
	{ { 240 }, 4, "reserved" },
};

static const struct range v6[] = {
	{ { 0 }, 96, "unspecified, loopback or IPv4-compatible" },
	{ { 0x01, 0x00 }, 64, "discard" },
	{ { 0x20, 0x01, 0x0d, 0xb8 }, 32, "documentation" },
	{ { 0x20, 0x01, 0x00, 0x10 }, 28, "reserved (ORCHID)" },
	{ { 0x3f, 0xff }, 20, "documentation" },
	{ { 0xfc }, 7, "unique local (private)" },
	{ { 0xfe, 0x80 }, 10, "link-local" },
	{ { 0xfe, 0xc0 }, 10, "site-local" },
	{ { 0xff }, 8, "multicast" },
};

static int in_prefix(const unsigned char *a, const unsigned char *net,
    int bits)
{
	int whole = bits / 8, rest = bits % 8;

	if (memcmp(a, net, (size_t)whole) != 0)
		return 0;
	return rest == 0 || ((a[whole] ^ net[whole]) & (0xff << (8 - rest)))
	    == 0;
}

static const char *range_of(const unsigned char *a, const struct range *t,
    size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (in_prefix(a, t[i].net, t[i].bits))
			return t[i].what;
	return NULL;
}

static int covered(const struct netpolicy *np, int family,
    const unsigned char *a)
{
	for (size_t i = 0; i < np->naddrs; i++)
		if (np->addrs[i].family == family &&
		    in_prefix(a, np->addrs[i].addr, np->addrs[i].bits))
			return 1;
	return 0;
}

static const char *check_v4(const struct netpolicy *np,
    const unsigned char *a)
{
	if (covered(np, AF_INET, a))
		return NULL;
	return range_of(a, v4, sizeof(v4) / sizeof(*v4));
}

/* The IPv4 address an IPv6 form carries: mapped ::ffff:0:0/96, NAT64
 * 64:ff9b::/96 and 64:ff9b:1::/48, 6to4 2002::/16, Teredo 2001::/32
 * (its server, and its client, stored inverted). Up to two, in OUT. */
static int embedded(const unsigned char *a, unsigned char out[2][4])
{
	static const unsigned char mapped[12] = { [10] = 0xff, [11] = 0xff };
	static const unsigned char nat64[12] = { 0, 0x64, 0xff, 0x9b };
	static const unsigned char nat64l[6] = { 0, 0x64, 0xff, 0x9b, 0, 1 };

	if (memcmp(a, mapped, 12) == 0 || memcmp(a, nat64, 12) == 0 ||
	    memcmp(a, nat64l, 6) == 0) {
		memcpy(out[0], a + 12, 4);
		return 1;
	}
	if (a[0] == 0x20 && a[1] == 0x02) {
		memcpy(out[0], a + 2, 4);
		return 1;
	}
	if (a[0] == 0x20 && a[1] == 0x01 && a[2] == 0 && a[3] == 0) {
		memcpy(out[0], a + 4, 4);
		for (int i = 0; i < 4; i++)
			out[1][i] = (unsigned char)~a[12 + i];
		return 2;
	}
	return 0;
}

static const char *check_v6(const struct netpolicy *np,
    const unsigned char *a)
{
	unsigned char v4a[2][4];
	int n = embedded(a, v4a);
	const char *what;

	if (covered(np, AF_INET6, a))
		return NULL;
	for (int i = 0; i < n; i++)
		if ((what = check_v4(np, v4a[i])) != NULL)
			return what;
	return range_of(a, v6, sizeof(v6) / sizeof(*v6));
}

const char *netpolicy_addr(const struct netpolicy *np,
    const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return check_v4(np, (const unsigned char *)
		    &((const struct sockaddr_in *)(const void *)sa)->sin_addr);
	if (sa->sa_family == AF_INET6)
		return check_v6(np, ((const struct sockaddr_in6 *)
		    (const void *)sa)->sin6_addr.s6_addr);
	return "not an IP address";
}

/* ---- copies and strings */

static struct host_rule *rules_copy(const struct host_rule *r, size_t n)
{
	struct host_rule *c = xreallocarray(NULL, n + 1, sizeof(*c));

	for (size_t i = 0; i < n; i++) {
		c[i] = r[i];
		c[i].name = xstrdup(r[i].name);
	}
	return c;
}

struct netpolicy *netpolicy_copy(const struct netpolicy *np)
{
	struct netpolicy *c;

	if (np == NULL)
		return NULL;
	c = xmalloc(sizeof(*c));
	*c = *np;
	c->allow = rules_copy(np->allow, np->nallow);
	c->deny = rules_copy(np->deny, np->ndeny);
	c->addrs = xreallocarray(NULL, np->naddrs + 1, sizeof(*c->addrs));
	memcpy(c->addrs, np->addrs, np->naddrs * sizeof(*c->addrs));
	return c;
}

void netpolicy_free(struct netpolicy *np)
{
	if (np == NULL)
		return;
	for (size_t i = 0; i < np->nallow; i++)
		free(np->allow[i].name);
	for (size_t i = 0; i < np->ndeny; i++)
		free(np->deny[i].name);
	free(np->allow);
	free(np->deny);
	free(np->addrs);
	free(np);
}

char *host_rule_str(const struct host_rule *r)
{
	char port[8] = "";

	if (r->port)
		snprintf(port, sizeof(port), ":%d", r->port);
	return xasprintf("%s%s%s", r->wildcard ? "*." : "", r->name, port);
}

char *cidr_str(const struct cidr *c)
{
	char buf[INET6_ADDRSTRLEN];

	inet_ntop(c->family, c->addr, buf, sizeof(buf));
	return xasprintf("%s/%d", buf, c->bits);
}
