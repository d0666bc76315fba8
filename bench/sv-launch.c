/* sv-launch: the least a supervisor in front of bwrap does, as the
 * bench's floor for sbexec's bwrap backend. Part of the benchmark harness
 * (bench/run), not of sbexec.
 *
 *   sv-launch [-r] ARGV...
 *
 * One more static process in the chain: start ARGV without copying this
 * one (clone with CLONE_VM|CLONE_VFORK, as sbexec does), wait, exit with
 * its status. Descriptors pass through unchanged, so bwrap finds its
 * status and seccomp descriptors where the timer put them. No policy, no
 * audit, no verification, no output copy: bare bwrap under it is the
 * cheapest any supervisor can be, and sbexec minus it is what sbexec's
 * own work costs. -r: also the subreaper of what ARGV leaves, waited for
 * until none is left, as sbexec waits for the sandbox's init (bwrap's
 * monitor exits first, and the init's exit, which tears down the
 * sandbox's namespaces, is what gives the command's usage); without it
 * that exit is nobody's wait. Built like sbexec (musl, static, -Os). */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static char **args;

static int child(void *unused)
{
	(void)unused;
	execv(args[0], args);
	perror(args[0]);
	_exit(127);
}

int main(int argc, char **argv)
{
	static char stack[16384] __attribute__((aligned(16)));
	int st, reap = argc > 1 && strcmp(argv[1], "-r") == 0;
	pid_t pid;

	if (argc < 2 + reap) {
		fprintf(stderr, "usage: sv-launch [-r] ARGV...\n");
		return 2;
	}
	args = argv + 1 + reap;
	if (reap && prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		return 125;
	pid = clone(child, stack + sizeof(stack),
	    CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return 125;
	while (reap && waitpid(-1, NULL, 0) > 0)
		;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
