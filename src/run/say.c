/* say.c: a caller that does not read sbexec's stderr must not stop the
 * timeout, the kill-after or the forwarding of signals: a blocking write
 * of a proxy's refusal line or a net record did (a 2 s timeout still
 * running at 5 s, the run ending when the caller read at 20 s). So
 * while the loop runs, what sbexec writes there waits in one bounded
 * queue, drained on POLLOUT without blocking (outfd.c), as pump.c
 * copies the command's own output. A record that finds no room fails closed, as a
 * record that cannot be written; a line is dropped and counted. Each
 * line begins on a line of its own (audit.c knows the stream's last
 * byte, whoever wrote it). What is written counts in the stderr
 * stream's bytes, against its cap: the command's own output meets the
 * cap that much sooner, and the end record's stderrBytes says it all.
 * A line a terminal took in part is finished before anything else is
 * written to that file (say_holds), so that it stays one line. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "audit/audit.h"
#include "audit/outfd.h"
#include "run/say.h"
#include "util.h"

#define SAY_MAX (64 * 1024)	/* 16 records of the largest size */

static struct {
	int on;
	struct stream *err;
	char *buf;		/* SAY_MAX bytes, once a line comes */
	size_t len;		/* queued: lines, each ending in '\n' */
	int partial;		/* the first line is written in part */
	long dropped;
} q;

static int queue_line(const char *buf, size_t len)
{
	return say_put(buf, len, 0);
}

static int queue_record(const char *buf, size_t len)
{
	return say_put(buf, len, 1);
}

void say_begin(struct stream *err)
{
	static int registered;

	q.on = 1;
	q.err = err != NULL && err->src >= 0 ? err : NULL;
	util_msg_sink(queue_line);
	audit_divert(queue_record);
	if (!registered++)
		atexit(say_end);
}

/* The queue's room, mapped when it takes its first line: a run that
 * says nothing while the loop runs (most) touches no page of it, and a
 * map that fails is no room (a record fails closed, a line is dropped
 * and counted). */
static int room(void)
{
	void *p;

	if (q.buf == NULL && (p = mmap(NULL, SAY_MAX, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)) != MAP_FAILED)
		q.buf = p;
	return q.buf != NULL;
}

int say_put(const char *buf, size_t len, int record)
{
	if (len == 0)
		return 0;
	if (len > PIPE_BUF - 1 || !room() || q.len + len > SAY_MAX) {
		if (record)
			return -1;
		q.dropped++;
		return 0;
	}
	memcpy(q.buf + q.len, buf, len);
	q.len += len;
	return 0;
}

int say_pending(void)
{
	return q.on && q.len > 0;
}

int say_holds(int fd)
{
	return q.partial && outfd_same(fd, 2);
}

/* The first queued line (or what is left of it), behind a newline when
 * the stream's last byte was none: one write, at most PIPE_BUF bytes,
 * whole on a pipe; a terminal may take a part. */
static ssize_t write_line(void)
{
	char line[PIPE_BUF];
	size_t n = (size_t)((char *)memchr(q.buf, '\n', q.len) - q.buf) + 1;
	size_t lead = !q.partial && !audit_line_start(), len = lead + n;
	ssize_t w;

	line[0] = '\n';
	memcpy(line + lead, q.buf, n);
	w = outfd_write(2, line, len);
	if (w > 0) {
		audit_wrote(2, line, (size_t)w);
		if (q.err != NULL)
			q.err->bytes += w;
		/* The lead is sent first: past it, W counts the line's. */
		n = (size_t)w > lead ? (size_t)w - lead : 0;
		memmove(q.buf, q.buf + n, q.len - n);
		q.len -= n;
		q.partial = (size_t)w < len;
	}
	return w;
}

/* Write lines while stderr takes them. */
void say_flush(void)
{
	while (say_pending() && write_line() > 0)
		;
	if (say_pending() && errno != EAGAIN)
		q.len = 0;	/* the reader is gone: nothing more to say */
}

/* The loop is over: the rest, waiting for room no longer than outfd.c
 * lets (the run's bound); sbexec's lines go out through outfd.c's
 * bounded writes from now on. */
void say_end(void)
{
	if (!q.on)
		return;
	q.on = 0;
	util_msg_sink(outfd_line);
	audit_divert(NULL);
	while (q.len > 0 && (write_line() > 0 ||
	    (errno == EAGAIN && outfd_wait(2) == 0)))
		;
	q.len = 0;
	q.partial = 0;
}

long say_dropped(void)
{
	return q.dropped;
}
