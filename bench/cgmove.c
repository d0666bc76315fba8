/* cgmove: what joining a cgroup v1 hierarchy costs, without sbexec.
 * Part of the benchmark harness (bench/run), not of sbexec.
 *
 *   cgmove none|procs|tasks BASE PROGRAM ROUNDS GAP_MS
 *
 * ROUNDS times, each after GAP_MS idle: make BASE/run-PID, fork a child
 * that writes "0" to its cgroup.procs (its thread group) or its tasks
 * (its one thread), or joins nothing, and execs PROGRAM; wait; remove
 * the cgroup. Prints the median time of a round in microseconds. The
 * gap lets the kernel's lock go cold, as between calls that each take
 * longer than a grace period: back to back, cgroup.procs finds it warm
 * from the round before and pays nothing. procs against tasks is the
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

/* One round: -1 when it failed. */
static long long round_us(const char *mode, const char *dir,
    const char *program)
{
	char file[4200];
	long long t = now_us();
	int st, fd = -1;
	pid_t pid;

	if (strcmp(mode, "none") != 0) {
		snprintf(file, sizeof(file), "%s/%s", dir,
		    strcmp(mode, "tasks") ? "cgroup.procs" : "tasks");
		if (mkdir(dir, 0755) < 0 ||
		    (fd = open(file, O_WRONLY | O_CLOEXEC)) < 0)
			return -1;
	}
	if ((pid = vfork()) == 0) {
		if (fd >= 0 && write(fd, "0", 1) != 1)
			_exit(126);
		execl(program, program, (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	if (fd >= 0) {
		close(fd);
		rmdir(dir);
	}
	t = now_us() - t;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? t : -1;
}

int main(int argc, char **argv)
{
	char dir[4096];
	long long *t;
	int n;

	if (argc != 6 || (n = atoi(argv[4])) <= 0)
		return 2;
	snprintf(dir, sizeof(dir), "%s/run-%d", argv[2], (int)getpid());
	t = calloc((size_t)n, sizeof(*t));
	for (int i = 0; i < n; i++) {
		usleep((useconds_t)atoi(argv[5]) * 1000);
		if ((t[i] = round_us(argv[1], dir, argv[3])) < 0) {
			perror(argv[1]);
			return 1;
		}
	}
	qsort(t, (size_t)n, sizeof(*t), by_value);
	printf("%lld\n", t[n / 2]);
	return 0;
}
