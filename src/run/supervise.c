/* supervise.c: sbexec stays the parent of the sandbox (spawn.c starts
 * it) and runs one loop for both backends: it copies the output under
 * its caps, relays the terminal (pty.c), forwards INT, TERM, HUP, QUIT,
 * USR1, USR2, WINCH and CONT to the command itself (not to bwrap, whose
 * init would ignore them) and TSTP as a stop, checks the sandbox before
 * letting the command start, serves the proxy, enforces the timeout;
 * outcome.c makes the exit status and the end record. */
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

#include "fmt.h"
#include "audit/audit.h"
#include "audit/outfd.h"
#include "net/netns.h"
#include "net/proxy.h"
#include "prof.h"
#include "run/guard.h"
#include "run/pump.h"
#include "run/run.h"
#include "run/say.h"
#include "run/sup.h"
#include "run/tree.h"
#include "sandbox/mntns.h"
#include "tiny.h"
#include "util.h"

/* SIGTSTP is among them so that nothing stops sbexec but SIGSTOP. */
static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1,
    SIGUSR2, SIGWINCH, SIGCONT, SIGTSTP };

/* The command itself: the child of the sandbox's init (DESIGN 5), or the
 * bypassed binary. 0 when it is not known (yet). */
static void status_read(struct sup *s);

static pid_t command_pid(struct sup *s)
{
	char path[64];
	unsigned long long pid = 0;
	FILE *f;

	if (!s->sandboxed)
		return s->child;
	if (s->init_pid <= 0)
		status_read(s);
	if (s->init_pid <= 0)
		return 0;
	fmt_snprintf(path, sizeof(path), "/proc/%d/task/%d/children",
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
 * their usage is read first. Under Landlock there is no PID namespace,
 * and the guard, the subreaper of the run, is told to end its tree: it
 * alone knows that tree whole (its children are the command and the
 * command's orphans, nothing else), and it dies only once the tree is
 * gone (guard.c), so that nothing of the run is ever left to sbexec,
 * whose other children are the caller's (issue 29). */
static void kill_all(struct sup *s)
{
	pid_t root = s->init_pid > 0 ? s->init_pid : s->child;

	/* Reaped (its output still being taken), the child's pid may be
	 * another process's: the cgroup and the end's teardown remain. */
	if (s->init_pid > 0 || !s->reaped)
		usage_tree(root, &s->killed);
	if (s->run != NULL && s->run->landlock != NULL) {
		if (!s->reaped) {
			kill(s->child, SIGTERM);
			kill(s->child, SIGCONT);	/* a stopped guard */
		}
	} else {
		if (s->init_pid > 0)
			kill(s->init_pid, SIGKILL);
		if (!s->reaped)
			kill(s->child, SIGKILL);
	}
	cgroup_kill(s->cg);	/* what hid from all of the above */
}

/* Timeout or output cap: TERM now, KILL killAfterMs later. A command
 * that has ended (its output still being taken) is sent nothing. */
static void stop(struct sup *s)
{
	if (s->kill_at != 0)
		return;
	if (!s->reaped)
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

/* bwrap's monitor exits first and leaves the sandbox's init to sbexec,
 * its subreaper, when the sandbox dies (--die-with-parent). Wait for
 * that one pid, a second at most, and add its usage, which holds the
 * command's when init reaped it. By pid only: sbexec's other children
 * are the caller's (a job started before "exec sbexec", a 2> >(tee)
 * logger) or their orphans, none of them the run's to wait for. Done at
 * once when init is gone (reaped by bwrap, which outlived it) or is not
 * known (Landlock: the guard, reaped already; a bypassed command). */
static void reap_rest(struct sup *s)
{
	struct pollfd p = { .fd = s->sigfd, .events = POLLIN };
	struct signalfd_siginfo si;
	long long until = now_ms() + 1000;
	struct rusage ru;
	pid_t pid = s->init_pid;
	int st;

	if (pid <= 0 || pid == s->child)
		return;
	for (;;) {
		if (wait4(pid, &st, WNOHANG, &ru) == pid) {
			timeradd(&s->ru.ru_utime, &ru.ru_utime, &s->ru.ru_utime);
			timeradd(&s->ru.ru_stime, &ru.ru_stime, &s->ru.ru_stime);
			if (ru.ru_maxrss > s->ru.ru_maxrss)
				s->ru.ru_maxrss = ru.ru_maxrss;
			return;
		}
		if ((kill(pid, 0) < 0 && errno == ESRCH) || now_ms() >= until)
			return;
		poll(&p, 1, (int)(until - now_ms()));
		while (read(s->sigfd, &si, sizeof(si)) > 0)
			;
	}
}

/* SIG for the command, or 0. SIGTSTP pauses it with SIGSTOP: the
 * command is alone in its process group, orphaned (its parent is in
 * another session), and the kernel drops a SIGTSTP sent to such a group
 * unless it is caught. From the terminal (Ctrl-Z where it is not raw)
 * it is dropped: sbexec cannot give the shell the terminal back without
 * stopping itself, and with it the timeout (sbexec(1), SIGNALS). */
static int translate(const struct sup *s, const struct signalfd_siginfo *si)
{
	int sig = (int)si->ssi_signo;

	if (sig == SIGWINCH)
		pty_winch(&s->pty);
	/* From the terminal, a bypassed command in sbexec's process group
	 * has had it already. */
	if (!s->sandboxed && s->pty.master < 0 && si->ssi_code == SI_KERNEL)
		return 0;
	if (sig == SIGTSTP)
		return si->ssi_code == SI_KERNEL ? 0 : SIGSTOP;
	return sig;
}

static void on_signal(struct sup *s)
{
	struct signalfd_siginfo si;
	int sig;

	while (read(s->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGCHLD) {
			reap(s);
			if (s->reaped)
				status_read(s);
			continue;
		}
		if (si.ssi_signo == SIGCONT)
			pty_continued(&s->pty);
		if ((sig = translate(s, &si)) != 0)
			send_command(s, sig);
	}
}

static long long find_number(const char *buf, const char *key)
{
	const char *p = tiny_strstr(buf, key);

	if (p == NULL || (p = strchr(p, ':')) == NULL)
		return -1;
	return dec_number(p + 1, NULL);
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
	/* The Landlock guard's word that the command is executing. */
	if (find_number(s->status, "\"exec\"") > 0)
		s->released = 1;
}

/* bwrap writes its first record (the init's pid and its namespaces) in
 * pieces while it sets up, a wake-up of sbexec's for each. Until the
 * filter's first buffer is read it is not watched but read when it is
 * needed: at that check, for a signal to deliver, and when bwrap exits
 * (its end, or an error, closes the pipe). */
static int status_held(const struct sup *s)
{
	return s->run != NULL && s->run->feed.wr >= 0;
}

static void status_read(struct sup *s)
{
	size_t len;

	do {
		len = s->status_len;
		if (s->status_fd >= 0)
			on_status(s);
	} while (s->status_fd >= 0 && s->status_len > len);
}

static int closed(const struct sup *s)
{
	return s->out.src < 0 && s->err.src < 0 && s->term.src < 0;
}

/* Done when the child is reaped and its output taken by the caller's
 * readers. Output a reader is slow to take is waited for, but only
 * within the run's limits, as the command would have waited on its own
 * reader: until timeoutMs (which then fires as for a command still
 * writing), then killAfterMs, then no more. Once killed outright
 * nothing is waited for: a killed bypassed command's descendants may
 * hold the pipes. */
static int done(const struct sup *s)
{
	if (s->fall)
		return 1;
	return s->reaped && s->status_fd < 0 && (closed(s) || s->kill_at < 0);
}

static int next_timeout(const struct sup *s)
{
	long long at = s->kill_at > 0 ? s->kill_at :
	    s->kill_at == 0 && !s->timed_out ? s->deadline : -1;
	long long left = at - now_ms();

	if (s->pending != 0)
		return 10;	/* look for the command again soon */
	if (s->cg != NULL && s->pol->limits.run_cpu_seconds && !s->cpu_exceeded)
		return left < 0 ? 0 : left > 100 || at < 0 ? 100 : (int)left;
	if (at < 0)
		return -1;
	return left < 0 ? 0 : left > 60000 ? 60000 : (int)left;
}

/* Returns the index of the entry added, or -1. */
static int watch(const struct sup *s, struct pollfd *p, size_t *n,
    const struct stream *st)
{
	int dst = stream_waits_dst(st);

	if (st->src < 0 || s->holding)
		return -1;
	p[*n].fd = dst ? outfd(st->dst) : st->src;
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
		pty_restore(&s->pty);	/* the relay ends; the line shows whole */
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

/* bwrap has read the first buffer of the filter: every mount is made
 * and the command has not started. Check the sandbox, then let bwrap
 * read the rest; or stop it. */
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
	/* Past its time already (a slow set-up): the command never starts. */
	if (trial_begin(s) < 0 || s->timed_out) {
		kill_all(s);
		s->kill_at = -1;
		feed_close(s);
		return;
	}
	prof_mark("bwrap: namespaces, mounts, until it reads the filter");
	status_read(s);
	if (s->init_pid <= 0)
		why = xstrdup("bwrap did not say which process it set up");
	else if (mntns_private(s->init_pid, &s->run->expect->exec, &why) == 0 &&
	    (prof_mark("mntns helper: private, noexec"), 1) &&
	    verify_sandbox(s->init_pid, s->run->expect, &why) == 0 &&
	    (prof_mark("verify: the sandbox's mountinfo"), 1) &&
	    s->run->net != NULL)
		start_proxy(s, &why);
	if (why == NULL && write(f->wr, f->rest, f->len) == (ssize_t)f->len) {
		s->released = 1;
		feed_close(s);
		return;
	}
	s->refused = why ? why : "the seccomp filter could not be passed";
	kill_all(s);
	s->kill_at = -1;
	feed_close(s);
}

/* runCpuSeconds: the whole run's CPU time, read at each turn of the
 * loop (a tenth of a second at most apart). */
static void check_cpu(struct sup *s)
{
	long long limit = s->pol->limits.run_cpu_seconds * 1000, used;

	if (s->cg == NULL || limit == 0 || s->cpu_exceeded || s->kill_at < 0 ||
	    (used = cgroup_cpu_ms(s->cg)) < limit)
		return;
	s->cpu_exceeded = 1;
	warnx("%s: the run used %lld ms of CPU, past runCpuSeconds %lld; "
	    "stopped", s->cmd->name, used, s->pol->limits.run_cpu_seconds);
	kill_all(s);
	s->kill_at = -1;
}

static void on_timers(struct sup *s)
{
	long long now = now_ms();

	check_cpu(s);
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

/* Typed input; INTR and QUIT on the pty become the command's signals. */
static void on_input(struct sup *s, short revents)
{
	int sig = pty_input(&s->pty, revents);

	if (sig != 0)
		send_command(s, sig);
}

static void loop(struct sup *s)
{
	struct pollfd p[9 + PROXY_FDS];
	size_t n, base;
	int st, out, err, term, in, feed, own, map;

	while (!done(s)) {
		n = 0;
		p[n++] = (struct pollfd){ .fd = s->sigfd, .events = POLLIN };
		st = s->status_fd < 0 || status_held(s) ? -1 : (int)n;
		if (st >= 0)
			p[n++] = (struct pollfd){ .fd = s->status_fd,
			    .events = POLLIN };
		out = watch(s, p, &n, &s->out);
		err = watch(s, p, &n, &s->err);
		term = watch(s, p, &n, &s->term);
		in = !s->holding && pty_watch(&s->pty, p + n) ? (int)n++ : -1;
		feed = s->run == NULL || s->run->feed.wr < 0 ? -1 : (int)n;
		if (feed >= 0)
			p[n++] = (struct pollfd){ .fd = s->run->feed.wr,
			    .events = POLLOUT };
		map = mapwatch_fd(&s->mw) < 0 ? -1 : (int)n;
		if (map >= 0)
			p[n++] = (struct pollfd){ .fd = mapwatch_fd(&s->mw),
			    .events = POLLIN };
		own = say_pending() ? (int)n : -1;	/* sbexec's own lines */
		if (own >= 0)
			p[n++] = (struct pollfd){ .fd = outfd(2),
			    .events = POLLOUT };
		base = n;
		n += watch_proxy(s, p + base);
		if (poll(p, n, poll_timeout(s)) < 0 && errno != EINTR)
			die(EXIT_SBEXEC, "poll");
		if (p[0].revents)
			on_signal(s);
		if (map >= 0 && p[map].revents)
			mapwatch_on(&s->mw, p[map].revents);
		if (st >= 0 && p[st].revents)
			on_status(s);
		if (own >= 0 && p[own].revents)
			say_flush();	/* first: a line half written ends */
		if (out >= 0)
			on_stream(s, &s->out, p[out].revents);
		if (err >= 0)
			on_stream(s, &s->err, p[err].revents);
		if (term >= 0)
			on_stream(s, &s->term, p[term].revents);
		if (in >= 0)
			on_input(s, p[in].revents);
		on_proxy(s, p + base);
		if (feed >= 0)
			on_feed(s, p[feed].revents);
		deliver_pending(s);
		on_timers(s);
		trial_settle(s);
	}
}


int supervise(const struct policy *pol, const struct command *cmd,
    char *const *argv, char *const *envp, struct sandbox_run *run,
    struct cgroup *cg)
{
	struct sup s = { .pol = pol, .cmd = cmd, .run = run,
	    .cg = cg != NULL && cg->version != 0 ? cg : NULL,
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
	outfd_limit(s.deadline + pol->limits.kill_after_ms);
	/* bwrap leaves the sandbox's init unreaped: as a subreaper sbexec
	 * inherits it, and with it the command's CPU time and memory. Not
	 * under Landlock, whose guard is the run's subreaper: sbexec would
	 * only collect the caller's orphans. */
	if (s.sandboxed && (run == NULL || run->landlock == NULL))
		prctl(PR_SET_CHILD_SUBREAPER, 1);
	trial_init(&s);
	mapwatch_init(&s.mw, run != NULL && run->landlock != NULL ?
	    run->landlock->map_parent : -1, pol, cmd);
	spawn(&s, argv, envp);
	prof_mark("signalfd, pipes, fork and exec of the child");
	if (run != NULL && run->landlock != NULL)
		close(run->landlock->fin.map_sock);	/* the command's */
	say_begin(&s.err);
	loop(&s);
	prof_mark("the command, until it exits and its output is copied");
	say_end();
	trial_end(&s);
	pty_close(&s.pty);	/* the caller's modes, before any last words */
	feed_close(&s);
	if (s.proxy != NULL)	/* each open connection's record */
		s.net_refused = proxy_stop(s.proxy);
	cgroup_kill(s.cg);	/* every process of the run dies with it */
	stream_free(&s.out);
	stream_free(&s.err);
	stream_free(&s.term);
	reap_rest(&s);
	mapwatch_free(&s.mw);
	close(s.sigfd);
	prof_mark("teardown: kill the cgroup, reap");
	if (s.fall)
		return RUN_FALLBACK;
	status = outcome_status(&s);
	outcome_record(&s, status);
	prof_mark("end record");
	return status;
}
