/* handin.c: a file the caller hands in as stdin was opened on the
 * host's mount, outside every mount of the sandbox, and an open file
 * keeps the mount it was opened through: its noexec flag, not the
 * sandbox's, decides whether it may be mapped executable. So
 * "-af ladspa=file=/proc/self/fd/0" loads the caller's stdin file
 * (issue 30, route 3), and reopening /proc/self/fd/0 does not help (the
 * magic link reopens through the same mount). Nor may bwrap hold it:
 * its init, pid 1 of the sandbox, keeps its descriptors 0-2, and the
 * command, of the same user, opens /proc/1/fd/0.
 *
 * So sbexec gives bwrap /dev/null at 0 and the file above 10, which
 * bwrap's init closes; the launcher (launch.c), inside the sandbox once
 * every mount is noexec, opens the file again by the path its
 * descriptor names, checks that it is the same file (device and inode)
 * and puts it at 0 with the same offset, so that ffprobe can still
 * seek. The command then holds the file through a sandbox mount, as if
 * it had opened the path itself: noexec unless it lies in an executable
 * tree. A stdout or stderr that reaches the command as a readable file
 * (no maxOutputBytes, "1<>file") is treated alike; one opened for
 * writing only cannot be mapped at all.
 *
 * Limits: a file the sandbox does not show at that path (hidden by
 * denyRead, under privateTmp's /tmp, deleted, renamed meanwhile) stops
 * the run with 125 rather than run with a descriptor that can be mapped
 * executable; the caller can pipe it in instead (not seekable). The
 * reopened file has an offset of its own: what the command reads no
 * longer moves the caller's. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fmt.h"
#include "sandbox/handin.h"

void handin_pick(int output_piped, struct fdv *keep, int out[3])
{
	struct stat st;
	int fl;

	for (int i = 0; i < 3; i++) {
		out[i] = -1;
		if ((i > 0 && output_piped) || fstat(i, &st) < 0 ||
		    !S_ISREG(st.st_mode) || (fl = fcntl(i, F_GETFL)) < 0 ||
		    (fl & O_ACCMODE) == O_WRONLY)
			continue;
		if ((out[i] = fcntl(i, F_DUPFD_CLOEXEC, 10)) < 0)
			die(EXIT_SBEXEC, "cannot hand in descriptor %d", i);
		keep->v = xreallocarray(keep->v, keep->n + 1,
		    sizeof(*keep->v));
		keep->v[keep->n++] = out[i];
	}
}

/* FROM reopened by path as a descriptor of its own, or -1. */
static int reopen(int from)
{
	char link[32], path[PATH_MAX];
	struct stat a, b;
	int fl = fcntl(from, F_GETFL), fd;
	ssize_t n;
	off_t off;

	fmt_snprintf(link, sizeof(link), "/proc/self/fd/%d", from);
	if (fl < 0 || fstat(from, &a) < 0 ||
	    (n = readlink(link, path, sizeof(path) - 1)) <= 0)
		return -1;
	path[n] = '\0';
	/* Non-blocking: a FIFO swapped in at the path must not hang. */
	fd = open(path, (fl & O_ACCMODE) | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	errno = ESTALE;
	if (fstat(fd, &b) < 0 || a.st_dev != b.st_dev || a.st_ino != b.st_ino ||
	    fcntl(fd, F_SETFL, fl) < 0 ||
	    (off = lseek(from, 0, SEEK_CUR)) < 0 ||
	    lseek(fd, off, SEEK_SET) != off) {
		close(fd);
		return -1;
	}
	return fd;
}

void handin_reopen(const int fds[3])
{
	static const char *const name[] = { "stdin", "stdout", "stderr" };
	int fd;

	for (int i = 0; i < 3; i++) {
		if (fds[i] < 0)
			continue;
		if ((fd = reopen(fds[i])) < 0 || dup2(fd, i) < 0) {
			fmt_dprintf(2,
			    "sbexec: %s is a file the sandbox does not "
			    "show where the caller opened it (%s); hand it in "
			    "through a pipe, or from a directory the sandbox "
			    "shows\n", name[i], strerror(errno));
			_exit(EXIT_SBEXEC);
		}
		close(fd);
		close(fds[i]);
	}
}
