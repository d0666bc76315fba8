/* mntns.c: bwrap makes the sandbox's mounts slaves of the host's and
 * read-only once, so a mount the host makes later under a shared
 * directory (an automount the command can trigger by touching its path,
 * a container's overlay under /var/lib/docker, /run/user/N at login)
 * propagates into the sandbox with the host's flags: writable, outside
 * allowWrite. bwrap has no option against it. sbexec therefore joins the
 * sandbox's user and mount namespaces once bwrap has made every mount,
 * before the command runs, and makes the whole tree private, as
 * mount --make-rprivate would; verify.c then checks the tree that is
 * left, which can no longer change. setns(CLONE_NEWUSER) wants a
 * single-threaded caller that shares no memory: a forked child. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mntns.h"
#include "util.h"

#define NS_GET_USERNS 0xb701	/* linux/nsfs.h */

/* The steps of the child, by its exit status. */
static const char *const steps[] = {
	"", "open its mount namespace", "find its user namespace",
	"join its user namespace", "join its mount namespace",
	"make its mounts private",
};

static _Noreturn void helper(int mntfd)
{
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
	_exit(0);
}

int mntns_private(pid_t pid, char **why)
{
	char path[64];
	int fd, st = 0;
	pid_t child;

	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", (int)pid);
	/* Never the host's own: that would cut every mount of the host. */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0 ||
	    same_inode(fd, "/proc/self/ns/mnt")) {
		*why = xasprintf("the sandbox has no mount namespace of its "
		    "own (%s)", fd < 0 ? strerror(errno) : "the host's");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if ((child = fork()) < 0)
		die(EXIT_SBEXEC, "mount namespace helper");
	if (child == 0)
		helper(fd);
	close(fd);
	if (waitpid(child, &st, 0) == child && WIFEXITED(st) &&
	    WEXITSTATUS(st) == 0)
		return 0;
	*why = xasprintf("the sandbox's mounts could not be made private (%s)",
	    WIFEXITED(st) && WEXITSTATUS(st) < sizeof(steps) / sizeof(*steps)
	    ? steps[WEXITSTATUS(st)] : "the helper died");
	return -1;
}
