/* say.c: a caller that does not read sbexec's stderr must not stop the
 * timeout, the kill-after or the forwarding of signals: a blocking write
 * of a proxy's refusal line or a net record did (a 2 s timeout still
 * running at 5 s, the run ending when the caller read at 20 s). So
 * while the loop runs, what sbexec writes there waits in one bounded
 * queue, drained on POLLOUT one line per write, as pump.c copies the
 * command's own output. A record that finds no room fails closed, as a
 * record that cannot be written; a line is dropped and counted. Each
 * line begins on a line of its own (audit.c knows the stream's last
 * byte, whoever wrote it). What is written counts in the stderr
 * stream's bytes, against its cap: the command's own output meets the
 * cap that much sooner, and the end record's stderrBytes says it all. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit.h"
#include "say.h"
#include "util.h"

#define SAY_MAX (64 * 1024)	/* 16 records of the largest size */

static struct {
	int on;
	struct stream *err;
	char buf[SAY_MAX];
	size_t len;		/* queued: lines, each ending in '\n' */
	long dropped;
} q;

static int queue_line(const char *buf, size_t len)
{
	return say_put(buf, len, 0);
}

void say_begin(struct stream *err)
{
	static int registered;

	q.on = 1;
	q.err = err != NULL && err->src >= 0 ? err : NULL;
	util_msg_sink(queue_line);
	if (!registered++)
		atexit(say_end);
}

int say_active(void)
{
	return q.on;
}

int say_put(const char *buf, size_t len, int record)
{
	if (len == 0)
		return 0;
	if (len > PIPE_BUF - 1 || q.len + len > sizeof(q.buf)) {
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

/* The first queued line, behind a newline when the stream's last byte
 * was none: one write, at most PIPE_BUF bytes. */
static ssize_t write_line(void)
{
	char line[PIPE_BUF];
	size_t n = (size_t)((char *)memchr(q.buf, '\n', q.len) - q.buf) + 1;
	size_t lead = !audit_line_start(), len = lead + n;
	ssize_t w;

	line[0] = '\n';
	memcpy(line + lead, q.buf, n);
	w = write(2, line, len);
	if (w > 0) {
		audit_wrote(2, line, (size_t)w);
		if (q.err != NULL)
			q.err->bytes += w;
		memmove(q.buf, q.buf + n, q.len - n);
		q.len -= n;
	}
	return w;
}

void say_flush(void)
{
	if (say_pending() && write_line() < 0 && errno != EAGAIN &&
	    errno != EINTR)
		q.len = 0;	/* the reader is gone: nothing more to say */
}

void say_end(void)
{
	if (!q.on)
		return;
	q.on = 0;
	util_msg_sink(NULL);
	while (q.len > 0 && (write_line() >= 0 || errno == EINTR ||
	    errno == EAGAIN))
		;
	q.len = 0;
}

long say_dropped(void)
{
	return q.dropped;
}
