/* tree.c: a process tree, walked through /proc/PID/task/TID/children:
 * its usage from /proc/PID/stat (utime, stime, cutime, cstime) and
 * /proc/PID/status (VmHWM), and its end. Bounded: a tree of at most
 * TREE_MAX processes is read at a time. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tree.h"
#include "util.h"

#define TREE_MAX 4096

/* utime, stime, cutime and cstime: fields 12 to 15 after the name (P
 * is just past its ')'); the first of them is the one-letter state. */
static int cpu_fields(const char *p, unsigned long long t[4])
{
	char *end;

	for (int i = 0; i < 11; i++) {
		p += strspn(p, " ");
		p += strcspn(p, " ");
	}
	for (int i = 0; i < 4; i++) {
		t[i] = strtoull(p, &end, 10);
		if (end == p)
			return -1;
		p = end;
	}
	return 0;
}

static void add_stat(pid_t pid, struct usage *u)
{
	unsigned long long t[4];
	char path[64], buf[1024], *p;
	long tick = sysconf(_SC_CLK_TCK);
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((f = fopen(path, "re")) == NULL)
		return;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* The name may hold anything, ')' too: fields follow the last. */
	if ((p = strrchr(buf, ')')) == NULL || tick <= 0 ||
	    cpu_fields(p + 1, t) < 0)
		return;
	u->cpu_ms += (long long)((t[0] + t[1] + t[2] + t[3]) * 1000 /
	    (unsigned long long)tick);
}

static void add_rss(pid_t pid, struct usage *u)
{
	char path[64], line[256];
	long long kb;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if ((f = fopen(path, "re")) == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "VmHWM:", 6) == 0 &&
		    (kb = strtoll(line + 6, NULL, 10)) > u->max_rss_kb)
			u->max_rss_kb = kb;
	fclose(f);
}

/* Append the children of every thread of PID to the list. */
static void children(pid_t pid, pid_t *list, size_t *n)
{
	char path[64];
	struct dirent *d;
	unsigned long long child;
	DIR *dir;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if ((dir = opendir(path)) == NULL)
		return;
	while ((d = readdir(dir)) != NULL) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.16s/children",
		    (int)pid, d->d_name);
		if ((f = fopen(path, "re")) == NULL)
			continue;
		while (*n < TREE_MAX && read_number(f, &child) == 1)
			list[(*n)++] = (pid_t)child;
		fclose(f);
	}
	closedir(dir);
}

/* ROOT and its descendants into LIST; returns how many. */
static size_t walk(pid_t root, pid_t *list)
{
	size_t n = 0;

	list[n++] = root;
	for (size_t i = 0; i < n; i++)
		children(list[i], list, &n);
	return n;
}

void usage_tree(pid_t root, struct usage *u)
{
	static pid_t list[TREE_MAX];
	size_t n;

	if (root <= 0)
		return;
	n = walk(root, list);
	for (size_t i = 0; i < n; i++) {
		add_stat(list[i], u);
		add_rss(list[i], u);
	}
}

void tree_signal(pid_t root, int sig)
{
	static pid_t list[TREE_MAX];
	size_t n = walk(root, list);

	while (n-- > 0)
		kill(list[n], sig);
}

void tree_kill(void)
{
	static pid_t list[TREE_MAX];
	const struct timespec ms = { 0, 1000000 };
	size_t n;
	int st;

	for (int tries = 0; tries < 1000; tries++) {
		n = walk(getpid(), list);
		for (size_t i = 1; i < n; i++)
			kill(list[i], SIGKILL);
		while (waitpid(-1, &st, WNOHANG) > 0)
			;
		if (n == 1 && waitpid(-1, &st, WNOHANG) < 0 && errno == ECHILD)
			return;
		nanosleep(&ms, NULL);
	}
}
