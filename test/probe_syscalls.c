/* probe_syscalls: try the system calls sbexec's seccomp filter is meant
 * to stop (DESIGN 3) and print one "NAME=RESULT" line per probe named on
 * the command line, RESULT being OK or the errno name (EPERM, EINVAL...).
 * Used by test/escape.bats, which compiles it into a temporary directory.
 *
 * Where the kernel would answer EPERM itself inside the sandbox (no
 * capabilities there), the probe passes an invalid argument that the
 * kernel rejects before any permission check (EINVAL, EFAULT, ENOTTY):
 * so EPERM can only come from the filter. The i386 and x32 probes must
 * not return at all under the filter: the process is killed (SIGSYS).
 *
 * Two probes show ways around the AF_UNIX rule: unix_socket_hibits sets
 * bits above the 32-bit int in socket()'s first argument (the kernel
 * drops them, the filter compares all 64), io_uring_socket asks
 * io_uring for the socket (IORING_OP_SOCKET, no socket() syscall at
 * all). "-c PATH" makes every Unix socket a probe gets connect to PATH
 * and copy what it reads to stdout.
 *
 *	probe_syscalls [-c PATH] NAME...
 *
 * Built with -shared -fPIC -DPAYLOAD_CONNECT='"PATH"' it is instead the
 * code a hostile filter argument (-af ladspa=file=payload.so) runs in
 * ffmpeg: on load it tries unix_socket_hibits against PATH and exits.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *connect_path;

/* Connect FD to connect_path, if given, and copy one read to stdout. */
static long use_socket(long fd)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	char buf[256];
	ssize_t n;

	if (fd < 0 || connect_path == NULL)
		return fd;
	strncpy(sun.sun_path, connect_path, sizeof(sun.sun_path) - 1);
	if (connect((int)fd, (struct sockaddr *)&sun, sizeof(sun)) < 0)
		return -1;
	if ((n = read((int)fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, stdout);
	return 0;
}

static long p_unix_socket(void)
{
	return use_socket(socket(AF_UNIX, SOCK_STREAM, 0));
}

static long p_unix_socket_hibits(void)
{
	return use_socket(syscall(SYS_socket, (1UL << 32) | AF_UNIX,
	    SOCK_STREAM, 0));
}

/* One IORING_OP_SOCKET through a ring set up by hand (no liburing). */
static long p_io_uring_socket(void)
{
	struct io_uring_params p = { 0 };
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	unsigned *tail, *mask;
	char *ring;
	size_t len;
	int fd;

	if ((fd = (int)syscall(SYS_io_uring_setup, 1, &p)) < 0)
		return -1;
	len = p.cq_off.cqes + p.cq_entries * sizeof(*cqe);
	if (len < p.sq_off.array + p.sq_entries * sizeof(unsigned))
		len = p.sq_off.array + p.sq_entries * sizeof(unsigned);
	ring = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
	    IORING_OFF_SQ_RING);
	sqe = mmap(NULL, sizeof(*sqe), PROT_READ | PROT_WRITE, MAP_SHARED,
	    fd, IORING_OFF_SQES);
	if (ring == MAP_FAILED || sqe == MAP_FAILED)
		return -1;
	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_SOCKET;
	sqe->fd = AF_UNIX;
	sqe->off = SOCK_STREAM;
	tail = (unsigned *)(ring + p.sq_off.tail);
	mask = (unsigned *)(ring + p.sq_off.ring_mask);
	((unsigned *)(ring + p.sq_off.array))[*tail & *mask] = 0;
	__atomic_store_n(tail, *tail + 1, __ATOMIC_RELEASE);
	if (syscall(SYS_io_uring_enter, fd, 1, 1, IORING_ENTER_GETEVENTS,
	    NULL, 0) < 0)
		return -1;
	cqe = (struct io_uring_cqe *)(ring + p.cq_off.cqes);
	if (cqe->res < 0) {
		errno = -cqe->res;
		return -1;
	}
	return use_socket(cqe->res);
}

static long p_ptrace(void)
{
	return ptrace(PTRACE_TRACEME, 0, NULL, NULL);
}

static long p_process_vm_readv(void)
{
	return syscall(SYS_process_vm_readv, getpid(), NULL, 0, NULL, 0, 0);
}

/* CMD on a pseudo-terminal made the controlling terminal of a child in
 * a session of its own, so the kernel itself allows TIOCSTI. */
static long pty_ioctl(unsigned long cmd)
{
	int status, pty, tty;
	char c = 'x';
	pid_t pid;

	if ((pid = fork()) == 0) {
		setsid();
		pty = posix_openpt(O_RDWR | O_NOCTTY);
		if (pty < 0 || grantpt(pty) < 0 || unlockpt(pty) < 0 ||
		    (tty = open(ptsname(pty), O_RDWR)) < 0)
			_exit(255);
		_exit(syscall(SYS_ioctl, tty, cmd, &c) < 0 ? errno : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status) == 255) {
		errno = ECHILD;
		return -1;
	}
	errno = WEXITSTATUS(status);
	return errno ? -1 : 0;
}

static long p_tiocsti(void)
{
	return pty_ioctl(TIOCSTI);
}

/* The kernel compares an ioctl request on its low 32 bits. */
static long p_tiocsti_hibits(void)
{
	return pty_ioctl((1UL << 32) | TIOCSTI);
}

/* Not a virtual console: the kernel answers ENOTTY. */
static long p_tioclinux(void)
{
	return pty_ioctl(TIOCLINUX);
}

static long p_unshare_userns(void)
{
	return unshare(CLONE_NEWUSER);
}

/* An unknown operation: EOPNOTSUPP. */
static long p_keyctl(void)
{
	return syscall(SYS_keyctl, -1, 0, 0, 0, 0);
}

/* A NULL key type: EFAULT. */
static long p_add_key(void)
{
	return syscall(SYS_add_key, NULL, "sbexec", "x", 1, 0);
}

static long p_request_key(void)
{
	return syscall(SYS_request_key, NULL, "sbexec", NULL, 0);
}

/* An unknown command: EINVAL. */
static long p_bpf(void)
{
	return syscall(SYS_bpf, -1, NULL, 0);
}

/* A NULL attribute: EFAULT. */
static long p_perf_event_open(void)
{
	return syscall(SYS_perf_event_open, NULL, 0, -1, -1, 0);
}

/* UFFD_USER_MODE_ONLY (allowed to anyone) with an unknown flag: EINVAL. */
static long p_userfaultfd(void)
{
	return syscall(SYS_userfaultfd, 1 | 2);
}

/* A NULL mount point: EFAULT. */
static long p_mount(void)
{
	return syscall(SYS_mount, NULL, NULL, NULL, 0, NULL);
}

/* An unknown flag: EINVAL. */
static long p_umount2(void)
{
	return syscall(SYS_umount2, "/", 0x80000000UL);
}

/* getpid (20) through the i386 entry point. */
static long p_i386(void)
{
	long ret;

	__asm__ volatile ("int $0x80" : "=a" (ret) : "a" (20L)
	    : "memory", "r8", "r9", "r10", "r11");
	if (ret < 0) {
		errno = (int)-ret;
		return -1;
	}
	return 0;
}

/* getpid (39) with the x32 bit: ENOSYS where the kernel has no x32. */
static long p_x32(void)
{
	return syscall(0x40000000L | SYS_getpid);
}

static const struct probe {
	const char *name;
	long (*fn)(void);
} probes[] = {
	{ "unix_socket", p_unix_socket },
	{ "unix_socket_hibits", p_unix_socket_hibits },
	{ "io_uring_socket", p_io_uring_socket },
	{ "ptrace", p_ptrace },
	{ "process_vm_readv", p_process_vm_readv },
	{ "tiocsti", p_tiocsti },
	{ "tiocsti_hibits", p_tiocsti_hibits },
	{ "tioclinux", p_tioclinux },
	{ "unshare_userns", p_unshare_userns },
	{ "keyctl", p_keyctl },
	{ "add_key", p_add_key },
	{ "request_key", p_request_key },
	{ "bpf", p_bpf },
	{ "perf_event_open", p_perf_event_open },
	{ "userfaultfd", p_userfaultfd },
	{ "mount", p_mount },
	{ "umount2", p_umount2 },
	{ "i386", p_i386 },
	{ "x32", p_x32 },
};

#ifdef PAYLOAD_CONNECT
__attribute__((constructor)) static void payload(void)
{
	connect_path = PAYLOAD_CONNECT;
	printf("payload=%s\n", p_unix_socket_hibits() < 0 ?
	    strerrorname_np(errno) : "OK");
	fflush(stdout);
	_exit(0);
}
#endif

int main(int argc, char **argv)
{
	const struct probe *p;
	int i = 1;

	if (argc > 2 && strcmp(argv[1], "-c") == 0) {
		connect_path = argv[2];
		i = 3;
	}
	for (; i < argc; i++) {
		for (p = probes; p < probes + sizeof(probes) / sizeof(*probes);
		    p++)
			if (strcmp(p->name, argv[i]) == 0)
				break;
		if (p == probes + sizeof(probes) / sizeof(*probes)) {
			fprintf(stderr, "probe_syscalls: %s: no such probe\n",
			    argv[i]);
			return 2;
		}
		errno = 0;
		printf("%s=%s\n", p->name,
		    p->fn() < 0 ? strerrorname_np(errno) : "OK");
		fflush(stdout);
	}
	return 0;
}
