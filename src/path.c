/* path.c: policy paths. Only absolute, "~", "~/x", "." and "./x" are
 * accepted; "~" is the invoking uid's home from the passwd database,
 * never $HOME, and "." the working directory at invocation. Globs and
 * ".." are refused so that the most-specific-path rule stays decidable
 * by comparing strings. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fmt.h"
#include "path.h"
#include "util.h"

static const char *home_dir(void)
{
	static char *home;
	struct passwd *pw;

	if (home == NULL) {
		pw = getpwuid(getuid());
		if (pw == NULL || pw->pw_dir == NULL || pw->pw_dir[0] != '/')
			return NULL;
		home = xstrdup(pw->pw_dir);
	}
	return home;
}

static const char *work_dir(void)
{
	static char *cwd;
	char buf[PATH_MAX];

	if (cwd == NULL) {
		if (getcwd(buf, sizeof(buf)) == NULL)
			return NULL;
		cwd = xstrdup(buf);
	}
	return cwd;
}

/* Collapse "//" and "/./", drop a trailing "/"; refuse "..". */
static char *normalise(const char *in, const char **why)
{
	char *out = xmalloc(strlen(in) + 2), *o = out;
	const char *p = in, *end;
	size_t len;

	while (*p != '\0') {
		while (*p == '/')
			p++;
		end = strchrnul(p, '/');
		len = (size_t)(end - p);
		if (len == 2 && p[0] == '.' && p[1] == '.') {
			free(out);
			*why = "must not contain \"..\"";
			return NULL;
		}
		if (len > 0 && !(len == 1 && p[0] == '.')) {
			*o++ = '/';
			memcpy(o, p, len);
			o += len;
		}
		p = end;
	}
	if (o == out)
		*o++ = '/';
	*o = '\0';
	return out;
}

char *path_expand(const char *in, const char **why)
{
	const char *base = NULL, *rest = in;
	char *joined, *out;

	if (strpbrk(in, "*?[]") != NULL) {
		*why = "glob characters are not supported";
		return NULL;
	}
	if (in[0] == '~' && (in[1] == '\0' || in[1] == '/')) {
		base = home_dir(), rest = in + 1;
		*why = "the home directory of the invoking user is unknown";
	} else if (in[0] == '.' && (in[1] == '\0' || in[1] == '/')) {
		base = work_dir(), rest = in + 1;
		*why = "the working directory is unknown";
	} else if (in[0] != '/') {
		*why = "must be an absolute path, \"~/...\" or \"./...\"";
		return NULL;
	} else {
		base = "";
	}
	if (base == NULL)
		return NULL;
	joined = xasprintf("%s/%s", base, rest);
	out = normalise(joined, why);
	free(joined);
	return out;
}

int path_within(const char *path, const char *base)
{
	size_t n = strlen(base);

	if (strcmp(base, "/") == 0)
		return 1;
	return strncmp(path, base, n) == 0 &&
	    (path[n] == '\0' || path[n] == '/');
}

size_t path_depth(const char *path)
{
	size_t n = 0;

	for (const char *p = path; *p != '\0'; p++)
		if (*p == '/' && p[1] != '\0')
			n++;
	return n;
}

/* The path the kernel gives the file PATH opens (O_PATH: no permission
 * on the file itself, no open of a FIFO's other end), read back from
 * /proc/self/fd: realpath's answer, with its errors (ENOENT, ELOOP,
 * ENOTDIR, EACCES). musl's realpath holds two PATH_MAX buffers on the
 * stack (8 KiB, the deepest frame of a call; this is one): a page of
 * stack in many runs, for about 3 us a call less (the /proc lookup;
 * four calls a run). A file that opens and then has no path to read
 * fails closed: NULL would say "not there" of a file that is. */
char *path_resolve(const char *path)
{
	char link[32], r[PATH_MAX];
	int fd = open(path, O_PATH | O_CLOEXEC), e;
	ssize_t n;

	if (fd < 0)
		return NULL;
	fmt_snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, r, sizeof(r));
	e = errno;
	close(fd);
	if (n <= 0 || (size_t)n >= sizeof(r) || r[0] != '/')
		diex(EXIT_SBEXEC, "%s: no path to read back from %s (%s)", path,
		    link, n < 0 ? strerror(e) : "not one in this root");
	r[n] = '\0';
	return xstrdup(r);
}

/* The kernel's own walk (openat2, Linux 5.6): one call where the walk
 * below takes two per component, with the same answers: no link
 * followed on the way (RESOLVE_NO_SYMLINKS; a link at the end opened
 * itself, as O_NOFOLLOW does), nothing above ROOT. -2 where the kernel
 * or a seccomp filter has no openat2, or it asks to be retried: the
 * walk below decides. */
static int walk_kernel(int root, const char *path)
{
	static int missing;
	struct { unsigned long long flags, mode, resolve; } how = {
		.flags = O_PATH | O_NOFOLLOW | O_CLOEXEC,
		.resolve = 0x04 | 0x08,	/* RESOLVE_NO_SYMLINKS, BENEATH */
	};
	int fd;

	if (missing)
		return -2;
	while (*path == '/')
		path++;
	fd = (int)syscall(SYS_openat2, root, *path ? path : ".", &how,
	    sizeof(how));
	if (fd < 0 && (errno == ENOSYS || errno == EPERM || errno == E2BIG)) {
		missing = 1;
		return -2;
	}
	return fd < 0 && errno == EAGAIN ? -2 : fd;	/* a rename raced */
}

int path_walk(int root, const char *path)
{
	char *copy, *save = NULL, *name;
	int fd = walk_kernel(root, path), next, err = 0;

	if (fd != -2)
		return fd;
	copy = xstrdup(path);
	fd = dup(root);
	for (name = strtok_r(copy, "/", &save); fd >= 0 && name != NULL;
	    name = strtok_r(NULL, "/", &save)) {
		next = openat(fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		err = errno;
		close(fd);
		fd = next;
	}
	free(copy);
	if (fd < 0 && err != 0)
		errno = err;
	return fd;
}
