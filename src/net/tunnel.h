/* tunnel.h: a CONNECT tunnel while its TLS handshake is in plaintext
 * (DESIGN 11). Both ways the bytes are read into sbexec, checked by
 * tlswatch.c, and queued on the connection's pipes; once the server's
 * ServerHello has passed, relay_move() copies the rest unread. */
#ifndef SBEXEC_TUNNEL_H
#define SBEXEC_TUNNEL_H

#include "net/flow.h"
#include "net/tlswatch.h"
#include "policy/netpolicy.h"

struct tunnel {
	struct tls_watch w;
	unsigned char *cbuf;	/* the command's bytes not yet queued */
	size_t clen, cpass;	/* how many; how many of them passed */
	unsigned char *sbuf;	/* the origin's, checked, not yet queued */
	size_t slen;
	const char *why;	/* TUNNEL_REFUSED, TUNNEL_GONE: why */
};

enum {
	TUNNEL_MORE,		/* still watching */
	TUNNEL_DONE,		/* watched to the end: relay the rest */
	TUNNEL_REFUSED,		/* a record that may not pass: close */
	TUNNEL_GONE,		/* a side closed or failed: close */
};

/* A tunnel whose first LEN bytes from the command are BUF. */
void tunnel_start(struct tunnel *t, const char *buf, size_t len);
void tunnel_free(struct tunnel *t);

/* Read, check and queue what is ready on either side; R's pipes carry
 * the queued bytes on. HOST is the CONNECT host, SNI as tlswatch.h. */
int tunnel_step(struct tunnel *t, struct relay *r, int cfd, int ufd,
    const char *host, char *sni);

/* What to poll for on each side while watching. */
void tunnel_events(const struct tunnel *t, const struct relay *r,
    short *cev, short *uev);

#endif
