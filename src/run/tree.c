/* tree.c: a process tree, walked through /proc/PID/task/TID/children:
 * its usage from /proc/PID/stat (utime, stime, cutime, cstime) and
 * /proc/PID/status (VmHWM), and its end.
 *
 * A walk has no fixed cut: its list grows with the tree, up to LIST_MAX
 * entries, and a walk cut short (that bound, or no memory) says so
 * instead of passing for the whole tree. tree_kill does not rely on the
 * tree's goodwill: each pass stops every process the moment it is read
 * (a stopped process forks no more, so the children read after it are
 * all it has), then kills them all and reaps; orphans come back to the
 * subreaper, so what one pass missed the next one finds, and only a pass
 * that finds nothing, with no child left to wait for, ends it. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fmt.h"
#include "run/tree.h"
#include "util.h"

/* The kernel's PID_MAX_LIMIT: no more processes can live at once. A walk
 * that does not stop them can meet more (a process that forks and exits
 * again and again, pids reused), so it needs a bound of its own. */
#define LIST_MAX (4 * 1024 * 1024)

struct list {
	pid_t *v;
	size_t n, cap;
	int cut;		/* a process was left off: the walk is partial */
};

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
		t[i] = (unsigned long long)dec_number(p, &end);
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
	unsigned long tick = getauxval(AT_CLKTCK);
	FILE *f;
	size_t n;

	fmt_snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((f = fopen(path, "re")) == NULL)
		return;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* The name may hold anything, ')' too: fields follow the last. */
	if ((p = strrchr(buf, ')')) == NULL || tick == 0 ||
	    cpu_fields(p + 1, t) < 0)
		return;
	u->cpu_ms += (long long)((t[0] + t[1] + t[2] + t[3]) * 1000 /
	    tick);
}

static void add_rss(pid_t pid, struct usage *u)
{
	char path[64], line[256];
	long long kb;
	FILE *f;

	fmt_snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if ((f = fopen(path, "re")) == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "VmHWM:", 6) == 0 &&
		    (kb = dec_number(line + 6, NULL)) > u->max_rss_kb)
			u->max_rss_kb = kb;
	fclose(f);
}

/* Add PID to L, growing it; -1 (and L marked cut) when it cannot. */
static int push(struct list *l, pid_t pid)
{
	size_t cap = l->cap == 0 ? 1024 : l->cap * 2;
	pid_t *v;

	if (l->n == l->cap) {
		if (cap > LIST_MAX ||
		    (v = realloc(l->v, cap * sizeof(*v))) == NULL) {
			l->cut = 1;
			return -1;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = pid;
	return 0;
}

/* Append the children of every thread of PID to L. With STOP, each is
 * stopped as soon as its pid is read: from then on it forks nothing the
 * walk will not see when it reads that child's own children, and its
 * parent, stopped too, cannot reap it and free its pid for reuse. */
static void children(pid_t pid, struct list *l, int stop)
{
	char path[64];
	struct dirent *d;
	unsigned long long child;
	DIR *dir;
	FILE *f;

	fmt_snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if ((dir = opendir(path)) == NULL)
		return;
	while (!l->cut && (d = readdir(dir)) != NULL) {
		if (d->d_name[0] == '.')
			continue;
		fmt_snprintf(path, sizeof(path), "/proc/%d/task/%.16s/children",
		    (int)pid, d->d_name);
		if ((f = fopen(path, "re")) == NULL)
			continue;
		while (read_number(f, &child) == 1 && push(l, (pid_t)child) == 0)
			if (stop)
				kill((pid_t)child, SIGSTOP);
		fclose(f);
	}
	closedir(dir);
}

/* ROOT and its descendants into L, parents before children; -1 when the
 * walk was cut. ROOT itself is not stopped. */
static int walk(pid_t root, struct list *l, int stop)
{
	l->n = 0;
	l->cut = 0;
	if (push(l, root) < 0)
		return -1;
	for (size_t i = 0; i < l->n && !l->cut; i++)
		children(l->v[i], l, stop);
	return l->cut ? -1 : 0;
}

/* A cut walk reads the part it listed: usage is a report, not a bound. */
void usage_tree(pid_t root, struct usage *u)
{
	struct list l = { 0 };

	if (root <= 0)
		return;
	walk(root, &l, 0);
	for (size_t i = 0; i < l.n; i++) {
		add_stat(l.v[i], u);
		add_rss(l.v[i], u);
	}
	free(l.v);
}

void tree_kill(void)
{
	struct list l = { 0 };
	int st, found;

	/* No child at all, so no descendant: every process of the tree has
	 * a parent in it or, orphaned, this subreaper. The common end, a
	 * command that left nothing, costs no walk of /proc. */
	if (waitpid(-1, &st, __WALL | WNOHANG) < 0 && errno == ECHILD)
		return;
	for (;;) {
		walk(getpid(), &l, 1);
		for (size_t i = 1; i < l.n; i++)
			kill(l.v[i], SIGKILL);
		found = l.n > 1 || l.cut;
		/* l.v[1] is a child of ours, killed: wait for a death, so
		 * that the next pass does not spin on the dying. */
		if (l.n > 1)
			waitpid(-1, &st, __WALL);
		while (waitpid(-1, &st, __WALL | WNOHANG) > 0)
			;
		if (!found && waitpid(-1, &st, __WALL | WNOHANG) < 0 &&
		    errno == ECHILD)
			break;
	}
	free(l.v);
}
