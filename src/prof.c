/* prof.c: prof.h's marks, in the profiling build only. */
#include "fmt.h"
#include "prof.h"

#ifdef SBEXEC_PROFILE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define MARKS_MAX 48

static struct { const char *step; long long ns; } marks[MARKS_MAX];
static size_t nmarks;
static long long last;
static pid_t owner;		/* not a child that inherited the marks */

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void prof_write(void)
{
	const char *path = getenv("SBEXEC_PROFILE");
	char buf[MARKS_MAX * 96 + 2];
	size_t n = 0;
	int fd;

	if (path == NULL || getpid() != owner || (fd = open(path, O_WRONLY | O_APPEND | O_CREAT |
	    O_CLOEXEC, 0644)) < 0)
		return;
	for (size_t i = 0; i < nmarks; i++)
		n += (size_t)fmt_snprintf(buf + n, sizeof(buf) - n,
		    "%.80s\t%lld\n", marks[i].step, marks[i].ns);
	buf[n++] = '\n';
	if (write(fd, buf, n) < 0)
		n = 0;
	close(fd);
}

void prof_mark(const char *step)
{
	long long t = now_ns();

	if (last == 0) {
		owner = getpid();
		atexit(prof_write);
		last = t;
	}
	if (step != NULL && nmarks < MARKS_MAX) {
		marks[nmarks].step = step;
		marks[nmarks++].ns = t - last;
	}
	last = now_ns();
}
#endif
