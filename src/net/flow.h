/* flow.h: the copying half of the proxy (DESIGN 11). Once a request is
 * let through, its bytes go both ways through two bounded pipes, moved
 * by splice(2) and never copied into sbexec; nothing here blocks. */
#ifndef SBEXEC_FLOW_H
#define SBEXEC_FLOW_H

#include <stddef.h>

/* One direction: a pipe from one socket to the other. */
struct flow {
	int rd, wr;
	size_t len;		/* in the pipe, not yet written on */
	size_t cap;		/* the pipe's capacity */
	int eof;
};

/* Both directions of one connection: UP from the command to the origin,
 * DOWN back. DISCARD drops what the command sends (after a GET's head). */
struct relay {
	struct flow up, down;
	int discard, up_shut;
	long long bytes_up, bytes_down;	/* written to, read from the origin */
};

#define RELAY_INIT { { -1, -1, 0, 0, 0 }, { -1, -1, 0, 0, 0 }, 0, 0, 0, 0 }

/* Both pipes, or -1 with errno. */
int relay_open(struct relay *r);
void relay_close(struct relay *r);

/* LEN bytes of sbexec's own into F's pipe: how many went in, or -1. */
long flow_put(struct flow *f, const void *buf, size_t len);

/* Empty F's pipe into FD as far as FD takes: bytes written, or -1. */
int flow_drain(struct flow *f, int fd);

/* Move what is ready both ways between the command's CFD and the
 * origin's UFD; 1 once both sides are done, -1 on an error of either
 * side (errno), else 0. */
int relay_move(struct relay *r, int cfd, int ufd);

/* What to poll for on each side while relaying. */
void relay_events(const struct relay *r, short *cev, short *uev);

#endif
