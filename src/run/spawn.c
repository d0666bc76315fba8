/* spawn.c: the child's side of supervision, the way coreutils timeout
 * does it: signals blocked before fork and restored in the child,
 * SIGTTIN and SIGTTOU ignored by sbexec and given back to the child,
 * PDEATHSIG set and getppid() checked, descriptors placed (a pty of
 * sbexec's own for every standard stream that is a terminal, pipes for
 * the output streams that are not) and the rest closed, limits applied,
 * then exec of bwrap, of the bypassed binary, or the Landlock guard. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fmt.h"
#include "run/guard.h"
#include "run/sup.h"
#include "util.h"

static sigset_t orig_mask;
static struct sigaction orig_pipe, orig_ttin, orig_ttou;

/* The terminal must never stop sbexec (DESIGN 12): with TOSTOP set by
 * anyone, a write of its own from the background would stop it with
 * SIGTTOU and its timeout with it; as coreutils timeout does. */
void supervise_init(void)
{
	sigprocmask(SIG_SETMASK, NULL, &orig_mask);
	sigaction(SIGPIPE, NULL, &orig_pipe);
	signal(SIGPIPE, SIG_IGN);
	sigaction(SIGTTIN, NULL, &orig_ttin);
	sigaction(SIGTTOU, NULL, &orig_ttou);
	signal(SIGTTIN, SIG_IGN);
	signal(SIGTTOU, SIG_IGN);
}

/* In the child: no exit(), which would flush the parent's stdio. */
static _Noreturn void child_fail(int status, const char *what)
{
	fmt_dprintf(2, "sbexec: %s: %s\n", what, strerror(errno));
	_exit(status);
}

static void set_limits(const struct limits *l)
{
	const struct { int res; long long v; } t[] = {
		{ RLIMIT_CPU, l->cpu_seconds },
		{ RLIMIT_AS, l->memory_bytes },
		{ RLIMIT_FSIZE, l->file_size_bytes },
		{ RLIMIT_NOFILE, l->open_files },
		{ RLIMIT_NPROC, l->processes },
	};
	struct rlimit rl;

	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
		if (t[i].v == 0)
			continue;
		rl.rlim_cur = rl.rlim_max = (rlim_t)t[i].v;
		if (setrlimit(t[i].res, &rl) < 0)
			child_fail(EXIT_SBEXEC, "setrlimit");
	}
}

/* Put FDS at TARGETS in the child (without close-on-exec). Each is
 * first copied out of the way: a source may sit on another's target. */
static void place_fds(const int *fds, const int *targets, size_t n)
{
	int high[5];

	for (size_t i = 0; i < n; i++)
		if ((high[i] = fds[i] < 0 ? -1 : fcntl(fds[i], F_DUPFD, 16)) < 0
		    && fds[i] >= 0)
			child_fail(EXIT_SBEXEC, "fcntl");
	for (size_t i = 0; i < n; i++)
		if (high[i] >= 0 && dup2(high[i], targets[i]) < 0)
			child_fail(EXIT_SBEXEC, "dup2");
}

/* Nothing but 0-2, and for bwrap its status and seccomp descriptors and
 * the mount sources, crosses the exec. */
static void close_fds(const struct sup *s)
{
	unsigned from = s->sandboxed ? 5U : 3U;

	if (syscall(SYS_close_range, from, ~0U, CLOSE_RANGE_CLOEXEC) < 0)
		child_fail(EXIT_SBEXEC, "close_range");
	for (size_t i = 0; s->run != NULL && s->run->keep != NULL &&
	    i < s->run->keep->n; i++)
		if (fcntl(s->run->keep->v[i], F_SETFD, 0) < 0)
			child_fail(EXIT_SBEXEC, "fcntl");
}

static _Noreturn void child(struct sup *s, char *const *argv,
    char *const *envp, const int fds[5], pid_t parent)
{
	char *const none[] = { NULL };

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(EXIT_SBEXEC);
	cgroup_join(s->cg);
	/* Out of the terminal's process group: a Ctrl-C reaches sbexec,
	 * which gives it to the command, not to bwrap, which would die.
	 * With a pty, out of the caller's session too: no /dev/tty of the
	 * caller's for a bypassed command (bwrap and the guard make new
	 * sessions of their own). */
	if (s->pty.master >= 0)
		setsid();
	else if (s->sandboxed)
		setpgid(0, 0);
	place_fds(fds, (const int[]){ 0, 1, 2, STATUS_FD, SECCOMP_FD }, 5);
	close_fds(s);
	set_limits(&s->pol->limits);
	sigaction(SIGTTIN, &orig_ttin, NULL);
	sigaction(SIGTTOU, &orig_ttou, NULL);
	if (s->run != NULL && s->run->landlock != NULL)
		guard_run(s->run->landlock, argv, envp, &orig_mask, &orig_pipe);
	sigaction(SIGPIPE, &orig_pipe, NULL);
	sigprocmask(SIG_SETMASK, &orig_mask, NULL);
	/* bwrap on the host gets no environment: the command's reaches it
	 * by descriptor (launch.c). */
	execve(argv[0], argv, s->sandboxed ? none : envp);
	child_fail(s->sandboxed ? EXIT_SBEXEC : errno == ENOENT ?
	    EXIT_NOTFOUND : EXIT_DENIED, argv[0]);
}

struct child_args {
	struct sup *s;
	char *const *argv, *const *envp;
	const int *fds;
	pid_t parent;
};

static int child_main(void *arg)
{
	struct child_args *a = arg;

	child(a->s, a->argv, a->envp, a->fds, a->parent);
}

/* The child execs at once (bwrap, or a bypassed binary): it borrows
 * sbexec's memory until then, on vfork_stack(), and sbexec waits
 * (CLONE_VM|CLONE_VFORK), so nothing is copied. It touches only its own
 * descriptors, limits and signal state, which clone keeps apart. The
 * Landlock backend's child lives on as the tree's init: a real fork. */
/* cgroup v2: born in the run's cgroup (CLONE_INTO_CGROUP, Linux 5.7),
 * without the migration that waits for an RCU grace period; a fork, as
 * clone3 cannot share the stack. 0 in the child, -1 where the kernel
 * has no clone3 (the child then moves itself in). */
static pid_t clone_into(int dirfd)
{
	struct {
		unsigned long long flags, pidfd, child_tid, parent_tid;
		unsigned long long exit_signal, stack, stack_size, tls;
		unsigned long long set_tid, set_tid_size, cgroup;
	} args = { .flags = 0x200000000ULL, .exit_signal = SIGCHLD,
	    .cgroup = (unsigned long long)dirfd };

	return (pid_t)syscall(SYS_clone3, &args, sizeof(args));
}

static pid_t start_child(struct child_args *a)
{
	struct cgroup *cg = a->s->cg;
	pid_t pid;

	if (cg != NULL && cg->dirfd >= 0) {
		if ((pid = clone_into(cg->dirfd)) == 0)
			child_main(a);
		if (pid >= 0)
			return pid;
		close(cg->dirfd);	/* no clone3: it joins itself */
		cg->dirfd = -1;
	}
	if (FORK_ONLY || (a->s->run != NULL && a->s->run->landlock != NULL)) {
		if ((pid = fork()) == 0)
			child_main(a);
	} else {
		pid = clone(child_main, vfork_stack(),
		    CLONE_VM | CLONE_VFORK | SIGCHLD, a);
	}
	if (pid < 0)
		die(EXIT_SBEXEC, "fork");
	return pid;
}

static void make_pipe(int fd[2], int *child_end)
{
	if (pipe2(fd, O_CLOEXEC) < 0)
		die(EXIT_SBEXEC, "pipe");
	fcntl(fd[0], F_SETFL, O_NONBLOCK);
	*child_end = fd[1];
}

/* 1 when descriptors A and B are the same file: "2>&1". */
static int same_file(int a, int b)
{
	struct stat x, y;

	return fstat(a, &x) == 0 && fstat(b, &y) == 0 &&
	    x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* DESIGN 12: the standard streams that are terminals get one pty of
 * sbexec's own, whose output is copied under the cap like a pipe's; in
 * the name of the streams it carries. Returns 1 when there is one. */
static int tty_streams(struct sup *s, int fds[3])
{
	struct pty *p = &s->pty;
	long long cap = s->pol->limits.max_output_bytes;
	struct stream *st = &s->term;
	const char *name = "terminal";
	int m = pty_open(p);

	if (m < 0)
		return 0;
	for (int i = 0; i < 3; i++)
		if (p->serves[i])
			fds[i] = p->slave;
	if (p->serves[1]) {
		st = &s->out;
		name = p->serves[2] ? "stdout and stderr" : "stdout";
	} else if (p->serves[2]) {
		st = &s->err;
		name = "stderr";
	}
	stream_init(st, name, m, p->out, cap, 1);
	return 1;
}

/* Output that is not a terminal goes through pipes that sbexec copies
 * under the cap, with two exceptions: no cap (the command gets sbexec's
 * descriptors, but never a terminal: a stderr on another terminal than
 * stdout's gets a pipe all the same), and stdout and stderr the same
 * file ("2>&1"), which get one pipe so that their order is kept: the cap
 * then bounds the two together. stderr, or the shared stream, is copied
 * by read/write to keep a tail for the hints of setup_failed(). */
static void output_pipes(struct sup *s, int fds[3])
{
	long long cap = s->pol->limits.max_output_bytes;
	const int *tty = s->pty.serves;
	int p[2], merged = same_file(1, 2);

	if (!tty[1] && cap > 0) {
		make_pipe(p, &fds[1]);
		/* Fewer wake-ups per byte: splice moves up to this much. */
		fcntl(p[0], F_SETPIPE_SZ, SPLICE_CHUNK);
		stream_init(&s->out, merged ? "stdout and stderr" : "stdout",
		    p[0], 1, cap, merged);
	}
	if (tty[2] || (cap == 0 && !isatty(2)))
		return;
	if (merged && !tty[1]) {
		fds[2] = fds[1];
	} else {
		make_pipe(p, &fds[2]);
		stream_init(&s->err, "stderr", p[0], 2, cap, 1);
	}
}

/* As output_pipes decides: stderr is sbexec's own descriptor only
 * without a cap, and when it is not a terminal (a pty's otherwise). */
int supervise_holds_stderr(const struct policy *pol)
{
	return pol->limits.max_output_bytes > 0 || isatty(2);
}

/* The child's ends, closed once each: the slave may stand at 0, 1, 2. */
static void close_child_ends(const int *fds, int n)
{
	for (int i = 0; i < n; i++) {
		int seen = 0;

		for (int j = 0; j < i; j++)
			seen |= fds[j] == fds[i];
		if (fds[i] >= 0 && !seen)
			close(fds[i]);
	}
}

/* bwrap's init keeps its 0-2 for the whole run, where the command can
 * open them (/proc/1/fd): a file handed in reaches the launcher by
 * another number instead (handin.c), and bwrap gets /dev/null. */
static void hand_in(const struct sup *s, int fds[3])
{
	for (int i = 0; s->run != NULL && s->run->handin != NULL && i < 3;
	    i++)
		if (s->run->handin[i] >= 0 && fds[i] < 0 &&
		    (fds[i] = open("/dev/null", O_RDWR | O_CLOEXEC)) < 0)
			die(EXIT_SBEXEC, "/dev/null");
}

void spawn(struct sup *s, char *const *argv, char *const *envp)
{
	int st[2], fds[5] = { -1, -1, -1, -1, s->run ? s->run->feed.rd : -1 };
	pid_t parent = getpid();

	s->out.src = s->err.src = s->term.src = -1;
	tty_streams(s, fds);
	output_pipes(s, fds);
	hand_in(s, fds);
	if (s->sandboxed) {
		make_pipe(st, &fds[3]);
		s->status_fd = st[0];
	}
	s->child = start_child(&(struct child_args){ s, argv, envp, fds,
	    parent });
	s->pty.slave = -1;	/* closed below, with the child's other ends */
	close_child_ends(fds, 5);
	pty_start(&s->pty);
}
