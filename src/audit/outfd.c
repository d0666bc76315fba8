/* outfd.c: how sbexec writes to the caller's 0, 1 and 2 without ever
 * waiting on a reader that does not read. A blocking write(2) to a
 * terminal nobody read stopped timeoutMs, killAfterMs and
 * runCpuSeconds while the command ran on (issue 29, 3: sbexec asleep in
 * n_tty_write, the command alive at 9 s under a 3 s timeout). Setting
 * O_NONBLOCK on the caller's descriptor is no answer: the flag belongs
 * to the open file description, which the caller's shell (a terminal)
 * or other writers (a pipe) share, and they would meet EAGAIN. So each
 * descriptor is decided once, when first written:
 *
 *   a regular file or block device   written as it is: no reader to
 *                                    wait for, and the caller's offset
 *                                    and O_APPEND must stay shared;
 *   a pipe, FIFO or terminal         reopened through /proc/self/fd/N,
 *                                    O_NONBLOCK: a description of
 *                                    sbexec's own, on the same file;
 *   a socket                         send(2) with MSG_DONTWAIT, which is
 *                                    per call (a socket cannot be
 *                                    reopened: ENXIO);
 *   anything else                    written only when poll says there
 *                                    is room, under an interval timer
 *                                    whose SIGALRM (no SA_RESTART) ends
 *                                    a write that still waits.
 *
 * The last covers the reopen that fails: a terminal of another user
 * (EACCES), one made exclusive (TIOCEXCL: EBUSY), no /proc, a FIFO
 * without a reader (ENXIO), a pty's master (whose reopen would make a
 * new pty), a device. The timer rather than writing PIPE_BUF at a time:
 * poll's POLLOUT on a terminal promises a single byte of room, and a
 * pipe's room can be taken by another writer between poll and write.
 * A write the timer ends returns what it wrote (a short count): no byte
 * is lost, and the loop waits GUARD_MS at most per write. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "fmt.h"
#include "audit/outfd.h"
#include "util.h"

/* The loop's own granularity (check_cpu reads the CPU time every
 * 100 ms): a write the timer guards costs the loop no more. */
#define GUARD_MS 50

/* Once the run's bound has passed, what is left (the end record, the
 * last lines) gets this long, once for all: a terminal that scrolls or
 * a slow pipe takes a line in far less; one nobody reads costs a
 * second more, not the run's end. */
#define LAST_WORDS_MS 1000

enum how { UNSET, PLAIN, OWN, SEND, GUARD };

static struct out {
	enum how how;
	int fd;			/* what is written and polled */
	struct stat st;		/* the caller's file, for outfd_same */
} o[3];

/* No bound before a policy names the run's limits: a write then waits
 * as any program's would. */
static long long bound = LLONG_MAX, grace_end;

/* A description of sbexec's own of FD's pipe or terminal, the same
 * file (checked), never below 3; -1 when it cannot be had. Only for a
 * descriptor the caller opened for writing: the reopen widens nothing. */
static int reopen(int fd, const struct stat *st)
{
	char path[32];
	struct stat now;
	int acc = fcntl(fd, F_GETFL) & O_ACCMODE, n, m;

	if (acc != O_WRONLY && acc != O_RDWR)
		return -1;
	fmt_snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (n >= 0 && n < 3) {
		m = fcntl(n, F_DUPFD_CLOEXEC, 3);
		close(n);
		n = m;
	}
	if (n < 0)
		return -1;
	if (fstat(n, &now) < 0 || now.st_dev != st->st_dev ||
	    now.st_ino != st->st_ino || now.st_rdev != st->st_rdev) {
		close(n);
		return -1;
	}
	return n;
}

/* A pty's master: reopening its path (/dev/ptmx) makes a new pty. */
static int pty_master(int fd)
{
	int n;

	return ioctl(fd, (int)TIOCGPTN, &n) == 0;
}

static struct out *decide(int fd)
{
	struct out *d = &o[fd];
	int n;

	if (d->how != UNSET)
		return d;
	d->fd = fd;
	d->how = PLAIN;
	if (fstat(fd, &d->st) < 0)
		return d;	/* closed: a write fails at once */
	if (S_ISREG(d->st.st_mode) || S_ISBLK(d->st.st_mode))
		return d;
	d->how = S_ISSOCK(d->st.st_mode) ? SEND : GUARD;
	if ((S_ISFIFO(d->st.st_mode) || (isatty(fd) && !pty_master(fd))) &&
	    (n = reopen(fd, &d->st)) >= 0) {
		d->fd = n;
		d->how = OWN;
	}
	return d;
}

/* sbexec's own process only: a child between fork and exec (a die()
 * there) has its 0, 1 and 2 made the command's, which are written. */
static struct out *find(int fd)
{
	static pid_t owner;

	if (owner == 0)
		owner = getpid();
	return fd >= 0 && fd < 3 && getpid() == owner ? decide(fd) : NULL;
}

int outfd(int fd)
{
	struct out *d = find(fd);

	return d != NULL ? d->fd : fd;
}

int outfd_splices(int fd)
{
	struct out *d = find(fd);

	return d == NULL || d->how == OWN || d->how == PLAIN;
}

static void on_alarm(int sig)
{
	(void)sig;	/* only to end the write it interrupts (EINTR) */
}

/* One write, ended by SIGALRM if it waits GUARD_MS. The timer repeats,
 * so that a tick that comes before write(2) waits is not the last. */
static ssize_t guarded(int fd, const void *buf, size_t len)
{
	struct itimerval on = { { 0, GUARD_MS * 1000 },
	    { 0, GUARD_MS * 1000 } }, off = { { 0, 0 }, { 0, 0 } };
	struct sigaction sa = { .sa_handler = on_alarm }, old;
	struct pollfd p = { .fd = fd, .events = POLLOUT };
	sigset_t alrm, mask;
	ssize_t n;
	int err;

	if (poll(&p, 1, 0) <= 0 || !(p.revents & (POLLOUT | POLLERR))) {
		errno = EAGAIN;
		return -1;
	}
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	sigaction(SIGALRM, &sa, &old);
	sigprocmask(SIG_UNBLOCK, &alrm, &mask);
	setitimer(ITIMER_REAL, &on, NULL);
	n = write(fd, buf, len);
	err = errno;
	setitimer(ITIMER_REAL, &off, NULL);
	sigprocmask(SIG_SETMASK, &mask, NULL);
	sigaction(SIGALRM, &old, NULL);
	errno = n < 0 && err == EINTR ? EAGAIN : err;
	return n;
}

ssize_t outfd_write(int fd, const void *buf, size_t len)
{
	struct out *d = find(fd);
	ssize_t n;

	do {
		if (d == NULL || d->how == PLAIN || d->how == OWN)
			n = write(d != NULL ? d->fd : fd, buf, len);
		else if (d->how == SEND)
			n = send(fd, buf, len, MSG_DONTWAIT | MSG_NOSIGNAL);
		else
			n = guarded(fd, buf, len);
	} while (n < 0 && errno == EINTR);
	return n;
}

void outfd_limit(long long until)
{
	bound = until;
	grace_end = 0;
}

/* The bound, or once it has passed, the last words' one. */
static long long wait_end(long long now)
{
	if (now < bound)
		return bound;
	if (grace_end == 0)
		grace_end = now + LAST_WORDS_MS;
	return grace_end;
}

int outfd_wait(int fd)
{
	struct out *d = find(fd);
	struct pollfd p = { .fd = outfd(fd), .events = POLLOUT };
	long long now, left;

	if (d == NULL || d->how == PLAIN)
		return 0;
	for (;;) {
		now = now_ms();
		if ((left = wait_end(now) - now) <= 0)
			return -1;
		if (poll(&p, 1, left > 60000 ? 60000 : (int)left) > 0)
			return 0;
	}
}

size_t outfd_put(int fd, const void *buf, size_t len)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = outfd_write(fd, (const char *)buf + done, len - done);
		if (n > 0)
			done += (size_t)n;
		else if (n == 0 || errno != EAGAIN || outfd_wait(fd) < 0)
			break;
	}
	return done;
}

int outfd_same(int a, int b)
{
	struct out *x = find(a), *y = find(b);

	return x != NULL && y != NULL && x->how != PLAIN && y->how != PLAIN &&
	    x->st.st_dev == y->st.st_dev && x->st.st_ino == y->st.st_ino &&
	    x->st.st_rdev == y->st.st_rdev;
}

int outfd_line(const char *line, size_t len)
{
	return outfd_put(2, line, len) == len ? 0 : -1;
}
