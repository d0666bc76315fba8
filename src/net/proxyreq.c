/* proxyreq.c: read the request head a client sends sbexec's proxy. Only
 * what ffmpeg sends is accepted: a request line "METHOD TARGET HTTP/1.x",
 * header lines "Name: value", every line ending in CRLF, no NUL, no
 * folded line, no body. The origin gets origin form, a Host taken from
 * the URI (never the client's), no Proxy-* or hop-by-hop header, and
 * "Connection: close": one request per connection. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fmt.h"
#include "net/proxyreq.h"
#include "util.h"

#define HEADERS_MAX 100
#define METHOD_MAX 16		/* a method longer than any real one is cut */

size_t proxy_head_len(const char *buf, size_t len)
{
	for (size_t i = 3; i < len; i++)
		if (buf[i] == '\n' && buf[i - 1] == '\r' && buf[i - 2] == '\n' &&
		    buf[i - 3] == '\r')
			return i + 1;
	return 0;
}

struct cursor {
	const char *p, *end;
	const char *why;
};

/* The next line, without its CRLF; NULL (and c->why) when malformed. */
static const char *next_line(struct cursor *c, size_t *len)
{
	const char *line = c->p;

	for (; c->p + 1 < c->end; c->p++) {
		if (*c->p == '\r' && c->p[1] == '\n') {
			*len = (size_t)(c->p - line);
			c->p += 2;
			return line;
		}
		if (*c->p == '\0' || *c->p == '\r' || *c->p == '\n')
			break;
	}
	c->why = "a line not ending in CRLF, or a NUL";
	return NULL;
}

static int port_of(const char *s, size_t len, int *port)
{
	long v = 0;

	if (len == 0 || len > 5 || *s == '0')
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	if (v > 65535)
		return -1;
	*port = (int)v;
	return 0;
}

/* "host" or "host:port" (LEN bytes) into r->host and r->port. */
static const char *authority(const char *s, size_t len, struct proxy_req *r,
    int need_port)
{
	const char *colon = memchr(s, ':', len);
	size_t hlen = colon ? (size_t)(colon - s) : len;
	const char *why;

	if (memchr(s, '@', len) != NULL)
		return "user-info in the URI";
	if (len > 0 && s[0] == '[')
		return "an IP address, not a name";
	if (colon == NULL && need_port)
		return "CONNECT needs host:port";
	if (colon != NULL && port_of(colon + 1, len - hlen - 1, &r->port) < 0)
		return "the port is not 1 to 65535";
	if (host_normalise(s, hlen, r->host, &why) < 0)
		return why;
	return NULL;
}

/* "http://authority/path?query": origin form into *PATH. */
static const char *absolute_uri(const char *s, size_t len,
    struct proxy_req *r, const char **path, size_t *plen)
{
	size_t alen;

	if (len < 7 || strncasecmp(s, "http://", 7) != 0)
		return "only absolute http:// URIs (https goes by CONNECT)";
	s += 7, len -= 7;
	alen = strcspn(s, "/?#");
	if (alen > len)
		alen = len;
	r->port = 80;
	*path = s + alen;
	*plen = len - alen;
	for (size_t i = 0; i < *plen; i++)
		if ((*path)[i] == '#' || (unsigned char)(*path)[i] <= 0x20 ||
		    (unsigned char)(*path)[i] >= 0x7f)
			return "a fragment or a byte outside visible ASCII in "
			    "the URI";
	return authority(s, alen, r, 0);
}

static int token_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	    (ch >= '0' && ch <= '9') ||
	    (ch != '\0' && strchr("!#$%&'*+-.^_`|~", ch) != NULL);
}

/* The method as sent, for the audit: token bytes only (RFC 9110 5.6.2),
 * cut to METHOD_MAX with "..." after; NULL when it is not a token. */
static char *method_of(const char *s, size_t len)
{
	if (len == 0)
		return NULL;
	for (size_t i = 0; i < len; i++)
		if (!token_char(s[i]))
			return NULL;
	if (len > METHOD_MAX)
		return xasprintf("%.*s...", METHOD_MAX, s);
	return xasprintf("%.*s", (int)len, s);
}

/* HTTP/1.0 and HTTP/1.1 pass; another "HTTP/" DIGIT "." DIGIT is 505
 * (RFC 9112 2.3), anything else 400. */
static int version(const char *s, size_t len, const char **why)
{
	if (len == 8 && memcmp(s, "HTTP/1.", 7) == 0 &&
	    (s[7] == '0' || s[7] == '1'))
		return 0;
	if (len == 8 && memcmp(s, "HTTP/", 5) == 0 && s[5] >= '0' &&
	    s[5] <= '9' && s[6] == '.' && s[7] >= '0' && s[7] <= '9')
		return *why = "only HTTP/1.0 and HTTP/1.1", 505;
	return *why = "not an HTTP version (HTTP/1.1)", 400;
}

/* "METHOD TARGET VERSION": 0, or the status with *WHY. The method, the
 * target and the host are read whatever the verdict, for the record. */
static int request_line(const char *line, size_t len, struct proxy_req *r,
    const char **path, size_t *plen, const char **why)
{
	static const char *const methods[] = { "CONNECT", "GET", "HEAD" };
	const char *sp1 = memchr(line, ' ', len), *sp2 = NULL, *target;
	const char *bad;
	size_t tlen;
	int status, known = 0;

	if (sp1 != NULL)
		sp2 = memchr(sp1 + 1, ' ', len - (size_t)(sp1 + 1 - line));
	if (sp2 == NULL)
		return *why = "not METHOD TARGET VERSION", 400;
	if ((r->method = method_of(line, (size_t)(sp1 - line))) == NULL)
		return *why = "a method that is not a token", 400;
	for (size_t i = 0; i < sizeof(methods) / sizeof(*methods); i++)
		known |= strcmp(r->method, methods[i]) == 0;
	r->connect = strcmp(r->method, "CONNECT") == 0;
	target = sp1 + 1;
	tlen = (size_t)(sp2 - target);
	r->target = xasprintf("%.*s", (int)tlen, target);
	*why = r->connect ? authority(target, tlen, r, 1) :
	    absolute_uri(target, tlen, r, path, plen);
	if ((status = version(sp2 + 1, (size_t)(line + len - sp2 - 1),
	    &bad)) != 0)
		return *why = bad, status;
	if (!known)
		return *why = "only CONNECT, GET and HEAD", 405;
	return *why ? 400 : 0;
}

/* Headers never passed on: the proxy's own, hop-by-hop, and Host. */
static int dropped(const char *name, size_t len)
{
	static const char *const drop[] = { "host", "connection",
	    "keep-alive", "te", "trailer", "upgrade" };

	if (len >= 6 && strncasecmp(name, "proxy-", 6) == 0)
		return 1;
	for (size_t i = 0; i < sizeof(drop) / sizeof(*drop); i++)
		if (strlen(drop[i]) == len && strncasecmp(name, drop[i], len)
		    == 0)
			return 1;
	return 0;
}

/* A request with a body could carry a second request past the check. */
static int has_body(const char *name, size_t nlen, const char *value,
    size_t vlen)
{
	if (nlen == 17 && strncasecmp(name, "transfer-encoding", 17) == 0)
		return 1;
	return nlen == 14 && strncasecmp(name, "content-length", 14) == 0 &&
	    !(vlen == 1 && value[0] == '0');
}

static const char *header(const char *line, size_t len, struct strv *keep)
{
	const char *colon = memchr(line, ':', len), *v;
	size_t nlen, vlen;

	if (colon == NULL || colon == line)
		return "a header line without a name";
	nlen = (size_t)(colon - line);
	for (size_t i = 0; i < nlen; i++)
		if (!token_char(line[i]))
			return "a header name with a byte outside a token";
	for (v = colon + 1; v < line + len && (*v == ' ' || *v == '\t'); v++)
		;
	vlen = (size_t)(line + len - v);
	for (size_t i = 0; i < vlen; i++)
		if (((unsigned char)v[i] < 0x20 && v[i] != '\t') || v[i] == 0x7f)
			return "a control byte in a header value";
	if (has_body(line, nlen, v, vlen))
		return "a request with a body";
	if (!dropped(line, nlen)) {
		char *h = xasprintf("%.*s\r\n", (int)len, line);

		strv_push(keep, h);
		free(h);
	}
	return NULL;
}

static void origin_head(struct proxy_req *r, const char *path, size_t plen,
    const struct strv *keep)
{
	char port[8] = "";
	size_t n = 0, cap;

	if (r->port != 80)
		fmt_snprintf(port, sizeof(port), ":%d", r->port);
	cap = strlen(r->method) + plen + strlen(r->host) + 64;
	for (size_t i = 0; i < keep->n; i++)
		cap += strlen(keep->v[i]);
	r->head = xmalloc(cap);
	/* "http://h" and "http://h?q" have the path "/". */
	n = (size_t)fmt_snprintf(r->head, cap, "%s %s%.*s HTTP/1.1\r\n"
	    "Host: %s%s\r\n", r->method, plen && *path == '/' ? "" : "/",
	    (int)plen, path, r->host, port);
	for (size_t i = 0; i < keep->n; i++)
		n += (size_t)fmt_snprintf(r->head + n, cap - n, "%s",
		    keep->v[i]);
	n += (size_t)fmt_snprintf(r->head + n, cap - n,
	    "Connection: close\r\n\r\n");
	r->head_len = n;
}

int proxy_req_parse(const char *buf, size_t len, struct proxy_req *r,
    const char **why)
{
	struct cursor c = { buf, buf + len, NULL };
	struct strv keep = { 0 };
	const char *line, *path = NULL;
	size_t llen, plen = 0, n = 0;
	int status;

	*r = (struct proxy_req){ 0 };
	if (len > HEAD_MAX)
		return *why = "a request head over 8 KiB", 400;
	if ((line = next_line(&c, &llen)) == NULL)
		return *why = c.why, 400;
	if ((status = request_line(line, llen, r, &path, &plen, why)) != 0)
		return status;
	while ((line = next_line(&c, &llen)) != NULL && llen > 0) {
		if (++n > HEADERS_MAX)
			c.why = "more than 100 header lines";
		else if (*line == ' ' || *line == '\t')
			c.why = "a folded header line";
		else
			c.why = header(line, llen, &keep);
		if (c.why != NULL)
			break;
	}
	if (c.why == NULL && c.p != c.end)
		c.why = "bytes after the head";
	if ((*why = c.why) == NULL && !r->connect)
		origin_head(r, path, plen, &keep);
	strv_free(&keep);
	return *why ? 400 : 0;
}

void proxy_req_free(struct proxy_req *r)
{
	free(r->method);
	free(r->target);
	free(r->head);
	r->method = r->target = r->head = NULL;
}
