/* timer: run several commands INTERLEAVED (A B C, B C A, C A B, ...) and
 * print, for each, the median wall time and its spread. Part of the
 * benchmark harness (bench/run), not of sbexec.
 *
 *   timer [-w WARMUP] [-n RUNS] [-r RAWFILE] [-e ERRFILE] SPEC [;; SPEC]...
 *   SPEC: LABEL [out=null|pipe|file:PATH] [fdN=PATH]... -- ARGV...
 *
 * Each command is started with posix_spawn (stdin /dev/null, stderr
 * appended to ERRFILE, else /dev/null) and timed from just before the
 * spawn to its reaping, with CLOCK_MONOTONIC. out=pipe: stdout is a pipe
 * that the timer drains with 128 KiB reads, as `| cat >/dev/null` would;
 * the time ends when the pipe is at EOF and the command reaped.
 * out=file:PATH: PATH is truncated before the clock starts. fdN= (N 3
 * to 9): that descriptor is PATH (fd3 opened for writing, the others for
 * reading), for running bwrap with the --json-status-fd 3 --seccomp 4
 * that sbexec gives it, and sbexec's launcher with its binary and the
 * command's environment. Rounds rotate the starting command so that no
 * command always runs first. Output, one line per command:
 *   LABEL median_ns q1_ns q3_ns min_ns runs failures
 * RAWFILE gets every sample: LABEL round ns status. A command that exits
 * non-zero counts as a failure (its time is still recorded). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

enum out { OUT_NULL, OUT_PIPE, OUT_FILE };

struct cmd {
	const char *label;
	enum out out;
	const char *out_path, *fd[10];
	char **argv;
	long long *ns;
	int failures;
};

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static int run_one(const struct cmd *c, const char *errfile, long long *ns)
{
	static char buf[128 * 1024];
	posix_spawn_file_actions_t fa;
	int p[2] = { -1, -1 }, fd = -1, status;
	long long t0;
	pid_t pid;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, errfile ? errfile :
	    "/dev/null", O_WRONLY | O_APPEND | O_CREAT, 0644);
	if (c->out == OUT_FILE) {
		fd = open(c->out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		    0644);
		if (fd < 0)
			die(c->out_path);
		posix_spawn_file_actions_adddup2(&fa, fd, 1);
	} else if (c->out == OUT_PIPE) {
		if (pipe2(p, O_CLOEXEC) < 0)
			die("pipe2");
		posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	} else {
		posix_spawn_file_actions_addopen(&fa, 1, "/dev/null",
		    O_WRONLY, 0);
	}
	for (int n = 3; n < 10; n++)
		if (c->fd[n])
			posix_spawn_file_actions_addopen(&fa, n, c->fd[n],
			    n == 3 ? O_WRONLY | O_CREAT | O_TRUNC : O_RDONLY,
			    0644);

	t0 = now_ns();
	if (posix_spawnp(&pid, c->argv[0], &fa, NULL, c->argv, environ) != 0)
		die(c->argv[0]);
	if (c->out == OUT_PIPE) {
		close(p[1]);
		for (;;) {
			ssize_t n = read(p[0], buf, sizeof(buf));

			if (n > 0)
				continue;
			if (n < 0 && errno == EINTR)
				continue;
			break;
		}
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid");
	*ns = now_ns() - t0;
	if (p[0] >= 0)
		close(p[0]);
	if (fd >= 0)
		close(fd);
	posix_spawn_file_actions_destroy(&fa);
	return WIFEXITED(status) ? WEXITSTATUS(status) :
	    128 + WTERMSIG(status);
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/* The q-quantile of N sorted samples, linearly interpolated. */
static long long quantile(const long long *v, int n, double q)
{
	double pos = q * (n - 1);
	int i = (int)pos;
	double f = pos - i;

	if (i + 1 >= n)
		return v[n - 1];
	return (long long)(v[i] + f * (double)(v[i + 1] - v[i]));
}

static void usage(void)
{
	fputs("usage: timer [-w WARMUP] [-n RUNS] [-r RAW] [-e ERR] LABEL "
	    "[out=null|pipe|file:P] [fdN=P]... -- ARGV... [;; ...]\n",
	    stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	int warm = 3, runs = 30, ncmd = 0, opt, i, r;
	const char *raw = NULL, *errfile = NULL;
	struct cmd *cmds;
	FILE *rawf = NULL;
	long long ns;

	while ((opt = getopt(argc, argv, "+w:n:r:e:")) != -1)
		switch (opt) {
		case 'w': warm = atoi(optarg); break;
		case 'n': runs = atoi(optarg); break;
		case 'r': raw = optarg; break;
		case 'e': errfile = optarg; break;
		default: usage();
		}
	if (optind >= argc || runs < 1)
		usage();
	cmds = calloc((size_t)argc, sizeof(*cmds));
	if (cmds == NULL)
		die("calloc");
	/* Parse the specs in place: ";;" ends an argv. */
	for (i = optind; i < argc; ) {
		struct cmd *c = &cmds[ncmd++];

		c->label = argv[i++];
		for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
			if (strcmp(argv[i], "out=pipe") == 0)
				c->out = OUT_PIPE;
			else if (strcmp(argv[i], "out=null") == 0)
				c->out = OUT_NULL;
			else if (strncmp(argv[i], "out=file:", 9) == 0) {
				c->out = OUT_FILE;
				c->out_path = argv[i] + 9;
			} else if (strncmp(argv[i], "fd", 2) == 0 &&
			    argv[i][2] >= '3' && argv[i][2] <= '9' &&
			    argv[i][3] == '=')
				c->fd[argv[i][2] - '0'] = argv[i] + 4;
			else
				usage();
		}
		if (i >= argc - 1)
			usage();
		c->argv = &argv[++i];
		for (; i < argc && strcmp(argv[i], ";;") != 0; i++)
			;
		if (i < argc)
			argv[i++] = NULL;
		c->ns = calloc((size_t)runs, sizeof(long long));
		if (c->ns == NULL)
			die("calloc");
	}
	if (raw && (rawf = fopen(raw, "a")) == NULL)
		die(raw);

	for (r = 0; r < warm; r++)
		for (i = 0; i < ncmd; i++)
			run_one(&cmds[i], errfile, &ns);
	for (r = 0; r < runs; r++)
		for (int k = 0; k < ncmd; k++) {
			struct cmd *c = &cmds[(k + r) % ncmd];
			int st = run_one(c, errfile, &c->ns[r]);

			if (st != 0)
				c->failures++;
			if (rawf)
				fprintf(rawf, "%s\t%d\t%lld\t%d\n", c->label, r,
				    c->ns[r], st);
		}
	for (i = 0; i < ncmd; i++) {
		struct cmd *c = &cmds[i];

		qsort(c->ns, (size_t)runs, sizeof(long long), cmp_ll);
		printf("%s\t%lld\t%lld\t%lld\t%lld\t%d\t%d\n", c->label,
		    quantile(c->ns, runs, 0.5), quantile(c->ns, runs, 0.25),
		    quantile(c->ns, runs, 0.75), c->ns[0], runs, c->failures);
	}
	if (rawf)
		fclose(rawf);
	return 0;
}
