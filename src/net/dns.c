/* dns.c: the proxy's name lookups, in place of the C library's
 * getaddrinfo, which brought 17 KiB into the binary (its resolver, an
 * address sorter, service names, IDN) for a caller that needs none of
 * that: every name comes from host_normalise, lowercase DNS labels and
 * never a literal, and every address is checked before use (proxy.c).
 *
 * As the C libraries do: a name in /etc/hosts is answered from there,
 * every line that has it, in the file's order. Else resolv.conf's
 * search domains are tried first when the name has fewer dots than
 * "ndots", then the name itself; each try asks A and AAAA of every
 * nameserver at once, again every timeout/attempts seconds, and takes
 * the first reply to each question that says NOERROR or NXDOMAIN (a
 * SERVFAIL or a refusal waits for another server). A reply counts only
 * from a nameserver's address and port, with the query's id (random)
 * and question. NXDOMAIN to either question is "not there"; a question
 * without such a reply by the timeout is DNS_AGAIN, as the proxy has
 * always been told. Addresses: AAAA's, then A's, as the answers list
 * them; eyeballs.c interleaves the families. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <unistd.h>

#include "fmt.h"
#include "net/dns.h"
#include "tiny.h"
#include "util.h"

#define HOSTS_FILE "/etc/hosts"
#define RESOLV_FILE "/etc/resolv.conf"
#define QUERY_MAX (12 + 255 + 4)	/* header, the name, type, class */
#define REPLY_MAX 512			/* UDP's, without EDNS */
#define TYPE_A 1
#define TYPE_AAAA 28
#define BLANKS " \t\r\n"

static void add(struct name_answer *a, int family, const unsigned char *p)
{
	size_t len = family == AF_INET ? 4 : 16;

	for (int i = 0; i < a->n; i++)
		if (a->addr[i].family == family &&
		    memcmp(a->addr[i].a, p, len) == 0)
			return;
	if (a->n == ADDRS_MAX) {
		a->more = 1;
		return;
	}
	a->addr[a->n].family = (sa_family_t)family;
	memcpy(a->addr[a->n++].a, p, len);
}

/* The literal S (IPv4 or IPv6) into *D: 0, or -1. */
static int literal(const char *s, struct addr *d)
{
	d->family = strchr(s, ':') ? AF_INET6 : AF_INET;
	return inet_pton(d->family, s, d->a) == 1 ? 0 : -1;
}

int dns_hosts(const char *path, const char *name, struct name_answer *a)
{
	FILE *f = fopen(path, "re");
	char *line = NULL, *save, *tok;
	size_t cap = 0;
	struct addr d;

	while (f != NULL && getline(&line, &cap, f) > 0) {
		line[strcspn(line, "#")] = '\0';
		if ((tok = strtok_r(line, BLANKS, &save)) == NULL ||
		    literal(tok, &d) < 0)
			continue;
		while ((tok = strtok_r(NULL, BLANKS, &save)) != NULL)
			if (strcasecmp(tok, name) == 0) {
				add(a, d.family, d.a);
				break;
			}
	}
	free(line);
	if (f != NULL)
		fclose(f);
	return a->n;
}

/* "options" N of LINE ("ndots:N"), clamped to LO..HI, else DEF. */
static int option(const char *line, const char *key, int def, int lo, int hi)
{
	const char *p = tiny_strstr(line, key);
	char *end;
	long long v;

	if (p == NULL)
		return def;
	v = dec_number(p + strlen(key), &end);
	if (end == p + strlen(key))
		return def;
	return v < lo ? lo : v > hi ? hi : (int)v;
}

static int word(const char *line, const char *w)
{
	size_t n = strlen(w);

	return strncmp(line, w, n) == 0 && line[n] != '\0' &&
	    strchr(BLANKS, line[n]) != NULL;
}

static void conf_line(char *line, struct dns_conf *c)
{
	char *arg = line + strcspn(line, BLANKS);

	arg += strspn(arg, BLANKS);
	arg[strcspn(arg, "\r\n")] = '\0';
	if (word(line, "nameserver")) {
		arg[strcspn(arg, BLANKS)] = '\0';
		if (c->nns < DNS_NS_MAX && literal(arg, &c->ns[c->nns]) == 0)
			c->nns++;
	} else if (word(line, "options")) {
		c->ndots = option(arg, "ndots:", c->ndots, 0, 15);
		c->timeout_s = option(arg, "timeout:", c->timeout_s, 1, 60);
		c->attempts = option(arg, "attempts:", c->attempts, 1, 10);
	} else if (word(line, "search") || word(line, "domain")) {
		fmt_snprintf(c->search, sizeof(c->search), "%s", arg);
	}
}

void dns_conf_read(const char *path, struct dns_conf *c)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;

	*c = (struct dns_conf){ .ndots = 1, .timeout_s = 5, .attempts = 2 };
	while (f != NULL && getline(&line, &cap, f) > 0)
		conf_line(line, c);
	free(line);
	if (f != NULL)
		fclose(f);
	if (c->nns == 0)
		literal("127.0.0.1", &c->ns[c->nns++]);
}

/* The query for NAME's records of TYPE into Q: its length, or 0 when
 * NAME has an empty or overlong label. */
static size_t query(unsigned char *q, const char *name, int type)
{
	unsigned short id = 0;
	size_t n = 12, len;

	if (getrandom(&id, sizeof(id), 0) != sizeof(id))
		id = (unsigned short)now_ms();
	memset(q, 0, 12);
	q[0] = (unsigned char)(id >> 8);
	q[1] = (unsigned char)id;
	q[2] = 1;			/* recursion desired */
	q[5] = 1;			/* one question */
	for (const char *p = name; *p != '\0'; p += len + (p[len] == '.')) {
		len = strcspn(p, ".");
		if (len == 0 || len > 63 || n + 1 + len + 5 > QUERY_MAX)
			return 0;
		q[n++] = (unsigned char)len;
		memcpy(q + n, p, len);
		n += len;
	}
	q[n++] = 0;
	q[n++] = 0;
	q[n++] = (unsigned char)type;
	q[n++] = 0;
	q[n++] = 1;			/* class IN */
	return n;
}

static unsigned u16(const unsigned char *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

/* Past the name at AT in R (labels, or labels ending in a pointer), or
 * 0 when it runs past LEN or uses a label type DNS does not define. */
static size_t skip_name(const unsigned char *r, size_t len, size_t at)
{
	while (at < len) {
		if (r[at] == 0)
			return at + 1;
		if ((r[at] & 0xc0) == 0xc0)
			return at + 2 <= len ? at + 2 : 0;
		if ((r[at] & 0xc0) != 0)
			return 0;
		at += 1 + (size_t)r[at];
	}
	return 0;
}

/* The A and AAAA records of the answer section of R into A. */
static void records(const unsigned char *r, size_t len, struct name_answer *a)
{
	size_t at = 12, rdlen;
	unsigned type;

	for (unsigned qd = u16(r + 4); qd > 0; qd--)
		if ((at = skip_name(r, len, at)) == 0 || (at += 4) > len)
			return;
	for (unsigned an = u16(r + 6); an > 0; an--) {
		if ((at = skip_name(r, len, at)) == 0 || at + 10 > len)
			return;
		type = u16(r + at);
		rdlen = u16(r + at + 8);
		if ((at += 10) + rdlen > len)
			return;
		if (u16(r + at - 8) == 1 && ((type == TYPE_A && rdlen == 4) ||
		    (type == TYPE_AAAA && rdlen == 16)))
			add(a, type == TYPE_A ? AF_INET : AF_INET6, r + at);
		at += rdlen;
	}
}

int dns_reply(const unsigned char *r, size_t rlen, const unsigned char *q,
    size_t qlen, struct name_answer *a)
{
	/* Its id, a response (QR) to a standard query, the same question. */
	if (rlen < qlen || qlen < 12 || memcmp(r, q, 2) != 0 ||
	    (r[2] & 0xf8) != 0x80 || memcmp(r + 4, q + 4, 2) != 0 ||
	    memcmp(r + 12, q + 12, qlen - 12) != 0)
		return -1;
	if ((r[3] & 15) == 0 && a != NULL)
		records(r, rlen, a);
	return r[3] & 15;
}

struct ask {
	struct sockaddr_storage ns[DNS_NS_MAX];
	int nns, fd;
	socklen_t nslen;
	unsigned char q[2][QUERY_MAX];	/* AAAA, then A */
	size_t qlen[2];
	unsigned char r[2][REPLY_MAX];	/* the reply taken for each */
	size_t rlen[2];
	int rcode[2];			/* -1 until a reply is taken */
};

/* C's nameservers as a socket of FAMILY reaches them (IPv4 alone, or
 * IPv6 with the IPv4 ones mapped) into K: how many. */
static int servers(const struct dns_conf *c, int family, struct ask *k)
{
	k->nns = 0;
	k->nslen = family == AF_INET ? sizeof(struct sockaddr_in) :
	    sizeof(struct sockaddr_in6);
	for (int i = 0; i < c->nns; i++) {
		struct sockaddr_storage *ss = &k->ns[k->nns];
		struct sockaddr_in *s4 = (struct sockaddr_in *)(void *)ss;
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)(void *)ss;

		memset(ss, 0, sizeof(*ss));
		if (family == AF_INET6) {
			s6->sin6_family = AF_INET6;
			s6->sin6_port = htons(53);
			if (c->ns[i].family == AF_INET6) {
				memcpy(&s6->sin6_addr, c->ns[i].a, 16);
			} else {
				s6->sin6_addr.s6_addr[10] = 0xff;
				s6->sin6_addr.s6_addr[11] = 0xff;
				memcpy(&s6->sin6_addr.s6_addr[12], c->ns[i].a, 4);
			}
		} else if (c->ns[i].family == AF_INET) {
			s4->sin_family = AF_INET;
			s4->sin_port = htons(53);
			memcpy(&s4->sin_addr, c->ns[i].a, 4);
		} else {
			continue;	/* IPv6, and the kernel has none */
		}
		k->nns++;
	}
	return k->nns;
}

/* The socket to ask with: IPv6 (taking IPv4 too) when a nameserver is
 * IPv6, else or where the kernel has no IPv6, IPv4. 0, or -1. */
static int ask_socket(const struct dns_conf *c, struct ask *k)
{
	int family = AF_INET, off = 0;

	for (int i = 0; i < c->nns; i++)
		if (c->ns[i].family == AF_INET6)
			family = AF_INET6;
	k->fd = socket(family, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (k->fd < 0 && family == AF_INET6 && errno == EAFNOSUPPORT)
		k->fd = socket(family = AF_INET, SOCK_DGRAM | SOCK_CLOEXEC |
		    SOCK_NONBLOCK, 0);
	if (k->fd < 0)
		return -1;
	if ((family == AF_INET6 && setsockopt(k->fd, IPPROTO_IPV6,
	    IPV6_V6ONLY, &off, sizeof(off)) < 0) || servers(c, family, k) == 0) {
		close(k->fd);
		return -1;
	}
	return 0;
}

static void send_all(const struct ask *k)
{
	for (int i = 0; i < 2; i++)
		for (int s = 0; k->rcode[i] < 0 && s < k->nns; s++)
			(void)sendto(k->fd, k->q[i], k->qlen[i], MSG_NOSIGNAL,
			    (const struct sockaddr *)&k->ns[s], k->nslen);
}

/* Did F come from a nameserver: its family, address and port? */
static int from_server(const struct ask *k, const struct sockaddr_storage *f)
{
	for (int s = 0; s < k->nns; s++) {
		const struct sockaddr_storage *n = &k->ns[s];
		const struct sockaddr_in *f4 = (const void *)f;
		const struct sockaddr_in *n4 = (const void *)n;
		const struct sockaddr_in6 *f6 = (const void *)f;
		const struct sockaddr_in6 *n6 = (const void *)n;

		if (f->ss_family != n->ss_family)
			continue;
		if (f->ss_family == AF_INET ? f4->sin_port == n4->sin_port &&
		    f4->sin_addr.s_addr == n4->sin_addr.s_addr :
		    f6->sin6_port == n6->sin6_port &&
		    memcmp(&f6->sin6_addr, &n6->sin6_addr, 16) == 0)
			return 1;
	}
	return 0;
}

/* Every reply waiting on the socket, each kept by the question it
 * answers with NOERROR or NXDOMAIN. */
static void take_replies(struct ask *k)
{
	unsigned char r[REPLY_MAX];
	struct sockaddr_storage from;
	socklen_t flen = sizeof(from);
	ssize_t n;
	int rc;

	for (; (n = recvfrom(k->fd, r, sizeof(r), 0, (struct sockaddr *)&from,
	    &flen)) >= 0; flen = sizeof(from)) {
		for (int i = 0; from_server(k, &from) && i < 2; i++) {
			if (k->rcode[i] >= 0 || ((rc = dns_reply(r, (size_t)n,
			    k->q[i], k->qlen[i], NULL)) != 0 && rc != 3))
				continue;
			k->rcode[i] = rc;
			memcpy(k->r[i], r, (size_t)n);
			k->rlen[i] = (size_t)n;
		}
	}
}

/* NAME asked of the nameservers: DNS_OK with A filled (AAAA records,
 * then A), or why not. */
static int from_dns(const struct dns_conf *c, const char *name,
    struct name_answer *a)
{
	struct ask k = { .rcode = { -1, -1 } };
	int wait = c->timeout_s * 1000 / c->attempts;
	long long now = now_ms(), end = now + c->timeout_s * 1000, next = now;

	a->n = a->more = 0;
	if ((k.qlen[0] = query(k.q[0], name, TYPE_AAAA)) == 0 ||
	    (k.qlen[1] = query(k.q[1], name, TYPE_A)) == 0)
		return DNS_NONAME;
	if (ask_socket(c, &k) < 0)
		return DNS_SYSTEM;
	while ((k.rcode[0] < 0 || k.rcode[1] < 0) && (now = now_ms()) < end) {
		if (now >= next) {
			send_all(&k);
			next = now + wait;
		}
		(void)poll(&(struct pollfd){ .fd = k.fd, .events = POLLIN }, 1,
		    (int)((next < end ? next : end) - now));
		take_replies(&k);
	}
	close(k.fd);
	if (k.rcode[0] < 0 || k.rcode[1] < 0)
		return DNS_AGAIN;
	if (k.rcode[0] == 3 || k.rcode[1] == 3)
		return DNS_NONAME;
	for (int i = 0; i < 2; i++)
		(void)dns_reply(k.r[i], k.rlen[i], k.q[i], k.qlen[i], a);
	return a->n > 0 ? DNS_OK : DNS_NODATA;
}

/* NAME under each search domain in turn, while the answer is "not
 * there"; DNS_NONAME when every one said so. */
static int searched(const struct dns_conf *c, const char *name,
    struct name_answer *a)
{
	char list[DNS_SEARCH_MAX], full[HOST_MAX + 2], *save, *d;
	int err = DNS_NONAME;

	memcpy(list, c->search, sizeof(list));
	for (d = strtok_r(list, BLANKS, &save); d != NULL && err == DNS_NONAME;
	    d = strtok_r(NULL, BLANKS, &save))
		if ((size_t)fmt_snprintf(full, sizeof(full), "%s.%s", name,
		    d) <= HOST_MAX)
			err = from_dns(c, full, a);
	return err;
}

int dns_lookup(const char *name, struct name_answer *a)
{
	struct dns_conf c;
	int dots = 0, err = DNS_NONAME;

	a->n = a->more = 0;
	if (dns_hosts(HOSTS_FILE, name, a) > 0)
		return DNS_OK;
	dns_conf_read(RESOLV_FILE, &c);
	for (const char *p = name; *p != '\0'; p++)
		dots += *p == '.';
	if (dots < c.ndots)
		err = searched(&c, name, a);
	return err == DNS_NONAME ? from_dns(&c, name, a) : err;
}

const char *dns_strerror(int err)
{
	switch (err) {
	case DNS_OK:
		return "found";
	case DNS_NONAME:
		return "Name does not resolve";
	case DNS_NODATA:
		return "Name has no usable address";
	case DNS_AGAIN:
		return "Temporary failure in name resolution";
	default:
		return "System error in name resolution";
	}
}
