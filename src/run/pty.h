/* pty.h: the command's terminal is a pty of sbexec's own, never the
 * caller's (DESIGN 12); sbexec relays between the two, as sudo's
 * use_pty does. The output side is an ordinary stream of pump.c, under
 * the cap; this is the rest: making the pty, the caller's modes, input,
 * window size. */
#ifndef SBEXEC_PTY_H
#define SBEXEC_PTY_H

#include <poll.h>
#include <stddef.h>

#define PTY_BUF 4096	/* typed input not yet taken by the pty */

struct pty {
	int master;	/* input and window size; -1: no pty */
	int slave;	/* the command's end, until it is spawned */
	int in;		/* the caller's terminal read from (0), or -1 */
	int out;	/* where the pty's output goes (1, 2, 0), or -1 */
	int serves[3];	/* 1: the command's descriptor I is the slave */
	int reading;	/* input is relayed: in the foreground */
	int in_done;	/* the caller's terminal hung up */
	int ended;	/* the relay is over: no raw mode again */
	int out_null;	/* out is /dev/null, sbexec's to close */
	char *buf;	/* PTY_BUF bytes, only while there is a pty */
	size_t off, len;
};

/* When one of 0, 1 and 2 is a terminal, a new pty with the caller's
 * modes and window size: returns a second descriptor of its master for
 * the output stream (non-blocking, close-on-exec). Else -1, and
 * P->master is -1. Fails (die) only when a terminal is there and no pty
 * can be made: the terminal is never handed over instead. */
int pty_open(struct pty *p);

/* The command is spawned (and the slave closed, with the child's other
 * ends): the caller's terminal goes raw when sbexec is its foreground
 * job. */
void pty_start(struct pty *p);

/* One poll entry for the input relay into PFD; returns 0 or 1. */
size_t pty_watch(const struct pty *p, struct pollfd *pfd);

/* Relays typed input. Returns SIGINT or SIGQUIT when the input holds
 * the pty's INTR or QUIT character and its ISIG is set (sbexec sends it
 * to the command: the pty is no one's controlling terminal), else 0. */
int pty_input(struct pty *p, short revents);

/* SIGWINCH: the caller's window size, copied to the pty. */
void pty_winch(const struct pty *p);

/* SIGCONT: raw mode and input when sbexec is the foreground job again,
 * the caller's own modes when it is not. */
void pty_continued(struct pty *p);

/* The caller's modes back; no more input relayed. Safe to call twice,
 * and called at exit (die) too. */
void pty_restore(struct pty *p);

void pty_close(struct pty *p);

#endif
