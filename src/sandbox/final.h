/* final.h: the last layer before the command starts (issue 30, item 2):
 * once it runs, nothing new executes. */
#ifndef SBEXEC_FINAL_H
#define SBEXEC_FINAL_H

#include "util.h"

struct final {
	int wx;			/* allowWriteExecute: W^X lifted */
	struct strv programs;	/* what the command may start (programs) */
	int map_sock;		/* Landlock: mapwatch.c's socket, else -1 */
};

/* The layer of COMMAND (its path) run under POL, in F. With binShell
 * the shell is what starts, and COMMAND one of its programs. */
struct policy;
void final_of(const struct policy *pol, const char *command,
    struct final *f);

/* In the command's process, last: PR_SET_MDWE, the Landlock layer that
 * lets only the command, its programs and their interpreters execute
 * (when it has programs), the filter that sends executable mappings of
 * files to sbexec (with a map_sock), the filter that refuses W^X memory
 * and every exec but this one, then execve ARGV[0]. Returns only on failure, -1
 * with errno set and *WHAT the step that failed. */
int final_exec(const struct final *f, char *const *argv, char *const *envp,
    const char **what);

#endif
