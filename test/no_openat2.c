/* no_openat2: run a command where openat2 answers ENOSYS, as on a
 * kernel before 5.6 or under a seccomp profile that predates it, so
 * that sbexec's path walks take their component-by-component way.
 *
 *	no_openat2 COMMAND [ARG...]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);

	if (ctx == NULL || argc < 2 ||
	    seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS),
	    seccomp_syscall_resolve_name("openat2"), 0) != 0 ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    seccomp_load(ctx) < 0) {
		fprintf(stderr, "no_openat2: cannot set up\n");
		return 125;
	}
	execvp(argv[1], argv + 1);
	perror(argv[1]);
	return 127;
}
