/* trust.h: may a file be trusted as policy, or as a program the policy
 * names? Every directory on its way. */
#ifndef SBEXEC_TRUST_H
#define SBEXEC_TRUST_H

#include "util.h"

/* Walk FILE from the root, following symbolic links the way the kernel
 * would, and check every directory passed through, as sshd's StrictModes
 * and sudo do: owned by root or the invoking user, not writable by group
 * or others unless sticky, and then the entry in it owned by root or the
 * user. Returns 0, or -1 with the reason, allocated, in *WHY. */
int trust_path(const char *file, char **why);

/* What the walk to a program looked at: each path, directory or link,
 * in order, and where it ended (resolved), for the caller to hold
 * against the places the sandbox may write. */
struct trust_way {
	struct strv seen;
	char *target;
	int absent;		/* the target does not exist (yet) */
};

/* trust_path for a program the policy names (DESIGN 12), and the
 * program itself owned by root or the user and writable by nobody else,
 * as the policy file is. A name that does not exist ends the walk, for
 * only those trusted can create it, unless its directory is shared.
 * Fills *WAY (free it with trust_way_free), also on failure. */
int trust_program(const char *file, struct trust_way *way, char **why);
void trust_way_free(struct trust_way *way);

/* The walks are over (the policy is loaded): their buffer goes back. */
void trust_end(void);

#endif
