/* flow.c: the bytes of a connection the proxy let through, both ways,
 * through a pipe each way (at most FLOW_SIZE in transit), spliced from
 * one socket to the other. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net/flow.h"

#define FLOW_SIZE (256 * 1024)	/* a pipe's capacity, each way */
#define MOVES_MAX 8		/* rounds per wake-up: then the loop's turn */

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static int flow_open(struct flow *f)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC | O_NONBLOCK) < 0)
		return -1;
	fcntl(p[1], F_SETPIPE_SZ, FLOW_SIZE);
	f->rd = p[0];
	f->wr = p[1];
	f->cap = (size_t)fcntl(p[1], F_GETPIPE_SZ);
	return 0;
}

int relay_open(struct relay *r)
{
	return flow_open(&r->up) < 0 || flow_open(&r->down) < 0 ? -1 : 0;
}

void relay_close(struct relay *r)
{
	close_fd(&r->up.rd);
	close_fd(&r->up.wr);
	close_fd(&r->down.rd);
	close_fd(&r->down.wr);
}

long flow_put(struct flow *f, const void *buf, size_t len)
{
	ssize_t n = len > 0 ? write(f->wr, buf, len) : 0;

	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	f->len += (size_t)n;
	return (long)n;
}

static int fill(struct flow *f, int fd, int discard)
{
	char scratch[4096];
	ssize_t n = discard ? read(fd, scratch, sizeof(scratch)) :
	    splice(fd, NULL, f->wr, NULL, f->cap - f->len,
	    SPLICE_F_MOVE | SPLICE_F_NONBLOCK);

	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	if (n == 0)
		f->eof = 1;
	else if (!discard)
		f->len += (size_t)n;
	return (int)n;
}

int flow_drain(struct flow *f, int fd)
{
	ssize_t n = f->len > 0 ? splice(f->rd, NULL, fd, NULL, f->len,
	    SPLICE_F_MOVE | SPLICE_F_NONBLOCK) : 0;

	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	f->len -= (size_t)n;
	return (int)n;
}

/* One round both ways: 1 when something moved, -1 on an error. */
static int round_trip(struct relay *r, int cfd, int ufd)
{
	int n, moved = 0;

	if (!r->up.eof && r->up.len < r->up.cap) {
		if ((n = fill(&r->up, cfd, r->discard)) < 0)
			return -1;
		moved |= n > 0 || r->up.eof;
	}
	if ((n = flow_drain(&r->up, ufd)) < 0)
		return -1;
	r->bytes_up += n;
	moved |= n > 0;
	if (!r->down.eof && r->down.len < r->down.cap) {
		if ((n = fill(&r->down, ufd, 0)) < 0)
			return -1;
		r->bytes_down += n;
		moved |= n > 0 || r->down.eof;
	}
	if ((n = flow_drain(&r->down, cfd)) < 0)
		return -1;
	return moved | (n > 0);
}

/* Until nothing moves: fewer wake-ups per byte than one splice a poll. */
int relay_move(struct relay *r, int cfd, int ufd)
{
	int moved = 1;

	for (int round = 0; moved > 0 && round < MOVES_MAX; round++)
		if ((moved = round_trip(r, cfd, ufd)) < 0)
			return -1;
	if (r->up.eof && r->up.len == 0 && !r->up_shut) {
		shutdown(ufd, SHUT_WR);
		r->up_shut = 1;
	}
	return r->down.eof && r->down.len == 0;
}

void relay_events(const struct relay *r, short *cev, short *uev)
{
	*cev = (short)((r->up.len < r->up.cap && !r->up.eof ? POLLIN : 0) |
	    (r->down.len > 0 ? POLLOUT : 0));
	*uev = (short)((r->down.len < r->down.cap && !r->down.eof ? POLLIN :
	    0) | (r->up.len > 0 ? POLLOUT : 0));
}
