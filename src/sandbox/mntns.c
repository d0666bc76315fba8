/* mntns.c: bwrap makes the sandbox's mounts slaves of the host's and
 * read-only once, so a mount the host makes later under a shared
 * directory (an automount the command can trigger by touching its path,
 * a container's overlay under /var/lib/docker, /run/user/N at login)
 * propagates into the sandbox with the host's flags: writable, outside
 * allowWrite. bwrap has no option against it. sbexec therefore joins the
 * sandbox's user and mount namespaces once bwrap has made every mount,
 * before the command runs, and makes the whole tree private, as
 * mount --make-rprivate would; verify.c then checks the tree that is
 * left, which can no longer change. From there too every mount becomes
 * noexec but the executable trees (noexec.c). setns(CLONE_NEWUSER)
 * wants a caller alone in its thread group with a filesystem context of
 * its own: a child that borrows sbexec's memory while sbexec waits
 * (CLONE_VM|CLONE_VFORK, as spawn.c's), on the stack spawn.c's child
 * used (vfork_stack), which copies no page table and leaves sbexec no
 * page to fault back in. It makes system calls only, and nothing of the
 * sandbox's runs yet. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fmt.h"
#include "sandbox/mntns.h"
#include "sandbox/noexec.h"
#include "util.h"

#define NS_GET_USERNS 0xb701	/* linux/nsfs.h */

/* The steps of the child, by its exit status. */
static const char *const steps[] = {
	"", "open its mount namespace", "find its user namespace",
	"join its user namespace", "join its mount namespace",
	"make its mounts private", "make its mounts noexec",
};
/* Exit statuses from here on name an executable tree, by index. */
#define TREE_STATUS 16

struct helper_args {
	int mntfd;
	const struct strv *trees;
};

static int helper(void *arg)
{
	const struct helper_args *a = arg;
	const struct strv *trees = a->trees;
	int mntfd = a->mntfd, rc;

	int userfd = ioctl(mntfd, NS_GET_USERNS);

	if (userfd < 0)
		_exit(2);
	if (!same_inode(userfd, "/proc/self/ns/user") &&
	    setns(userfd, CLONE_NEWUSER) < 0)
		_exit(3);
	if (setns(mntfd, CLONE_NEWNS) < 0)
		_exit(4);
	/* setns put this process at the namespace's root: everything. */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		_exit(5);
	if ((rc = noexec_apply(trees)) < 0)
		_exit(6);
	_exit(rc == 0 ? 0 : TREE_STATUS + rc - 1);
}

/* What the helper's exit status ST says went wrong. */
static char *failed(int st, const struct strv *trees)
{
	int n = WIFEXITED(st) ? WEXITSTATUS(st) : -1;

	if (n >= TREE_STATUS && (size_t)(n - TREE_STATUS) < trees->n)
		return xasprintf("the sandbox's mounts could not be set up "
		    "(%s could not be made executable: on a filesystem "
		    "mounted noexec?)", trees->v[n - TREE_STATUS]);
	return xasprintf("the sandbox's mounts could not be set up (%s)",
	    n > 0 && (size_t)n < sizeof(steps) / sizeof(*steps) ? steps[n] :
	    "the helper died");
}

int mntns_private(pid_t pid, const struct strv *trees, char **why)
{
	char path[64];
	int fd, st = 0;
	pid_t child;

	fmt_snprintf(path, sizeof(path), "/proc/%d/ns/mnt", (int)pid);
	/* Never the host's own: that would cut every mount of the host. */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0 ||
	    same_inode(fd, "/proc/self/ns/mnt")) {
		*why = xasprintf("the sandbox has no mount namespace of its "
		    "own (%s)", fd < 0 ? strerror(errno) : "the host's");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	child = clone(helper, vfork_stack(), CLONE_VM | CLONE_VFORK |
	    SIGCHLD, &(struct helper_args){ fd, trees });
	if (child < 0)
		die(EXIT_SBEXEC, "mount namespace helper");
	close(fd);
	if (waitpid(child, &st, 0) == child && WIFEXITED(st) &&
	    WEXITSTATUS(st) == 0)
		return 0;
	*why = failed(st, trees);
	return -1;
}
