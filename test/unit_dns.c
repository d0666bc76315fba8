/* unit_dns.c: TAP unit test of dns.c's parts: which replies count for
 * a query and what is taken from them (records after a compressed name,
 * a CNAME passed over, another class, a record cut short, a reserved
 * label type, past ADDRS_MAX, a duplicate), /etc/hosts lines, and
 * resolv.conf with its bounds. The lookups themselves run in net.bats,
 * against its DNS server. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "net/dns.h"
#include "tap.h"

/* The query for media.test's A records, id 0x1234. */
static const unsigned char q[] = { 0x12, 0x34, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0,
	5, 'm', 'e', 'd', 'i', 'a', 4, 't', 'e', 's', 't', 0, 0, 1, 0, 1 };

static unsigned char r[1024];
static size_t rlen;

/* A reply to Q: FLAGS (QR and RCODE), then ANCOUNT records added with
 * record(). */
static void reply(unsigned flags, unsigned ancount)
{
	memcpy(r, q, sizeof(q));
	r[2] = (unsigned char)(flags >> 8);
	r[3] = (unsigned char)flags;
	r[7] = (unsigned char)ancount;
	rlen = sizeof(q);
}

/* A record named by a pointer to the question's name. */
static void record(unsigned type, unsigned class, const void *data,
    size_t len)
{
	unsigned char head[] = { 0xc0, 12, 0, (unsigned char)type, 0,
	    (unsigned char)class, 0, 0, 0, 60, 0, (unsigned char)len };

	memcpy(r + rlen, head, sizeof(head));
	memcpy(r + rlen + sizeof(head), data, len);
	rlen += sizeof(head) + len;
}

static int take(struct name_answer *a)
{
	memset(a, 0, sizeof(*a));
	return dns_reply(r, rlen, q, sizeof(q), a);
}

static int is_addr(const struct name_answer *a, int i, const char *want)
{
	char got[64];

	return i < a->n && inet_ntop(a->addr[i].family, a->addr[i].a, got,
	    sizeof(got)) != NULL && strcmp(got, want) == 0;
}

static void check_replies(void)
{
	struct name_answer a;
	unsigned char v4[4] = { 127, 0, 0, 2 }, v6[16] = { [15] = 1 };
	unsigned char cname[] = { 3, 'c', 'd', 'n', 0xc0, 12 };
	int rc;

	reply(0x8180, 1);
	record(1, 1, v4, 4);
	rc = take(&a);
	ok(rc == 0 && a.n == 1 && is_addr(&a, 0, "127.0.0.2"),
	    "an A record after a compressed name is taken");
	r[1] ^= 1;
	ok(take(&a) == -1, "a reply with another id is not one");
	r[1] ^= 1;
	r[2] &= 0x7f;
	ok(take(&a) == -1, "a query (QR clear) is not a reply");
	r[2] |= 0x80;
	r[14] = 'x';
	ok(take(&a) == -1, "a reply to another question is not one");
	reply(0x8183, 0);
	ok(take(&a) == 3 && a.n == 0, "NXDOMAIN is rcode 3, no address");
	reply(0x8180, 3);
	record(5, 1, cname, sizeof(cname));
	record(28, 1, v6, 16);
	record(1, 1, v4, 4);
	rc = take(&a);
	ok(rc == 0 && a.n == 2 && is_addr(&a, 0, "::1") &&
	    is_addr(&a, 1, "127.0.0.2"), "a CNAME is passed over: AAAA, A");
	reply(0x8180, 2);
	record(1, 3, v4, 4);
	record(1, 1, v4, 3);
	ok(take(&a) == 0 && a.n == 0,
	    "another class, and an A record of 3 bytes, are not addresses");
	reply(0x8180, 2);
	record(1, 1, v4, 4);
	record(1, 1, v4, 4);
	rlen -= 2;
	ok(take(&a) == 0 && a.n == 1, "a record cut short ends the reading");
	reply(0x8180, 1);
	record(1, 1, v4, 4);
	r[sizeof(q)] = 0x40;
	ok(take(&a) == 0 && a.n == 0, "a reserved label type ends it");
	reply(0x8180, ADDRS_MAX + 2);
	for (int i = 0; i < ADDRS_MAX + 2; i++) {
		v4[3] = (unsigned char)(10 + i);
		record(1, 1, v4, 4);
	}
	ok(take(&a) == 0 && a.n == ADDRS_MAX && a.more == 1,
	    "past ADDRS_MAX addresses: more");
	reply(0x8180, 2);
	v4[2] = 0;
	v4[3] = 7;
	record(1, 1, v4, 4);
	record(1, 1, v4, 4);
	ok(take(&a) == 0 && a.n == 1, "the same address twice counts once");
	reply(0x8180, 0);
	ok(dns_reply(r, 11, q, sizeof(q), &a) == -1,
	    "a reply shorter than a header is not one");
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f == NULL || fputs(text, f) < 0 || fclose(f) != 0)
		exit(99);
}

static void check_hosts(const char *dir)
{
	char path[512];
	struct name_answer a;

	snprintf(path, sizeof(path), "%s/hosts", dir);
	write_file(path, "# media.test 10.0.0.1\n"
	    "127.0.0.2\tMedia.Test other # comment media.test\n"
	    "not-an-address media.test\n"
	    "10.9.9.9 xmedia.test media.testx\n"
	    "::1 localhost media.test\n"
	    "127.0.0.2 media.test\n");
	memset(&a, 0, sizeof(a));
	ok(dns_hosts(path, "media.test", &a) == 2 &&
	    is_addr(&a, 0, "127.0.0.2") && is_addr(&a, 1, "::1"),
	    "hosts: every line with the name, in order, any case, once each");
	memset(&a, 0, sizeof(a));
	ok(dns_hosts(path, "other.test", &a) == 0,
	    "hosts: a name no line has is not there");
	memset(&a, 0, sizeof(a));
	ok(dns_hosts("/nonexistent/hosts", "media.test", &a) == 0,
	    "hosts: no file, no address");
}

static void check_conf(const char *dir)
{
	char path[512], ns[4][64];
	struct dns_conf c;

	snprintf(path, sizeof(path), "%s/resolv.conf", dir);
	write_file(path, "nameserver 127.0.0.53\n"
	    "nameserver bogus\n"
	    "nameserver ::1\n"
	    "nameserver 10.0.0.1 # comment\n"
	    "nameserver 10.0.0.2\n"
	    "options ndots:3 timeout:0 attempts:99\n"
	    "search a.test  b.test\n");
	dns_conf_read(path, &c);
	for (int i = 0; i < c.nns && i < 4; i++)
		inet_ntop(c.ns[i].family, c.ns[i].a, ns[i], sizeof(ns[i]));
	ok(c.nns == 3 && strcmp(ns[0], "127.0.0.53") == 0 &&
	    strcmp(ns[1], "::1") == 0 && strcmp(ns[2], "10.0.0.1") == 0,
	    "resolv.conf: the first three nameservers that are addresses");
	ok(c.ndots == 3 && c.timeout_s == 1 && c.attempts == 10,
	    "resolv.conf: options, timeout and attempts within 1-60, 1-10");
	ok(strcmp(c.search, "a.test  b.test") == 0, "resolv.conf: search");
	dns_conf_read("/nonexistent/resolv.conf", &c);
	ok(c.nns == 1 && c.ns[0].family == AF_INET && c.ndots == 1 &&
	    c.timeout_s == 5 && c.attempts == 2 && c.search[0] == '\0',
	    "resolv.conf: absent, 127.0.0.1 with the defaults");
}

int main(void)
{
	char dir[] = "/tmp/unit_dns.XXXXXX", path[600];

	if (mkdtemp(dir) == NULL)
		return 99;
	check_replies();
	check_hosts(dir);
	check_conf(dir);
	snprintf(path, sizeof(path), "%s/hosts", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/resolv.conf", dir);
	unlink(path);
	rmdir(dir);
	return tap_done();
}
