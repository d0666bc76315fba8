/* probe_run: what a run can take of the machine as a whole, for
 * test/cgroup.bats; built as a program and, with -DPAYLOAD, as the
 * library a hostile "-af ladspa=file=" loads (test/payload.h). Each
 * argument is one probe, NAME:N, and prints NAME=RESULT:
 *   forks:N   N children that sleep; how many were made
 *   memory:N  N children (64 at most) that each touch 64 MiB; how many
 *             are alive once each has done so or died
 *   spin:N    N children that spin for 2 s of CPU each; the parent waits
 *   hide:TAG  a grandchild in a session of its own, its parent gone, its
 *             name TAG, that sleeps: it must die with the run
 *   sockbuf:M loopback TCP pairs (network "none" keeps lo), each socket's
 *             buffers set large, written both ways without reading until
 *             a write would block, pair after pair until M MiB are
 *             queued, 16 pairs in a row take less than 64 KiB each, 256
 *             pairs, or 20 s; how many MiB were queued. The sockets
 *             stay open until the process exits.
 *   hold:S    the children of those after it sleep S seconds (60)
 * The children of forks, memory and hide stay until the run ends, or
 * for the hold. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CHUNK (64L << 20)

static unsigned hold = 60;

static long p_forks(long n)
{
	long made = 0;

	for (; made < n; made++) {
		pid_t pid = fork();

		if (pid < 0)
			break;
		if (pid == 0) {
			sleep(hold);
			_exit(0);
		}
	}
	return made;
}

/* Each child says "1" on the pipe once its 64 MiB are touched, closes
 * it and waits: the pipe ends when every child has said it or died.
 * Those alive then held their share at once. */
static long p_memory(long n)
{
	pid_t pids[64];
	long held = 0;
	int p[2];
	char c;

	if (n > 64 || pipe(p) < 0)
		return -1;
	for (long i = 0; i < n; i++) {
		if ((pids[i] = fork()) == 0) {
			char *m = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			close(p[0]);
			if (m == MAP_FAILED)
				_exit(1);
			memset(m, 1, CHUNK);
			if (write(p[1], "1", 1) != 1)
				_exit(1);
			close(p[1]);
			sleep(hold);
			_exit(0);
		}
	}
	close(p[1]);
	while (read(p[0], &c, 1) == 1)
		;
	for (long i = 0; i < n; i++)
		if (pids[i] > 0 && waitpid(pids[i], NULL, WNOHANG) == 0)
			held++;
	return held;
}

static void burn(double seconds)
{
	struct timespec t;
	double start;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	start = (double)t.tv_sec + (double)t.tv_nsec / 1e9;
	do
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	while ((double)t.tv_sec + (double)t.tv_nsec / 1e9 - start < seconds);
}

static long p_spin(long n)
{
	for (long i = 0; i < n; i++)
		if (fork() == 0) {
			burn(2);
			_exit(0);
		}
	while (wait(NULL) > 0)
		;
	return n;
}

/* Bytes written to FD (non-blocking) until a write would not. */
static long long fill(int fd)
{
	static char buf[65536];
	long long sent = 0;
	ssize_t n;

	while ((n = send(fd, buf, sizeof(buf), MSG_DONTWAIT | MSG_NOSIGNAL)) >
	    0)
		sent += n;
	return sent;
}

/* A connected loopback pair from listener L (its buffers are the
 * accepted socket's), both buffers of each set to SIZE; 0 or -1. */
static int pair(int l, const struct sockaddr_in *a, int size, int fds[2])
{
	fds[0] = socket(AF_INET, SOCK_STREAM, 0);
	if (fds[0] < 0)
		return -1;
	setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
	setsockopt(fds[0], SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (connect(fds[0], (const struct sockaddr *)a, sizeof(*a)) < 0 ||
	    (fds[1] = accept(l, NULL, NULL)) < 0) {
		close(fds[0]);
		return -1;
	}
	return 0;
}

static long p_sockbuf(long mib)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
	    .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(a);
	int l = socket(AF_INET, SOCK_STREAM, 0), size = 64 << 20, fds[2];
	long long queued = 0, start = time(NULL), took;
	int small = 0;

	if (l < 0 || setsockopt(l, SOL_SOCKET, SO_SNDBUF, &size,
	    sizeof(size)) < 0 || setsockopt(l, SOL_SOCKET, SO_RCVBUF, &size,
	    sizeof(size)) < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    getsockname(l, (struct sockaddr *)&a, &alen) < 0 ||
	    listen(l, 16) < 0)
		return -1;
	for (int i = 0; i < 256 && small < 16 && queued < mib << 20 &&
	    time(NULL) - start < 20; i++) {
		if (pair(l, &a, size, fds) < 0)
			break;
		took = fill(fds[0]) + fill(fds[1]);
		small = took < 65536 ? small + 1 : 0;
		queued += took;
	}
	return (long)(queued >> 20);
}

/* The grandchild says when its name is set, before the probe returns. */
static long p_hide(const char *tag)
{
	int p[2];
	char c;
	pid_t pid;

	if (pipe(p) < 0)
		return -1;
	if ((pid = fork()) == 0) {
		setsid();
		if (fork() == 0) {
			int null = open("/dev/null", O_RDWR);

			/* Holds none of the run's pipes: only a kill ends it. */
			dup2(null, 0);
			dup2(null, 1);
			dup2(null, 2);
			prctl(PR_SET_NAME, tag);
			signal(SIGHUP, SIG_IGN);
			signal(SIGTERM, SIG_IGN);
			if (write(p[1], "1", 1) == 1)
				sleep(hold);
		}
		_exit(0);
	}
	close(p[1]);
	waitpid(pid, NULL, 0);
	return read(p[0], &c, 1) == 1 ? 0 : -1;
}

static int run(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		char *arg = strchr(argv[i], ':');
		long n = arg ? strtol(arg + 1, NULL, 10) : 0, r;

		if (arg == NULL)
			return 2;
		*arg++ = '\0';
		if (strcmp(argv[i], "forks") == 0)
			r = p_forks(n);
		else if (strcmp(argv[i], "memory") == 0)
			r = p_memory(n);
		else if (strcmp(argv[i], "spin") == 0)
			r = p_spin(n);
		else if (strcmp(argv[i], "sockbuf") == 0)
			r = p_sockbuf(n);
		else if (strcmp(argv[i], "hide") == 0)
			r = p_hide(arg);
		else if (strcmp(argv[i], "hold") == 0)
			r = hold = (unsigned)n;
		else
			return 2;
		printf("%s=%ld\n", argv[i], r);
		fflush(stdout);
	}
	return 0;
}

#include "payload.h"
PROBE_MAIN(run, "payload")
