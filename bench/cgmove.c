/* cgmove: what joining a cgroup v1 hierarchy costs, without sbexec.
 * Part of the benchmark harness (bench/run), not of sbexec.
 *
 *   cgmove none|procs|tasks BASE PROGRAM
 *
 * Makes BASE/run-PID, forks a child that writes "0" to its
 * cgroup.procs (the thread group) or its tasks (the one thread), or
 * joins nothing, and execs PROGRAM; waits, removes the cgroup. procs
 * against tasks is the RCU grace period the kernel waits out before it
 * moves a thread group (percpu_down_write of the fork path's lock). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char dir[4096], file[4200];
	int st, fd = -1;
	pid_t pid;

	if (argc != 4)
		return 2;
	snprintf(dir, sizeof(dir), "%s/run-%d", argv[2], (int)getpid());
	if (strcmp(argv[1], "none") != 0) {
		snprintf(file, sizeof(file), "%s/%s", dir,
		    strcmp(argv[1], "tasks") ? "cgroup.procs" : "tasks");
		if (mkdir(dir, 0755) < 0 ||
		    (fd = open(file, O_WRONLY | O_CLOEXEC)) < 0) {
			perror(dir);
			return 1;
		}
	}
	if ((pid = vfork()) == 0) {
		if (fd >= 0 && write(fd, "0", 1) != 1)
			_exit(126);
		execl(argv[3], argv[3], (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	if (fd >= 0) {
		close(fd);
		rmdir(dir);
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
