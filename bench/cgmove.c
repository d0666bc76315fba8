/* cgmove: what joining a cgroup v1 hierarchy costs, without sbexec.
 * Part of the benchmark harness (bench/run), not of sbexec.
 *
 *   cgmove none|procs|tasks BASE[:BASE]... PROGRAM ROUNDS GAP_MS
 *
 * ROUNDS times, each after GAP_MS idle: make BASE/run-PID in each BASE
 * (one per hierarchy, as sbexec makes one in each of pids, memory,
 * cpuacct and freezer), fork a child that writes "0" to each one's
 * cgroup.procs (its thread group) or tasks (its one thread), or joins
 * nothing, and execs PROGRAM; wait; remove the cgroups. Prints the
 * median time of a round in microseconds. The gap lets the kernel's
 * lock go cold, as between calls that each take longer than a grace
 * period: back to back, cgroup.procs finds it warm from the round
 * before and pays nothing. procs against tasks is the
 * RCU grace period the kernel waits out before it moves a thread group
 * (percpu_down_write of the fork path's lock). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000LL + t.tv_nsec / 1000;
}

static int by_value(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

#define MAX_DIRS 8

/* One round over the N cgroups in DIRS: -1 when it failed. */
static long long round_us(const char *mode, char **dirs, int n,
    const char *program)
{
	char file[4200];
	long long t = now_us();
	int st, fd[MAX_DIRS], k = 0;
	pid_t pid;

	for (; strcmp(mode, "none") != 0 && k < n; k++) {
		snprintf(file, sizeof(file), "%s/%s", dirs[k],
		    strcmp(mode, "tasks") ? "cgroup.procs" : "tasks");
		if (mkdir(dirs[k], 0755) < 0 ||
		    (fd[k] = open(file, O_WRONLY | O_CLOEXEC)) < 0)
			return -1;
	}
	if ((pid = vfork()) == 0) {
		for (int i = 0; i < k; i++)
			if (write(fd[i], "0", 1) != 1)
				_exit(126);
		execl(program, program, (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	for (int i = 0; i < k; i++) {
		close(fd[i]);
		rmdir(dirs[i]);
	}
	t = now_us() - t;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? t : -1;
}

int main(int argc, char **argv)
{
	char *dirs[MAX_DIRS], *base;
	long long *t;
	int n, nd = 0;

	if (argc != 6 || (n = atoi(argv[4])) <= 0)
		return 2;
	for (base = strtok(argv[2], ":"); base != NULL && nd < MAX_DIRS;
	    base = strtok(NULL, ":"))
		if (asprintf(&dirs[nd++], "%s/run-%d", base, (int)getpid()) < 0)
			return 2;
	t = calloc((size_t)n, sizeof(*t));
	for (int i = 0; i < n; i++) {
		usleep((useconds_t)atoi(argv[5]) * 1000);
		if ((t[i] = round_us(argv[1], dirs, nd, argv[3])) < 0) {
			perror(argv[1]);
			return 1;
		}
	}
	qsort(t, (size_t)n, sizeof(*t), by_value);
	printf("%lld\n", t[n / 2]);
	return 0;
}
