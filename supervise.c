/* supervise.c: sbexec stays the parent of the sandbox, the way coreutils
 * timeout does: signals blocked before fork and restored in the child,
 * PDEATHSIG set and getppid() checked, limits applied, then exec. The
 * parent copies the output under its caps, forwards INT, TERM, HUP and
 * QUIT to the command itself (not to bwrap, whose init would ignore
 * them), enforces the timeout and tells a sandbox that could not be set
 * up (no "exit-code" on --json-status-fd) from a command that failed. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "audit.h"
#include "guard.h"
#include "netns.h"
#include "proxy.h"
#include "pump.h"
#include "run.h"
#include "tree.h"
#include "util.h"

#define STATUS_MAX 4096		/* bwrap's status records are short */

static sigset_t orig_mask;
static struct sigaction orig_pipe;
static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

struct sup {
	const struct policy *pol;
	const struct command *cmd;
	struct sandbox_run *run;	/* NULL for a bypassed command */
	const char *refused;	/* why the sandbox was not let run */
	pid_t child, init_pid;	/* bwrap; the sandbox's PID 1 */
	int sandboxed, sigfd, status_fd, exit_code, reaped, wstatus;
	int timed_out;
	int audit_lost;		/* a net record could not be written */
	int pending;		/* a signal for a command not yet known */
	const char *limit;	/* the stream past its cap, or NULL */
	long long start, deadline, kill_at;
	char status[STATUS_MAX];
	size_t status_len;
	struct rusage ru;
	struct usage killed;	/* read just before the tree was killed */
	struct stream out, err;
	struct proxy *proxy;	/* DESIGN 11, once the sandbox is verified */
};

void supervise_init(void)
{
	sigprocmask(SIG_SETMASK, NULL, &orig_mask);
	sigaction(SIGPIPE, NULL, &orig_pipe);
	signal(SIGPIPE, SIG_IGN);
}

/* In the child: no exit(), which would flush the parent's stdio. */
static _Noreturn void child_fail(int status, const char *what)
{
	dprintf(2, "sbexec: %s: %s\n", what, strerror(errno));
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
	int high[4];

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
    char *const *envp, const int fds[4], pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(EXIT_SBEXEC);
	/* Out of the terminal's process group: a Ctrl-C reaches sbexec,
	 * which gives it to the command, not to bwrap, which would die. */
	if (s->sandboxed)
		setpgid(0, 0);
	place_fds(fds, (const int[]){ 1, 2, STATUS_FD, SECCOMP_FD }, 4);
	close_fds(s);
	set_limits(&s->pol->limits);
	if (s->run != NULL && s->run->landlock != NULL)
		guard_run(s->run->landlock, argv, envp, &orig_mask, &orig_pipe);
	sigaction(SIGPIPE, &orig_pipe, NULL);
	sigprocmask(SIG_SETMASK, &orig_mask, NULL);
	execve(argv[0], argv, envp);
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
 * sbexec's memory until then, on a stack of its own, and sbexec waits
 * (CLONE_VM|CLONE_VFORK), so nothing is copied. It touches only its own
 * descriptors, limits and signal state, which clone keeps apart. The
 * Landlock backend's child lives on as the tree's init: a real fork. */
static pid_t start_child(struct child_args *a)
{
	static char stack[64 * 1024] __attribute__((aligned(16)));
	pid_t pid;

	if (FORK_ONLY || (a->s->run != NULL && a->s->run->landlock != NULL)) {
		if ((pid = fork()) == 0)
			child_main(a);
	} else {
		pid = clone(child_main, stack + sizeof(stack),
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

/* Output goes through pipes that sbexec copies under the cap, with three
 * exceptions: no cap (the command gets sbexec's descriptors), a terminal
 * (passed as it is, so ffmpeg keeps its colours and progress line), and
 * stdout and stderr the same file ("2>&1"), which get one pipe so that
 * their order is kept: the cap then bounds the two together. stderr, or
 * the shared stream, is copied by read/write to keep a tail for the
 * hints of setup_failed(). */
static void output_pipes(struct sup *s, int fds[2])
{
	long long cap = s->pol->limits.max_output_bytes;
	int p[2], merged = same_file(1, 2);

	s->out.src = s->err.src = -1;
	if (cap == 0)
		return;
	if (!isatty(1)) {
		make_pipe(p, &fds[0]);
		/* Fewer wake-ups per byte: splice moves up to this much. */
		fcntl(p[0], F_SETPIPE_SZ, SPLICE_CHUNK);
		stream_init(&s->out, merged ? "stdout and stderr" : "stdout",
		    p[0], 1, cap, merged);
	}
	if (merged) {
		fds[1] = fds[0];
	} else if (!isatty(2)) {
		make_pipe(p, &fds[1]);
		stream_init(&s->err, "stderr", p[0], 2, cap, 1);
	}
}

static void spawn(struct sup *s, char *const *argv, char *const *envp)
{
	int st[2], fds[4] = { -1, -1, -1, s->run ? s->run->feed.rd : -1 };
	pid_t parent = getpid();

	output_pipes(s, fds);
	if (s->sandboxed) {
		make_pipe(st, &fds[2]);
		s->status_fd = st[0];
	}
	s->child = start_child(&(struct child_args){ s, argv, envp, fds,
	    parent });
	for (int i = 0; i < 4; i++)
		if (fds[i] >= 0 && (i == 0 || fds[i] != fds[i - 1]))
			close(fds[i]);
}

/* The command itself: the child of the sandbox's init (DESIGN 5), or the
 * bypassed binary. 0 when it is not known (yet). */
static pid_t command_pid(const struct sup *s)
{
	char path[64];
	unsigned long long pid = 0;
	FILE *f;

	if (!s->sandboxed)
		return s->child;
	if (s->init_pid <= 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/children",
	    (int)s->init_pid, (int)s->init_pid);
	f = fopen(path, "re");
	if (f == NULL)
		return 0;
	if (read_number(f, &pid) != 1 || pid > INT_MAX)
		pid = 0;
	fclose(f);
	return (pid_t)pid;
}

/* Deliver SIG to the command; before it is known, as soon as it is. */
static void send_command(struct sup *s, int sig)
{
	pid_t pid = command_pid(s);

	if (pid > 0)
		kill(pid, sig);
	else
		s->pending = sig;
}

static void deliver_pending(struct sup *s)
{
	pid_t pid;

	if (s->pending != 0 && (pid = command_pid(s)) > 0) {
		kill(pid, s->pending);
		s->pending = 0;
	}
}

/* Killed outright, the sandbox's init reaps its processes unaccounted:
 * their usage is read first. */
static void kill_all(struct sup *s)
{
	pid_t root = s->init_pid > 0 ? s->init_pid : s->child;

	usage_tree(root, &s->killed);
	/* No PID namespace under Landlock: the tree, one by one. */
	if (s->run != NULL && s->run->landlock != NULL)
		tree_signal(root, SIGKILL);
	if (s->init_pid > 0)
		kill(s->init_pid, SIGKILL);
	kill(s->child, SIGKILL);
}

/* Timeout or output cap: TERM now, KILL killAfterMs later. */
static void stop(struct sup *s)
{
	if (s->kill_at != 0)
		return;
	send_command(s, SIGTERM);
	s->kill_at = now_ms() + s->pol->limits.kill_after_ms;
}

static void reap(struct sup *s)
{
	if (s->reaped)
		return;
	if (wait4(s->child, &s->wstatus, WNOHANG, &s->ru) == s->child)
		s->reaped = 1;
}

/* Everything sbexec is left to reap: the sandbox's init, orphaned by
 * bwrap, dies with the sandbox (bwrap's --die-with-parent). Wait for
 * each SIGCHLD, a second at most, and add each one's usage, which holds
 * the command's when init reaped it. */
static void reap_rest(struct sup *s)
{
	struct pollfd p = { .fd = s->sigfd, .events = POLLIN };
	struct signalfd_siginfo si;
	long long until = now_ms() + 1000;
	struct rusage ru;
	pid_t pid;
	int st;

	for (;;) {
		pid = wait4(-1, &st, WNOHANG, &ru);
		if (pid < 0 || (pid == 0 && now_ms() >= until))
			return;
		if (pid > 0) {
			timeradd(&s->ru.ru_utime, &ru.ru_utime, &s->ru.ru_utime);
			timeradd(&s->ru.ru_stime, &ru.ru_stime, &s->ru.ru_stime);
			if (ru.ru_maxrss > s->ru.ru_maxrss)
				s->ru.ru_maxrss = ru.ru_maxrss;
			continue;
		}
		poll(&p, 1, (int)(until - now_ms()));
		while (read(s->sigfd, &si, sizeof(si)) > 0)
			;
	}
}

static void on_signal(struct sup *s)
{
	struct signalfd_siginfo si;

	while (read(s->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGCHLD) {
			reap(s);
			continue;
		}
		/* From the terminal, a bypassed command in sbexec's process
		 * group has had it already. */
		if (!s->sandboxed && si.ssi_code == SI_KERNEL)
			continue;
		send_command(s, (int)si.ssi_signo);
	}
}

static long long find_number(const char *buf, const char *key)
{
	const char *p = strstr(buf, key);

	if (p == NULL || (p = strchr(p, ':')) == NULL)
		return -1;
	return strtoll(p + 1, NULL, 10);
}

static void on_status(struct sup *s)
{
	size_t room = sizeof(s->status) - 1 - s->status_len;
	ssize_t n = read(s->status_fd, s->status + s->status_len, room);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0 || room == 0) {
		close(s->status_fd);
		s->status_fd = -1;
		return;
	}
	s->status_len += (size_t)n;
	s->status[s->status_len] = '\0';
	if (s->init_pid <= 0)
		s->init_pid = (pid_t)find_number(s->status, "\"child-pid\"");
	if (s->exit_code < 0)
		s->exit_code = (int)find_number(s->status, "\"exit-code\"");
}

static int closed(const struct sup *s)
{
	return s->out.src < 0 && s->err.src < 0;
}

/* Done when the child is reaped and its outputs are drained; a killed
 * bypassed command's descendants may hold the pipes, and a reader that
 * stopped reading may hold the rest of a stopped command's output: not
 * waited for. */
static int done(const struct sup *s)
{
	return s->reaped && s->status_fd < 0 &&
	    (closed(s) || s->kill_at < 0 || s->timed_out || s->limit);
}

static int next_timeout(const struct sup *s)
{
	long long at = s->kill_at > 0 ? s->kill_at :
	    s->kill_at == 0 && !s->timed_out ? s->deadline : -1;
	long long left = at - now_ms();

	if (s->pending != 0)
		return 10;	/* look for the command again soon */
	if (at < 0)
		return -1;
	return left < 0 ? 0 : left > 60000 ? 60000 : (int)left;
}

/* Returns the index of the entry added, or -1. */
static int watch(struct pollfd *p, size_t *n, const struct stream *st)
{
	int dst = stream_waits_dst(st);

	if (st->src < 0)
		return -1;
	p[*n].fd = dst ? st->dst : st->src;
	p[*n].events = dst ? POLLOUT : POLLIN;
	p[*n].revents = 0;
	return (int)(*n)++;
}

static void on_stream(struct sup *s, struct stream *st, short revents)
{
	if (revents == 0)
		return;
	pump(st);
	if (st->exceeded && s->limit == NULL) {
		s->limit = st->name;
		warnx("%s: %s exceeded %lld bytes; stopped", s->cmd->name,
		    st->name, st->max);
		stop(s);
	}
}

static void feed_close(struct sup *s)
{
	if (s->run != NULL && s->run->feed.wr >= 0) {
		close(s->run->feed.wr);
		s->run->feed.wr = -1;
	}
}

/* bwrap has read the first buffer of the filter: every mount is made
 * and the command has not started. Check the sandbox, then let bwrap
 * read the rest; or stop it. */
/* DESIGN 11: the command's one way out, a socket on its own loopback
 * that sbexec's proxy serves, made before the command may start. */
static void start_proxy(struct sup *s, char **why)
{
	long long ns = find_number(s->status, "\"net-namespace\"");
	int fd;

	if (ns <= 0) {
		*why = xstrdup("bwrap did not report a network namespace");
		return;
	}
	if ((fd = netns_listen(s->init_pid, (unsigned long long)ns, why)) >= 0)
		s->proxy = proxy_start(s->run->net, fd, s->cmd->name);
}

static void on_feed(struct sup *s, short revents)
{
	struct seccomp_feed *f = &s->run->feed;
	char *why = NULL;

	if (revents == 0)
		return;
	if (!(revents & POLLOUT)) {
		feed_close(s);
		return;
	}
	if (s->init_pid <= 0)
		why = xstrdup("bwrap did not say which process it set up");
	else if (verify_sandbox(s->init_pid, s->run->expect, &why) == 0 &&
	    s->run->net != NULL)
		start_proxy(s, &why);
	if (why == NULL && write(f->wr, f->rest, f->len) == (ssize_t)f->len) {
		feed_close(s);
		return;
	}
	s->refused = why ? why : "the seccomp filter could not be passed";
	kill_all(s);
	s->kill_at = -1;
	feed_close(s);
}

static void on_timers(struct sup *s)
{
	long long now = now_ms();

	if (!s->timed_out && s->kill_at == 0 && now >= s->deadline) {
		s->timed_out = 1;
		stop(s);
	}
	if (s->kill_at > 0 && now >= s->kill_at) {
		kill_all(s);
		s->kill_at = -1;
	}
}

/* The proxy's descriptors follow the loop's own in P; a record it could
 * not write stops the run, as an audit that cannot be written does. */
static size_t watch_proxy(struct sup *s, struct pollfd *p)
{
	return s->proxy == NULL ? 0 : proxy_watch(s->proxy, p);
}

static void on_proxy(struct sup *s, const struct pollfd *p)
{
	if (s->proxy == NULL)
		return;
	proxy_act(s->proxy, p);
	if (proxy_failed(s->proxy) && !s->audit_lost) {
		s->audit_lost = 1;
		warnx("%s: a network record could not be written to the "
		    "audit; stopped", s->cmd->name);
		kill_all(s);
		s->kill_at = -1;
	}
}

static int poll_timeout(const struct sup *s)
{
	int t = next_timeout(s), pt;

	if (s->proxy == NULL || (pt = proxy_timeout(s->proxy)) < 0)
		return t;
	return t < 0 || pt < t ? pt : t;
}

static void loop(struct sup *s)
{
	struct pollfd p[5 + PROXY_FDS];
	size_t n, base;
	int st, out, err, feed;

	while (!done(s)) {
		n = 0;
		p[n++] = (struct pollfd){ .fd = s->sigfd, .events = POLLIN };
		st = s->status_fd < 0 ? -1 : (int)n;
		if (st >= 0)
			p[n++] = (struct pollfd){ .fd = s->status_fd,
			    .events = POLLIN };
		out = watch(p, &n, &s->out);
		err = watch(p, &n, &s->err);
		feed = s->run == NULL || s->run->feed.wr < 0 ? -1 : (int)n;
		if (feed >= 0)
			p[n++] = (struct pollfd){ .fd = s->run->feed.wr,
			    .events = POLLOUT };
		base = n;
		n += watch_proxy(s, p + base);
		if (poll(p, n, poll_timeout(s)) < 0 && errno != EINTR)
			die(EXIT_SBEXEC, "poll");
		if (p[0].revents)
			on_signal(s);
		if (st >= 0 && p[st].revents)
			on_status(s);
		if (out >= 0)
			on_stream(s, &s->out, p[out].revents);
		if (err >= 0)
			on_stream(s, &s->err, p[err].revents);
		on_proxy(s, p + base);
		if (feed >= 0)
			on_feed(s, p[feed].revents);
		deliver_pending(s);
		on_timers(s);
	}
}

struct hint {
	const char *match, *text;
};

static const struct hint hints[] = {
	{ "create new namespace", "user namespaces are refused here (a "
	    "container's seccomp profile, or the kernel); set \"sandbox\": "
	    "\"auto\" to run under Landlock where bwrap cannot" },
	{ "uid_map", "inside an unprivileged container bwrap cannot set up "
	    "a user namespace or mount /proc; set \"sandbox\": \"auto\" to "
	    "run under Landlock there, or, if the container already "
	    "isolates, \"enableWeakerNestedSandbox\": true" },
	{ "Can't mount proc", "inside an unprivileged container bwrap cannot "
	    "mount /proc; set \"sandbox\": \"auto\" to run under Landlock "
	    "there, or, if the container already isolates, "
	    "\"enableWeakerNestedSandbox\": true" },
	{ "RTM_NEWADDR", "Ubuntu's AppArmor restricts unprivileged user "
	    "namespaces (kernel.apparmor_restrict_unprivileged_userns=1); "
	    "set \"sandbox\": \"auto\" to run under Landlock, give bwrap an "
	    "AppArmor profile that allows userns, or set that sysctl to 0" },
};

/* bwrap ended without an "exit-code" record: the command never ran. Its
 * own message has been copied to stderr already; add what to do. Where
 * stderr was not copied (a terminal, no cap) the message could not be
 * read: name every known cause. */
static void setup_failed(const struct sup *s)
{
	const struct stream *st = s->err.tail_len ? &s->err : &s->out;
	char tail[TAIL_MAX + 1];
	int seen = st->tail_len > 0;

	memcpy(tail, st->tail, st->tail_len);
	tail[st->tail_len] = '\0';
	if (s->run != NULL && s->run->landlock != NULL) {
		warnx("%s: the Landlock sandbox could not be set up; the "
		    "command did not run", s->cmd->name);
		return;
	}
	warnx("%s: the sandbox could not be set up: %s exited %d before "
	    "running the command", s->cmd->name, s->pol->bwrap,
	    WEXITSTATUS(s->wstatus));
	for (size_t i = 0; i < sizeof(hints) / sizeof(*hints); i++) {
		if (!seen) {
			warnx("hint: if bwrap says \"%s\": %s", hints[i].match,
			    hints[i].text);
		} else if (strstr(tail, hints[i].match) != NULL) {
			warnx("hint: %s", hints[i].text);
			return;
		}
	}
}

static int exit_status(const struct sup *s)
{
	if (s->refused != NULL) {
		warnx("%s: the sandbox did not come out as planned (%s); "
		    "nothing ran. Another run may be changing names in a "
		    "writable directory: try again", s->cmd->name, s->refused);
		return EXIT_SBEXEC;
	}
	if (s->limit != NULL || s->audit_lost)
		return EXIT_SBEXEC;
	if (s->timed_out)
		return EXIT_TIMEOUT;
	if (WIFSIGNALED(s->wstatus))
		return 128 + WTERMSIG(s->wstatus);
	if (!s->sandboxed)
		return WEXITSTATUS(s->wstatus);
	if (s->exit_code >= 0)
		return s->exit_code;
	setup_failed(s);
	return EXIT_SBEXEC;
}

static long long max_ll(long long a, long long b)
{
	return a > b ? a : b;
}

static void record_end(const struct sup *s, int status)
{
	struct audit_end e = {
		.exit_status = status,
		.signal = WIFSIGNALED(s->wstatus) ? WTERMSIG(s->wstatus) : 0,
		.timed_out = s->timed_out,
		.output_limit = s->limit,
		.stdout_bytes = s->out.bytes,
		.stderr_bytes = s->err.bytes,
		.duration_ms = now_ms() - s->start,
		.max_rss_kb = max_ll(s->ru.ru_maxrss, s->killed.max_rss_kb),
		.cpu_ms = max_ll((s->ru.ru_utime.tv_sec + s->ru.ru_stime.tv_sec)
		    * 1000LL + (s->ru.ru_utime.tv_usec + s->ru.ru_stime.tv_usec) /
		    1000, s->killed.cpu_ms),
	};

	if (audit_finish(&e) < 0)
		warnx("%s: the end record was not written", s->cmd->name);
}

int supervise(const struct policy *pol, const struct command *cmd,
    char *const *argv, char *const *envp, struct sandbox_run *run)
{
	struct sup s = { .pol = pol, .cmd = cmd, .run = run,
	    .sandboxed = !cmd->bypass, .status_fd = -1, .exit_code = -1 };
	sigset_t set;
	int status;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(forwarded) / sizeof(*forwarded); i++)
		sigaddset(&set, forwarded[i]);
	sigaddset(&set, SIGCHLD);
	signal(SIGCHLD, SIG_DFL);	/* SIG_IGN would reap it for us */
	sigprocmask(SIG_BLOCK, &set, NULL);
	s.sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (s.sigfd < 0)
		die(EXIT_SBEXEC, "signalfd");
	s.start = now_ms();
	s.deadline = s.start + pol->limits.timeout_ms;
	/* bwrap leaves the sandbox's init unreaped: as a subreaper sbexec
	 * inherits it, and with it the command's CPU time and memory. */
	if (s.sandboxed)
		prctl(PR_SET_CHILD_SUBREAPER, 1);
	spawn(&s, argv, envp);
	loop(&s);
	feed_close(&s);
	if (s.proxy != NULL)
		proxy_stop(s.proxy);	/* each open connection's record */
	if (run != NULL && run->landlock != NULL)
		tree_kill();	/* what the guard, killed, left to sbexec */
	stream_free(&s.out);
	stream_free(&s.err);
	reap_rest(&s);
	status = exit_status(&s);
	record_end(&s, status);
	return status;
}

/* A command killed by signal N: die of N too (after the end record), as
 * coreutils timeout does, so that a caller sees a signal (Python's
 * returncode -N), not 128+N. In the sandbox only bwrap's 128+N is known;
 * N is taken to be the signal. Falls back to exiting 128+N. */
_Noreturn void exit_like(int status)
{
	int sig = status - 128;
	struct rlimit none = { 0, 0 };
	sigset_t set;

	if (sig > 0 && sig < 32 && sig != SIGSTOP && sig != SIGTSTP &&
	    sig != SIGTTIN && sig != SIGTTOU) {
		fflush(NULL);
		setrlimit(RLIMIT_CORE, &none);	/* no core of sbexec's own */
		signal(sig, SIG_DFL);
		sigemptyset(&set);
		sigaddset(&set, sig);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		raise(sig);
	}
	exit(status);
}
