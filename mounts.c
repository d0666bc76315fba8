/* mounts.c: the policy's filesystem rules as a list of bubblewrap mounts.
 * Mounts are emitted least specific first, so that the most specific
 * path wins; at an equal path the rules are merged so that deny wins.
 * Writing must never change what a later run hides: protected names,
 * pinned parents and the refusal of movable symlinks see to that. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mounts.h"
#include "path.h"

/* Writing these later runs code on the host: they stay read-only inside
 * every allowWrite path (DESIGN 2). .zshenv, .zlogin and .bash_login
 * are read by the same shells as their listed siblings (zsh -c reads
 * .zshenv before anything else), so they are here too. */
static const char *const protected_names[] = {
	".git", ".gitconfig", ".gitmodules", ".bashrc", ".bash_profile",
	".bash_login", ".profile", ".zshrc", ".zshenv", ".zprofile",
	".zlogin", ".envrc", ".vscode", ".idea",
};

enum view { HIDDEN, READ_ONLY, WRITABLE };

/* Merge a rule into the plan; at an equal path the larger kind (deny)
 * wins. Takes ownership of WHY. */
static struct mount *plan_add(struct plan *p, const char *path,
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
	*m = (struct mount){ xstrdup(path), kind, why, 0, 0 };
	return m;
}

static const char *const kind_key[] = {
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

/* The view at PATH given the mounts before index END: that of the most
 * specific one covering it, else the read-only root. */
static enum view view_at(const struct plan *p, size_t end, const char *path)
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
	case FS_DENY_WRITE:	return view_at(p, (size_t)(best - p->m),
				    path) == HIDDEN ? HIDDEN : READ_ONLY;
	default:		return READ_ONLY;
	}
}

static int mount_at(const struct plan *p, const char *path)
{
	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->m[i].path, path) == 0)
			return 1;
	return 0;
}

static void plan_sort(struct plan *p)
{
	if (p->n > 1)
		qsort(p->m, p->n, sizeof(*p->m), by_depth);
}

static void plan_rules(const struct policy *pol, struct plan *p)
{
	const struct fs_rule *r;
	char *tmp;

	for (size_t i = 0; i < pol->nrules; i++)
		if ((r = &pol->rules[i])->resolved != NULL)
			plan_add(p, r->resolved, r->kind, xasprintf("%s \"%s\"",
			    kind_key[r->kind], r->path));
	if (pol->private_tmp && (tmp = path_resolve("/tmp")) != NULL) {
		plan_add(p, tmp, FS_DENY_READ,
		    xstrdup("filesystem.privateTmp"));
		free(tmp);
	}
	plan_sort(p);
}

static void protect(struct plan *p, const char *path)
{
	struct mount *m;

	if (view_at(p, p->n, path) != WRITABLE)
		return;
	m = plan_add(p, path, FS_DENY_WRITE, xstrdup("protected name"));
	m->protect = 1;
	plan_sort(p);
}

/* A link can be replaced even where its target is bound read-only:
 * refuse rather than protect the target and leave the name open. */
static int linked_name(struct plan *p, const char *path)
{
	p->why = xasprintf("%s is a symbolic link inside a writable path: it "
	    "cannot be kept read-only; replace the link with its file or "
	    "narrow filesystem.allowWrite", path);
	return -1;
}

/* The existing protected names at the top of writable mount I. */
static int protected_in(struct plan *p, size_t i, struct strv *cand)
{
	struct stat st;
	char *path;
	int rc = 0;

	for (size_t j = 0; rc == 0 &&
	    j < sizeof(protected_names) / sizeof(*protected_names); j++) {
		path = xasprintf("%s/%s", strcmp(p->m[i].path, "/") ?
		    p->m[i].path : "", protected_names[j]);
		if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
			rc = linked_name(p, path);
		else if (rc == 0 && lstat(path, &st) == 0)
			strv_push(cand, path);
		free(path);
	}
	return rc;
}

/* Protected names, and sbexec's own policy and audit file, stay
 * read-only; so does anything below them, whatever the policy says. */
static int plan_protect(const struct policy *pol, struct plan *p)
{
	struct strv cand = { 0 };
	size_t i, j;
	char *path;

	for (i = 0; i < p->n; i++)
		if (p->m[i].kind == FS_ALLOW_WRITE &&
		    protected_in(p, i, &cand) < 0) {
			strv_free(&cand);
			return -1;
		}
	for (i = 0; i < 2; i++) {
		path = path_resolve(i == 0 ? pol->file : pol->audit_path ?
		    pol->audit_path : "");
		if (path != NULL)
			strv_push(&cand, path);
		free(path);
	}
	for (i = 0; i < cand.n; i++)
		protect(p, cand.v[i]);
	for (i = 0; i < p->n; i++)
		for (j = 0; j < p->n; j++)
			if (p->m[j].protect && p->m[i].kind == FS_ALLOW_WRITE &&
			    path_within(p->m[i].path, p->m[j].path))
				p->m[i].kind = FS_DENY_WRITE;
	strv_free(&cand);
	return 0;
}

/* One mount, unless what lies above it already gives the same view. */
static void emit(const struct plan *p, size_t i, struct strv *out)
{
	const struct mount *m = &p->m[i];
	enum view above = view_at(p, i, m->path);
	struct stat st;

	switch (m->kind) {
	case FS_DENY_READ:
		if (above == HIDDEN)
			return;
		if (stat(m->path, &st) == 0 && S_ISDIR(st.st_mode))
			strv_add(out, "--tmpfs", m->path, NULL);
		else
			strv_add(out, "--ro-bind", "/dev/null", m->path);
		return;
	case FS_ALLOW_WRITE:
		if (above != WRITABLE || m->pin)
			strv_add(out, "--bind", m->path, m->path);
		return;
	case FS_DENY_WRITE:
		if (above == WRITABLE)
			strv_add(out, "--ro-bind", m->path, m->path);
		return;
	case FS_ALLOW_READ:
		if (above != READ_ONLY)
			strv_add(out, "--ro-bind", m->path, m->path);
		return;
	}
}

/* The caller's relative paths point into its working directory: refuse
 * rather than hide it silently or fail inside bwrap (DESIGN 2). */
static int check_cwd(struct plan *p, const char *cwd)
{
	const struct mount *best = NULL;

	if (view_at(p, p->n, cwd) != HIDDEN)
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

void mounts_free(struct plan *p)
{
	free(p->why);
	for (size_t i = 0; i < p->n; i++) {
		free(p->m[i].path);
		free(p->m[i].why);
	}
	free(p->m);
}


/* A mount point cannot be renamed or removed. Without this, the parent
 * of a hidden file inside a writable path could be renamed in one run,
 * and the next run would find the rule's path gone and the file open:
 * every directory between a writable mount and a rule is bound onto
 * itself, writable as before. */
static void plan_pin(struct plan *p)
{
	struct mount *m;
	char *dir, *slash;
	size_t n = p->n;

	for (size_t i = 0; i < n; i++) {
		dir = xstrdup(p->m[i].path);
		while ((slash = strrchr(dir, '/')) != NULL && slash != dir) {
			*slash = '\0';
			if (mount_at(p, dir) ||
			    view_at(p, p->n, dir) != WRITABLE)
				break;
			m = plan_add(p, dir, FS_ALLOW_WRITE, xstrdup("pin"));
			m->pin = 1;
		}
		free(dir);
	}
	plan_sort(p);
}

/* Each existing prefix of PATH that is a symlink in a writable place
 * could be pointed elsewhere for the next run, taking the rule, the
 * policy or the audit file with it: refuse. */
static int unstable_link(struct plan *p, const char *path,
    const char *what)
{
	char *prefix = xstrdup(path), *end = prefix, *dir;
	struct stat st;
	enum view v;

	while (end != NULL) {
		end = strchr(end + 1, '/');
		if (end != NULL)
			*end = '\0';
		if (lstat(prefix, &st) == 0 && S_ISLNK(st.st_mode)) {
			*strrchr(prefix, '/') = '\0';
			dir = path_resolve(*prefix ? prefix : "/");
			v = dir ? view_at(p, p->n, dir) : HIDDEN;
			free(dir);
			if (v == WRITABLE) {
				p->why = xasprintf("%s: %s passes through a "
				    "symbolic link inside a writable path, which "
				    "the command could point elsewhere; name the "
				    "real path", what, path);
				free(prefix);
				return -1;
			}
			break;
		}
		if (end != NULL)
			*end = '/';
	}
	free(prefix);
	return 0;
}

static int plan_links(const struct policy *pol, struct plan *p)
{
	for (size_t i = 0; i < pol->nrules; i++)
		if (unstable_link(p, pol->rules[i].expanded,
		    kind_key[pol->rules[i].kind]) < 0)
			return -1;
	if (unstable_link(p, pol->file, "the policy") < 0 ||
	    (pol->audit_path != NULL &&
	    unstable_link(p, pol->audit_path, "audit") < 0))
		return -1;
	return 0;
}

int mounts_plan(const struct policy *pol, const char *cwd, struct plan *p)
{
	*p = (struct plan){ 0 };
	plan_rules(pol, p);
	if (plan_protect(pol, p) < 0)
		return EXIT_SBEXEC;
	plan_sort(p);
	plan_pin(p);
	if (plan_links(pol, p) < 0)
		return EXIT_SBEXEC;
	if (check_cwd(p, cwd) < 0)
		return EXIT_DENIED;
	return 0;
}

void mounts_emit(const struct plan *p, struct strv *out)
{
	for (size_t i = 0; i < p->n; i++)
		emit(p, i, out);
}
