/* links.c: what one run could change for the next. Code in the sandbox
 * can rename, remove and re-point what lies in a writable place; what
 * the next run, same policy and cwd, may write or read must be decided
 * from paths no earlier run could have changed (DESIGN 3). A mount point
 * cannot be renamed or removed: every allowWrite is a mount of its own
 * (mounts.c's emit), and every directory between a writable mount and a
 * rule is bound onto itself (plan_pin). A link cannot be made a mount
 * point: a rule through one in a writable place never widens access
 * (plan_links). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "path.h"
#include "sandbox/links.h"
#include "sandbox/mountplan.h"

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

static int widens(const struct fs_rule *r)
{
	return r->kind == FS_ALLOW_READ || r->kind == FS_ALLOW_WRITE;
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

/* Could the command have made or re-pointed the link at LINK? Its
 * directory is writable by the plan P or by POL's allowWrite (either may
 * be NULL); for a rule that widens access (WIDE), also whenever the invoking
 * user can write it: a run from another working directory (allowWrite
 * "./out" run from W, then from W/out) or of another command could have
 * had it writable. */
static int link_movable(const struct plan *p, const struct policy *pol,
    const char *link, int wide)
{
	const char *slash = strrchr(link, '/');
	char *parent = slash == link ? xstrdup("/") :
	    xasprintf("%.*s", (int)(slash - link), link);
	char *dir = path_resolve(parent);
	int movable = dir != NULL && ((p != NULL && plan_view(p, p->n,
	    dir) == WRITABLE) || allowed_write(pol, dir) ||
	    (wide && access(dir, W_OK) == 0));

	free(dir);
	free(parent);
	return movable;
}

/* 1 when an existing prefix of PATH (PATH itself included) is a
 * symbolic link the command could have made or re-pointed
 * (link_movable), taking a rule with it. */
static int unstable_link(const struct plan *p, const struct policy *pol,
    const char *path, int wide)
{
	char *prefix = xstrdup(path), *end = prefix;
	struct stat st;
	int found = 0;

	while (!found && end != NULL) {
		end = strchr(end + 1, '/');
		if (end != NULL)
			*end = '\0';
		found = lstat(prefix, &st) == 0 && S_ISLNK(st.st_mode) &&
		    link_movable(p, pol, prefix, wide);
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

/* What becomes of rule R through a link in a writable place: left out
 * (1) or kept on what the link leads to now (0), with the line saying
 * which into masked, and for one left out, into the plan's left. */
static int through_link(struct plan *p, const struct fs_rule *r,
    const char *cwd)
{
	int wide = widens(r);
	int on_cwd = r->resolved != NULL && path_within(cwd, r->resolved);
	char *line;

	if (!wide && !on_cwd) {
		plan_mask(p, r->expanded, xstrdup("a link in a writable "
		    "place: the rule stays on what it leads to now"));
		return 0;
	}
	plan_mask(p, r->expanded, xstrdup("a link in a writable place: the "
	    "rule is left out of the run"));
	line = xasprintf("%s \"%s\": %s passes through a symbolic link in "
	    "a writable place%s: left out of this run; name the real path",
	    plan_key[r->kind], r->path, r->expanded, wide ? ", which an "
	    "earlier run could have pointed anywhere" : " and leads to the "
	    "working directory, which it would hide");
	strv_push(&p->left, line);
	free(line);
	return 1;
}

/* A rule reached through a link that the command could point elsewhere
 * does not stop the run (one hostile run leaving ".env -> /etc/hostname"
 * where no .env was would stop every later one); it is listed in masked.
 * A deny rule stays on what the link leads to now, hidden or read-only,
 * unless that would hide the working directory. A rule that widens
 * access is never followed there: an allowWrite would write, and an
 * allowRead show, whatever an earlier run pointed the link at. Such
 * rules are left out of the run, loudly: 1, and the rule marked in
 * SKIP, when the plan must be made again without it. The policy and the
 * audit file through such a link are refused. */
int plan_links(const struct policy *pol, const char *cwd,
    struct plan *p, unsigned char *skip)
{
	int again = 0;

	for (size_t i = 0; i < pol->nrules; i++)
		if (unstable_link(p, pol, pol->rules[i].expanded,
		    widens(&pol->rules[i])) &&
		    through_link(p, &pol->rules[i], cwd) && !skip[i]) {
			skip[i] = 1;
			again = 1;
		}
	if (unstable_link(p, NULL, pol->file, 0))
		return refuse_link(p, "the policy", pol->file);
	if (pol->audit_path != NULL &&
	    unstable_link(p, NULL, pol->audit_path, 0))
		return refuse_link(p, "audit", pol->audit_path);
	return again;
}

int links_unstable(const struct policy *pol, const struct fs_rule *r)
{
	return unstable_link(NULL, pol, r->expanded, widens(r));
}
