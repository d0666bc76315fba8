/* pump.c: splice(2) from the command's pipe straight into sbexec's
 * stdout where it helps (pipes), else read/write through one buffer
 * (files, terminals, sockets): the copy never holds more than 64 KiB
 * per stream, whatever the volume, and reads nothing more from the
 * command while those wait for room (the command's pipe fills and the
 * command waits, as it would on its own reader). Exactly `max` bytes
 * pass, never more. Nothing here blocks on dst (outfd.c): a reader that
 * stops reading must not stop the timeout or the forwarding of
 * signals. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audit/audit.h"
#include "audit/outfd.h"
#include "run/pump.h"
#include "run/say.h"
#include "util.h"

void stream_init(struct stream *s, const char *name, int src, int dst,
    long long max, int copy)
{
	struct stat st;

	*s = (struct stream){ .name = name, .src = src, .dst = dst,
	    .max = max, .copy = copy };
	s->dst_file = fstat(dst, &st) == 0 && S_ISREG(st.st_mode);
	/* Spliced into a file, the pipe stays busy while the pages are
	 * copied and the command waits: read/write frees it at once
	 * (make bench: 0.73 of bare bwrap with splice, cat's speed without). */
	if (s->dst_file || !outfd_splices(dst))
		s->copy = 1;
}

void stream_free(struct stream *s)
{
	free(s->buf);
	s->buf = NULL;
}

int stream_waits_dst(const struct stream *s)
{
	return s->blocked || s->pend > 0;
}

static void finish(struct stream *s)
{
	close(s->src);
	s->src = -1;
	s->pend = 0;
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

/* Write what is pending, as much as dst takes now. Not while one of
 * sbexec's lines is half written to the same file: it stays whole. */
static void flush(struct stream *s)
{
	ssize_t w;

	while (s->pend > 0 && !say_holds(s->dst)) {
		w = outfd_write(s->dst, s->buf + s->off, s->pend);
		if (w < 0 && errno == EAGAIN)
			return;
		if (w <= 0) {
			finish(s);	/* EPIPE: the reader is gone */
			return;
		}
		audit_wrote(s->dst, s->buf + s->off, (size_t)w);
		s->off += (size_t)w;
		s->pend -= (size_t)w;
		s->bytes += w;
	}
}

/* The buffer is made on the first byte: a stream that only ever sees
 * its end (stderr, mostly) costs no allocation (and no page of it). */
static ssize_t first_read(struct stream *s, size_t want)
{
	ssize_t n, more;
	char c;

	if ((n = read(s->src, &c, 1)) <= 0)
		return n;
	s->buf = xmalloc(CHUNK);
	s->buf[0] = c;
	more = want > 1 ? read(s->src, s->buf + 1, want - 1) : 0;
	return more > 0 ? 1 + more : 1;
}

static void copy(struct stream *s, size_t want)
{
	ssize_t n = s->buf == NULL ? first_read(s, want) :
	    read(s->src, s->buf, want);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		finish(s);
		return;
	}
	keep_tail(s, s->buf, (size_t)n);
	s->off = 0;
	s->pend = (size_t)n;
	flush(s);	/* what does not fit waits for POLLOUT */
}

static void splice_some(struct stream *s, size_t want)
{
	ssize_t n = splice(s->src, NULL, outfd(s->dst), NULL, want,
	    SPLICE_F_MOVE | SPLICE_F_NONBLOCK);

	s->blocked = 0;
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

void pump(struct stream *s)
{
	size_t want = CHUNK;

	if (s->pend > 0) {
		flush(s);
		return;
	}
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
	want = SPLICE_CHUNK;
	if (s->max > 0 && s->max - s->bytes < SPLICE_CHUNK)
		want = (size_t)(s->max - s->bytes);
	splice_some(s, want);
}
