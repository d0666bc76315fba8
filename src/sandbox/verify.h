/* verify.h: the sandbox as it came out, checked before the command runs. */
#ifndef SBEXEC_VERIFY_H
#define SBEXEC_VERIFY_H

#include <sys/types.h>

#include "util.h"

enum expect_kind { EXPECT_BIND, EXPECT_TMPFS, EXPECT_NULL };

struct expect_mp {		/* a mount point and how often it may appear */
	char *mp;		/* escaped as in mountinfo */
	int min, max;
	int planned;		/* sbexec's or bwrap's own, not only the host's */
};

struct expect_obj {		/* what the top mount at a path must be */
	char *path;
	char *mp;		/* the path escaped as in mountinfo */
	enum expect_kind kind;
	dev_t dev;
	ino_t ino;
	int tree;		/* the mounts below it are counted too */
};

struct expect {
	struct expect_mp *mp;
	size_t nmp, cap;	/* cap: room in mp, grown by doubling */
	struct expect_obj *obj;
	size_t nobj;
	struct strv exec;	/* the executable trees (noexec.c), as paths */
	struct strv exec_mp;	/* the same, escaped as in mountinfo */
};

/* The mount table bwrap starts from: the host's (a recursive bind of /),
 * then bwrap's own /dev and, unless OWN_PROC is 0, /proc. */
int expect_base(struct expect *e, int own_proc);

/* A mount sbexec asked for at PATH, in the order bwrap makes them; a
 * bind copies the mounts below PATH, as bwrap binds recursively. Every
 * mount at or below PATH is counted against the plan. */
void expect_mount(struct expect *e, const char *path, enum expect_kind kind,
    dev_t dev, ino_t ino);

/* The same for a read-only cover of the kernel's files (kernfs.c): the
 * object at PATH is checked, what lies below it is the host's. */
void expect_cover(struct expect *e, const char *path, enum expect_kind kind,
    dev_t dev, ino_t ino);

/* An executable tree (noexec.c) at PATH: a bind of it onto itself, the
 * one kind of mount that may lack noexec. */
void expect_exec(struct expect *e, const char *path);

/* Compare the mount table of PID (bwrap's sandboxed process, all mounts
 * made, its tree made private, before the command) with E, and look at
 * each planned path without following a link: every mount at or below
 * a planned bind or mask as planned, every other mount read-only (the
 * host's, copied by the read-only bind of /, may come and go), and
 * every mount noexec but the executable trees. 0, or -1 with the reason
 * in *WHY. */
int verify_sandbox(pid_t pid, const struct expect *e, char **why);

void expect_free(struct expect *e);

#endif
