/* verify.c: bwrap resolves each bind's source to a path when it starts
 * and mounts that path later, so code in another sandbox that swaps
 * names in a writable directory in between can have bwrap mount any host
 * path anywhere (bubblewrap's own --bind-fd check looks at the
 * destination's last component only). sbexec therefore checks the result
 * after bwrap has made every mount and before the command runs: each
 * planned path, walked without following a link, must be what was
 * planned; at and below each planned bind or mask the mounts must be
 * exactly the host's there and the planned ones; and every other mount,
 * a copy of the host's made by the read-only bind of /, must be
 * read-only. Those copies are not counted: on a busy host (Docker,
 * automounts) they change between planning and setup, and a read-only
 * copy of a host mount shows nothing the command could not read. A
 * misdirected mount still fails its planned path's check, and a
 * writable one is refused where it lands. Every mount must be noexec
 * but the executable trees' own (DESIGN 13). Anything else: 125. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fmt.h"
#include "path.h"
#include "sandbox/mtab.h"
#include "sandbox/verify.h"
#include "util.h"

#define TMPFS_MAGIC 0x01021994

/* Mount points as mountinfo writes them: space, tab, newline and
 * backslash in octal. */
static char *escape(const char *path)
{
	char *out = xmalloc(strlen(path) * 4 + 1), *o = out;

	for (; *path != '\0'; path++)
		if (strchr(" \t\n\\", *path) != NULL)
			o += fmt_snprintf(o, 5, "\\%03o", (unsigned char)*path);
		else
			*o++ = *path;
	*o = '\0';
	return out;
}

static struct expect_mp *find_mp(struct expect *e, const char *mp)
{
	for (size_t i = 0; i < e->nmp; i++)
		if (strcmp(e->mp[i].mp, mp) == 0)
			return &e->mp[i];
	if (e->nmp == e->cap) {
		e->cap = e->cap ? 2 * e->cap : 64;
		e->mp = xreallocarray(e->mp, e->cap, sizeof(*e->mp));
	}
	e->mp[e->nmp] = (struct expect_mp){ xstrdup(mp), 0, 0, 0 };
	return &e->mp[e->nmp++];
}

static struct expect_mp *add_mp(struct expect *e, const char *mp, int min,
    int max)
{
	struct expect_mp *m = find_mp(e, mp);

	m->min += min;
	m->max += max;
	return m;
}

/* Mounts of sbexec's or bwrap's own at MP. */
static void plan_mp(struct expect *e, const char *mp, int min, int max)
{
	add_mp(e, mp, min, max)->planned = 1;
}

/* One host mount: once in the sandbox (bwrap's --ro-bind / / copies
 * every mount). A recursive bind skips an unbindable mount with all
 * below it, unless bwrap's recursive MS_SLAVE of its new namespace has
 * cleared the flag first, as Linux 6.18 does: such a mount may be
 * there or not. */
static void host_mount(struct expect *e, const struct mtab_entry *m,
    struct strv *skip)
{
	int skipped = 0;

	for (size_t i = 0; i < skip->n; i++)
		skipped |= path_within(m->mp, skip->v[i]);
	if (m->unbindable)
		strv_push(skip, m->mp);
	add_mp(e, m->mp, m->unbindable || skipped ? 0 : 1, 1);
}

int expect_base(struct expect *e, int own_proc)
{
	static const char *const dev[] = { "/dev", "/dev/null", "/dev/zero",
	    "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty",
	    "/dev/pts" };
	/* bwrap covers these when access(W_OK) says they are writable
	 * (never /proc/sys itself: kernfs.c covers them all); /dev/console
	 * when its stdout is a terminal. */
	static const char *const maybe[] = { "/proc/sys",
	    "/proc/sysrq-trigger", "/proc/irq", "/proc/bus", "/dev/console" };
	struct strv skip = { 0 };
	struct mtab t;

	*e = (struct expect){ 0 };
	if (mtab_read(0, &t) < 0)
		return -1;
	for (size_t i = 0; i < t.n; i++)
		host_mount(e, &t.m[i], &skip);
	mtab_free(&t);
	strv_free(&skip);
	for (size_t i = 0; i < sizeof(dev) / sizeof(*dev); i++)
		plan_mp(e, dev[i], 1, 1);
	if (own_proc)
		plan_mp(e, "/proc", 1, 1);
	for (size_t i = own_proc ? 0 : 4; i < sizeof(maybe) / sizeof(*maybe);
	    i++)
		plan_mp(e, maybe[i], 0, 1);
	return 0;
}

/* MP, the escaped PATH, is the object's from here on. */
static void add_obj(struct expect *e, const char *path, char *mp,
    enum expect_kind kind, dev_t dev, ino_t ino, int tree)
{
	e->obj = xreallocarray(e->obj, e->nobj + 1, sizeof(*e->obj));
	e->obj[e->nobj++] = (struct expect_obj){ xstrdup(path), mp, kind,
	    dev, ino, tree };
}

void expect_cover(struct expect *e, const char *path, enum expect_kind kind,
    dev_t dev, ino_t ino)
{
	char *mp = escape(path);

	plan_mp(e, mp, 1, 1);
	add_obj(e, path, mp, kind, dev, ino, 0);
}

void expect_mount(struct expect *e, const char *path, enum expect_kind kind,
    dev_t dev, ino_t ino)
{
	char *mp = escape(path), *below;
	size_t n = e->nmp;

	if (kind == EXPECT_BIND)
		for (size_t i = 0; i < n; i++) {
			below = e->mp[i].mp;
			if (strcmp(below, mp) != 0 && path_within(below, mp)) {
				e->mp[i].min *= 2;
				e->mp[i].max *= 2;
			}
		}
	plan_mp(e, mp, 1, 1);
	add_obj(e, path, mp, kind, dev, ino, 1);
}

void expect_exec(struct expect *e, const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return;		/* the helper's open_tree fails: 125 */
	expect_mount(e, path, EXPECT_BIND, st.st_dev, st.st_ino);
	strv_push(&e->exec, path);
	strv_push(&e->exec_mp, e->obj[e->nobj - 1].mp);
}

/* May the mount at MP (escaped) lack noexec? */
static int exec_tree(const struct expect *e, const char *mp)
{
	for (size_t i = 0; i < e->exec_mp.n; i++)
		if (strcmp(e->exec_mp.v[i], mp) == 0)
			return 1;
	return 0;
}

/* Is MP (escaped) at or below a planned bind or mask? */
static int in_tree(const struct expect *e, const char *mp)
{
	for (size_t i = 0; i < e->nobj; i++)
		if (e->obj[i].tree && path_within(mp, e->obj[i].mp))
			return 1;
	return 0;
}

/* A mount point as mountinfo wrote it, as a path again. */
static char *unescape(const char *mp)
{
	char *out = xmalloc(strlen(mp) + 1), *o = out;

	for (; *mp != '\0'; mp++)
		if (mp[0] == '\\' && mp[1] >= '0' && mp[1] <= '3' &&
		    mp[2] >= '0' && mp[2] <= '7' && mp[3] >= '0' && mp[3] <= '7') {
			*o++ = (char)((mp[1] - '0') << 6 | (mp[2] - '0') << 3 |
			    (mp[3] - '0'));
			mp += 3;
		} else {
			*o++ = *mp;
		}
	*o = '\0';
	return out;
}

/* Can the command reach mount point MP of the sandbox at all? bwrap,
 * run by a user, leaves read-write a host mount below a directory that
 * user may not search (Docker's /var/lib/docker, a root-only 0700
 * directory in /tmp): it cannot remount what it cannot reach, and
 * neither can the command, which holds no capability and the same uid
 * as sbexec, whose own walk this is. */
static int reachable(int root, const char *mp)
{
	char *path = unescape(mp);
	int fd = path_walk(root, path), err = errno;

	free(path);
	if (fd >= 0)
		close(fd);
	return fd >= 0 || err != EACCES;
}

static int counted(const struct expect *e, size_t j)
{
	return e->mp[j].planned || in_tree(e, e->mp[j].mp);
}

/* One mount of the sandbox's table: counted where the plan speaks,
 * else the host's, which must be read-only where a path reaches it. */
static int tally(const struct expect *e, int root, int *count,
    const struct mtab_entry *m, char **why)
{
	size_t j;

	if (!m->noexec && !exec_tree(e, m->mp)) {
		*why = xasprintf("an executable mount at %s", m->mp);
		return -1;
	}
	for (j = 0; j < e->nmp && strcmp(e->mp[j].mp, m->mp) != 0; j++)
		;
	if (j < e->nmp ? counted(e, j) : in_tree(e, m->mp)) {
		if (j < e->nmp && ++count[j] <= e->mp[j].max)
			return 0;
		*why = xasprintf("a mount nobody asked for at %s", m->mp);
		return -1;
	}
	if (m->ro || !m->visible || !reachable(root, m->mp))
		return 0;
	*why = xasprintf("a writable mount nobody planned at %s (one the "
	    "host made while the sandbox was set up?)", m->mp);
	return -1;
}

/* Count each mount point of PID's table against E: none unplanned, none
 * more often than planned, every planned one at least as often. */
static int check_table(pid_t pid, int root, const struct expect *e,
    char **why)
{
	int *count = calloc(e->nmp + 1, sizeof(*count)), rc = 0;
	struct mtab t;

	if (count == NULL || mtab_read(pid, &t) < 0) {
		*why = xasprintf("/proc/%d/mountinfo: %s", (int)pid,
		    strerror(errno));
		free(count);
		return -1;
	}
	for (size_t i = 0; rc == 0 && i < t.n; i++)
		rc = tally(e, root, count, &t.m[i], why);
	for (size_t j = 0; rc == 0 && j < e->nmp; j++)
		if (count[j] < e->mp[j].min && counted(e, j)) {
			*why = xasprintf("a planned mount missing at %s",
			    e->mp[j].mp);
			rc = -1;
		}
	mtab_free(&t);
	free(count);
	return rc;
}

static int check_obj(int root, const struct expect_obj *o, dev_t null_rdev)
{
	struct statfs sf;
	struct stat st;
	int fd = path_walk(root, o->path), ok;

	if (fd < 0 || fstat(fd, &st) < 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	switch (o->kind) {
	case EXPECT_BIND:
		ok = st.st_dev == o->dev && st.st_ino == o->ino;
		break;
	case EXPECT_TMPFS:
		ok = S_ISDIR(st.st_mode) && fstatfs(fd, &sf) == 0 &&
		    sf.f_type == TMPFS_MAGIC;
		break;
	default:
		ok = S_ISCHR(st.st_mode) && st.st_rdev == null_rdev;
		break;
	}
	close(fd);
	return ok ? 0 : -1;
}

int verify_sandbox(pid_t pid, const struct expect *e, char **why)
{
	char path[64];
	struct stat null;
	int root, rc = 0;

	fmt_snprintf(path, sizeof(path), "/proc/%d/root", (int)pid);
	if ((root = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0 ||
	    stat("/dev/null", &null) < 0) {
		*why = xasprintf("%s: %s", path, strerror(errno));
		if (root >= 0)
			close(root);
		return -1;
	}
	if (check_table(pid, root, e, why) < 0) {
		close(root);
		return -1;
	}
	for (size_t i = 0; rc == 0 && i < e->nobj; i++)
		if ((rc = check_obj(root, &e->obj[i], null.st_rdev)) < 0)
			*why = xasprintf("%s is not what was planned there",
			    e->obj[i].path);
	close(root);
	return rc;
}

void expect_free(struct expect *e)
{
	for (size_t i = 0; i < e->nmp; i++)
		free(e->mp[i].mp);
	for (size_t i = 0; i < e->nobj; i++) {
		free(e->obj[i].path);
		free(e->obj[i].mp);
	}
	free(e->mp);
	free(e->obj);
	strv_free(&e->exec);
	strv_free(&e->exec_mp);
	*e = (struct expect){ 0 };
}
