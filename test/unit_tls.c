/* unit_tls.c: TAP unit test of net/tlshello.c (DESIGN 11): which first
 * bytes of a CONNECT tunnel pass. ClientHellos are built here field by
 * field (RFC 8446 4.1.2), each test changing one thing: the server name,
 * its absence, an encrypted hello, bytes that are not TLS, a hello cut
 * short, split across records or followed by more in its record. */
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "net/tlshello.h"

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
	    "bytes after the first record are relayed with it");
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

int main(int argc, char **argv)
{
	names();
	framing();
	lengths();
	if (argc > 1)
		real(argv[1]);
	return tap_done();
}
