/* guard.c: without a PID namespace nothing ends the processes a command
 * leaves behind (a double fork, a setsid). This process does, as bwrap's
 * init does inside one: it is a subreaper, so every orphan of the
 * command comes back to it; when the command ends it kills and reaps
 * them all, and when sbexec dies (PDEATHSIG, a catchable SIGTERM here)
 * or wants the run stopped (its SIGTERM) it does the same before it
 * goes. It is the only process that ends the tree: sbexec never kills
 * it, so the run's orphans never reach sbexec, whose other children are
 * the caller's to keep (issue 29). The command itself runs in a child
 * that enters Landlock and seccomp after everything else, then execs. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fmt.h"
#include "run/guard.h"
#include "run/run.h"
#include "run/tree.h"
#include "util.h"

struct command_args {
	const struct landlock *l;
	char *const *argv, *const *envp;
	const sigset_t *mask;
	const struct sigaction *pipe;
	pid_t guard;
	int err;		/* written to when the setup fails */
};

/* The command's process: its own session (no terminal to inject into),
 * dies with the guard, then the sandbox, then exec. It borrows the
 * guard's memory until then (CLONE_VM|CLONE_VFORK); a failure is told
 * to the guard through A->err, and said on stderr. Session, PDEATHSIG, descriptor
 * table, signal state, no_new_privs, Landlock domain and seccomp filter
 * are each the task's own, which such a child has. */
static int command(void *arg)
{
	struct command_args *a = arg;
	const char *what = "setsid";

	if (setsid() < 0 || prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 ||
	    getppid() != a->guard)
		goto fail;
	sigaction(SIGPIPE, a->pipe, NULL);
	sigprocmask(SIG_SETMASK, a->mask, NULL);
	what = "close_range";
	if (syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC) < 0 ||
	    landlock_enter(a->l, &what) < 0)
		goto fail;
	final_exec(&a->l->fin, a->argv, a->envp, &what);
fail:
	fmt_dprintf(2, "sbexec: Landlock sandbox: %s: %s\n", what,
	    strerror(errno));
	(void)!write(a->err, "x", 1);
	_exit(EXIT_SBEXEC);
}

/* The command's process, started without copying the guard (forked in
 * the sanitizer build, as supervise.c's child). */
static pid_t start_command(struct command_args *a)
{
	pid_t pid;

	if (FORK_ONLY) {
		if ((pid = fork()) == 0)
			command(a);
		return pid;
	}
	return clone(command, vfork_stack(),
	    CLONE_VM | CLONE_VFORK | SIGCHLD, a);
}

/* The command ended with ST: kill what is left and report its status as
 * bwrap's init would. */
static _Noreturn void finish(int st)
{
	int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);

	tree_kill();
	fmt_dprintf(STATUS_FD, "{ \"exit-code\": %d }\n", code);
	_exit(code);
}

/* sbexec is gone, or wants the tree gone: SIGTERM or SIGHUP pending. */
static int ending(void)
{
	sigset_t p;

	return sigpending(&p) == 0 &&
	    (sigismember(&p, SIGTERM) == 1 || sigismember(&p, SIGHUP) == 1);
}

/* Orphans that fork and exit again and again keep a zombie to reap at
 * every turn: between two, the end is looked for, or it would wait for
 * as long as they care to go on. */
static _Noreturn void watch(pid_t cmd, const sigset_t *set, pid_t parent)
{
	siginfo_t si;
	pid_t pid;
	int st;

	for (;;) {
		if (sigwaitinfo(set, &si) < 0)
			continue;
		if (si.si_signo != SIGCHLD)
			break;
		while (!ending() && (pid = waitpid(-1, &st, WNOHANG)) > 0)
			if (pid == cmd)
				finish(st);
	}
	tree_kill();
	/* Asked by sbexec: as its SIGKILL would have ended it, but with no
	 * process of the tree left behind for anyone. Stopped by anyone
	 * else: an exit status and no "exit-code", which sbexec reports as
	 * a sandbox that ended without the command's status. */
	if (si.si_pid == parent)
		raise(SIGKILL);
	_exit(128 + SIGKILL);
}

_Noreturn void guard_run(const struct landlock *l, char *const *argv,
    char *const *envp, const sigset_t *mask, const struct sigaction *pipe)
{
	struct command_args a = { l, argv, envp, mask, pipe, getpid(), -1 };
	pid_t parent = getppid(), cmd;
	sigset_t set;
	int err[2];
	char c;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0 ||
	    prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 || getppid() != parent ||
	    pipe2(err, O_CLOEXEC) < 0)
		_exit(EXIT_SBEXEC);
	a.err = err[1];
	if ((cmd = start_command(&a)) < 0)
		_exit(EXIT_SBEXEC);
	close(err[1]);
	fmt_dprintf(STATUS_FD, "{ \"child-pid\": %d }\n", (int)a.guard);
	if (read(err[0], &c, 1) != 0) {
		/* Setup failed: no exit-code, as bwrap when it cannot. */
		tree_kill();
		_exit(EXIT_SBEXEC);
	}
	close(err[0]);
	/* The command is executing: from now on no "exit-code" means the
	 * guard was stopped, not that nothing ran (outcome.c). */
	fmt_dprintf(STATUS_FD, "{ \"exec\": %d }\n", (int)cmd);
	watch(cmd, &set, parent);
}
