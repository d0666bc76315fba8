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
 * readlink calls for a policy of four programs, issue 18).
 *
 * The trees of execPaths (DESIGN 13) are checked the same way, and no
 * allowWrite may lie inside one either: what the sandbox may execute
 * besides the system's, nothing a run writes. */
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "path.h"
#include "policy/programs.h"
#include "policy/trust.h"
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

/* An allowWrite of POL at or below the tree TOP (resolved): a run
 * could write code there that the next one executes. */
static char *writable_below(const struct policy *pol, const char *tree,
    const char *top)
{
	const struct policy *own;
	const struct fs_rule *r;

	for (size_t c = 0; c <= pol->ncmds; c++) {
		own = c == 0 ? pol : pol->cmds[c - 1].own;
		for (size_t i = 0; own != NULL && i < own->nrules; i++) {
			r = &own->rules[i];
			if (r->kind == FS_ALLOW_WRITE && (path_within(
			    r->expanded, top) || (r->resolved != NULL &&
			    path_within(r->resolved, top))))
				return xasprintf("%s holds %sfilesystem."
				    "allowWrite \"%s\", where a sandboxed "
				    "command could write code it then runs; "
				    "keep executable trees and writable ones "
				    "apart", tree, c ? "commands." : "", r->path);
		}
	}
	return NULL;
}

/* One program, or with TREE an executable tree (execPaths): 0, or -1
 * after one line "sbexec: FILE: KEY: why". */
static int check_one(const struct policy *pol, const char *key,
    const char *program, int tree)
{
	struct trust_way way;
	char *why = NULL, *walked = NULL;

	if (trust_program(program, &way, &walked) == 0) {
		why = why_writable(pol, program, &way);
		if (why == NULL && tree && way.absent)
			why = xasprintf("%s does not exist", program);
		else if (why == NULL && tree && strcmp(way.target, "/") == 0)
			why = xasprintf("%s is the root: every mount would be "
			    "executable", program);
		else if (why == NULL && tree)
			why = writable_below(pol, program, way.target);
	}
	else if (why == NULL)
		why = xasprintf("%s: %s", program, walked ? walked :
		    "cannot be checked");
	trust_way_free(&way);
	free(walked);
	if (why == NULL)
		return 0;
	fmt_fprintf(stderr, "sbexec: %s: %s: %s\n", pol->file, key, why);
	free(why);
	return -1;
}

/* A command's own execPaths, where they differ from the top level's,
 * and its programs: each a program, or a tree of them. */
static int check_own_trees(const struct policy *pol,
    const struct command *cmd)
{
	const struct strv *x = cmd->own ? &cmd->own->exec_paths : NULL;
	const struct strv *pr = cmd->own ? &cmd->own->programs : NULL;
	struct stat st;
	char *key;
	int rc = 0;

	for (size_t i = 0; x != NULL && i < x->n; i++) {
		key = xasprintf("commands.%s.execPaths", cmd->name);
		rc |= check_one(pol, key, x->v[i], 1);
		free(key);
	}
	for (size_t i = 0; pr != NULL && i < pr->n; i++) {
		key = xasprintf("commands.%s.programs", cmd->name);
		rc |= check_one(pol, key, pr->v[i], stat(pr->v[i], &st) == 0 &&
		    S_ISDIR(st.st_mode));
		free(key);
	}
	return rc;
}

int programs_check(const struct policy *pol)
{
	char *key;
	int rc = 0;

	rc |= check_one(pol, "bwrap", pol->bwrap, 0);
	if (pol->bin_shell != NULL)	/* none by default */
		rc |= check_one(pol, "binShell", pol->bin_shell, 0);
	for (size_t i = 0; i < pol->exec_paths.n; i++)
		rc |= check_one(pol, "execPaths", pol->exec_paths.v[i], 1);
	for (size_t i = 0; i < pol->ncmds; i++) {
		/* The key path as written: "commands.x", or its "path". */
		key = xasprintf("commands.%s%s", pol->cmds[i].name,
		    pol->cmds[i].own != NULL ? ".path" : "");
		rc |= check_one(pol, key, pol->cmds[i].path, 0);
		free(key);
		rc |= check_own_trees(pol, &pol->cmds[i]);
	}
	return rc;
}
