/* unit_tls.c: TAP unit test of net/tlshello.c and net/tlswatch.c
 * (DESIGN 11): which bytes of a CONNECT tunnel's handshake pass.
 * ClientHellos are built here field by field (RFC 8446 4.1.2), each test
 * changing one thing: the server name, its absence, an encrypted hello,
 * bytes that are not TLS, a hello cut short, split across records or
 * followed by more in its record. Then the records both ways until the
 * server's ServerHello: a HelloRetryRequest and the second ClientHello
 * it draws, and what else may pass before the keys change. */
#include <stdio.h>
#include <string.h>

#include "net/tlshello.h"
#include "net/tlswatch.h"
#include "tap.h"

enum {
	NO_SNI = 1, ECH = 2, TWO_NAMES = 4, TWO_EXTS = 8, SPLIT = 16,
	TRAILING = 32, NAME_TYPE = 64,
};

struct buf {
	unsigned char b[RECORD_MAX + 64];
	size_t n;
};

static void put(struct buf *b, unsigned v, size_t k)
{
	while (k-- > 0)
		b->b[b->n++] = (unsigned char)(v >> (8 * k));
}

static void bytes(struct buf *b, const void *p, size_t n)
{
	memcpy(b->b + b->n, p, n);
	b->n += n;
}

/* Patch the K-byte length at AT to cover everything after it. */
static void close_len(struct buf *b, size_t at, size_t k)
{
	size_t v = b->n - at - k;

	for (size_t i = 0; i < k; i++)
		b->b[at + i] = (unsigned char)(v >> (8 * (k - 1 - i)));
}

static void server_name(struct buf *b, const char *name, int flags)
{
	size_t ext, list;

	put(b, 0, 2);			/* server_name */
	ext = b->n;
	put(b, 0, 2);
	list = b->n;
	put(b, 0, 2);
	for (int i = 0; i < (flags & TWO_NAMES ? 2 : 1); i++) {
		put(b, flags & NAME_TYPE ? 7 : 0, 1);
		put(b, (unsigned)strlen(name), 2);
		bytes(b, name, strlen(name));
	}
	close_len(b, list, 2);
	close_len(b, ext, 2);
}

static void extensions(struct buf *b, const char *name, int flags)
{
	size_t all = b->n;

	put(b, 0, 2);
	put(b, 43, 2);			/* supported_versions: TLS 1.3, 1.2 */
	put(b, 5, 2);
	put(b, 4, 1);
	put(b, 0x0304, 2);
	put(b, 0x0303, 2);
	if (!(flags & NO_SNI))
		server_name(b, name, flags);
	if (flags & TWO_EXTS)
		server_name(b, name, flags);
	if (flags & ECH) {
		put(b, 0xfe0d, 2);
		put(b, 4, 2);
		put(b, 0, 4);
	}
	close_len(b, all, 2);
}

/* A ClientHello naming NAME in one record, changed as FLAGS say. */
static size_t hello(struct buf *b, const char *name, int flags)
{
	static const unsigned char random_[32] = { 1, 2, 3 };
	size_t rec, hs;

	b->n = 0;
	put(b, 22, 1);
	put(b, 0x0301, 2);
	rec = b->n;
	put(b, 0, 2);
	put(b, 1, 1);			/* client_hello */
	hs = b->n;
	put(b, 0, 3);
	put(b, 0x0303, 2);
	bytes(b, random_, sizeof(random_));
	put(b, 32, 1);
	bytes(b, random_, 32);		/* legacy_session_id */
	put(b, 4, 2);
	put(b, 0x1301, 2);
	put(b, 0xc02f, 2);
	put(b, 1, 1);
	put(b, 0, 1);			/* null compression */
	extensions(b, name, flags);
	close_len(b, hs, 3);
	if (flags & TRAILING)
		put(b, 0, 4);		/* another message's bytes */
	close_len(b, rec, 2);
	if (flags & SPLIT)		/* the record ends mid-hello */
		b->b[rec + 1] = (unsigned char)(b->b[rec + 1] - 8),
		    b->n -= 8;
	return b->n;
}

static int check(const struct buf *b, size_t n, const char *host,
    char *sni)
{
	const char *why;
	int rc = tls_hello_check(b->b, n, host, sni, &why);

	if (rc < 0 && why == NULL)
		return 99;
	return rc;
}

static void names(void)
{
	struct buf b;
	char sni[HOST_MAX + 1];
	size_t n = hello(&b, "media.test", 0);

	ok(check(&b, n, "media.test", sni) == 0 &&
	    strcmp(sni, "media.test") == 0, "the CONNECT host's name passes");
	n = hello(&b, "Media.TEST.", 0);
	ok(check(&b, n, "media.test", sni) == 0,
	    "the name as DNS compares it: case and a trailing dot");
	n = hello(&b, "admin.test", 0);
	ok(check(&b, n, "media.test", sni) == -1 &&
	    strcmp(sni, "admin.test") == 0,
	    "another name is refused, and the name sent is kept for the record");
	n = hello(&b, "www.media.test", 0);
	ok(check(&b, n, "media.test", sni) == -1,
	    "a subdomain of the CONNECT host is another name");
	n = hello(&b, "127.0.0.1", 0);
	ok(check(&b, n, "media.test", sni) == -1, "an IP literal is refused");
	n = hello(&b, "media.test\001", 0);
	ok(check(&b, n, "media.test", sni) == -1 && strchr(sni, 1) == NULL,
	    "a name with a control byte is refused and shown without it");
	n = hello(&b, "media.test", NO_SNI);
	ok(check(&b, n, "media.test", sni) == -1, "no server name is refused");
	n = hello(&b, "media.test", ECH);
	ok(check(&b, n, "media.test", sni) == -1,
	    "an Encrypted Client Hello is refused, whatever its outer name");
	n = hello(&b, "media.test", TWO_NAMES);
	ok(check(&b, n, "media.test", sni) == -1, "two host_names are refused");
	n = hello(&b, "media.test", TWO_EXTS);
	ok(check(&b, n, "media.test", sni) == -1,
	    "two server_name extensions are refused");
	n = hello(&b, "media.test", NAME_TYPE);
	ok(check(&b, n, "media.test", sni) == -1,
	    "a server_name of another type than host_name is refused");
}

static void framing(void)
{
	struct buf b;
	char sni[HOST_MAX + 1];
	size_t n = hello(&b, "media.test", 0), i;
	int more = 1;

	for (i = 0; i < n; i++)
		more &= check(&b, i, "media.test", sni) == HELLO_MORE;
	ok(more, "every prefix of a good hello waits for more");
	b.b[n] = 23;			/* the next record, already sent */
	ok(check(&b, n + 1, "media.test", sni) == 0,
	    "bytes after the first record are left to the next check");
	n = hello(&b, "media.test", SPLIT);
	ok(check(&b, n, "media.test", sni) == -1,
	    "a hello split across records is refused");
	n = hello(&b, "media.test", TRAILING);
	ok(check(&b, n, "media.test", sni) == -1,
	    "more than the hello in its record is refused");
	memcpy(b.b, "GET / HTTP/1.1\r\n", 16);
	ok(check(&b, 1, "media.test", sni) == -1,
	    "plain http is refused at its first byte");
	n = hello(&b, "media.test", 0);
	b.b[0] = 23;
	ok(check(&b, n, "media.test", sni) == -1,
	    "application data before a handshake is refused");
	n = hello(&b, "media.test", 0);
	b.b[1] = 2;
	ok(check(&b, 3, "media.test", sni) == -1, "SSL 2's framing is refused");
	n = hello(&b, "media.test", 0);
	b.b[3] = 0x40, b.b[4] = 1;
	ok(check(&b, 5, "media.test", sni) == -1,
	    "a record longer than TLS allows is refused at its header");
	n = hello(&b, "media.test", 0);
	b.b[5] = 2;
	ok(check(&b, n, "media.test", sni) == -1,
	    "a handshake that is not a ClientHello is refused");
}

/* Every way of cutting the hello's own lengths short or long refuses
 * it or waits; none passes with another name or reads out of bounds
 * (ASan, in make asan). */
static void lengths(void)
{
	struct buf b, c;
	char sni[HOST_MAX + 1];
	size_t n = hello(&b, "media.test", 0);
	int passed = 0, rc;

	for (size_t at = 5; at < n; at++)
		for (int d = -2; d <= 2; d += 4) {
			c = b;
			c.b[at] = (unsigned char)(c.b[at] + d);
			rc = check(&c, n, "media.test", sni);
			passed += rc == 99 || (rc == 0 &&
			    strcmp(sni, "media.test") != 0);
		}
	ok(passed == 0, "a changed byte never passes another name");
}

/* A ClientHello as OpenSSL's s_client sent it for media.test (the
 * fuzzer's seed, PATH). */
static void real(const char *path)
{
	struct buf b;
	char sni[HOST_MAX + 1];
	FILE *f = fopen(path, "rb");

	b.n = f ? fread(b.b, 1, sizeof(b.b), f) : 0;
	if (f)
		fclose(f);
	ok(b.n > 0 && check(&b, b.n, "media.test", sni) == 0,
	    "OpenSSL's own ClientHello for media.test passes");
	ok(b.n > 0 && check(&b, b.n, "other.test", sni) == -1 &&
	    strcmp(sni, "media.test") == 0,
	    "... and is refused for a CONNECT to other.test");
}

/* A server's handshake record: a ServerHello, or a HelloRetryRequest
 * (RETRY), with EXTRA more bytes of other messages after it. */
static size_t server_hello(struct buf *b, int retry, size_t extra)
{
	static const unsigned char hrr[32] = {
		0xcf, 0x21, 0xad, 0x74, 0xe5, 0x9a, 0x61, 0x11, 0xbe, 0x1d,
		0x8c, 0x02, 0x1e, 0x65, 0xb8, 0x91, 0xc2, 0xa2, 0x11, 0x16,
		0x7a, 0xbb, 0x8c, 0x5e, 0x07, 0x9e, 0x09, 0xe2, 0xc8, 0xa8,
		0x33, 0x9c,
	};
	static const unsigned char other[32] = { 9, 9, 9 };
	size_t rec, hs;

	b->n = 0;
	put(b, 22, 1);
	put(b, 0x0303, 2);
	rec = b->n;
	put(b, 0, 2);
	put(b, 2, 1);			/* server_hello */
	hs = b->n;
	put(b, 0, 3);
	put(b, 0x0303, 2);
	bytes(b, retry ? hrr : other, 32);
	put(b, 0, 1);			/* legacy_session_id_echo */
	put(b, 0x1301, 2);
	put(b, 0, 1);
	put(b, 6, 2);			/* extensions: supported_versions */
	put(b, 43, 2);
	put(b, 2, 2);
	put(b, 0x0304, 2);
	close_len(b, hs, 3);
	for (size_t i = 0; i < extra; i++)
		put(b, i == 0 ? 11 : 0, 1);	/* a Certificate's start */
	close_len(b, rec, 2);
	return b->n;
}

/* A record of TYPE holding LEN bytes. */
static size_t record_of(struct buf *b, unsigned type, size_t len)
{
	b->n = 0;
	put(b, type, 1);
	put(b, 0x0303, 2);
	put(b, (unsigned)len, 2);
	memset(b->b + b->n, 1, len);
	b->n += len;
	return b->n;
}

static int server(struct tls_watch *w, const struct buf *b)
{
	const char *why;
	int rc = tls_watch_server(w, b->b, b->n, &why);

	return rc < 0 && why == NULL ? 99 : rc;
}

static long client(struct tls_watch *w, const struct buf *b, char *sni)
{
	const char *why;
	long rc = tls_watch_client(w, b->b, b->n, "media.test", sni, &why);

	return rc < 0 && why == NULL ? 99 : rc;
}

static void server_side(void)
{
	struct tls_watch w = { 0 };
	struct buf b;
	int rc = 0;

	server_hello(&b, 0, 0);
	ok(server(&w, &b) == 0 && w.done && w.retries == 0,
	    "the server's ServerHello ends the watch");
	w = (struct tls_watch){ 0 };
	server_hello(&b, 0, 40);
	ok(server(&w, &b) == 0 && w.done,
	    "... with TLS 1.2's Certificate after it in the same record");
	w = (struct tls_watch){ 0 };
	server_hello(&b, 0, 0);
	for (size_t i = 0; i < b.n; i++)
		rc |= tls_watch_server(&w, b.b + i, 1, &(const char *){ 0 });
	ok(rc == 0 && w.done, "... read a byte at a time");
	w = (struct tls_watch){ 0 };
	server_hello(&b, 1, 0);
	ok(server(&w, &b) == 0 && !w.done && w.retries == 1,
	    "a HelloRetryRequest is told by its random, and the watch goes on");
	record_of(&b, 20, 1);
	ok(server(&w, &b) == 0 && !w.done,
	    "change_cipher_spec after it passes");
	server_hello(&b, 1, 0);
	ok(server(&w, &b) == -1, "a second HelloRetryRequest is refused");
	w = (struct tls_watch){ 0 };
	record_of(&b, 21, 2);
	ok(server(&w, &b) == 0 && !w.done, "an alert passes, and ends nothing");
	record_of(&b, 23, 20);
	ok(server(&w, &b) == -1,
	    "application data before the ServerHello is refused");
	w = (struct tls_watch){ 0 };
	server_hello(&b, 0, 0);
	b.b[5] = 11;
	ok(server(&w, &b) == -1,
	    "a server handshake that begins with another message is refused");
}

/* A ServerHello split over two records, and another record between. */
static void server_split(void)
{
	struct tls_watch w = { 0 };
	struct buf b, one, two;
	size_t cut = 5 + 10;

	server_hello(&b, 0, 0);
	one = b, two = b;
	one.n = cut;
	one.b[3] = 0, one.b[4] = (unsigned char)(cut - 5);
	two.n = 0;
	put(&two, 22, 1);
	put(&two, 0x0303, 2);
	put(&two, (unsigned)(b.n - cut), 2);
	bytes(&two, b.b + cut, b.n - cut);
	ok(server(&w, &one) == 0 && !w.done && server(&w, &two) == 0 &&
	    w.done, "a ServerHello across two records is read whole");
	w = (struct tls_watch){ 0 };
	record_of(&b, 20, 1);
	ok(server(&w, &one) == 0 && server(&w, &b) == -1,
	    "another record inside a handshake message is refused");
}

static void client_side(void)
{
	struct tls_watch w = { 0 };
	struct buf b, h;
	char sni[HOST_MAX + 1];
	size_t n = hello(&h, "media.test", 0);

	ok(client(&w, &h, sni) == (long)n && w.hellos == 1,
	    "the first ClientHello passes, its record and no more");
	hello(&b, "admin.test", 0);
	ok(client(&w, &b, sni) == -1,
	    "a second ClientHello without a HelloRetryRequest is refused");
	record_of(&b, 23, 300);
	b.n = 100;
	ok(client(&w, &b, sni) == 100, "early data passes as it comes");
	b.n = 205;
	ok(client(&w, &b, sni) == 205, "... to its record's end");
	w.retries = 1;
	record_of(&b, 20, 1);
	ok(client(&w, &b, sni) == 6,
	    "after a HelloRetryRequest, change_cipher_spec passes");
	hello(&b, "admin.test", 0);
	ok(client(&w, &b, sni) == -1 && strcmp(sni, "admin.test") == 0,
	    "a second ClientHello naming another host is refused, and named");
	hello(&b, "media.test", SPLIT);
	ok(client(&w, &b, sni) == -1, "a second ClientHello split is refused");
	n = hello(&b, "media.test", 0);
	ok(client(&w, &b, sni) == (long)n && w.hellos == 2,
	    "a second ClientHello naming the host passes");
	ok(client(&w, &b, sni) == -1, "a third is refused");
	record_of(&b, 23, 10);
	ok(client(&w, &b, sni) == -1, "early data after the second is refused");
	w.done = 1;
	ok(client(&w, &b, sni) == (long)b.n,
	    "once the server's ServerHello is read, everything passes");
}

static void client_framing(void)
{
	struct tls_watch w = { 0 };
	struct buf b;
	char sni[HOST_MAX + 1];
	static const unsigned char v2[] = { 0x80, 0x2e, 0x01, 0x03, 0x01 };

	memcpy(b.b, v2, sizeof(v2));
	b.n = sizeof(v2);
	ok(client(&w, &b, sni) == -1, "an SSL 2 compatible hello is refused");
	w = (struct tls_watch){ 0 };
	hello(&b, "media.test", 0);
	client(&w, &b, sni);
	record_of(&b, 24, 3);
	ok(client(&w, &b, sni) == -1, "a heartbeat record is refused");
	record_of(&b, 21, 2);
	b.b[1] = 2;
	ok(client(&w, &b, sni) == -1, "a record that is not TLS is refused");
	b.b[1] = 3;
	b.n = 3;
	ok(client(&w, &b, sni) == 0, "a record header cut short waits");
}

int main(int argc, char **argv)
{
	names();
	framing();
	lengths();
	server_side();
	server_split();
	client_side();
	client_framing();
	if (argc > 1)
		real(argv[1]);
	return tap_done();
}
