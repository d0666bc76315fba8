/* in_container: run a command the way a default Docker container (or a
 * Kubernetes pod with the RuntimeDefault profile) would, as far as user
 * namespaces go: a seccomp filter modelled on Docker's default profile
 * refuses unshare, setns, mount, umount2 and pivot_root (EPERM), clone
 * with any namespace flag (EPERM) and clone3 (ENOSYS, so that libc falls
 * back to clone). Used by test/landlock.bats, which builds it.
 *
 * With -L the Landlock system calls are ENOSYS too: a kernel without it.
 *
 *	in_container [-L] COMMAND [ARG...]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

static const char *const refused[] = {
	"unshare", "setns", "mount", "umount2", "pivot_root",
};

static const unsigned long ns_flags[] = {
	CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC,
	CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET,
};

static const char *const landlock[] = {
	"landlock_create_ruleset", "landlock_add_rule", "landlock_restrict_self",
};

int main(int argc, char **argv)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	int rc = ctx == NULL, no_landlock = argc > 1 && !strcmp(argv[1], "-L");

	for (size_t i = 0; rc == 0 && i < sizeof(refused) / sizeof(*refused);
	    i++)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM),
		    seccomp_syscall_resolve_name(refused[i]), 0);
	for (size_t i = 0; rc == 0 && i < sizeof(ns_flags) / sizeof(*ns_flags);
	    i++)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM),
		    SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ,
		    ns_flags[i], ns_flags[i]));
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS),
		    SCMP_SYS(clone3), 0);
	for (size_t i = 0; rc == 0 && no_landlock &&
	    i < sizeof(landlock) / sizeof(*landlock); i++)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS),
		    seccomp_syscall_resolve_name(landlock[i]), 0);
	argv += no_landlock;
	argc -= no_landlock;
	if (rc != 0 || argc < 2 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    seccomp_load(ctx) < 0) {
		fprintf(stderr, "in_container: cannot set up (%d)\n", rc);
		return 125;
	}
	execvp(argv[1], argv + 1);
	perror(argv[1]);
	return 127;
}
