/* unit_net.c: TAP unit test of net/netpolicy.c and net/proxyreq.c
 * (DESIGN 11): which resolved addresses the proxy refuses (IPv4 special
 * ranges, IPv6 ones and the IPv6 forms that carry an IPv4 address),
 * allowAddresses re-allowing them, host patterns, schemes and default
 * ports, host names as a request spells them, the head the origin is
 * sent, what a refused request leaves for its record, and the order and
 * outcome of net/eyeballs.c's connection attempts on loopback. */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <time.h>
#include <unistd.h>

#include "net/eyeballs.h"
#include "net/proxyreq.h"
#include "policy/netpolicy.h"
#include "tap.h"

/* The class netpolicy_addr gives ADDR under NP ("" when allowed). */
static const char *addr_class(const struct netpolicy *np, const char *addr)
{
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6 };
	struct sockaddr_in s4 = { .sin_family = AF_INET };
	const char *r;

	if (inet_pton(AF_INET, addr, &s4.sin_addr) == 1)
		r = netpolicy_addr(np, (struct sockaddr *)&s4);
	else if (inet_pton(AF_INET6, addr, &s6.sin6_addr) == 1)
		r = netpolicy_addr(np, (struct sockaddr *)&s6);
	else
		r = "unparsable";
	return r ? r : "";
}

/* Each of REFUSED[NR] is refused, each of ALLOWED[NA] allowed, with no
 * allowAddresses. */
static void classes(const char *const *refused, size_t nr,
    const char *const *allowed, size_t na)
{
	struct netpolicy none = { 0 };
	char name[96];

	for (size_t i = 0; i < nr; i++) {
		snprintf(name, sizeof(name), "%s is refused (%s)", refused[i],
		    addr_class(&none, refused[i]));
		ok(*addr_class(&none, refused[i]) != '\0', name);
	}
	for (size_t i = 0; i < na; i++) {
		snprintf(name, sizeof(name), "%s is allowed", allowed[i]);
		ok(*addr_class(&none, allowed[i]) == '\0', name);
	}
}

static void addresses(void)
{
	static const char *const refused[] = { "0.0.0.0", "10.1.2.3",
	    "100.64.0.1", "100.127.255.255", "127.0.0.1", "127.9.9.9",
	    "169.254.169.254", "172.16.0.1", "172.31.255.255", "192.0.0.8",
	    "192.0.2.1", "192.168.1.1", "198.18.0.1", "198.51.100.7",
	    "203.0.113.9", "224.0.0.1", "239.255.255.250", "240.0.0.1",
	    "255.255.255.255", "::", "::1", "::127.0.0.1", "::ffff:127.0.0.1",
	    "::ffff:10.0.0.1", "::ffff:169.254.169.254", "64:ff9b::7f00:1",
	    "64:ff9b:1::a00:1", "2002:7f00:1::1", "2002:a9fe:a9fe::1",
	    "2001:0:7f00:1::1", "2001:0:4136:e378:8000:63bf:80ff:fffe",
	    "fc00::1", "fd12:3456::1", "fe80::1", "fec0::1", "ff02::1",
	    "2001:db8::1", "100::1", "2001:10::1", "3fff::1" };
	static const char *const allowed[] = { "1.1.1.1", "8.8.8.8",
	    "100.63.255.255", "100.128.0.1", "172.15.255.255", "172.32.0.1",
	    "192.0.1.1", "198.20.0.1", "223.255.255.255", "2606:4700::1111",
	    "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1",
	    "2001:4860:4860::8888" };

	classes(refused, sizeof(refused) / sizeof(*refused), allowed,
	    sizeof(allowed) / sizeof(*allowed));
}

/* One address in each range SECURITY.md and sbexec.json(5) list, in
 * their order, with the class the classifier must give it: dropping any
 * range from netpolicy.c fails one of these. */
static void ranges(void)
{
	static const struct { const char *addr, *what; } t[] = {
		{ "0.1.2.3", "unspecified" },
		{ "10.255.255.255", "private" },
		{ "100.127.0.1", "shared (CGNAT)" },
		{ "127.255.0.1", "loopback" },
		{ "168.63.129.16", "cloud platform (Azure WireServer)" },
		{ "169.254.169.254", "link-local" },
		{ "172.20.0.1", "private" },
		{ "192.0.0.170", "reserved (IETF)" },
		{ "192.0.2.255", "documentation" },
		{ "192.88.99.1", "reserved (6to4 relay)" },
		{ "192.168.255.1", "private" },
		{ "198.19.255.255", "benchmarking" },
		{ "198.51.100.1", "documentation" },
		{ "203.0.113.255", "documentation" },
		{ "233.252.0.1", "multicast" },
		{ "250.1.2.3", "reserved" },
		{ "::2", "unspecified, loopback or IPv4-compatible" },
		{ "100::ffff:1", "discard" },
		{ "2001:db8:ffff::1", "documentation" },
		{ "2001:1f::1", "reserved (ORCHID)" },
		{ "3fff:fff::1", "documentation" },
		{ "fdff::1", "unique local (private)" },
		{ "febf::1", "link-local" },
		{ "feff::1", "site-local" },
		{ "ff0e::1", "multicast" },
		{ "64:ff9b:1:ffff::1", "NAT64 local-use" },
		/* the forms that carry an IPv4 address, each with one inside */
		{ "::ffff:10.0.0.1", "private" },
		{ "::ffff:0:127.0.0.1", "loopback" },
		{ "64:ff9b::a9fe:a9fe", "link-local" },
		{ "2002:c0a8:101::1", "private" },
		{ "2001:0:7f00:1::1", "loopback" },
		{ "2001:0:4136:e378:8000:63bf:80ff:fffe", "loopback" },
		{ "2606:4700:1::5efe:10.1.2.3", "private" },
		{ "2606:4700:1::200:5efe:169.254.169.254", "link-local" },
	};
	struct netpolicy none = { 0 };
	char name[128];

	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
		snprintf(name, sizeof(name), "%s is refused as %s", t[i].addr,
		    t[i].what);
		ok(strcmp(addr_class(&none, t[i].addr), t[i].what) == 0, name);
	}
}

/* The metadata and platform endpoints of the major clouds (issue 31):
 * each is refused, most by a range above, Azure's WireServer by its own
 * entry; the provider beside each is the one that documents it. */
static void clouds(void)
{
	static const struct { const char *addr, *what, *cloud; } t[] = {
		{ "169.254.169.254", "link-local", "AWS, Azure, GCP, Oracle, "
		    "DigitalOcean, Hetzner, OpenStack, Huawei, IBM" },
		{ "169.254.170.2", "link-local", "AWS ECS task metadata" },
		{ "169.254.170.23", "link-local", "AWS EKS Pod Identity" },
		{ "169.254.169.253", "link-local", "AWS DNS" },
		{ "fd00:ec2::254", "unique local (private)", "AWS IMDS IPv6" },
		{ "fd00:ec2::23", "unique local (private)", "AWS EKS IPv6" },
		{ "168.63.129.16", "cloud platform (Azure WireServer)",
		    "Azure WireServer" },
		{ "::ffff:168.63.129.16", "cloud platform (Azure WireServer)",
		    "Azure WireServer, mapped" },
		{ "fd20:ce::254", "unique local (private)", "GCP IPv6" },
		{ "100.100.100.200", "shared (CGNAT)", "Alibaba" },
		{ "192.0.0.192", "reserved (IETF)", "Oracle (classic)" },
		{ "fd00:c1::a9fe:a9fe", "unique local (private)", "Oracle IPv6" },
		{ "fe80::a9fe:a9fe", "link-local", "OpenStack IPv6" },
		{ "169.254.0.23", "link-local", "Tencent" },
		{ "169.254.42.42", "link-local", "Scaleway" },
		{ "fd00:42::42", "unique local (private)", "Scaleway IPv6" },
		{ "fd00:a9fe:a9fe::1", "unique local (private)", "Linode IPv6" },
	};
	struct netpolicy none = { 0 };
	char name[160];

	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
		snprintf(name, sizeof(name), "%s (%s) is refused as %s",
		    t[i].addr, t[i].cloud, t[i].what);
		ok(strcmp(addr_class(&none, t[i].addr), t[i].what) == 0, name);
	}
}

/* The forms of issue 23: RFC 8215's /48 is refused whole, whatever its
 * layout carries; SIIT and ISATAP are judged by the IPv4 inside. */
static void embedded_forms(void)
{
	static const char *const refused[] = {
	    "64:ff9b:1:7f00:0:100::",		/* /48 layout: 127.0.0.1 */
	    "64:ff9b:1:808:8:800::",		/* /48 layout: 8.8.8.8 */
	    "64:ff9b:1::808:808",		/* /96 layout: 8.8.8.8 */
	    "::ffff:0:a9fe:a9fe", "::ffff:0:192.168.0.1",
	    "fe80::5efe:127.0.0.1", "2001:db9::200:5efe:10.0.0.1",
	    "2606:4700::5efe:a9fe:a9fe", "2606:4700::100:5efe:127.0.0.1",
	    "2002:808:808:1:0:5efe:7f00:1",	/* 6to4 public, ISATAP not */
	    "2001:0:808:808:0:5efe:7f00:1",	/* Teredo public, ISATAP not */
	};
	static const char *const allowed[] = { "::ffff:0:8.8.8.8",
	    "2606:4700::5efe:8.8.8.8", "2606:4700::200:5efe:1.1.1.1",
	    "2606:4700::5eff:7f00:1", "2606:4700::400:5efe:7f00:1",
	    "2002:808:808:1:0:5efe:808:808" };

	classes(refused, sizeof(refused) / sizeof(*refused), allowed,
	    sizeof(allowed) / sizeof(*allowed));
}

static void allow_addresses(void)
{
	struct cidr c[2];
	struct netpolicy np = { .addrs = c, .naddrs = 2 };
	const char *why;

	ok(cidr_parse("10.20.0.0/16", &c[0], &why) == 0 &&
	    cidr_parse("fd00::/8", &c[1], &why) == 0, "CIDRs parse");
	ok(*addr_class(&np, "10.20.3.4") == '\0', "allowAddresses re-allows "
	    "10.20.3.4");
	ok(*addr_class(&np, "::ffff:10.20.3.4") == '\0', "and its mapped form");
	ok(*addr_class(&np, "::ffff:0:10.20.3.4") == '\0' &&
	    *addr_class(&np, "2606:4700::5efe:10.20.3.4") == '\0',
	    "and its SIIT and ISATAP forms");
	ok(*addr_class(&np, "10.21.0.1") != '\0', "not 10.21.0.1");
	ok(*addr_class(&np, "fd01::1") == '\0', "fd01::1 in fd00::/8");
	ok(*addr_class(&np, "fc00::1") != '\0', "fc00::1 is not");
	ok(cidr_parse("10.20.0.1/16", &c[0], &why) < 0, "host bits refused");
	ok(cidr_parse("1.2.3.4", &c[0], &why) == 0 && c[0].bits == 32,
	    "an address alone is /32");
}

static struct host_rule rule(const char *s)
{
	struct host_rule r;
	const char *why;

	if (host_rule_parse(s, &r, &why) < 0) {
		printf("Bail out! %s: %s\n", s, why);
		exit(1);
	}
	return r;
}

static const char *host(const struct netpolicy *np, const char *h, int port,
    int connect)
{
	const char *r = netpolicy_host(np, h, port, connect);

	return r ? r : "";
}

static void hosts(void)
{
	struct host_rule allow[] = { rule("media.test"), rule("*.cdn.test"),
	    rule("video.test:8443") };
	struct host_rule deny[] = { rule("bad.cdn.test") };
	struct netpolicy np = { allow, deny, 3, 1, NULL, 0 };

	ok(!*host(&np, "media.test", 443, 1), "CONNECT media.test:443");
	ok(!*host(&np, "media.test", 80, 0), "GET media.test:80");
	ok(!strcmp(host(&np, "media.test", 80, 1), "port not allowed"),
	    "CONNECT media.test:80 is not");
	ok(!strcmp(host(&np, "media.test", 8080, 0), "port not allowed"),
	    "GET media.test:8080 is not");
	ok(!*host(&np, "a.b.cdn.test", 443, 1), "*.cdn.test: a.b.cdn.test");
	ok(!strcmp(host(&np, "cdn.test", 443, 1), "host not allowed"),
	    "*.cdn.test: not cdn.test itself");
	ok(!strcmp(host(&np, "xcdn.test", 443, 1), "host not allowed"),
	    "*.cdn.test: not xcdn.test");
	ok(!strcmp(host(&np, "bad.cdn.test", 443, 1), "denied"),
	    "deny wins over allow");
	ok(!strcmp(host(&np, "bad.cdn.test", 80, 0), "denied") &&
	    !strcmp(host(&np, "bad.cdn.test", 8443, 1), "denied"),
	    "deny without a port or scheme: every port, both ways");
	ok(!*host(&np, "video.test", 8443, 1) &&
	    !*host(&np, "video.test", 8443, 0), "host:port, either method");
	ok(*host(&np, "video.test", 443, 1), "host:port: only that port");
}

static void rule_syntax(void)
{
	static const struct { const char *s; enum rule_scheme scheme;
	    int port; } good[] = {
		{ "https://media.test", SCHEME_HTTPS, 0 },
		{ "https://media.test:8443", SCHEME_HTTPS, 8443 },
		{ "http://media.test", SCHEME_HTTP, 0 },
		{ "http://*.cdn.test:8080", SCHEME_HTTP, 8080 },
		{ "media.test:443", SCHEME_ANY, 443 },
		{ "*.cdn.test", SCHEME_ANY, 0 },
	};
	static const char *const bad[] = { "ftp://media.test",
	    "HTTPS://media.test", "ws://media.test", "https:/media.test",
	    "https://", "https://media.test/", "https://media.test/a",
	    "media.test/", "http://media.test?q", "http://media.test#f",
	    "https://user@media.test", "user@media.test", "https://a@b:443",
	    "https://media.test:", "https://media.test:0", "http://[::1]",
	    "https://http://media.test", "https://*media.test",
	    "media.test:x" };
	struct host_rule r;
	const char *why;
	char name[96], *back;

	for (size_t i = 0; i < sizeof(good) / sizeof(*good); i++) {
		int ret = host_rule_parse(good[i].s, &r, &why);

		back = ret == 0 ? host_rule_str(&r) : NULL;
		snprintf(name, sizeof(name), "\"%s\" parses and prints back",
		    good[i].s);
		ok(ret == 0 && r.scheme == good[i].scheme &&
		    r.port == good[i].port && strcmp(back, good[i].s) == 0,
		    name);
		free(back);
		if (ret == 0)
			free(r.name);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		int ret = host_rule_parse(bad[i], &r, &why);

		snprintf(name, sizeof(name), "\"%s\" is refused (%s)", bad[i],
		    ret < 0 ? why : "parsed");
		ok(ret < 0, name);
		if (ret == 0)
			free(r.name);
	}
}

/* A scheme, a path or user-info is refused with a reason that says so,
 * not as a host name that happens to hold a ':' or a '/'. */
static void rule_reasons(void)
{
	static const struct { const char *s, *says; } t[] = {
		{ "ftp://media.test", "schemes" },
		{ "https://media.test/", "path" },
		{ "media.test/a", "path" },
		{ "http://user@media.test", "user-info" },
	};
	struct host_rule r;
	const char *why;
	char name[96];

	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
		snprintf(name, sizeof(name), "\"%s\": the reason says %s",
		    t[i].s, t[i].says);
		ok(host_rule_parse(t[i].s, &r, &why) < 0 &&
		    strstr(why, t[i].says) != NULL, name);
	}
}

static int is(const char *got, const char *want)
{
	return strcmp(got, want) == 0;
}

/* What each form admits: "https://" CONNECT only, "http://" GET/HEAD
 * only, each with its own default port; a bare form both. */
static void schemes(void)
{
	struct host_rule allow[] = { rule("https://tls.test"),
	    rule("http://web.test"), rule("https://tls.test:8443"),
	    rule("http://web.test:8080"), rule("both.test:9000"),
	    rule("*.cdn.test") };
	struct host_rule deny[] = { rule("https://a.cdn.test"),
	    rule("http://b.cdn.test"), rule("c.cdn.test:443") };
	struct netpolicy np = { allow, deny, 6, 3, NULL, 0 };

	ok(!*host(&np, "tls.test", 443, 1), "https://h: CONNECT h:443");
	ok(is(host(&np, "tls.test", 443, 0), "plain http not allowed: the "
	    "entry is https://"), "https://h: no GET h:443");
	ok(*host(&np, "tls.test", 80, 0), "https://h: no GET h:80");
	ok(is(host(&np, "tls.test", 9443, 1), "port not allowed"),
	    "https://h: no CONNECT h:9443");
	ok(!*host(&np, "tls.test", 8443, 1), "https://h:8443: CONNECT");
	ok(*host(&np, "tls.test", 8443, 0), "https://h:8443: no GET");
	ok(!*host(&np, "web.test", 80, 0), "http://h: GET h:80");
	ok(is(host(&np, "web.test", 80, 1), "CONNECT not allowed: the entry "
	    "is http://"), "http://h: no CONNECT h:80");
	ok(*host(&np, "web.test", 443, 1), "http://h: no CONNECT h:443");
	ok(!*host(&np, "web.test", 8080, 0), "http://h:8080: GET");
	ok(*host(&np, "web.test", 8080, 1), "http://h:8080: no CONNECT");
	ok(!*host(&np, "both.test", 9000, 1) && !*host(&np, "both.test", 9000,
	    0), "h:9000: CONNECT and GET to 9000");
	ok(*host(&np, "both.test", 443, 1) && *host(&np, "both.test", 80, 0),
	    "h:9000: not 443 or 80");
	ok(is(host(&np, "a.cdn.test", 443, 1), "denied") &&
	    !*host(&np, "a.cdn.test", 80, 0), "deny https://h: CONNECT h:443 "
	    "only");
	ok(is(host(&np, "b.cdn.test", 80, 0), "denied") &&
	    !*host(&np, "b.cdn.test", 443, 1), "deny http://h: GET h:80 only");
	ok(is(host(&np, "c.cdn.test", 443, 1), "denied") &&
	    !*host(&np, "c.cdn.test", 80, 0), "deny h:443: port 443 only");
}

static void normalise(void)
{
	static const char *const bad[] = { "127.0.0.1", "2130706433",
	    "0x7f.0.0.1", "0177.0.0.1", "[::1]", "a..b", "-a.test", "a-.test",
	    "a_b.test", "", ".", "a@b.test", "a b" };
	char out[HOST_MAX + 1], name[64];
	const char *why;

	ok(host_normalise("Media.TEST.", 11, out, &why) == 0 &&
	    strcmp(out, "media.test") == 0, "case and one trailing dot");
	ok(host_normalise("a.test..", 8, out, &why) < 0, "not two dots");
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		snprintf(name, sizeof(name), "\"%s\" is not a host name", bad[i]);
		ok(host_normalise(bad[i], strlen(bad[i]), out, &why) < 0, name);
	}
}

static int parse(const char *head, struct proxy_req *r)
{
	const char *why;

	return proxy_req_parse(head, strlen(head), r, &why);
}

static void requests(void)
{
	struct proxy_req r;

	ok(parse("GET http://Media.test:8080/a?b HTTP/1.1\r\nHost: evil\r\n"
	    "Proxy-Authorization: x\r\nRange: bytes=0-\r\nConnection: "
	    "keep-alive\r\n\r\n", &r) == 0 && strcmp(r.head, "GET /a?b "
	    "HTTP/1.1\r\nHost: media.test:8080\r\nRange: bytes=0-\r\n"
	    "Connection: close\r\n\r\n") == 0, "GET: origin form, the URI's "
	    "Host, no Proxy-*, Connection: close");
	proxy_req_free(&r);
	ok(parse("CONNECT media.test:443 HTTP/1.1\r\n\r\n", &r) == 0 &&
	    r.connect && r.port == 443, "CONNECT host:port");
	proxy_req_free(&r);
	ok(parse("HEAD http://m.test HTTP/1.0\r\n\r\n", &r) == 0 &&
	    strncmp(r.head, "HEAD / HTTP/1.1\r\nHost: m.test\r\n", 31) == 0,
	    "an empty path is /");
	proxy_req_free(&r);
	ok(parse("CONNECT media.test HTTP/1.1\r\n\r\n", &r) == 400,
	    "CONNECT without a port");
	proxy_req_free(&r);
	ok(parse("POST http://m.test/ HTTP/1.1\r\n\r\n", &r) == 405 &&
	    strcmp(r.method, "POST") == 0, "POST, recorded as POST");
	proxy_req_free(&r);
	ok(parse("GET https://m.test/ HTTP/1.1\r\n\r\n", &r) == 400,
	    "GET https:// (https goes by CONNECT)");
	proxy_req_free(&r);
	ok(parse("GET http://a@m.test/ HTTP/1.1\r\n\r\n", &r) == 400,
	    "user-info");
	proxy_req_free(&r);
	ok(parse("CONNECT [::1]:443 HTTP/1.1\r\n\r\n", &r) == 400 &&
	    r.host[0] == '\0', "an IPv6 literal");
	proxy_req_free(&r);
	ok(parse("GET http://m.test/ HTTP/1.1\r\nContent-Length: 5\r\n\r\n",
	    &r) == 400, "a body");
	proxy_req_free(&r);
	ok(parse("GET http://m.test/ HTTP/1.1\r\nX: a\r\n b\r\n\r\n", &r) ==
	    400, "a folded header");
	proxy_req_free(&r);
	ok(parse("GET http://m.test/ HTTP/1.1\nX: a\r\n\r\n", &r) == 400,
	    "a bare LF");
	proxy_req_free(&r);
}

/* A refused request keeps what was read of it, for the net record. */
static void refused_requests(void)
{
	struct proxy_req r;

	ok(parse("DELETE http://Media.test:8080/x HTTP/1.1\r\n\r\n", &r) ==
	    405 && strcmp(r.method, "DELETE") == 0 && strcmp(r.host,
	    "media.test") == 0 && r.port == 8080 && r.target != NULL &&
	    strcmp(r.target, "http://Media.test:8080/x") == 0 &&
	    r.head == NULL, "DELETE: 405, with method, host, port and target");
	proxy_req_free(&r);
	ok(parse("OPTIONSOPTIONSOPTIONS http://m.test/ HTTP/1.1\r\n\r\n",
	    &r) == 405 && strcmp(r.method, "OPTIONSOPTIONSOP...") == 0,
	    "a long method: cut to 16 bytes");
	proxy_req_free(&r);
	ok(parse("G{T http://m.test/ HTTP/1.1\r\n\r\n", &r) == 400 &&
	    r.method == NULL && r.target == NULL, "a method that is not a "
	    "token: 400, not recorded");
	proxy_req_free(&r);
	ok(parse("GET http://m.test/a HTTP/9.9\r\n\r\n", &r) == 505 &&
	    strcmp(r.method, "GET") == 0 && strcmp(r.host, "m.test") == 0 &&
	    r.head == NULL, "HTTP/9.9: 505, with method and host");
	proxy_req_free(&r);
	ok(parse("GET http://m.test/ HTTP/2.0\r\n\r\n", &r) == 505,
	    "HTTP/2.0: 505");
	proxy_req_free(&r);
	ok(parse("CONNECT m.test:443 HTTP/1.x\r\n\r\n", &r) == 400 &&
	    strcmp(r.method, "CONNECT") == 0 && strcmp(r.host, "m.test") == 0 &&
	    r.port == 443, "HTTP/1.x: 400, with method and host");
	proxy_req_free(&r);
	ok(parse("GET http://m.test/ HTTP/1.10\r\n\r\n", &r) == 400,
	    "HTTP/1.10: 400");
	proxy_req_free(&r);
	ok(parse("GET http://m.test/ http/1.1\r\n\r\n", &r) == 400,
	    "http/1.1: 400");
	proxy_req_free(&r);
	ok(parse("DELETE http://m.test/ HTTP/9.9\r\n\r\n", &r) == 505,
	    "another method and version: the version first");
	proxy_req_free(&r);
	ok(parse("GET http://m.test/ HTTP/1.0\r\n\r\n", &r) == 0 &&
	    strcmp(r.method, "GET") == 0 && !r.connect, "HTTP/1.0 passes");
	proxy_req_free(&r);
}

/* ADDR (an IPv4 or IPv6 literal) and PORT as a sockaddr_storage. */
static struct sockaddr_storage ss_of(const char *addr, int port)
{
	struct sockaddr_storage ss = { 0 };
	struct sockaddr_in *s4 = (struct sockaddr_in *)(void *)&ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)(void *)&ss;

	if (inet_pton(AF_INET, addr, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		s4->sin_port = htons((uint16_t)port);
	} else if (inet_pton(AF_INET6, addr, &s6->sin6_addr) == 1) {
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((uint16_t)port);
	}
	return ss;
}

static long long ms_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000LL + t.tv_nsec / 1000000;
}

/* A listening loopback socket's port, its descriptor in *FD. */
static int listener(int *fd)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	*fd = socket(AF_INET, SOCK_STREAM, 0);
	if (*fd < 0 || bind(*fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    listen(*fd, 4) < 0 ||
	    getsockname(*fd, (struct sockaddr *)&a, &len) < 0)
		return -1;
	return ntohs(a.sin_port);
}

/* Attempts driven as proxy.c drives them, for at most 3 s: the
 * winner's descriptor (its address in *WHICH) or -2. */
static int race(struct eyeballs *e, int *which)
{
	long long end = ms_now() + 3000;
	int rc = eyeballs_step(e, ms_now(), which);

	while (rc == -1 && ms_now() < end) {
		struct pollfd p[EYEBALLS_MAX];

		for (int i = 0; i < EYEBALLS_MAX; i++)
			p[i] = (struct pollfd){ e->fd[i], POLLOUT, 0 };
		poll(p, EYEBALLS_MAX, 20);
		rc = eyeballs_check(e, ms_now(), which);
	}
	return rc;
}

static void eyeballs(void)
{
	struct sockaddr_storage a[5] = {
		ss_of("2001:db8::1", 80), ss_of("2001:db8::2", 80),
		ss_of("192.0.2.1", 80), ss_of("192.0.2.2", 80),
		ss_of("2001:db8::3", 80),
	};
	struct eyeballs e;
	int lfd, port, closed, which = -1, rc;

	eyeballs_init(&e, a, 5);
	ok(e.n == 5 && e.order[0] == 0 && e.order[1] == 2 &&
	    e.order[2] == 1 && e.order[3] == 3 && e.order[4] == 4,
	    "eyeballs: the families interleave, the first answer's first");
	eyeballs_init(&e, a + 2, 2);
	ok(e.n == 2 && e.order[0] == 0 && e.order[1] == 1,
	    "eyeballs: one family keeps the resolver's order");
	port = listener(&lfd);
	closed = listener(&rc);
	close(rc);		/* a port nobody listens on: refused */
	a[0] = ss_of("127.0.0.1", closed);
	a[1] = ss_of("127.0.0.1", port);
	eyeballs_init(&e, a, 2);
	rc = race(&e, &which);
	ok(rc >= 0 && which == 1,
	    "eyeballs: a refused address starts the next at once, which wins");
	if (rc >= 0)
		close(rc);
	a[1] = ss_of("127.0.0.1", closed);
	eyeballs_init(&e, a, 2);
	ok(race(&e, &which) == -2 && e.err == ECONNREFUSED,
	    "eyeballs: every address refused: -2, the last error");
	close(lfd);
}

int main(void)
{
	eyeballs();
	ranges();
	clouds();
	embedded_forms();
	addresses();
	allow_addresses();
	hosts();
	rule_syntax();
	rule_reasons();
	schemes();
	normalise();
	requests();
	refused_requests();
	return tap_done();
}
