/* outfd.h: sbexec's writes to the caller's descriptors 0, 1 and 2. None
 * may block the loop that keeps the run's limits (DESIGN 12, issue 29),
 * and none may change the caller's own file status flags. */
#ifndef SBEXEC_OUTFD_H
#define SBEXEC_OUTFD_H

#include <stddef.h>
#include <sys/types.h>

/* The descriptor to poll for POLLOUT, or splice into, for the caller's
 * FD: a private non-blocking one where it could be made. Any FD but 0, 1
 * and 2 is its own. */
int outfd(int fd);

/* 1 when a splice(2) into outfd(FD) cannot wait for FD's reader. */
int outfd_splices(int fd);

/* Write at most LEN bytes of BUF to FD without waiting for its reader
 * (a tenth of a second at most, where FD could not be made
 * non-blocking): the bytes written, or -1 with errno (EAGAIN: no room
 * now; an error of FD's: the reader is gone). */
ssize_t outfd_write(int fd, const void *buf, size_t len);

/* Wait until FD has room, at most until the bound of outfd_limit:
 * 0, or -1 once the bound has passed. */
int outfd_wait(int fd);

/* All LEN bytes of BUF, waiting for room as outfd_wait does; returns
 * the bytes written. */
size_t outfd_put(int fd, const void *buf, size_t len);

/* The instant (now_ms()) after which no write waits for a reader: the
 * run's last (timeoutMs, then killAfterMs). */
void outfd_limit(long long until);

/* 1 when the caller's A and B are one pipe or terminal. */
int outfd_same(int a, int b);

/* A sink for util_msg_sink: one line to stderr, as outfd_put writes. */
int outfd_line(const char *line, size_t len);

#endif
