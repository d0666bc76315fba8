/* proxyreq_fuzz: libFuzzer target for the proxy's request parser and
 * the host and address rules it feeds. Whatever the bytes, a request
 * that is accepted names a normal host and a real port, and what goes
 * to the origin is exactly one request head: origin form, the URI's
 * Host, no Proxy-* header, nothing after the blank line. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "net/proxyreq.h"
#include "policy/netpolicy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_origin_head(const struct proxy_req *r)
{
	const char *end = strstr(r->head, "\r\n\r\n");

	assert(end != NULL && (size_t)(end + 4 - r->head) == r->head_len);
	assert(strncmp(r->head, r->method, strlen(r->method)) == 0);
	assert(r->head[strlen(r->method) + 1] == '/');
	for (const char *p = strstr(r->head, "\r\n"); p != NULL && p < end;
	    p = strstr(p + 2, "\r\n"))
		assert(strncasecmp(p + 2, "proxy-", 6) != 0 &&
		    strncasecmp(p + 2, "transfer-encoding:", 18) != 0);
	assert(strstr(r->head, "\r\nHost: ") != NULL);
}

static void check_request(const char *buf, size_t len)
{
	struct proxy_req r;
	const char *why = NULL;
	char host[HOST_MAX + 1];
	size_t end = proxy_head_len(buf, len);
	int status;

	if (end == 0)
		return;
	status = proxy_req_parse(buf, end, &r, &why);
	assert((status == 0) == (why == NULL));
	if (status == 0) {
		assert(r.port >= 1 && r.port <= 65535);
		assert(host_normalise(r.host, strlen(r.host), host, &why) == 0);
		assert(strcmp(host, r.host) == 0);
		assert(r.connect || r.head != NULL);
		if (!r.connect)
			check_origin_head(&r);
	}
	proxy_req_free(&r);
}

static void check_rules(const char *s)
{
	struct host_rule hr;
	struct cidr c;
	const char *why;

	if (host_rule_parse(s, &hr, &why) == 0) {
		char *back = host_rule_str(&hr);

		assert(strcmp(back, s) == 0);
		free(back);
		free(hr.name);
	}
	if (cidr_parse(s, &c, &why) == 0)
		free(cidr_str(&c));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1);

	memcpy(buf, data, size);
	buf[size] = '\0';
	check_request(buf, size);
	if (size < 300)
		check_rules(buf);
	free(buf);
	return 0;
}
