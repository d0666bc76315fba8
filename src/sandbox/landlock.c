/* landlock.c: the filesystem plan of mounts.c rendered as a Landlock
 * ruleset, for where no user namespace can be had (DESIGN 9).
 *
 * Landlock only grants. "Everything but denyRead" is the root's entries
 * granted one by one, descending only along the path to each hidden
 * entry, whose siblings are granted whole; a directory on such a path
 * is granted listing only. /proc is hidden that way too, and the few
 * files of it that ffmpeg's libraries read are granted back, by name;
 * /dev likewise, with the policy's devices.
 * Writable trees get every right but making devices. A hidden,
 * read-only or protected entry inside a writable tree cannot be
 * subtracted from it: such a policy is refused, never granted. Rules
 * hold the objects opened now, so renaming anything later moves none.
 * The constants are the kernel's (linux/landlock.h), defined here
 * because Debian 12's headers stop at ABI 2.
 * https://docs.kernel.org/userspace-api/landlock.html */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "path.h"
#include "sandbox/caps.h"
#include "sandbox/entries.h"
#include "sandbox/filter.h"
#include "sandbox/kernfs.h"
#include "sandbox/landlock.h"
#include "sandbox/mounts.h"

#define SYS_ll_create_ruleset 444
#define SYS_ll_add_rule 445
#define SYS_ll_restrict_self 446
#define LL_CREATE_RULESET_VERSION (1U << 0)
#define LL_RULE_PATH_BENEATH 1

#define FS_EXECUTE (1ULL << 0)
#define FS_WRITE_FILE (1ULL << 1)
#define FS_READ_FILE (1ULL << 2)
#define FS_READ_DIR (1ULL << 3)
#define FS_MAKE_CHAR (1ULL << 6)
#define FS_MAKE_BLOCK (1ULL << 11)
#define FS_TRUNCATE (1ULL << 14)	/* ABI 3 */
#define FS_IOCTL_DEV (1ULL << 15)	/* ABI 5 */
#define FS_FILE (FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | \
	FS_IOCTL_DEV)
#define FS_READ (FS_EXECUTE | FS_READ_FILE | FS_READ_DIR)
#define NET_TCP (3ULL)			/* bind and connect, ABI 4 */
#define SCOPE_ALL (3ULL)		/* abstract sockets, signals, ABI 6 */

#define PR_SET_NO_NEW_PRIVS_ 38
#define PR_SET_SECCOMP_ 22
#define SECCOMP_MODE_FILTER_ 2

struct ruleset_attr {
	uint64_t fs, net, scoped;
};

struct path_beneath {
	uint64_t allowed;
	int32_t fd;
} __attribute__((packed));

struct sock_fprog_ {
	unsigned short len;
	const void *filter;
};

/* What ffmpeg, ffprobe and their libraries open under /proc, measured
 * with strace -f over probes, transcodes (x264, x265, vpx, aom, rav1e,
 * SVT-AV1, dav1d, rsvg), audio and capture devices that fail (alsa,
 * jack, pulse, openal, v4l2) and hardware acceleration: libselinux
 * reads filesystems, SVT-AV1 cpuinfo, libgcrypt fips_enabled (where the
 * kernel has it). Nothing else: not /proc/net, mounts, stat, meminfo.
 * rav1e's num_cpus also reads /proc/self/cgroup and mountinfo, and
 * counts the CPUs of its affinity mask without them. */
static const char *const proc_files[] = {
	"/proc/cpuinfo", "/proc/filesystems", "/proc/sys/crypto/fips_enabled",
};

/* ... and of the command's own /proc/PID: libnuma reads status. Not
 * the whole of it: /proc/PID/net is the host's network namespace (every
 * socket of /proc/net/tcp), mountinfo every mount of the host. readlink
 * (exe, fd/N, as ttyname does) and an open through fd/N check no rule
 * of /proc: Landlock looks at the file the link names. */
static const char *const self_files[] = { "/proc/self/status" };

/* /dev is hidden as /proc is, and these come back: the nodes of bwrap's
 * --dev, and nothing else but the policy's devices (grant_devices). Not /dev/pts (every terminal of the user),
 * /dev/ptmx, /dev/shm (the host's POSIX shared memory), block devices
 * (read past every rule by uid 0), /dev/kmsg, /dev/kvm... The command's
 * own standard streams are descriptors it inherits and need no rule;
 * /dev/tty is its controlling terminal, which its new session has not
 * (TIOCSTI and TIOCLINUX stay refused by seccomp). */
static const struct { const char *path; uint64_t access; } dev_files[] = {
	{ "/dev/null", FS_READ_FILE | FS_WRITE_FILE },
	{ "/dev/zero", FS_READ_FILE | FS_WRITE_FILE },
	{ "/dev/full", FS_READ_FILE | FS_WRITE_FILE },
	{ "/dev/random", FS_READ_FILE },
	{ "/dev/urandom", FS_READ_FILE },
	{ "/dev/tty", FS_READ_FILE | FS_WRITE_FILE | FS_IOCTL_DEV },
};

/* Hidden whole, each but for what is granted back by name; and the
 * trees of /sys that kernfs.c masks under bwrap. */
static const char *const hidden_trees[] = { "/proc", "/dev" };

enum rel { AT, IN, ABOVE };	/* PATH is a hidden tree, in one, above one */

static int relates(const char *path, const char *tree, enum rel r)
{
	return r == AT ? strcmp(path, tree) == 0 : r == IN ?
	    path_within(path, tree) : path_within(tree, path);
}

static int hidden_tree(const char *path, enum rel r)
{
	size_t n;
	const char *const *sys = kernfs_hidden_sys(&n);

	for (size_t i = 0; i < sizeof(hidden_trees) / sizeof(*hidden_trees);
	    i++)
		if (relates(path, hidden_trees[i], r))
			return 1;
	for (size_t i = 0; i < n; i++)
		if (relates(path, sys[i], r))
			return 1;
	return 0;
}

int landlock_abi(void)
{
	long abi = syscall(SYS_ll_create_ruleset, NULL, 0,
	    LL_CREATE_RULESET_VERSION);

	return abi < 0 ? 0 : (int)abi;
}

static uint64_t fs_known(int abi)
{
	return abi >= 5 ? (1ULL << 16) - 1 : abi >= 3 ? (1ULL << 15) - 1 :
	    abi == 2 ? (1ULL << 14) - 1 : (1ULL << 13) - 1;
}

#define HELD_MAX 64

struct ctx {
	struct landlock *l;
	const struct plan *p;
	const struct devices *dv;
	const char *cwd;
	char *const *named;	/* the command and its arguments */
	struct strv needs;	/* NAMED and CWD absolute, made when needed */
	uint64_t known;
	int held[HELD_MAX];	/* rules' descriptors not yet closed */
	size_t nheld;
};

/* Close what is held, sorted, one close_range per run of consecutive
 * numbers: every number closed is one that openat gave here. */
static void release(struct ctx *c)
{
	size_t i, j;
	int fd;

	for (i = 1; i < c->nheld; i++)
		for (j = i; j > 0 && c->held[j - 1] > c->held[j]; j--) {
			fd = c->held[j];
			c->held[j] = c->held[j - 1];
			c->held[j - 1] = fd;
		}
	for (i = 0; i < c->nheld; i = j) {
		for (j = i + 1; j < c->nheld &&
		    c->held[j] == c->held[j - 1] + 1; j++)
			;
		syscall(SYS_close_range, (unsigned)c->held[i],
		    (unsigned)c->held[j - 1], 0U);
	}
	c->nheld = 0;
}

/* A rule's descriptor is not closed at once: descriptors come lowest
 * first, so the entries of a directory take runs of numbers, each closed
 * by one close_range (one syscall fewer per entry). */
static void hold(struct ctx *c, int fd)
{
	if (c->nheld == HELD_MAX)
		release(c);
	c->held[c->nheld++] = fd;
}

static unsigned char type_of(int fd)
{
	struct stat st;

	if (fstat(fd, &st) < 0 || S_ISLNK(st.st_mode))
		return DT_LNK;		/* granted nothing */
	return S_ISDIR(st.st_mode) ? DT_DIR : DT_REG;
}

/* Grant ACCESS beneath NAME, opened under DIR (AT_FDCWD for a whole
 * path); a file gets its file rights only, a link nothing. TYPE is the
 * directory entry's d_type where the caller read one, which spares a
 * stat per entry (openat, unlike musl's open, adds no fcntl either): an
 * entry replaced since by a file or a link makes the kernel refuse the
 * directory rights (EINVAL: the run stops), one replaced by a directory
 * gets file rights only. DT_UNKNOWN: look. */
static int add_rule_at(struct ctx *c, int dir, const char *name,
    unsigned char type, uint64_t access)
{
	struct path_beneath pb = { access & c->known, -1 };
	int rc = 0;

	if (type == DT_LNK)
		return 0;
	if ((pb.fd = openat(dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return errno == ENOENT ? 0 : -1;
	if (type == DT_UNKNOWN)
		type = type_of(pb.fd);
	if (type != DT_DIR)
		pb.allowed &= FS_FILE;
	if (type != DT_LNK && pb.allowed != 0) {
		rc = (int)syscall(SYS_ll_add_rule, c->l->ruleset,
		    LL_RULE_PATH_BENEATH, &pb, 0);
		c->l->rules++;
	}
	hold(c, pb.fd);
	return rc;
}

static int add_rule(struct ctx *c, const char *path, uint64_t access)
{
	return add_rule_at(c, AT_FDCWD, path, DT_UNKNOWN, access);
}

static int is_hidden(const struct mount *m)
{
	return m->kind == FS_DENY_READ;
}

/* -1 when PATH is hidden itself (a hidden entry of the plan, /proc or
 * /dev), 1 when something hidden lies below it, else 0. */
static int hole_at(const struct plan *p, const char *path)
{
	int below = hidden_tree(path, ABOVE);

	if (hidden_tree(path, AT))
		return -1;
	for (size_t i = 0; i < p->n; i++) {
		if (!is_hidden(&p->m[i]) || !path_within(p->m[i].path, path))
			continue;
		if (strcmp(p->m[i].path, path) == 0)
			return -1;
		below = 1;
	}
	return below;
}

/* The entries of the directory PATH, up to LANDLOCK_SIBLINGS_MAX + 1,
 * read once; its descriptor in *FD. */
static int read_dir(const char *path, int *fd, struct entries *e)
{
	if ((*fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -1;
	if (entries_read(*fd, LANDLOCK_SIBLINGS_MAX, e) == 0)
		return 0;
	close(*fd);
	return -1;
}

long landlock_entries(const char *dir)
{
	struct entries e;
	long n;
	int fd;

	if (read_dir(dir, &fd, &e) < 0)
		return -1;
	n = e.n;
	entries_free(&e);
	close(fd);
	return n;
}

static int grant_at(struct ctx *c, const char *path, int dir,
    const char *name, unsigned char type, uint64_t access);

static int grant_child(struct ctx *c, const char *path, int dir,
    const char *name, unsigned char type, uint64_t access)
{
	char *child = xasprintf("%s/%s", strcmp(path, "/") ? path : "", name);
	int rc = grant_at(c, child, dir, name, type, access);

	free(child);
	return rc;
}

static char *entry_toward(const char *path, const char *needed);

/* The name of the entry of PATH that TREE is or lies in, pushed on
 * HOLES. */
static void hole_toward(struct strv *holes, const char *path,
    const char *tree)
{
	char *name = entry_toward(path, tree);

	if (name != NULL)
		strv_push(holes, name);
	free(name);
}

/* The entries of the directory PATH that something hidden is or lies
 * in (hole_at's trees and the plan's hidden entries): any other entry
 * of it is granted whole, and is neither named nor looked up. */
static void holes_in(const struct ctx *c, const char *path,
    struct strv *holes)
{
	size_t n;
	const char *const *sys = kernfs_hidden_sys(&n);

	for (size_t i = 0; i < sizeof(hidden_trees) / sizeof(*hidden_trees);
	    i++)
		hole_toward(holes, path, hidden_trees[i]);
	for (size_t i = 0; i < n; i++)
		hole_toward(holes, path, sys[i]);
	for (size_t i = 0; i < c->p->n; i++)
		if (is_hidden(&c->p->m[i]))
			hole_toward(holes, path, c->p->m[i].path);
}

static int named(const struct strv *holes, const char *name)
{
	for (size_t i = 0; i < holes->n; i++)
		if (strcmp(holes->v[i], name) == 0)
			return 1;
	return 0;
}

/* Every entry E of the directory PATH, open as DIR, but links. */
static int grant_entries(struct ctx *c, const char *path, int dir,
    struct entries *e, uint64_t access)
{
	struct strv holes = { 0 };
	const char *name;
	unsigned char type;
	int rc = 0;

	holes_in(c, path, &holes);
	while (rc == 0 && (name = entries_next(e, &type)) != NULL)
		if (type != DT_LNK)
			rc = named(&holes, name) ?
			    grant_child(c, path, dir, name, type, access) :
			    add_rule_at(c, dir, name, type, access);
	strv_free(&holes);
	return rc < 0 ? -1 : 0;
}

/* NAME made absolute against the working directory, "file:" dropped:
 * what an argument names if it is a path (most are not, and name no
 * entry); and where it leads, links followed, if it exists. */
static void need(struct ctx *c, const char *name)
{
	char *abs, *real;

	if (strncmp(name, "file:", 5) == 0)
		name += 5;
	if (*name == '\0')
		return;
	abs = *name == '/' ? xstrdup(name) : xasprintf("%s/%s", c->cwd, name);
	strv_push(&c->needs, abs);
	if ((real = path_resolve(abs)) != NULL && strcmp(real, abs) != 0)
		strv_push(&c->needs, real);
	free(real);
	free(abs);
}

/* The entry of the directory PATH that NEEDED lies in or is, or NULL. */
static char *entry_toward(const char *path, const char *needed)
{
	size_t n = strcmp(path, "/") ? strlen(path) : 0;
	const char *at;

	if (strncmp(needed, path, n) != 0 || needed[n] != '/')
		return NULL;
	at = needed + n + 1;
	n = strcspn(at, "/");
	return n == 0 || (n <= 2 && strncmp(at, "..", n) == 0) ? NULL :
	    xasprintf("%.*s", (int)n, at);
}

/* A directory of more entries than LANDLOCK_SIBLINGS_MAX on the way to
 * a hidden entry: only the entries that the command, its arguments and
 * the working directory name or lie in, so that a call's price does not
 * grow with the directory (each other entry would be a rule). */
static int grant_named(struct ctx *c, const char *path, int dir,
    uint64_t access)
{
	char *name;
	int rc = 0;

	strv_push(&c->l->narrowed, path);
	if (c->needs.n == 0) {
		need(c, c->cwd);
		for (char *const *a = c->named; *a != NULL; a++)
			need(c, *a);
	}
	for (size_t i = 0; rc == 0 && i < c->needs.n; i++) {
		if ((name = entry_toward(path, c->needs.v[i])) == NULL)
			continue;
		rc = grant_child(c, path, dir, name, DT_UNKNOWN, access);
		free(name);
	}
	return rc;
}

/* Grant ACCESS beneath PATH (an entry of DIR named NAME, of d_type
 * TYPE) except the hidden entries below it. */
static int grant_at(struct ctx *c, const char *path, int dir,
    const char *name, unsigned char type, uint64_t access)
{
	int at = hole_at(c->p, path), fd;
	struct entries e;

	if (at <= 0)
		return at < 0 ? 0 : add_rule_at(c, dir, name, type, access);
	if (add_rule(c, path, access & FS_READ_DIR) < 0 ||
	    read_dir(path, &fd, &e) < 0)
		return -1;
	at = e.n > LANDLOCK_SIBLINGS_MAX ? grant_named(c, path, fd, access) :
	    grant_entries(c, path, fd, &e, access);
	entries_free(&e);
	close(fd);
	return at;
}

static int grant(struct ctx *c, const char *path, uint64_t access)
{
	return grant_at(c, path, AT_FDCWD, path, DT_UNKNOWN, access);
}

/* Is PATH inside (or at) a hidden entry? */
static int hidden(const struct plan *p, const char *path)
{
	for (size_t i = 0; i < p->n; i++)
		if (is_hidden(&p->m[i]) && path_within(path, p->m[i].path))
			return 1;
	return hidden_tree(path, IN);
}

/* Everything but the hidden entries; then what the policy re-opens
 * inside them, and /proc's system files. */
static int grant_reads(struct ctx *c)
{
	const struct mount *m;

	if (grant(c, "/", FS_READ) < 0)
		return -1;
	for (size_t i = 0; i < c->p->n; i++) {
		m = &c->p->m[i];
		if (!is_hidden(m) && !m->pin && hidden(c->p, m->path) &&
		    grant(c, m->path, FS_READ) < 0)
			return -1;
	}
	for (size_t i = 0; i < sizeof(proc_files) / sizeof(*proc_files); i++)
		if (add_rule(c, proc_files[i], FS_READ_FILE) < 0)
			return -1;
	return 0;
}

/* A hidden or read-only entry (allowRead inside a writable tree means
 * read-only there) strictly inside writable tree W. */
static const struct mount *carved(const struct plan *p, const struct mount *w)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->m[i].kind != FS_ALLOW_WRITE &&
		    strcmp(p->m[i].path, w->path) != 0 &&
		    path_within(p->m[i].path, w->path))
			return &p->m[i];
	return NULL;
}

static int grant_writes(struct ctx *c)
{
	const struct mount *w, *x;

	for (size_t i = 0; i < c->p->n; i++) {
		w = &c->p->m[i];
		if (w->kind != FS_ALLOW_WRITE || w->pin)
			continue;
		if ((x = carved(c->p, w)) != NULL) {
			c->l->why = xasprintf("the Landlock backend cannot keep "
			    "%s (%s) out of the writable tree %s; give the "
			    "command a dedicated output directory, or a policy "
			    "of its own", x->path, x->why, w->path);
			return -1;
		}
		if (add_rule(c, w->path, ~(FS_MAKE_CHAR | FS_MAKE_BLOCK)) < 0)
			return -1;
	}
	for (size_t i = 0; i < sizeof(dev_files) / sizeof(*dev_files); i++)
		if (add_rule(c, dev_files[i].path, dev_files[i].access) < 0)
			return -1;
	return 0;
}

/* The policy's devices (devices.c): read, write and ioctl on each node,
 * by the descriptor that was checked; nothing else of /dev. libdrm
 * lists /dev/dri to match a render node with its card (drmGetDevice2),
 * and the NVIDIA driver's libraries read /proc/driver/nvidia: listing
 * the one, reading the other, where a node of theirs is granted. */
static int grant_devices(struct ctx *c)
{
	struct path_beneath pb = { (FS_READ_FILE | FS_WRITE_FILE |
	    FS_IOCTL_DEV) & c->known, -1 };
	int dri = 0, nvidia = 0;

	for (size_t i = 0; i < c->dv->n; i++) {
		pb.fd = c->dv->v[i].fd;
		if (syscall(SYS_ll_add_rule, c->l->ruleset,
		    LL_RULE_PATH_BENEATH, &pb, 0) < 0)
			return -1;
		c->l->rules++;
		dri |= strncmp(c->dv->v[i].path, "/dev/dri/", 9) == 0;
		nvidia |= strncmp(c->dv->v[i].path, "/dev/nvidia", 11) == 0;
	}
	if (dri && add_rule(c, "/dev/dri", FS_READ_DIR) < 0)
		return -1;
	if (nvidia && add_rule(c, "/proc/driver/nvidia", FS_READ) < 0)
		return -1;
	return 0;
}

static int create_ruleset(const struct policy *pol, struct landlock *l)
{
	struct ruleset_attr a = { fs_known(l->abi), 0, 0 };
	size_t size = 8;
	int fd;

	if (l->abi >= 4 && !pol->network_host) {
		a.net = NET_TCP;	/* no rule: no TCP at all */
		size = 16;
	}
	if (l->abi >= 6) {
		a.scoped = SCOPE_ALL;
		size = 24;
	}
	fd = (int)syscall(SYS_ll_create_ruleset, &a, size, 0);

	/* At 10 and above, clear of the numbers the child gives its
	 * status and seccomp descriptors. */
	l->ruleset = fd < 0 ? -1 : fcntl(fd, F_DUPFD_CLOEXEC, 10);
	if (fd >= 0)
		close(fd);
	return l->ruleset < 0 ? -1 : 0;
}

static char *too_old(void)
{
	return xstrdup("the kernel has no Landlock (not built in, or not in "
	    "its lsm= list); the Landlock backend cannot run here");
}

const char *landlock_cost(int abi)
{
	if (abi == 1)
		return "Landlock ABI 1: truncate(2) and open(O_TRUNC) without "
		    "write access are refused (EPERM), and so are rename and "
		    "link across directories (EXDEV)";
	if (abi == 2)
		return "Landlock ABI 2: truncate(2) and open(O_TRUNC) without "
		    "write access are refused (EPERM)";
	return NULL;
}

int landlock_plan(const struct policy *pol, const char *cwd,
    char *const *named, struct plan *made, const struct devices *dv,
    struct landlock *l)
{
	struct plan own = { 0 }, *p = made != NULL ? made : &own;
	struct ctx c = { .l = l, .p = p, .dv = dv, .cwd = cwd,
	    .named = named };
	int status;

	*l = (struct landlock){ .abi = landlock_abi(), .ruleset = -1 };
	if (l->abi < LANDLOCK_ABI_MIN) {
		l->why = too_old();
		return EXIT_SBEXEC;
	}
	if (made == NULL && (status = mounts_plan(pol, cwd, p)) != 0) {
		l->why = xstrdup(p->why);
		mounts_free(p);
		return status;
	}
	c.known = fs_known(l->abi);
	l->filter = FILTER_LANDLOCK | (pol->network_host ? FILTER_INET : 0) |
	    (pol->allow_unix_sockets ? FILTER_UNIX : 0) |
	    (l->abi < 6 ? FILTER_NOSIGNAL : 0) |
	    (l->abi < 3 ? FILTER_NOTRUNC : 0) |
	    (pol->devices.n > 0 ? FILTER_DEVICES : 0);
	l->bpf = filter_make(l->filter, &l->bpf_len);
	status = create_ruleset(pol, l) < 0 || grant_reads(&c) < 0 ||
	    grant_writes(&c) < 0 || grant_devices(&c) < 0 ? EXIT_SBEXEC : 0;
	release(&c);
	strv_free(&c.needs);
	if (status != 0 && l->why == NULL)
		l->why = xasprintf("Landlock: %s", strerror(errno));
	if (made == NULL)
		mounts_free(p);
	return status;
}

int landlock_enter(const struct landlock *l, const char **what)
{
	struct sock_fprog_ prog = { (unsigned short)(l->bpf_len / 8),
	    l->bpf };
	struct path_beneath pb = { FS_READ_FILE, -1 };

	/* /proc/self is this process, which execs the command: its files
	 * are the command's (a thread's too; not a process it starts). */
	for (size_t i = 0; i < sizeof(self_files) / sizeof(*self_files); i++) {
		*what = self_files[i];
		if ((pb.fd = open(self_files[i], O_PATH | O_CLOEXEC)) < 0 ||
		    syscall(SYS_ll_add_rule, l->ruleset, LL_RULE_PATH_BENEATH,
		    &pb, 0) < 0)
			return -1;
		close(pb.fd);
	}
	if (caps_drop(what) < 0)
		return -1;
	*what = "no_new_privs";
	if (prctl(PR_SET_NO_NEW_PRIVS_, 1, 0, 0, 0) < 0)
		return -1;
	*what = "landlock_restrict_self";
	if (syscall(SYS_ll_restrict_self, l->ruleset, 0) < 0)
		return -1;
	close(l->ruleset);
	*what = "seccomp";
	return prctl(PR_SET_SECCOMP_, SECCOMP_MODE_FILTER_, &prog, 0, 0);
}
