/* sv-launch: the least a supervisor in front of bwrap does, as the
 * bench's floor for sbexec's bwrap backend. Part of the benchmark harness
 * (bench/run), not of sbexec.
 *
 *   sv-launch ARGV...
 *
 * One more static process in the chain: start ARGV without copying this
 * one (clone with CLONE_VM|CLONE_VFORK, as sbexec does), wait, exit with
 * its status. Descriptors pass through unchanged, so bwrap finds its
 * status and seccomp descriptors where the timer put them. No policy, no
 * audit, no verification, no output copy: bare bwrap under it is the
 * cheapest any supervisor can be, and sbexec minus it is what sbexec's
 * own work costs. Built like sbexec (musl, static, -Os). */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
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
	pid_t pid;
	int st;

	if (argc < 2) {
		fprintf(stderr, "usage: sv-launch ARGV...\n");
		return 2;
	}
	args = argv + 1;
	pid = clone(child, stack + sizeof(stack),
	    CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return 125;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
