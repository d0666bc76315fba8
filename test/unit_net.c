/* unit_net.c: TAP unit test of netpolicy.c and proxyreq.c (DESIGN 11):
 * which resolved addresses the proxy refuses (IPv4 special ranges, IPv6
 * ones and the IPv6 forms that carry an IPv4 address), allowAddresses
 * re-allowing them, host patterns and default ports, host names as a
 * request spells them, and the head the origin is sent. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netpolicy.h"
#include "proxyreq.h"
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
	struct netpolicy none = { 0 };
	char name[96];

	for (size_t i = 0; i < sizeof(refused) / sizeof(*refused); i++) {
		snprintf(name, sizeof(name), "%s is refused (%s)", refused[i],
		    addr_class(&none, refused[i]));
		ok(*addr_class(&none, refused[i]) != '\0', name);
	}
	for (size_t i = 0; i < sizeof(allowed) / sizeof(*allowed); i++) {
		snprintf(name, sizeof(name), "%s is allowed", allowed[i]);
		ok(*addr_class(&none, allowed[i]) == '\0', name);
	}
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
	ok(!*host(&np, "video.test", 8443, 1) &&
	    !*host(&np, "video.test", 8443, 0), "host:port, either method");
	ok(*host(&np, "video.test", 443, 1), "host:port: only that port");
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
	ok(parse("POST http://m.test/ HTTP/1.1\r\n\r\n", &r) == 405, "POST");
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

int main(void)
{
	addresses();
	allow_addresses();
	hosts();
	normalise();
	requests();
	return tap_done();
}
