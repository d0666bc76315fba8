/* pump.c: splice(2) from the command's pipe straight into sbexec's
 * stdout where the kernel allows it (pipes, files, sockets), else
 * read/write through one small buffer: the copy never holds more than
 * 64 KiB, whatever the volume. Exactly `max` bytes pass, never more. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "pump.h"

#define CHUNK (64 * 1024)

static void finish(struct stream *s)
{
	close(s->src);
	s->src = -1;
}

static void keep_tail(struct stream *s, const char *buf, size_t n)
{
	if (n >= TAIL_MAX) {
		memcpy(s->tail, buf + n - TAIL_MAX, TAIL_MAX);
		s->tail_len = TAIL_MAX;
		return;
	}
	if (s->tail_len + n > TAIL_MAX) {
		size_t drop = s->tail_len + n - TAIL_MAX;

		memmove(s->tail, s->tail + drop, s->tail_len - drop);
		s->tail_len -= drop;
	}
	memcpy(s->tail + s->tail_len, buf, n);
	s->tail_len += n;
}

/* At the cap: one byte more means the command offered too much. */
static void probe_cap(struct stream *s)
{
	char c;
	ssize_t n = read(s->src, &c, 1);

	if (n > 0)
		s->exceeded = 1;
	if (n >= 0)
		finish(s);
}

static int write_all(int fd, const char *buf, size_t n)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };
	ssize_t w;

	while (n > 0) {
		w = write(fd, buf, n);
		if (w < 0 && errno == EAGAIN) {
			poll(&p, 1, -1);
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

static void copy(struct stream *s, size_t want)
{
	static char buf[CHUNK];
	ssize_t n = read(s->src, buf, want);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		finish(s);
		return;
	}
	keep_tail(s, buf, (size_t)n);
	if (write_all(s->dst, buf, (size_t)n) < 0) {
		finish(s);
		return;
	}
	s->bytes += n;
}

void pump(struct stream *s)
{
	size_t want = CHUNK;
	ssize_t n;

	if (s->max > 0 && s->bytes >= s->max) {
		probe_cap(s);
		return;
	}
	if (s->max > 0 && s->max - s->bytes < CHUNK)
		want = (size_t)(s->max - s->bytes);
	if (s->copy) {
		copy(s, want);
		return;
	}
	n = splice(s->src, NULL, s->dst, NULL, want,
	    SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
	if (n > 0)
		s->bytes += n;
	else if (n == 0)
		finish(s);
	else if (errno == EAGAIN)
		s->blocked = 1;
	else if (errno == EINVAL || errno == ENOSYS)
		s->copy = 1;	/* a terminal, or an O_APPEND file */
	else if (errno != EINTR)
		finish(s);	/* EPIPE: the reader is gone */
}
