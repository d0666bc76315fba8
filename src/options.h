/* options.h: sbexec's own command line (DESIGN 1). */
#ifndef SBEXEC_OPTIONS_H
#define SBEXEC_OPTIONS_H

#include <stddef.h>

enum mode { MODE_RUN, MODE_DRY_RUN, MODE_CHECK, MODE_LINK };

struct options {
	enum mode mode;
	const char *policy;	/* -p, $SBEXEC_POLICY or the default */
	const char *link_dir;
	const char *name;	/* the command */
	char **cmd_argv;	/* as invoked: the name, then its arguments */
	char **args;		/* cmd_argv + 1 */
	size_t nargs;
};

/* Fill O from argv; prints help or version and exits, or exits 125 on a
 * usage error. */
void options_parse(int argc, char **argv, struct options *o);

#endif
