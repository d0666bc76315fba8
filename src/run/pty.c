/* pty.c: a terminal of sbexec's own for the command (DESIGN 12). A
 * command given the caller's terminal can make it exclusive (TIOCEXCL),
 * change its line discipline (TIOCSETD) or set TOSTOP on it, and each
 * outlives the run; its own pty takes all that to its grave. sudo's
 * use_pty is the model: the pty starts with the caller's modes and
 * window size, the caller's terminal is put in raw mode while sbexec is
 * its foreground job (so that keys reach the command one by one, as
 * ffmpeg's `q` needs) and given its modes back on every way out (the
 * run's end, a cap, a signal, exit() from die()). The pty is no one's
 * controlling terminal (bwrap's --new-session, the guard's setsid): its
 * INTR and QUIT characters become signals here, sent to the command as
 * a line discipline would send them to a foreground job. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "run/pty.h"
#include "util.h"

/* The caller's terminals as they were: the one read from, and the one
 * written to when it is another. Static: exit() restores them too. */
static struct saved {
	int fd, applied;
	struct termios t;
} saved[2] = { { -1, 0, { 0 } }, { -1, 0, { 0 } } };

static void restore_all(void)
{
	for (size_t i = 0; i < 2; i++) {
		if (!saved[i].applied)
			continue;
		/* TCSANOW: waiting for output to drain could block the
		 * exit on a terminal whose reader stopped (XOFF). */
		tcsetattr(saved[i].fd, TCSANOW, &saved[i].t);
		saved[i].applied = 0;
	}
}

static int same_tty(int a, int b)
{
	struct stat x, y;

	return fstat(a, &x) == 0 && fstat(b, &y) == 0 &&
	    x.st_rdev == y.st_rdev && x.st_ino == y.st_ino;
}

static void save(size_t i, int fd)
{
	if (tcgetattr(fd, &saved[i].t) == 0)
		saved[i].fd = fd;
}

/* The terminal read from goes fully raw (cfmakeraw, its character size
 * and parity kept); one only written to loses output processing alone,
 * which the pty does already (ONLCR twice would show as \r\r\n). */
static void raw_on(const struct pty *p)
{
	struct termios t;

	for (size_t i = 0; i < 2 && !p->ended; i++) {
		if (saved[i].fd < 0 || saved[i].applied)
			continue;
		t = saved[i].t;
		t.c_oflag &= (tcflag_t)~OPOST;
		if (saved[i].fd == p->in) {
			t.c_iflag &= (tcflag_t)~(IGNBRK | BRKINT | PARMRK |
			    ISTRIP | INLCR | IGNCR | ICRNL | IXON);
			t.c_lflag &= (tcflag_t)~(ECHO | ECHONL | ICANON | ISIG |
			    IEXTEN);
			t.c_cc[VMIN] = 1;
			t.c_cc[VTIME] = 0;
		}
		if (tcsetattr(saved[i].fd, TCSANOW, &t) == 0)
			saved[i].applied = 1;
	}
}

/* sbexec is the terminal's foreground job, or the terminal is not its
 * controlling one (no job control over it: a pty a program passed). */
static int foreground(const struct pty *p)
{
	int fd = p->in >= 0 ? p->in : p->out;
	pid_t pg = tcgetpgrp(fd);

	return pg < 0 ? errno == ENOTTY : pg == getpgrp();
}

/* Which of the command's descriptors the slave serves, and where the
 * pty's output goes: stdout's terminal, else stderr's, else (stdin
 * alone a terminal) stdin's when it is open for writing, else nowhere.
 * A stderr on another terminal than stdout's gets a pipe (spawn.c). */
static void place(struct pty *p)
{
	int acc;

	p->in = isatty(0) ? 0 : -1;
	p->out = isatty(1) ? 1 : isatty(2) ? 2 : -1;
	p->serves[0] = p->in == 0;
	p->serves[1] = p->out == 1;
	p->serves[2] = isatty(2) && (p->out == 2 || same_tty(2, p->out));
	if (p->out >= 0 || p->in < 0)
		return;
	acc = fcntl(0, F_GETFL) & O_ACCMODE;
	p->out = acc == O_RDWR || acc == O_WRONLY ? 0 :
	    open("/dev/null", O_WRONLY | O_CLOEXEC);
	p->out_null = p->out != 0;
}

/* The slave by TIOCGPTPEER, not by its path: no lookup in /dev/pts to
 * race, and nothing for the sandbox to open (Landlock grants no pts). */
static void make_pty(struct pty *p)
{
	int ref = p->in >= 0 ? p->in : p->out;
	struct winsize ws;
	struct termios t;

	p->master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (p->master < 0 || unlockpt(p->master) < 0)
		die(EXIT_SBEXEC, "cannot make a pty for the command's terminal "
		    "(/dev/ptmx)");
	p->slave = ioctl(p->master, TIOCGPTPEER,
	    O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (p->slave < 0)
		die(EXIT_SBEXEC, "cannot open the slave of the command's pty "
		    "(TIOCGPTPEER, Linux 4.13)");
	if (tcgetattr(ref, &t) == 0)
		tcsetattr(p->slave, TCSANOW, &t);
	if (ioctl(isatty(p->out) ? p->out : ref, TIOCGWINSZ, &ws) == 0)
		ioctl(p->master, TIOCSWINSZ, &ws);
}

int pty_open(struct pty *p)
{
	static int registered;
	int fd;

	*p = (struct pty){ .master = -1, .slave = -1, .in = -1, .out = -1 };
	place(p);
	if (p->in < 0 && p->out < 0)
		return -1;
	if (p->out < 0)
		die(EXIT_SBEXEC, "/dev/null");
	if (p->in >= 0)
		save(0, p->in);
	if (isatty(p->out) && (p->in < 0 || !same_tty(p->in, p->out)))
		save(1, p->out);
	if (!registered && atexit(restore_all) == 0)
		registered = 1;
	make_pty(p);
	p->buf = xmalloc(PTY_BUF);
	fd = fcntl(p->master, F_DUPFD_CLOEXEC, 3);
	/* One open file: non-blocking for the input writes too. */
	if (fd < 0 || fcntl(fd, F_SETFL, O_NONBLOCK) < 0)
		die(EXIT_SBEXEC, "pty");
	return fd;
}

void pty_start(struct pty *p)
{
	pty_continued(p);
}

void pty_continued(struct pty *p)
{
	if (p->master < 0 || p->ended)
		return;
	if (foreground(p)) {
		raw_on(p);
		p->reading = p->in >= 0 && !p->in_done;
	} else {
		/* Moved to the background (stopped, then bg): the shell
		 * owns the terminal; reading it would be EIO anyway. */
		restore_all();
		p->reading = 0;
	}
}

size_t pty_watch(const struct pty *p, struct pollfd *pfd)
{
	if (p->master < 0 || (p->len == 0 && !p->reading))
		return 0;
	*pfd = p->len > 0 ?
	    (struct pollfd){ .fd = p->master, .events = POLLOUT } :
	    (struct pollfd){ .fd = p->in, .events = POLLIN };
	return 1;
}

static void flush_input(struct pty *p)
{
	ssize_t w = write(p->master, p->buf + p->off, p->len);

	if (w > 0) {
		p->off += (size_t)w;
		p->len -= (size_t)w;
	} else if (w < 0 && errno != EAGAIN && errno != EINTR) {
		p->len = 0;	/* the pty is gone: nothing to type into */
		p->in_done = 1;
		p->reading = 0;
	}
}

/* What a line discipline in ISIG mode would have made a signal of. */
static int signal_char(const struct pty *p)
{
	struct termios t;
	unsigned char c;

	if (tcgetattr(p->master, &t) < 0 || !(t.c_lflag & ISIG))
		return 0;
	for (size_t i = 0; i < p->len; i++) {
		c = (unsigned char)p->buf[i];
		if (c == _POSIX_VDISABLE)
			continue;
		if (c == t.c_cc[VINTR])
			return SIGINT;
		if (c == t.c_cc[VQUIT])
			return SIGQUIT;
	}
	return 0;
}

/* Only what FIONREAD says is there is read: the caller's terminal is
 * shared with the shell, so it cannot be made non-blocking, and the
 * loop must never wait on it. */
static int take_input(struct pty *p)
{
	int avail = 0;
	ssize_t n = 0;

	errno = 0;
	if (ioctl(p->in, FIONREAD, &avail) == 0 && avail > 0)
		n = read(p->in, p->buf, (size_t)avail < PTY_BUF ?
		    (size_t)avail : PTY_BUF);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n <= 0) {
		/* EIO: in the background now; else hung up. */
		p->in_done = !(n < 0 && errno == EIO);
		p->reading = 0;
		return 0;
	}
	p->off = 0;
	p->len = (size_t)n;
	return signal_char(p);
}

int pty_input(struct pty *p, short revents)
{
	int sig = 0;

	if (revents == 0)
		return 0;
	if (p->len == 0)
		sig = take_input(p);
	if (p->len > 0)
		flush_input(p);
	return sig;
}

void pty_winch(const struct pty *p)
{
	struct winsize ws;
	int from = p->out >= 0 && isatty(p->out) ? p->out : p->in;

	if (p->master >= 0 && ioctl(from, TIOCGWINSZ, &ws) == 0)
		ioctl(p->master, TIOCSWINSZ, &ws);
}

void pty_restore(struct pty *p)
{
	restore_all();
	p->ended = 1;
	p->reading = 0;
}

void pty_close(struct pty *p)
{
	pty_restore(p);
	if (p->master >= 0)
		close(p->master);
	if (p->out_null)
		close(p->out);
	p->master = -1;
	free(p->buf);
	p->buf = NULL;
}
