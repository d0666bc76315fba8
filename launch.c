/* launch.c: bwrap hands its command every descriptor it inherited and
 * did not use itself, and one it never closes is the source of a
 * --dev-bind (a device's /proc/self/fd link: bwrap 0.8 has no
 * --dev-bind-fd). So the command bwrap runs is sbexec, from a descriptor
 * of its own binary, which closes every descriptor but 0, 1 and 2 (an
 * allow-list, as bwrap's init does for itself and doas with closefrom)
 * and execs the real argv in place: same pid, same signal state, under
 * the filter bwrap already set. What bwrap leaks next closes here too.
 *
 * It is told by argv[0], which bwrap makes the path it execs and which
 * whoever controls only the command's arguments cannot set: never by an
 * argument alone, or "ffmpeg --launch /bin/sh" through a symlink would
 * run a shell outside the sandbox. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "launch.h"

#define FD_LINK "/proc/self/fd/"
#define LAUNCH_ARG "--sbexec-launch"

void launch_push(struct strv *out, struct fdv *keep)
{
	char path[32];
	int self, fd;

	if ((self = open("/proc/self/exe", O_RDONLY | O_CLOEXEC)) < 0 ||
	    (fd = fcntl(self, F_DUPFD_CLOEXEC, 10)) < 0)
		die(EXIT_SBEXEC, "cannot open sbexec's own binary "
		    "(/proc/self/exe) to launch the command");
	close(self);
	snprintf(path, sizeof(path), FD_LINK "%d", fd);
	strv_add(out, path, LAUNCH_ARG, NULL);
	keep->v = xreallocarray(keep->v, keep->n + 1, sizeof(*keep->v));
	keep->v[keep->n++] = fd;
}

/* argv[0] "/proc/self/fd/N" (digits only), then the marker. */
static int is_launch(int argc, char **argv)
{
	const char *n;

	if (argc < 3 || strncmp(argv[0], FD_LINK, strlen(FD_LINK)) != 0 ||
	    strcmp(argv[1], LAUNCH_ARG) != 0)
		return 0;
	n = argv[0] + strlen(FD_LINK);
	return *n != '\0' && strspn(n, "0123456789") == strlen(n);
}

void launch_maybe(int argc, char **argv, char **envp)
{
	if (!is_launch(argc, argv))
		return;
	if (syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC) < 0) {
		dprintf(2, "sbexec: launch: close_range: %s\n",
		    strerror(errno));
		_exit(EXIT_SBEXEC);
	}
	execve(argv[2], argv + 2, envp);
	dprintf(2, "sbexec: launch: %s: %s\n", argv[2], strerror(errno));
	_exit(errno == ENOENT ? EXIT_NOTFOUND : EXIT_DENIED);
}
