/* pump.h: copy one output stream of the command to sbexec's own,
 * counting bytes against a cap (DESIGN 5). */
#ifndef SBEXEC_PUMP_H
#define SBEXEC_PUMP_H

#include <stddef.h>

#define TAIL_MAX 512

struct stream {
	const char *name;	/* "stdout" or "stderr" */
	int src, dst;		/* src: our end of the pipe, non-blocking */
	long long max;		/* cap in bytes; 0: none */
	long long bytes;	/* written to dst */
	int blocked;		/* dst is full: wait until it is writable */
	int exceeded;		/* more than max was offered */
	int copy;		/* read/write instead of splice */
	char tail[TAIL_MAX];	/* the last bytes copied (copy mode only) */
	size_t tail_len;
};

/* Move what is ready from src to dst. Closes src (and sets it to -1) at
 * end of file, or when dst's reader is gone so that the command meets a
 * broken pipe as it would without sbexec. */
void pump(struct stream *s);

#endif
