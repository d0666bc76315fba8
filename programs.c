/* programs.c: every program the policy names (bwrap, binShell, each
 * command's path) is trusted as the policy file is (DESIGN 12): its way
 * goes through directories only root or the user can change (trust.c),
 * the program is theirs and writable by nobody else, and no path on the
 * way, link or target lies inside an allowWrite of the policy, its top
 * level's or any command's own. Otherwise one sandboxed run replaces the
 * program and the next run executes it: bwrap and a bypassed command
 * outside the sandbox, binShell and a command inside it at every run.
 *
 * Checked at load, for every program, not for the one a run uses: that
 * is what --check must report anyway, a run cannot pass with a policy
 * --check refuses, and it costs one lstat per component (18 lstat and 2
 * readlink calls for a policy of four programs, issue 18). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "path.h"
#include "programs.h"
#include "trust.h"
#include "util.h"

/* An allowWrite rule that covers a path, and the key it is under. */
struct writable {
	const struct fs_rule *rule;
	const char *command;		/* whose own policy; NULL: top level */
};

static int covers(const struct fs_rule *r, const char *path)
{
	return r->kind == FS_ALLOW_WRITE && (path_within(path, r->expanded) ||
	    (r->resolved != NULL && path_within(path, r->resolved)));
}

static int find_in(const struct policy *pol, const char *command,
    const char *path, struct writable *w)
{
	for (size_t i = 0; i < pol->nrules; i++)
		if (covers(&pol->rules[i], path)) {
			*w = (struct writable){ &pol->rules[i], command };
			return 1;
		}
	return 0;
}

/* The first allowWrite that covers PATH: the top level's, then each
 * command's own (an inherited rule is found at the top level first). */
static int writable_at(const struct policy *pol, const char *path,
    struct writable *w)
{
	if (find_in(pol, NULL, path, w))
		return 1;
	for (size_t i = 0; i < pol->ncmds; i++)
		if (pol->cmds[i].own != NULL &&
		    find_in(pol->cmds[i].own, pol->cmds[i].name, path, w))
			return 1;
	return 0;
}

/* PROGRAM "lies inside", or "passes through PATH, inside" (a directory
 * or link on its way), or "resolves to PATH, inside" the rule of W. */
static char *inside(const char *program, const char *path,
    const struct trust_way *way, const struct writable *w)
{
	int self = strcmp(path, program) == 0;
	const char *how = self ? "lies" : strcmp(path, way->target) == 0 ?
	    "resolves to " : "passes through ";

	return xasprintf("%s %s%s%s inside %s%s%sfilesystem.allowWrite "
	    "\"%s\", where a sandboxed command could replace it; move it out "
	    "of every allowWrite", program, how, self ? "" : path,
	    self ? "" : ",", w->command ? "commands." : "",
	    w->command ? w->command : "", w->command ? "." : "",
	    w->rule->path);
}

/* The named path first, then where the walk ended (which may not exist
 * yet), then each directory or link it passed, the last first: that is
 * the one to name (a link the command could point elsewhere, or a
 * directory it could replace before a ".."), not the allowWrite tree
 * it lies in. */
static char *why_writable(const struct policy *pol, const char *program,
    const struct trust_way *way)
{
	struct writable w;

	if (writable_at(pol, program, &w))
		return inside(program, program, way, &w);
	if (writable_at(pol, way->target, &w))
		return inside(program, way->target, way, &w);
	for (size_t i = way->seen.n; i-- > 0;)
		if (writable_at(pol, way->seen.v[i], &w))
			return inside(program, way->seen.v[i], way, &w);
	return NULL;
}

/* One program: 0, or -1 after one line "sbexec: FILE: KEY: why". */
static int check_one(const struct policy *pol, const char *key,
    const char *program)
{
	struct trust_way way;
	char *why = NULL, *walked = NULL;

	if (trust_program(program, &way, &walked) == 0)
		why = why_writable(pol, program, &way);
	else
		why = xasprintf("%s: %s", program, walked ? walked :
		    "cannot be checked");
	trust_way_free(&way);
	free(walked);
	if (why == NULL)
		return 0;
	fprintf(stderr, "sbexec: %s: %s: %s\n", pol->file, key, why);
	free(why);
	return -1;
}

int programs_check(const struct policy *pol)
{
	char *key;
	int rc = 0;

	rc |= check_one(pol, "bwrap", pol->bwrap);
	if (pol->bin_shell != NULL)	/* none by default */
		rc |= check_one(pol, "binShell", pol->bin_shell);
	for (size_t i = 0; i < pol->ncmds; i++) {
		/* The key path as written: "commands.x", or its "path". */
		key = xasprintf("commands.%s%s", pol->cmds[i].name,
		    pol->cmds[i].own != NULL ? ".path" : "");
		rc |= check_one(pol, key, pol->cmds[i].path);
		free(key);
	}
	return rc;
}
