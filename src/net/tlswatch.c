/* tlswatch.c: which records of a tunnel's handshake may pass, until the
 * server's ServerHello (RFC 8446 4.1.3, 4.1.4, 5.1; RFC 5246 7.4).
 *
 * Before it, the client may send its ClientHello (read whole by
 * tlshello.c), a second one only after a HelloRetryRequest (read the
 * same way, naming the same host), change_cipher_spec (TLS 1.3's
 * middlebox compatibility), alerts, and application_data in its first
 * flight (0-RTT early data: encrypted under a key of an earlier session,
 * whose name the server checks again, RFC 8446 4.2.10). Nothing else:
 * SSLv2's hello, a hello split across records, a third hello.
 *
 * The server may send handshake messages, of which the first must be a
 * ServerHello, change_cipher_spec and alerts. A ServerHello whose random
 * is the fixed value of RFC 8446 4.1.3 is a HelloRetryRequest; a second
 * one is forbidden (4.1.4), so the tunnel closes. Handshake messages may
 * span records; they may not be interleaved with other records (5.1). */
#include <string.h>

#include "net/tlshello.h"
#include "net/tlswatch.h"

enum { CHANGE_CIPHER_SPEC = 20, ALERT = 21, HANDSHAKE = 22, APP_DATA = 23 };
#define SERVER_HELLO 2
#define TLS_PLAIN_MAX 16384		/* a plaintext record (RFC 8446 5.1) */
#define TLS_CIPHER_MAX (16384 + 256)	/* an encrypted one (5.2) */

/* SHA-256 of "HelloRetryRequest" (RFC 8446 4.1.3). */
static const unsigned char hrr_random[32] = {
	0xcf, 0x21, 0xad, 0x74, 0xe5, 0x9a, 0x61, 0x11, 0xbe, 0x1d, 0x8c, 0x02,
	0x1e, 0x65, 0xb8, 0x91, 0xc2, 0xa2, 0x11, 0x16, 0x7a, 0xbb, 0x8c, 0x5e,
	0x07, 0x9e, 0x09, 0xe2, 0xc8, 0xa8, 0x33, 0x9c,
};

static size_t record_len(const unsigned char *h)
{
	return (size_t)h[3] << 8 | h[4];
}

/* A ClientHello's record: passed whole, or not at all. */
static long hello(struct tls_watch *w, const unsigned char *buf, size_t len,
    const char *host, char *sni, const char **why)
{
	int rc = tls_hello_check(buf, len, host, sni, why);

	if (rc == HELLO_MORE)
		return 0;
	if (rc < 0)
		return -1;
	w->hellos++;
	return (long)(5 + record_len(buf));
}

/* Why the client's record of header H may not pass, or NULL. */
static const char *client_record(const struct tls_watch *w,
    const unsigned char *h)
{
	size_t max = h[0] == APP_DATA ? TLS_CIPHER_MAX : TLS_PLAIN_MAX;

	if (h[1] != 3 || h[2] > 4)
		return "a tunnel whose bytes are not TLS records";
	if (record_len(h) == 0 || record_len(h) > max)
		return "a TLS record of a length TLS does not allow";
	if (h[0] == CHANGE_CIPHER_SPEC || h[0] == ALERT)
		return NULL;
	if (h[0] == APP_DATA)
		return w->hellos == 1 ? NULL : "application data after the "
		    "second ClientHello, before the server's ServerHello";
	if (h[0] == HANDSHAKE)
		return w->retries == 0 ? "a second TLS handshake record before "
		    "the server's ServerHello" : "a handshake record after the second "
		    "ClientHello, before the server's ServerHello";
	return "a TLS record of a type TLS does not allow before its keys";
}

long tls_watch_client(struct tls_watch *w, const unsigned char *buf,
    size_t len, const char *host, char *sni, const char **why)
{
	size_t n;

	*why = NULL;
	if (w->done)
		return (long)len;
	if (w->pass > 0) {
		n = len < w->pass ? len : w->pass;
		w->pass -= n;
		return (long)n;
	}
	if (len == 0)
		return 0;
	if (w->hellos == 0 || (buf[0] == HANDSHAKE && w->retries == 1 &&
	    w->hellos == 1))
		return hello(w, buf, len, host, sni, why);
	if (len < 5)
		return 0;
	if ((*why = client_record(w, buf)) != NULL)
		return -1;
	w->pass = 5 + record_len(buf);
	return tls_watch_client(w, buf, len, host, sni, why);
}

/* The server's record header is whole: may its body follow? */
static const char *server_record(struct tls_watch *w)
{
	const unsigned char *h = w->head;

	if (h[1] != 3 || h[2] > 4)
		return "a server whose bytes are not TLS records";
	if (record_len(h) == 0 || record_len(h) > TLS_PLAIN_MAX)
		return "a TLS record of a length TLS does not allow";
	if (h[0] != HANDSHAKE && (w->msg_len > 0 || w->msg_left > 0))
		return "a server handshake message interleaved with "
		    "another record";
	if (h[0] != HANDSHAKE && h[0] != CHANGE_CIPHER_SPEC && h[0] != ALERT)
		return "a server record before its ServerHello that is not "
		    "a handshake, change_cipher_spec or alert";
	w->rec_left = record_len(h);
	return NULL;
}

/* A handshake message's first HS_PREFIX bytes are in: a ServerHello, a
 * HelloRetryRequest (the first), or the end of the tunnel. */
static const char *server_hello(struct tls_watch *w)
{
	size_t body = (size_t)w->msg[1] << 16 | (size_t)w->msg[2] << 8 |
	    w->msg[3];

	w->msg_left = body - (HS_PREFIX - 4);
	w->msg_len = 0;
	if (memcmp(w->msg + 6, hrr_random, sizeof(hrr_random)) != 0) {
		w->done = 1;
		return NULL;
	}
	return w->retries++ > 0 ? "a second HelloRetryRequest, which TLS "
	    "forbids" : NULL;
}

/* K bytes of a handshake record's body at P. */
static const char *server_handshake(struct tls_watch *w,
    const unsigned char *p, size_t k)
{
	size_t n;

	while (k > 0 && !w->done) {
		if (w->msg_left > 0) {
			n = k < w->msg_left ? k : w->msg_left;
			w->msg_left -= n;
			p += n;
			k -= n;
			continue;
		}
		w->msg[w->msg_len++] = *p++;
		k--;
		if (w->msg_len == 1 && w->msg[0] != SERVER_HELLO)
			return "a server handshake that does not begin with a "
			    "ServerHello";
		if (w->msg_len == 4 && (w->msg[1] << 16 | w->msg[2] << 8 |
		    w->msg[3]) < HS_PREFIX - 4)
			return "a malformed ServerHello";
		if (w->msg_len == HS_PREFIX && server_hello(w) != NULL)
			return "a second HelloRetryRequest, which TLS forbids";
	}
	return NULL;
}

int tls_watch_server(struct tls_watch *w, const unsigned char *buf,
    size_t len, const char **why)
{
	size_t k;

	*why = NULL;
	while (len > 0 && !w->done) {
		if (w->head_len < 5) {
			w->head[w->head_len++] = *buf++;
			len--;
			if (w->head_len == 5 && (*why = server_record(w)))
				return -1;
			continue;
		}
		k = len < w->rec_left ? len : w->rec_left;
		if (w->head[0] == HANDSHAKE &&
		    (*why = server_handshake(w, buf, k)) != NULL)
			return -1;
		buf += k;
		len -= k;
		if ((w->rec_left -= k) == 0)
			w->head_len = 0;
	}
	return 0;
}
