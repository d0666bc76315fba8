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

#include "fmt.h"
#include "policy/netpolicy.h"
#include "tiny.h"
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

/* An entry's schemes as written; "" is the bare form, for printing. */
static const struct {
	const char *prefix;
	enum rule_scheme scheme;
} schemes[] = {
	{ "", SCHEME_ANY },
	{ "https://", SCHEME_HTTPS },
	{ "http://", SCHEME_HTTP },
};

/* The scheme S starts with, if any, and S past it. Another scheme, a
 * path, a query or user-info makes no entry (NULL, *WHY): each would
 * read as a URL whose other parts the proxy never checks. */
static const char *scheme_parse(const char *s, enum rule_scheme *scheme,
    const char **why)
{
	size_t n;

	*scheme = SCHEME_ANY;
	for (size_t i = 1; i < sizeof(schemes) / sizeof(*schemes); i++) {
		n = strlen(schemes[i].prefix);
		if (strncmp(s, schemes[i].prefix, n) == 0) {
			*scheme = schemes[i].scheme;
			s += n;
			break;
		}
	}
	if (tiny_strstr(s, "://") != NULL)
		*why = "the only schemes are \"https://\" and \"http://\"";
	else if (strchr(s, '@') != NULL)
		*why = "user-info: an entry is [https://|http://]host[:port]";
	else if (strpbrk(s, "/?#") != NULL)
		*why = "a path or a trailing '/': an entry is "
		    "[https://|http://]host[:port]";
	else
		return s;
	return NULL;
}

int host_rule_parse(const char *s, struct host_rule *r, const char **why)
{
	const char *colon;
	size_t len;

	*r = (struct host_rule){ 0 };
	if ((s = scheme_parse(s, &r->scheme, why)) == NULL)
		return -1;
	colon = strchr(s, ':');
	len = colon ? (size_t)(colon - s) : strlen(s);
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
		if (memchr(s, '*', len) != NULL)
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

/* Does R let a request to PORT through, CONNECT or GET/HEAD? */
static int admits(const struct host_rule *r, int port, int connect)
{
	if (r->scheme == (connect ? SCHEME_HTTP : SCHEME_HTTPS))
		return 0;
	return port == (r->port ? r->port : connect ? 443 : 80);
}

/* A deny entry reads as an allow entry does, but a bare "host" denies
 * every port, both ways: deny wins, so it is the broad reading. */
int host_rule_denies(const struct host_rule *r, int port, int connect)
{
	if (r->scheme == SCHEME_ANY && r->port == 0)
		return 1;
	return admits(r, port, connect);
}

const char *netpolicy_host(const struct netpolicy *np, const char *host,
    int port, int connect)
{
	enum rule_scheme other = connect ? SCHEME_HTTP : SCHEME_HTTPS;
	int named = 0, schemed = 0;

	for (size_t i = 0; i < np->ndeny; i++)
		if (name_match(&np->deny[i], host) &&
		    host_rule_denies(&np->deny[i], port, connect))
			return "denied";
	for (size_t i = 0; i < np->nallow; i++) {
		if (!name_match(&np->allow[i], host))
			continue;
		if (admits(&np->allow[i], port, connect))
			return NULL;
		if (np->allow[i].scheme == other)
			schemed = 1;
		else
			named = 1;
	}
	if (named)
		return "port not allowed";
	if (schemed)
		return connect ? "CONNECT not allowed: the entry is http://" :
		    "plain http not allowed: the entry is https://";
	return "host not allowed";
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
	/* Azure's WireServer: every Azure VM reaches it, a public address
	 * that hands out the VM's configuration (an SSRF target). */
	{ { 168, 63, 129, 16 }, 32, "cloud platform (Azure WireServer)" },
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
	/* RFC 8215 local-use NAT64: never a public destination, and its
	 * /48 layout puts the IPv4 address around the u octet. */
	{ { 0x00, 0x64, 0xff, 0x9b, 0x00, 0x01 }, 48, "NAT64 local-use" },
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

/* The IPv4 address a form of the first 12 bytes carries in the last 4:
 * mapped ::ffff:0:0/96, SIIT translated ::ffff:0:0:0/96 (RFC 2765),
 * NAT64 64:ff9b::/96 (RFC 6052). */
static int carried(const unsigned char *a)
{
	static const unsigned char forms[][12] = {
		{ [10] = 0xff, [11] = 0xff },
		{ [8] = 0xff, [9] = 0xff },
		{ 0, 0x64, 0xff, 0x9b },
	};

	for (size_t i = 0; i < sizeof(forms) / sizeof(*forms); i++)
		if (memcmp(a, forms[i], 12) == 0)
			return 1;
	return 0;
}

/* An ISATAP interface identifier (RFC 5214), in any /64: 00-00-5e-fe,
 * then the IPv4 address; the u and g bits of the first byte are ignored
 * (fail closed: 02-00-5e-fe is the "global" spelling). */
static int isatap(const unsigned char *a)
{
	return (a[8] & 0xfc) == 0 && a[9] == 0 && a[10] == 0x5e &&
	    a[11] == 0xfe;
}

/* The IPv4 addresses an IPv6 form carries: those of carried(), 6to4
 * 2002::/16, Teredo 2001::/32 (its server, and its client, stored
 * inverted), and an ISATAP identifier, which may follow any prefix,
 * 6to4 and Teredo included. Up to three, in OUT. */
static int embedded(const unsigned char *a, unsigned char out[3][4])
{
	int n = 0;

	if (carried(a)) {
		memcpy(out[n++], a + 12, 4);
	} else if (a[0] == 0x20 && a[1] == 0x02) {
		memcpy(out[n++], a + 2, 4);
	} else if (a[0] == 0x20 && a[1] == 0x01 && a[2] == 0 && a[3] == 0) {
		memcpy(out[n++], a + 4, 4);
		for (int i = 0; i < 4; i++)
			out[n][i] = (unsigned char)~a[12 + i];
		n++;
	}
	if (isatap(a))
		memcpy(out[n++], a + 12, 4);
	return n;
}

static const char *check_v6(const struct netpolicy *np,
    const unsigned char *a)
{
	unsigned char v4a[3][4];
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
	const char *scheme = "";
	char port[8] = "";

	for (size_t i = 0; i < sizeof(schemes) / sizeof(*schemes); i++)
		if (schemes[i].scheme == r->scheme)
			scheme = schemes[i].prefix;
	if (r->port)
		fmt_snprintf(port, sizeof(port), ":%d", r->port);
	return xasprintf("%s%s%s%s", scheme, r->wildcard ? "*." : "",
	    r->name, port);
}

char *cidr_str(const struct cidr *c)
{
	char buf[INET6_ADDRSTRLEN];

	fmt_addr(c->family, c->addr, buf, sizeof(buf));
	return xasprintf("%s/%d", buf, c->bits);
}
