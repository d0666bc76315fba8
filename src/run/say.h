/* say.h: sbexec's own writes to its stderr while a run is supervised. */
#ifndef SBEXEC_SAY_H
#define SBEXEC_SAY_H

#include <stddef.h>

#include "run/pump.h"

/* From now on sbexec's lines (warnx, die) and the records of an audit
 * on stderr are queued, at most SAY_MAX bytes, and written by the loop
 * when stderr has room (DESIGN 12: nothing sbexec writes may stop the
 * loop that keeps the timeout). ERR is the command's stderr stream, or
 * NULL: what is written counts in its bytes, against its cap. */
void say_begin(struct stream *err);

/* Queue LEN bytes, one whole line. A line that finds no room is dropped
 * and counted (0); a RECORD that finds none is -1, which fails the run
 * as an unwritable record does. */
int say_put(const char *buf, size_t len, int record);

/* 1 when bytes wait for stderr to have room. */
int say_pending(void);

/* stderr has room: write the queued lines (each in one write of at
 * most PIPE_BUF, so that the command's output and sbexec's lines never
 * mix). */
void say_flush(void);

/* 1 while a line is written in part to FD's file (a terminal took only
 * some of it): nothing else may be written there until it is whole. */
int say_holds(int fd);

/* After the loop (and at exit): write what is queued, waiting for room
 * no longer than outfd.c's bound, and through outfd.c from then on. */
void say_end(void);

/* Lines dropped for want of room. */
long say_dropped(void);

#endif
