/* trust.c: the directories on the way to the policy file, and to each
 * program it names. A policy or a program in a directory that someone
 * else can write (or reached through a link in one) can be replaced by
 * them, whatever the file's own mode says. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fmt.h"
#include "policy/trust.h"
#include "util.h"

#define LINKS_MAX 40		/* the kernel's own bound (ELOOP) */

/* The small fields first, and each set on its own: a call touches only
 * the pages it writes (every new page is a page fault, on every call). */
struct walk {
	int links;
	int shared;		/* cur is writable by others, sticky */
	struct trust_way *way;	/* a program's walk records; the policy's NULL */
	char **why;
	char cur[PATH_MAX];	/* the directory reached, resolved */
	char rest[PATH_MAX];	/* what is left to walk */
};

static int refuse(struct walk *w, const char *path, const char *what)
{
	*w->why = xasprintf("%s %s; refused", path, what);
	return -1;
}

static int owned(const struct stat *st)
{
	return st->st_uid == 0 || st->st_uid == getuid();
}

/* The directory W->cur, whose status is ST, may hold the policy's way. */
static int check_dir(struct walk *w, const struct stat *st)
{
	if (!S_ISDIR(st->st_mode))
		return refuse(w, w->cur, "is not a directory");
	if (!owned(st))
		return refuse(w, w->cur, "is a directory owned by another user");
	w->shared = (st->st_mode & (S_IWGRP | S_IWOTH)) != 0;
	if (w->shared && !(st->st_mode & S_ISVTX))
		return refuse(w, w->cur, w->way ? "is a directory writable by "
		    "group or others (chmod go-w, or move the program)" :
		    "is a directory writable by group or others (chmod go-w, or "
		    "move the policy)");
	return 0;
}

/* PATH does not exist: only who may write its directory can create it,
 * and in a shared directory that is anyone. */
static int absent(struct walk *w, const char *path, const char *tail)
{
	if (w->shared)
		return refuse(w, path, "does not exist, in a shared directory "
		    "where another user could create it");
	w->way->absent = 1;
	w->way->target = tail[0] ? xasprintf("%s/%s", path, tail) :
	    xstrdup(path);
	return 1;
}

/* The program itself, as read_policy checks the policy file. */
static int program(struct walk *w, const char *path, const struct stat *st)
{
	w->way->target = xstrdup(path);
	if (!owned(st)) {
		*w->why = xasprintf("%s is owned by uid %u, not by root or the "
		    "invoking user; refused", path, (unsigned)st->st_uid);
		return -1;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return refuse(w, path, "is writable by group or others "
		    "(chmod go-w)");
	return 1;
}

/* W->cur is a link, in the directory of its first KEEP bytes: REST
 * becomes the link's target, "/" and TAIL (what was left after the
 * link, inside REST), read in place: TAIL goes to the end of REST and
 * the target before it, which takes no buffer of its own. */
static int follow(struct walk *w, const char *tail, size_t keep)
{
	size_t len = strlen(tail), room = sizeof(w->rest) - len - 1;
	char *end = w->rest + room;
	ssize_t n;

	if (++w->links > LINKS_MAX)
		return refuse(w, w->cur, "passes through too many links");
	memmove(end, tail, len + 1);
	n = readlink(w->cur, w->rest, room - 1);
	if (n < 0)
		return refuse(w, w->cur, strerror(errno));
	if ((size_t)n >= room - 1)
		return refuse(w, w->cur, "is too long");
	w->rest[n] = '/';
	memmove(w->rest + n + 1, end, len + 1);
	w->cur[keep] = '\0';
	if (w->rest[0] == '/')
		strcpy(w->cur, "/");
	return 0;
}

static int is_name(const char *s, size_t len, const char *name)
{
	return len == strlen(name) && memcmp(s, name, len) == 0;
}

/* Walk one component of REST; 1 when the walk is over. Its path is
 * built on W->cur, which stays there when it is a directory. */
static int step(struct walk *w)
{
	char *slash, *tail;
	struct stat st;
	size_t len, keep = strlen(w->cur);

	slash = strchr(w->rest, '/');
	tail = slash ? slash + 1 : w->rest + strlen(w->rest);
	len = (size_t)(tail - w->rest) - (slash != NULL);
	if (len == 0 || is_name(w->rest, len, ".")) {
		memmove(w->rest, tail, strlen(tail) + 1);
		return w->rest[0] == '\0';
	}
	if (is_name(w->rest, len, "..")) {
		if ((slash = strrchr(w->cur, '/')) != NULL)
			slash[slash == w->cur] = '\0';
		memmove(w->rest, tail, strlen(tail) + 1);
		return lstat(w->cur, &st) < 0 ? refuse(w, w->cur,
		    strerror(errno)) : check_dir(w, &st);
	}
	if ((size_t)fmt_snprintf(w->cur + keep, sizeof(w->cur) - keep, "%s%.*s",
	    keep > 1 ? "/" : "", (int)len, w->rest) >= sizeof(w->cur) - keep) {
		w->cur[keep] = '\0';
		return refuse(w, w->cur, "leads to a path too long");
	}
	if (lstat(w->cur, &st) < 0)
		return w->way && errno == ENOENT ? absent(w, w->cur, tail) :
		    refuse(w, w->cur, strerror(errno));
	if (w->way != NULL)
		strv_push(&w->way->seen, w->cur);
	if (w->shared && !owned(&st))
		return refuse(w, w->cur, "is owned by another user in a shared "
		    "directory, which they could replace");
	if (S_ISLNK(st.st_mode))
		return follow(w, tail, keep);
	memmove(w->rest, tail, strlen(tail) + 1);
	if (w->rest[0] == '\0')
		return w->way ? program(w, w->cur, &st) : 1;
	return check_dir(w, &st);
}

/* From "/" to FILE (after the working directory when FILE is relative:
 * "//FILE" when it is absolute, as "/" "/" reads it). */
static int walk_from_root(struct walk *w, const char *file)
{
	struct stat st;
	size_t len;
	int rc = 0;

	w->rest[0] = '\0';
	if (file[0] != '/' && getcwd(w->rest, sizeof(w->rest)) == NULL)
		return refuse(w, file, "cannot be found: no working directory");
	len = strlen(w->rest);
	if ((size_t)fmt_snprintf(w->rest + len, sizeof(w->rest) - len, "/%s",
	    file) >= sizeof(w->rest) - len)
		return refuse(w, file, "is too long");
	strcpy(w->cur, "/");
	if (lstat("/", &st) < 0 || check_dir(w, &st) < 0)
		return -1;
	while (rc == 0)
		rc = step(w);
	return rc < 0 ? -1 : 0;
}

/* The walks' two PATH_MAX buffers: allocated by the first walk of a
 * policy load, shared by its walks (one allocation, its pages faulted
 * once) and given back by trust_end once the load is over. A static
 * walker kept its two pages resident to the end of every run; one on
 * the stack made every later call 8 KiB deeper; one per walk paid a map
 * and its page faults four times a call. */
static struct walk *walker;

void trust_end(void)
{
	free(walker);
	walker = NULL;
}

static int walk(const char *file, struct trust_way *way, char **why)
{
	struct walk *w;
	int rc;

	if (walker == NULL)
		walker = xmalloc(sizeof(*walker));
	w = walker;

	w->links = w->shared = 0;
	w->way = way;
	w->why = why;
	rc = walk_from_root(w, file);
	/* A walk that ends on "." or "..": the directory reached. */
	if (way != NULL && way->target == NULL)
		way->target = xstrdup(w->cur);
	return rc;
}

int trust_path(const char *file, char **why)
{
	return walk(file, NULL, why);
}

int trust_program(const char *file, struct trust_way *way, char **why)
{
	*way = (struct trust_way){ 0 };
	return walk(file, way, why);
}

void trust_way_free(struct trust_way *way)
{
	strv_free(&way->seen);
	free(way->target);
	*way = (struct trust_way){ 0 };
}
