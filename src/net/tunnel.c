/* tunnel.c: the watched start of a CONNECT tunnel. The command's bytes
 * wait in CBUF until tlswatch.c lets each record pass (a ClientHello is
 * read whole, so at most one record waits); the origin's are checked as
 * they come and queued at once, so the answer to a ClientHello is
 * always read before the command can have seen it. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "net/tlshello.h"
#include "net/tunnel.h"
#include "util.h"

void tunnel_start(struct tunnel *t, const char *buf, size_t len)
{
	*t = (struct tunnel){ .cbuf = xmalloc(RECORD_MAX),
	    .sbuf = xmalloc(RECORD_MAX) };
	t->clen = len < RECORD_MAX ? len : RECORD_MAX;
	memcpy(t->cbuf, buf, t->clen);
}

void tunnel_free(struct tunnel *t)
{
	free(t->cbuf);
	free(t->sbuf);
	*t = (struct tunnel){ 0 };
}

/* N bytes read from FD into BUF at *LEN: 1, 0 for nothing yet, -1 once
 * the side closed or failed. */
static int take_in(int fd, unsigned char *buf, size_t *len, size_t *n)
{
	ssize_t got = read(fd, buf + *len, RECORD_MAX - *len);

	*n = 0;
	if (got < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (got <= 0)
		return -1;
	*n = (size_t)got;
	*len += *n;
	return 1;
}

/* Queue the first N bytes of BUF[*LEN] on F as far as it takes them. */
static int queue(struct flow *f, unsigned char *buf, size_t *len, size_t *n)
{
	long put = flow_put(f, buf, *n);

	if (put < 0)
		return -1;
	memmove(buf, buf + put, *len - (size_t)put);
	*len -= (size_t)put;
	*n -= (size_t)put;
	return 0;
}

/* The command's side: check what has come, queue what passed. */
static int from_command(struct tunnel *t, struct relay *r, int cfd,
    const char *host, char *sni)
{
	size_t n;
	long ok;

	if (t->clen < RECORD_MAX && take_in(cfd, t->cbuf, &t->clen, &n) < 0) {
		t->why = t->w.hellos == 0 ? "the tunnel closed before its "
		    "ClientHello" : NULL;
		return TUNNEL_GONE;
	}
	while (t->cpass < t->clen && (ok = tls_watch_client(&t->w, t->cbuf +
	    t->cpass, t->clen - t->cpass, host, sni, &t->why)) != 0) {
		if (ok < 0)
			return TUNNEL_REFUSED;
		t->cpass += (size_t)ok;
	}
	return queue(&r->up, t->cbuf, &t->clen, &t->cpass) < 0 ? TUNNEL_GONE :
	    TUNNEL_MORE;
}

/* The origin's side: check what came, queue it. */
static int from_origin(struct tunnel *t, struct relay *r, int ufd)
{
	size_t n = 0, all;

	if (t->slen == 0 && take_in(ufd, t->sbuf, &t->slen, &n) < 0)
		return TUNNEL_DONE;	/* relay_move sees the end */
	r->bytes_down += (long long)n;
	if (n > 0 && tls_watch_server(&t->w, t->sbuf, n, &t->why) < 0)
		return TUNNEL_REFUSED;
	all = t->slen;
	return queue(&r->down, t->sbuf, &t->slen, &all) < 0 ? TUNNEL_GONE :
	    TUNNEL_MORE;
}

int tunnel_step(struct tunnel *t, struct relay *r, int cfd, int ufd,
    const char *host, char *sni)
{
	int rc, n;

	if ((n = flow_drain(&r->up, ufd)) < 0 ||
	    flow_drain(&r->down, cfd) < 0) {
		t->why = NULL;
		return TUNNEL_GONE;
	}
	r->bytes_up += n;
	if ((rc = from_origin(t, r, ufd)) == TUNNEL_DONE) {
		r->discard = 1;		/* the origin is gone: pass no more */
		return TUNNEL_DONE;
	}
	if (rc != TUNNEL_MORE || (rc = from_command(t, r, cfd, host, sni)) !=
	    TUNNEL_MORE)
		return rc;
	if ((n = flow_drain(&r->up, ufd)) < 0)
		return TUNNEL_GONE;
	r->bytes_up += n;
	return t->w.done && t->clen == 0 && t->slen == 0 ? TUNNEL_DONE :
	    TUNNEL_MORE;
}

void tunnel_events(const struct tunnel *t, const struct relay *r,
    short *cev, short *uev)
{
	*cev = (short)((t->clen < RECORD_MAX ? POLLIN : 0) |
	    (r->down.len > 0 ? POLLOUT : 0));
	*uev = (short)((t->slen == 0 ? POLLIN : 0) |
	    (r->up.len > 0 || t->cpass > 0 ? POLLOUT : 0));
}
