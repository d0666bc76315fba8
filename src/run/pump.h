/* pump.h: copy one output stream of the command to sbexec's own,
 * counting bytes against a cap (DESIGN 5). */
#ifndef SBEXEC_PUMP_H
#define SBEXEC_PUMP_H

#include <stddef.h>

#define TAIL_MAX 512
#define CHUNK (64 * 1024)
#define SPLICE_CHUNK (1024 * 1024)

struct stream {
	const char *name;	/* "stdout" or "stderr" */
	int src, dst;		/* src: our end of the pipe, non-blocking */
	long long max;		/* cap in bytes; 0: none */
	long long bytes;	/* written to dst */
	int copy;		/* read/write instead of splice */
	int blocked;		/* dst is full: wait until it is writable */
	int exceeded;		/* more than max was offered */
	int dst_file;		/* dst is a regular file: writes never wait */
	char *buf;		/* copy mode: read, not yet written */
	size_t off, pend;
	char tail[TAIL_MAX];	/* the last bytes copied (copy mode only) */
	size_t tail_len;
};

/* A stream from SRC to DST; COPY asks for read/write from the start. */
void stream_init(struct stream *s, const char *name, int src, int dst,
    long long max, int copy);

void stream_free(struct stream *s);

/* 1 when the next pump() waits for dst to be writable, not src readable. */
int stream_waits_dst(const struct stream *s);

/* Move what is ready from src to dst without ever blocking on dst: the
 * main loop must stay free for timers and signals. Closes src (and sets
 * it to -1) at end of file, or when dst's reader is gone so that the
 * command meets a broken pipe as it would without sbexec. */
void pump(struct stream *s);

#endif
