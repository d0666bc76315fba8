/* tlswatch.h: the plaintext of a tunnel's TLS handshake, both ways
 * (DESIGN 11). One ClientHello is not enough: a server that answers it
 * with a HelloRetryRequest reads a second one, and a front end may pick
 * its virtual host again from that one's server name. So the client's
 * records are checked until the server's ServerHello that is not a
 * HelloRetryRequest; after it the keys change (TLS 1.3) or the names are
 * settled (TLS 1.2, whose renegotiation is encrypted). Pure: no system
 * call (test/unit_tls.c and a libFuzzer target drive it). */
#ifndef SBEXEC_TLSWATCH_H
#define SBEXEC_TLSWATCH_H

#include <stddef.h>

/* The start of a handshake message: type, length, version, random. */
#define HS_PREFIX (4 + 2 + 32)

struct tls_watch {
	int hellos;		/* ClientHellos passed: 2 after a retry */
	int retries;		/* HelloRetryRequests read */
	int done;		/* the real ServerHello read: the rest passes */
	size_t pass;		/* client: bytes of a passed record still due */
	/* The server's bytes, read as they come, never held back. */
	unsigned char head[5];	/* a record header */
	size_t head_len, rec_left;
	unsigned char msg[HS_PREFIX];
	size_t msg_len, msg_left;
};

/* How many of the client's bytes BUF[LEN], which begin where the last
 * call's passed ones ended, may pass: 0 while a record that must be read
 * whole has not all arrived, -1 with the reason in *WHY (static). A
 * ClientHello must name HOST; SNI (HOST_MAX + 1 bytes) holds the name of
 * the last one read. Once the watch is done, all of them. */
long tls_watch_client(struct tls_watch *w, const unsigned char *buf,
    size_t len, const char *host, char *sni, const char **why);

/* The server's next bytes BUF[LEN]: 0, or -1 with the reason in *WHY.
 * W->done once they held the ServerHello. */
int tls_watch_server(struct tls_watch *w, const unsigned char *buf,
    size_t len, const char **why);

#endif
