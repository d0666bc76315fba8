/* layers: the cost of issue 30's no-new-code layers alone, with
 * sbexec's own code for them (final.c, mapwatch.c). Part of the
 * benchmark harness (bench/run), not of sbexec.
 *
 *   layers [-f] [-m] ARGV...
 *
 * Fork; the child sets no_new_privs and execs ARGV: plainly, or with -f
 * through final_exec (one exec, W^X, MDWE), and with -m also with the
 * listener of executable mappings, which the parent answers as sbexec's
 * loop does (every library a round trip). The parent exits with the
 * child's status. */
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "policy/policy.h"
#include "sandbox/final.h"
#include "sandbox/mapwatch.h"

static int child(struct final *f, char **argv)
{
	const char *what = "exec";

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return 126;
	if (f == NULL)
		execv(argv[0], argv);
	else
		final_exec(f, argv, environ, &what);
	perror(what);
	return 126;
}

int main(int argc, char **argv)
{
	struct final f = { .map_sock = -1 };
	struct policy pol;
	struct command cmd;
	struct mapwatch m = { .sock = -1, .listener = -1 };
	int use_final = 0, use_map = 0, parent = -1, st;
	pid_t pid;

	for (; argc > 1 && argv[1][0] == '-'; argc--, argv++) {
		use_final |= strcmp(argv[1], "-f") == 0 || strcmp(argv[1], "-m") == 0;
		use_map |= strcmp(argv[1], "-m") == 0;
	}
	if (argc < 2)
		return 2;
	memset(&pol, 0, sizeof(pol));
	cmd = (struct command){ .name = argv[1], .path = argv[1] };
	if (use_map && mapwatch_pair(&parent, &f.map_sock) < 0)
		return 2;
	if ((pid = fork()) == 0)
		_exit(child(use_final ? &f : NULL, argv + 1));
	if (use_map) {
		close(f.map_sock);
		mapwatch_init(&m, parent, &pol, &cmd);
	}
	while (use_map && mapwatch_fd(&m) >= 0 &&
	    waitpid(pid, &st, WNOHANG) == 0) {
		struct pollfd p = { mapwatch_fd(&m), POLLIN, 0 };

		if (poll(&p, 1, 50) > 0)
			mapwatch_on(&m, p.revents);
	}
	if (waitpid(pid, &st, 0) < 0 && !use_map)
		return 2;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
