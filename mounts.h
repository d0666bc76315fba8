/* mounts.h: the filesystem part of the sandbox (DESIGN 2). */
#ifndef SBEXEC_MOUNTS_H
#define SBEXEC_MOUNTS_H

#include "policy.h"
#include "util.h"

struct mount {
	char *path;		/* resolved */
	enum fs_kind kind;
	char *why;		/* the rule, for messages */
	int protect;		/* read-only whatever the policy says */
	int pin;		/* bound onto itself so it cannot be renamed */
};

struct plan {
	struct mount *m;
	size_t n;
	char *why;		/* why the plan was refused */
};

/* Plan the mounts for POL run from CWD. Returns 0, or, with the reason
 * in p->why, 126 when the policy hides CWD and 125 when the command could
 * undo the policy (a protected name or a rule's path through a movable
 * link). */
int mounts_plan(const struct policy *pol, const char *cwd, struct plan *p);

/* Append the bwrap options, least specific first. */
void mounts_emit(const struct plan *p, struct strv *out);
void mounts_free(struct plan *p);

#endif
