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
 * run a shell outside the sandbox.
 *
 * bwrap itself runs on the host with an empty environment: one the
 * policy admits (LD_PRELOAD, GLIBC_TUNABLES) would steer bwrap's own
 * loader there. The command's environment comes to the launcher in a
 * memfd whose number follows the marker: never in argv, which every
 * user of the host can read in /proc/PID/cmdline. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fmt.h"
#include "sandbox/final.h"
#include "sandbox/handin.h"
#include "sandbox/launch.h"
#include "util.h"

#define FD_LINK "/proc/self/fd/"
#define LAUNCH_ARG "--sbexec-launch"
/* The preflight's command: start, exit 0, exec nothing. */
#define NOTHING_ARG "--sbexec-nothing"
/* Linux 6.3: refused by a kernel that does not know it (EINVAL), and
 * required by one whose vm.memfd_noexec is 2. */
#ifndef MFD_NOEXEC_SEAL
#define MFD_NOEXEC_SEAL 0x0008U
#endif
/* Twice env.c's bound: more than that is not sbexec's writing. */
#define ENV_FD_MAX (2 << 20)

static void put_entry(int fd, const char *s)
{
	if (write(fd, s, strlen(s) + 1) != (ssize_t)strlen(s) + 1)
		die(EXIT_SBEXEC, "cannot write the command's environment");
}

/* ENVP, each entry with its NUL, then an empty entry, "wx" or "-" (the
 * final layer's W^X lifted or not) and its programs, in a memfd at
 * offset 0 that bwrap inherits (above 10, added to KEEP). Returns its
 * number. */
static int env_fd(char *const *envp, const struct final *f,
    struct fdv *keep)
{
	int mfd, fd;

	mfd = memfd_create("sbexec-env", MFD_CLOEXEC | MFD_NOEXEC_SEAL);
	if (mfd < 0 && errno == EINVAL)
		mfd = memfd_create("sbexec-env", MFD_CLOEXEC);
	if (mfd < 0 || (fd = fcntl(mfd, F_DUPFD_CLOEXEC, 10)) < 0)
		die(EXIT_SBEXEC, "cannot make the memfd that carries the "
		    "command's environment to it");
	close(mfd);
	for (; *envp != NULL; envp++)
		put_entry(fd, *envp);
	put_entry(fd, "");
	put_entry(fd, f->wx ? "wx" : "-");
	for (size_t i = 0; i < f->programs.n; i++)
		put_entry(fd, f->programs.v[i]);
	keep->v = xreallocarray(keep->v, keep->n + 1, sizeof(*keep->v));
	keep->v[keep->n++] = fd;
	return fd;
}

/* sbexec's own binary as bwrap execs it: a descriptor above 10 that
 * bwrap inherits (added to KEEP), named in PATH by its /proc link. */
static void self_fd(char path[32], struct fdv *keep)
{
	int self, fd;

	if ((self = open("/proc/self/exe", O_RDONLY | O_CLOEXEC)) < 0 ||
	    (fd = fcntl(self, F_DUPFD_CLOEXEC, 10)) < 0)
		die(EXIT_SBEXEC, "cannot open sbexec's own binary "
		    "(/proc/self/exe) to launch the command");
	close(self);
	fmt_snprintf(path, 32, FD_LINK "%d", fd);
	keep->v = xreallocarray(keep->v, keep->n + 1, sizeof(*keep->v));
	keep->v[keep->n++] = fd;
}

void launch_push(struct strv *out, struct fdv *keep, char *const *envp,
    const struct final *f, const int handin[3])
{
	char path[32], env[16], h[3][16];

	self_fd(path, keep);
	fmt_snprintf(env, sizeof(env), "%d", env_fd(envp, f, keep));
	strv_add(out, path, LAUNCH_ARG, env);
	for (int i = 0; i < 3; i++)
		fmt_snprintf(h[i], sizeof(h[i]), handin[i] < 0 ? "-" : "%d",
		    handin[i]);
	strv_add(out, h[0], h[1], h[2]);
}

void launch_push_nothing(struct strv *out, struct fdv *keep)
{
	char path[32];

	self_fd(path, keep);
	strv_add(out, path, NOTHING_ARG, NULL);
}

static int digits(const char *s)
{
	return *s != '\0' && strspn(s, "0123456789") == strlen(s) &&
	    strlen(s) < 10;
}

/* A handed-in descriptor's number, or "-". */
static int fd_or_none(const char *s)
{
	return strcmp(s, "-") == 0 || digits(s);
}

/* argv[0] "/proc/self/fd/N", the marker, the environment's descriptor
 * (digits only), the three handed-in ones, then the command. */
static int is_launch(int argc, char **argv)
{
	return argc >= 7 && strncmp(argv[0], FD_LINK, strlen(FD_LINK)) == 0 &&
	    digits(argv[0] + strlen(FD_LINK)) &&
	    strcmp(argv[1], LAUNCH_ARG) == 0 && digits(argv[2]) &&
	    fd_or_none(argv[3]) && fd_or_none(argv[4]) && fd_or_none(argv[5]);
}

static _Noreturn void fail(const char *what, int status)
{
	fmt_dprintf(2, "sbexec: launch: %s: %s\n", what, strerror(errno));
	_exit(status);
}

/* What env_fd wrote to FD: the environment, and the final layer in F. */
static char **env_read(int fd, struct final *f)
{
	struct stat st;
	size_t n = 0, k = 0, at;
	char *buf, **envp;

	errno = EFBIG;
	if (fstat(fd, &st) < 0 || st.st_size < 0 || st.st_size > ENV_FD_MAX)
		fail("the environment's descriptor", EXIT_SBEXEC);
	n = (size_t)st.st_size;
	if ((buf = malloc(n + 1)) == NULL ||
	    pread(fd, buf, n, 0) != (ssize_t)n)
		fail("the environment's descriptor", EXIT_SBEXEC);
	buf[n] = '\0';
	for (at = 0; at < n && buf[at] != '\0'; at += strlen(buf + at) + 1)
		k++;
	if ((envp = calloc(k + 1, sizeof(*envp))) == NULL)
		fail("the environment", EXIT_SBEXEC);
	k = 0;
	for (at = 0; at < n && buf[at] != '\0'; at += strlen(buf + at) + 1)
		envp[k++] = buf + at;
	/* The layer: never less than all of it, or no command. */
	errno = EINVAL;
	if (at + 1 >= n)
		fail("the final layer's settings", EXIT_SBEXEC);
	at++;
	if (strcmp(buf + at, "wx") != 0 && strcmp(buf + at, "-") != 0)
		fail("the final layer's settings", EXIT_SBEXEC);
	*f = (struct final){ .wx = strcmp(buf + at, "wx") == 0,
	    .map_sock = -1 };
	for (at += strlen(buf + at) + 1; at < n; at += strlen(buf + at) + 1)
		strv_push(&f->programs, buf + at);
	return envp;
}

/* argv[0] "/proc/self/fd/N" and the preflight's marker alone. */
static int is_nothing(int argc, char **argv)
{
	return argc == 2 && strncmp(argv[0], FD_LINK, strlen(FD_LINK)) == 0 &&
	    digits(argv[0] + strlen(FD_LINK)) &&
	    strcmp(argv[1], NOTHING_ARG) == 0;
}

void launch_maybe(int argc, char **argv)
{
	struct final f;
	const char *what;
	char **envp;
	int handin[3];

	if (is_nothing(argc, argv))
		_exit(0);
	if (!is_launch(argc, argv))
		return;
	envp = env_read((int)dec_number(argv[2], NULL), &f);
	for (int i = 0; i < 3; i++)
		handin[i] = digits(argv[3 + i]) ?
		    (int)dec_number(argv[3 + i], NULL) : -1;
	handin_reopen(handin);
	if (syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC) < 0)
		fail("close_range", EXIT_SBEXEC);
	final_exec(&f, argv + 6, envp, &what);
	fail(what, what != argv[6] ? EXIT_SBEXEC : errno == ENOENT ?
	    EXIT_NOTFOUND : EXIT_DENIED);
}
