/* mounts.c: the policy's filesystem rules as a list of bubblewrap mounts.
 * Mounts are emitted least specific first, so that the most specific
 * path wins; at an equal path the rules are merged so that deny wins.
 * Writing must never change what a later run hides or may write: the
 * protected names (protect.c), pinning and the watch on links in
 * writable places (links.c) see to that.
 *
 * Code in the sandbox can rename and swap names in writable places while
 * another run plans (DESIGN 3): every path that is bound is opened once,
 * O_PATH|O_NOFOLLOW, checked on the descriptor, and handed to bwrap as
 * --bind-fd/--ro-bind-fd, which mounts that object and dies if it is no
 * longer what lies at the destination ("Race condition binding dirfd"). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fmt.h"
#include "path.h"
#include "sandbox/mountplan.h"
#include "tiny.h"

struct mount *plan_add(struct plan *p, const char *path,
    enum fs_kind kind, char *why)
{
	struct mount *m;

	for (size_t i = 0; i < p->n; i++)
		if (strcmp((m = &p->m[i])->path, path) == 0) {
			if (kind > m->kind) {
				m->kind = kind;
				free(m->why);
				m->why = why;
			} else {
				free(why);
			}
			return m;
		}
	p->m = xreallocarray(p->m, p->n + 1, sizeof(*p->m));
	m = &p->m[p->n++];
	*m = (struct mount){ xstrdup(path), kind, why, 0, 0, 0, -1, 0, 0, 0 };
	return m;
}

const char *const plan_key[] = {
	[FS_ALLOW_READ] = "filesystem.allowRead",
	[FS_ALLOW_WRITE] = "filesystem.allowWrite",
	[FS_DENY_WRITE] = "filesystem.denyWrite",
	[FS_DENY_READ] = "filesystem.denyRead",
};

static int by_depth(const void *a, const void *b)
{
	const struct mount *x = a, *y = b;
	size_t dx = path_depth(x->path), dy = path_depth(y->path);

	if (dx != dy)
		return dx < dy ? -1 : 1;
	return strcmp(x->path, y->path);
}

/* That of the most specific mount covering PATH, else the read-only
 * root. */
enum view plan_view(const struct plan *p, size_t end, const char *path)
{
	const struct mount *best = NULL;

	for (size_t i = 0; i < end; i++)
		if (path_within(path, p->m[i].path) && (best == NULL ||
		    path_depth(p->m[i].path) > path_depth(best->path)))
			best = &p->m[i];
	if (best == NULL)
		return READ_ONLY;
	switch (best->kind) {
	case FS_DENY_READ:	return HIDDEN;
	case FS_ALLOW_WRITE:	return WRITABLE;
	case FS_DENY_WRITE:	return plan_view(p, (size_t)(best - p->m),
				    path) == HIDDEN ? HIDDEN : READ_ONLY;
	default:		return READ_ONLY;
	}
}

int plan_has(const struct plan *p, const char *path)
{
	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->m[i].path, path) == 0)
			return 1;
	return 0;
}

void plan_sort(struct plan *p)
{
	if (p->n > 1)
		tiny_sort(p->m, p->n, sizeof(*p->m), by_depth);
}

/* A directory is the audit's own when nothing but the audit file and
 * its copies lies in it, no rule names anything in it, and it holds
 * neither the working directory nor the root. */
static int audit_dir_own(const struct policy *pol, const char *dir,
    const char *cwd, int other)
{
	if (other || strcmp(dir, "/") == 0 || path_within(cwd, dir))
		return 0;
	for (size_t i = 0; i < pol->nrules; i++)
		if (pol->rules[i].resolved != NULL &&
		    path_within(pol->rules[i].resolved, dir))
			return 0;
	return 1;
}

/* Every run's argv and working directory are in the audit file, and in
 * its rotated copies beside it (audit.jsonl.1, audit.jsonl.2.gz): hide
 * each entry of its directory whose name begins with the file's, links
 * aside (a mount cannot sit on one), or the whole directory when it is
 * the audit's own, which hides a copy rotated in during the run too
 * (sbexec.json(5)). Bounded: each copy is a mount, or a Landlock rule. */
#define AUDIT_COPIES_MAX 1024

/* The entries of DIR whose name begins with BASE, links and BASE itself
 * aside, into COPIES; 1 when DIR holds anything else (or is unreadable). */
static int audit_copies(const char *dir, const char *base,
    struct strv *copies)
{
	size_t len = strlen(base);
	struct dirent *e;
	DIR *d = opendir(dir);
	int other = d == NULL;
	char *path;

	while (d != NULL && (e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
		    strcmp(e->d_name, base) == 0)
			continue;
		if (strncmp(e->d_name, base, len) != 0) {
			other = 1;
		} else if (e->d_type != DT_LNK) {
			path = xasprintf("%s/%s", strcmp(dir, "/") ? dir : "",
			    e->d_name);
			strv_push(copies, path);
			free(path);
		}
	}
	if (d != NULL)
		closedir(d);
	return other;
}

static int plan_audit(const struct policy *pol, const char *cwd,
    struct plan *p)
{
	struct strv copies = { 0 };
	char *file, *dir, *slash;
	int other;

	if (pol->audit_path == NULL ||
	    (file = path_resolve(pol->audit_path)) == NULL)
		return 0;
	plan_add(p, file, FS_DENY_READ, xstrdup("the audit file"));
	slash = strrchr(file, '/');
	dir = slash == file ? xstrdup("/") :
	    xasprintf("%.*s", (int)(slash - file), file);
	other = audit_copies(dir, slash + 1, &copies);
	if (audit_dir_own(pol, dir, cwd, other))
		plan_add(p, dir, FS_DENY_READ, xstrdup("the audit directory"));
	else if (copies.n > AUDIT_COPIES_MAX)
		p->why = xasprintf("%s: more than %d rotated copies of the "
		    "audit file beside it; move them, or give the audit a "
		    "directory of its own", dir, AUDIT_COPIES_MAX);
	else
		for (size_t i = 0; i < copies.n; i++)
			plan_add(p, copies.v[i], FS_DENY_READ,
			    xstrdup("a rotated audit file"));
	strv_free(&copies);
	free(dir);
	free(file);
	return p->why != NULL ? -1 : 0;
}

void plan_mask(struct plan *p, const char *path, char *why)
{
	strv_push(&p->masked, path);
	strv_push(&p->masked_why, why);
	free(why);
}

/* The policy's rules but those marked in SKIP (plan_links says which). */
static int plan_rules(const struct policy *pol, const char *cwd,
    struct plan *p, const unsigned char *skip)
{
	const struct fs_rule *r;
	char *tmp;
	int rc;

	for (size_t i = 0; i < pol->nrules; i++)
		if ((r = &pol->rules[i])->resolved != NULL && !skip[i])
			plan_add(p, r->resolved, r->kind, xasprintf("%s \"%s\"",
			    plan_key[r->kind], r->path));
	if (pol->private_tmp && (tmp = path_resolve("/tmp")) != NULL) {
		plan_add(p, tmp, FS_DENY_READ,
		    xstrdup("filesystem.privateTmp"))->tmp = 1;
		free(tmp);
	}
	rc = plan_audit(pol, cwd, p);
	p->tmp_bytes = pol->limits.tmp_bytes;
	plan_sort(p);
	return rc;
}

static void bind_fd(struct strv *out, const char *opt, struct mount *m,
    struct fdv *keep, struct expect *e)
{
	char fd[16];

	expect_mount(e, m->path, EXPECT_BIND, m->dev, m->ino);
	fmt_snprintf(fd, sizeof(fd), "%d", m->fd);
	strv_add(out, opt, fd, m->path);
	keep->v = xreallocarray(keep->v, keep->n + 1, sizeof(*keep->v));
	keep->v[keep->n++] = m->fd;
	m->fd = -1;
}

/* A hidden directory is an empty tmpfs: read-only once everything below
 * it is mounted, so that it holds no RAM. privateTmp's is writable and
 * bounded. */
static void emit_hidden(const struct plan *p, const struct mount *m,
    struct strv *out, struct expect *e)
{
	char size[32];

	expect_mount(e, m->path, m->dir ? EXPECT_TMPFS : EXPECT_NULL, 0, 0);
	if (!m->dir) {
		strv_add(out, "--ro-bind", "/dev/null", m->path);
		return;
	}
	fmt_snprintf(size, sizeof(size), "%lld", p->tmp_bytes);
	if (m->tmp)
		strv_add(out, "--size", size, NULL);
	strv_add(out, "--tmpfs", m->path, NULL);
}

/* One mount, unless what lies above it already gives the same view. */
static void emit(struct plan *p, size_t i, struct strv *out,
    struct fdv *keep, struct expect *e)
{
	struct mount *m = &p->m[i];
	enum view above = plan_view(p, i, m->path);

	switch (m->kind) {
	case FS_DENY_READ:
		if (above != HIDDEN)
			emit_hidden(p, m, out, e);
		return;
	case FS_ALLOW_WRITE:
		/* Even where writable already: a mount point cannot be
		 * renamed or replaced, so no run moves the rule for the
		 * next (links.c). */
		bind_fd(out, "--bind-fd", m, keep, e);
		return;
	case FS_DENY_WRITE:
		if (above == WRITABLE)
			bind_fd(out, "--ro-bind-fd", m, keep, e);
		return;
	case FS_ALLOW_READ:
		if (above != READ_ONLY)
			bind_fd(out, "--ro-bind-fd", m, keep, e);
		return;
	}
}

/* The caller's relative paths point into its working directory: refuse
 * rather than hide it silently or fail inside bwrap (DESIGN 2). */
static int check_cwd(struct plan *p, const char *cwd)
{
	const struct mount *best = NULL;

	if (plan_view(p, p->n, cwd) != HIDDEN)
		return 0;
	for (size_t i = 0; i < p->n; i++)
		if (p->m[i].kind == FS_DENY_READ &&
		    path_within(cwd, p->m[i].path))
			best = &p->m[i];
	p->why = xasprintf("the working directory %s is hidden by %s; add it "
	    "to filesystem.allowRead or run from another directory", cwd,
	    best ? best->why : "the policy");
	return -1;
}

int mounts_hides(const struct plan *p, const char *path)
{
	return plan_view(p, p->n, path) == HIDDEN;
}

void mounts_free(struct plan *p)
{
	free(p->why);
	for (size_t i = 0; i < p->n; i++) {
		free(p->m[i].path);
		free(p->m[i].why);
		if (p->m[i].fd >= 0)
			close(p->m[i].fd);
	}
	free(p->m);
	strv_free(&p->masked);
	strv_free(&p->masked_why);
	strv_free(&p->left);
}



/* Open what each mount binds (and look at what each mask hides) once.
 * The descriptors sit at 10 and above, clear of the numbers the child
 * gives bwrap's status and seccomp descriptors. */
static int open_one(struct plan *p, struct mount *m)
{
	struct stat st;
	int fd = m->fd, high;

	if (fd < 0)
		fd = open(m->path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 || S_ISLNK(st.st_mode)) {
		p->why = xasprintf("%s (%s) %s while sbexec planned the "
		    "sandbox; try again", m->path, m->why, fd < 0 ?
		    strerror(errno) : "became a symbolic link");
		if (fd >= 0)
			close(fd);
		m->fd = -1;
		return -1;
	}
	m->dir = S_ISDIR(st.st_mode);
	m->dev = st.st_dev;
	m->ino = st.st_ino;
	m->fd = -1;
	if (m->kind == FS_DENY_READ) {
		close(fd);
		return 0;
	}
	high = fcntl(fd, F_DUPFD_CLOEXEC, 10);
	close(fd);
	if (high < 0) {
		p->why = xasprintf("%s: cannot keep a descriptor: %s", m->path,
		    strerror(errno));
		return -1;
	}
	m->fd = high;
	return 0;
}

static int plan_open(struct plan *p)
{
	for (size_t i = 0; i < p->n; i++)
		if (open_one(p, &p->m[i]) < 0)
			return -1;
	return 0;
}

/* A policy the command can rewrite is not a policy (DESIGN 1). */
static int check_policy(struct plan *p, const struct policy *pol)
{
	char *file = path_resolve(pol->file);
	int writable = file != NULL && plan_view(p, p->n, file) == WRITABLE;

	if (writable)
		p->why = xasprintf("the policy %s lies inside its own "
		    "filesystem.allowWrite, where the command could rewrite it; "
		    "move it out", pol->file);
	free(file);
	return writable ? -1 : 0;
}

/* The plan once, leaving out the rules in SKIP: 0, -1 refused, or 1
 * when plan_links left out one more and it must be made again. */
static int plan_once(const struct policy *pol, const char *cwd,
    struct plan *p, unsigned char *skip)
{
	int rc;

	*p = (struct plan){ 0 };
	if (plan_rules(pol, cwd, p, skip) < 0)
		return -1;
	plan_protect(p);
	plan_sort(p);
	plan_pin(p);
	if (check_policy(p, pol) < 0 || (rc = plan_links(pol, cwd, p,
	    skip)) < 0)
		return -1;
	return rc;
}

int mounts_plan(const struct policy *pol, const char *cwd, struct plan *p)
{
	unsigned char *skip = xmalloc(pol->nrules);
	int rc;

	memset(skip, 0, pol->nrules);
	/* Each pass leaves out at least one more rule, or is the last. */
	while ((rc = plan_once(pol, cwd, p, skip)) == 1)
		mounts_free(p);
	free(skip);
	if (rc < 0 || plan_open(p) < 0)
		return EXIT_SBEXEC;
	if (check_cwd(p, cwd) < 0)
		return EXIT_DENIED;
	return 0;
}

void mounts_emit(struct plan *p, struct strv *out, struct fdv *keep,
    struct expect *e)
{
	for (size_t i = 0; i < p->n; i++)
		emit(p, i, out, keep, e);
	for (size_t i = 0; i < p->n; i++)
		if (p->m[i].kind == FS_DENY_READ && p->m[i].dir &&
		    !p->m[i].tmp && plan_view(p, i, p->m[i].path) != HIDDEN)
			strv_add(out, "--remount-ro", p->m[i].path, NULL);
}
