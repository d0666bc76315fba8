/* links.c: what one run could change for the next. Code in the sandbox
 * can rename, remove and re-point what lies in a writable place; the
 * next run, same policy and cwd, must not plan from what it left there
 * (DESIGN 3). Two defences: a mount point cannot be renamed or removed,
 * so what a rule's path passes through in a writable place is pinned
 * (bound onto itself); and a link there cannot be pinned, so a rule
 * through one is watched (plan_links). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mountplan.h"
#include "path.h"

/* A mount point cannot be renamed or removed. Without this, the parent
 * of a hidden file inside a writable path could be renamed in one run,
 * and the next run would find the rule's path gone and the file open:
 * every directory between a writable mount and a rule is bound onto
 * itself, writable as before. */
void plan_pin(struct plan *p)
{
	struct mount *m;
	char *dir, *slash;
	size_t n = p->n;

	for (size_t i = 0; i < n; i++) {
		dir = xstrdup(p->m[i].path);
		while ((slash = strrchr(dir, '/')) != NULL && slash != dir) {
			*slash = '\0';
			if (plan_has(p, dir) ||
			    plan_view(p, p->n, dir) != WRITABLE)
				break;
			m = plan_add(p, dir, FS_ALLOW_WRITE, xstrdup("pin"));
			m->pin = 1;
		}
		free(dir);
	}
	plan_sort(p);
}

/* Does an allowWrite of POL (NULL: none) cover DIR? For a rule's link
 * the plan's view is not enough: a rule the link steered may hide the
 * very place the link lies in. */
static int allowed_write(const struct policy *pol, const char *dir)
{
	for (size_t i = 0; pol != NULL && i < pol->nrules; i++)
		if (pol->rules[i].kind == FS_ALLOW_WRITE &&
		    pol->rules[i].resolved != NULL &&
		    path_within(dir, pol->rules[i].resolved))
			return 1;
	return 0;
}

/* 1 when an existing prefix of PATH (PATH itself included) is a
 * symbolic link in a writable place (by the plan, or by POL's
 * allowWrite), which the command could point elsewhere for the next
 * run, taking a rule with it. */
static int unstable_link(const struct plan *p, const struct policy *pol,
    const char *path)
{
	char *prefix = xstrdup(path), *end = prefix, *dir;
	struct stat st;
	int found = 0;

	while (end != NULL) {
		end = strchr(end + 1, '/');
		if (end != NULL)
			*end = '\0';
		if (lstat(prefix, &st) == 0 && S_ISLNK(st.st_mode)) {
			*strrchr(prefix, '/') = '\0';
			dir = path_resolve(*prefix ? prefix : "/");
			found = dir != NULL && (plan_view(p, p->n, dir) ==
			    WRITABLE || allowed_write(pol, dir));
			free(dir);
			break;
		}
		if (end != NULL)
			*end = '/';
	}
	free(prefix);
	return found;
}

static int refuse_link(struct plan *p, const char *what, const char *path)
{
	p->why = xasprintf("%s: %s passes through a symbolic link inside a "
	    "writable path, which the command could point elsewhere; name "
	    "the real path", what, path);
	return -1;
}

/* A rule reached through a link that the command could point elsewhere
 * does not stop the run (one hostile run leaving ".env -> /etc/hostname"
 * where no .env was would stop every later one): as a protected name
 * that is a link, it is listed in masked, and a deny rule stays on what
 * the link leads to now, hidden or read-only. Where that would hide the
 * working directory, or for an allowRead (which the command could lead
 * into what is hidden), the rule is left out of the run instead: 1, and
 * its path in SKIP, when the plan must be made again without it. The
 * policy and the audit file through such a link are refused. */
int plan_links(const struct policy *pol, const char *cwd,
    struct plan *p, struct strv *skip)
{
	const struct fs_rule *r;
	int again = 0;

	for (size_t i = 0; i < pol->nrules; i++) {
		r = &pol->rules[i];
		if (!unstable_link(p, pol, r->expanded))
			continue;
		strv_push(&p->masked, r->expanded);
		if (plan_skipped(skip, r->expanded) || (r->kind != FS_ALLOW_READ &&
		    (r->resolved == NULL || !path_within(cwd, r->resolved))))
			continue;
		strv_push(skip, r->expanded);
		again = 1;
	}
	if (unstable_link(p, NULL, pol->file))
		return refuse_link(p, "the policy", pol->file);
	if (pol->audit_path != NULL &&
	    unstable_link(p, NULL, pol->audit_path))
		return refuse_link(p, "audit", pol->audit_path);
	return again;
}