/* mounts.h: the filesystem part of the sandbox (DESIGN 2). */
#ifndef SBEXEC_MOUNTS_H
#define SBEXEC_MOUNTS_H

#include <sys/types.h>

#include "policy/policy.h"
#include "sandbox/verify.h"
#include "util.h"

struct mount {
	char *path;		/* resolved */
	enum fs_kind kind;
	char *why;		/* the rule, for messages */
	int protect;		/* read-only whatever the policy says */
	int pin;		/* bound onto itself so it cannot be renamed */
	int tmp;		/* privateTmp: a writable tmpfs of bounded size */
	int fd;			/* O_PATH of what is bound there, or -1 */
	int dir;		/* a directory (else a file) */
	dev_t dev;		/* what was found there */
	ino_t ino;
};

/* Descriptors bwrap inherits: the sources of --bind-fd/--ro-bind-fd. */
struct fdv {
	int *v;
	size_t n;
};

struct plan {
	struct mount *m;
	size_t n;
	char *why;		/* why the plan was refused */
	struct strv masked;	/* links in writable places, for audit */
	struct strv masked_why;	/* for each, what became of it */
	struct strv left;	/* a line for each rule left out of the run */
	long long tmp_bytes;	/* the size of privateTmp's tmpfs */
};

/* Plan the mounts for POL run from CWD. Every path bound is opened once
 * (O_PATH|O_NOFOLLOW) and bound by its descriptor, which bwrap checks
 * against what it mounted: what sbexec checked is what the sandbox
 * gets. Returns 0, or, with the reason in p->why, 126 when the policy
 * hides CWD and 125 when the command could undo the policy or a path
 * changed while it was planned. */
int mounts_plan(const struct policy *pol, const char *cwd, struct plan *p);

/* Append the bwrap options, least specific first, then the remounts
 * that leave every RAM-backed mask read-only; move the descriptors
 * they name into KEEP (the caller passes them to bwrap) and add each
 * mount to what the sandbox is checked against. */
void mounts_emit(struct plan *p, struct strv *out, struct fdv *keep,
    struct expect *e);
void mounts_free(struct plan *p);

/* 1 when the plan hides PATH (a denyRead at or above it, not undone). */
int mounts_hides(const struct plan *p, const char *path);

#endif
