/* tlshello.c: the ClientHello that must open a CONNECT tunnel. An
 * allowed name's front end may serve other names: a hello that names
 * one of them, or none, or hides it (Encrypted Client Hello), would
 * carry the request past the allow-list, and so would anything that is
 * not TLS at all (a plain-http request through a tunnel escapes the
 * GET rules). One record is read here: a hello split across records,
 * which no common client sends below 16 KiB, is refused rather than
 * reassembled; what follows it is tlswatch.c's to check (the second
 * hello a HelloRetryRequest draws goes through here again). The syntax
 * is RFC 8446 4.1.2 and RFC 6066 3. */
#include <string.h>

#include "net/tlshello.h"

#define HANDSHAKE 22
#define CLIENT_HELLO 1
#define EXT_SERVER_NAME 0
#define EXT_ECH 0xfe0d		/* draft-ietf-tls-esni's current code */
#define EXT_ESNI 0xffce		/* its earlier, encrypted server_name */
#define HOST_NAME 0

/* Bytes not yet read; BAD once a read went past the end. */
struct rd {
	const unsigned char *p;
	size_t n;
	int bad;
};

static size_t take(struct rd *r, size_t k)
{
	size_t v = 0;

	if (r->bad || r->n < k) {
		r->bad = 1;
		return 0;
	}
	for (size_t i = 0; i < k; i++)
		v = v << 8 | r->p[i];
	r->p += k;
	r->n -= k;
	return v;
}

/* A vector with a K-byte length, as a reader of its own. */
static struct rd vec(struct rd *r, size_t k)
{
	size_t len = take(r, k);
	struct rd v = { r->p, len, r->bad || r->n < len };

	if (v.bad) {
		r->bad = 1;
		v.n = 0;
	} else {
		r->p += len;
		r->n -= len;
	}
	return v;
}

/* NAME[LEN] as the record may show it: printable, cut at HOST_MAX. */
static void shown_name(const unsigned char *name, size_t len, char *out)
{
	size_t i;

	for (i = 0; i < len && i < HOST_MAX; i++)
		out[i] = name[i] > 0x20 && name[i] < 0x7f ? (char)name[i] : '?';
	out[i] = '\0';
}

/* The server_name extension: exactly one host_name, normalised. */
static const char *server_name(struct rd *ext, char *sni)
{
	struct rd list = vec(ext, 2), name;
	const char *why;
	int seen = 0;

	if (ext->n != 0 || list.n == 0)
		return "a malformed server_name extension";
	while (list.n > 0 && !list.bad) {
		if (take(&list, 1) != HOST_NAME)
			return "a server_name that is not a host_name";
		name = vec(&list, 2);
		if (list.bad || seen++)
			return list.bad ? "a malformed server_name extension" :
			    "two host_names in one ClientHello";
		if (host_normalise((const char *)name.p, name.n, sni, &why) < 0) {
			shown_name(name.p, name.n, sni);
			return "a server name that is not a DNS name";
		}
	}
	return list.bad ? "a malformed server_name extension" : NULL;
}

static const char *extensions(struct rd *r, char *sni)
{
	struct rd all = vec(r, 2), data;
	size_t type;
	int seen = 0;
	const char *why;

	if (r->bad || r->n != 0)
		return "a malformed ClientHello";
	while (all.n > 0) {
		type = take(&all, 2);
		data = vec(&all, 2);
		if (all.bad)
			return "a malformed ClientHello extension";
		if (type == EXT_ECH || type == EXT_ESNI)
			return "an encrypted ClientHello, which hides the name";
		if (type != EXT_SERVER_NAME)
			continue;
		if (seen++)
			return "two server_name extensions";
		if ((why = server_name(&data, sni)) != NULL)
			return why;
	}
	return seen ? NULL : "a ClientHello without a server name";
}

/* The ClientHello's body up to its extensions (RFC 8446 4.1.2). */
static const char *hello_body(struct rd *r, char *sni)
{
	struct rd v;

	take(r, 2 + 32);		/* legacy_version, random */
	v = vec(r, 1);			/* legacy_session_id */
	if (v.n > 32)
		return "a malformed ClientHello";
	v = vec(r, 2);			/* cipher_suites */
	if (v.n == 0 || v.n % 2 != 0)
		return "a malformed ClientHello";
	v = vec(r, 1);			/* legacy_compression_methods */
	if (r->bad || v.n == 0)
		return "a malformed ClientHello";
	if (r->n == 0)
		return "a ClientHello without a server name";
	return extensions(r, sni);
}

static const char *record(const unsigned char *buf, size_t len, char *sni)
{
	struct rd r = { buf + 5, len - 5, 0 };
	size_t hlen;

	if (take(&r, 1) != CLIENT_HELLO)
		return "a TLS handshake that does not begin with a ClientHello";
	hlen = take(&r, 3);
	if (hlen > r.n)
		return "a ClientHello split across TLS records";
	if (hlen < r.n)
		return "more than a ClientHello in the first TLS record";
	return hello_body(&r, sni);
}

int tls_hello_check(const unsigned char *buf, size_t len, const char *host,
    char *sni, const char **why)
{
	size_t body;

	sni[0] = '\0';
	*why = NULL;
	if (len >= 1 && buf[0] != HANDSHAKE)
		*why = "a tunnel whose first bytes are not a TLS handshake";
	else if (len >= 3 && (buf[1] != 3 || buf[2] > 4))
		*why = "a tunnel whose first bytes are not a TLS record";
	if (*why != NULL)
		return -1;
	if (len < 5)
		return HELLO_MORE;
	body = (size_t)buf[3] << 8 | buf[4];
	if (body == 0 || body > RECORD_MAX - 5) {
		*why = "a TLS record of a length TLS does not allow";
		return -1;
	}
	if (len < 5 + body)
		return HELLO_MORE;
	if ((*why = record(buf, 5 + body, sni)) != NULL)
		return -1;
	if (strcmp(sni, host) != 0) {
		*why = "a TLS server name that is not the CONNECT host";
		return -1;
	}
	return 0;
}
