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
 * The probes after them are the escapes of native code in the sandbox
 * (DESIGN 3): a datagram socketpair that sends to any socket path, modes
 * with setuid or setgid bits by every call that sets one, extended
 * attributes, socket families beyond the allow-list, a swap of a
 * protected name against a link while other runs plan (flip), RAM
 * written into tmpfs mounts (fill), files read (read) and TCP
 * connections past the network allow-list's proxy (tcp), and any
 * program run from the payload (run:COMMAND). A probe
 * written NAME:ARG takes an argument.
 *
 *	probe_syscalls [-c PATH] NAME[:ARG]...
 *
 * Built with -shared -fPIC -DPAYLOAD it is instead the code a hostile
 * filter argument (-af ladspa=file=payload.so) runs in ffmpeg: on load
 * it reads its arguments, one a line, from ./payload.args, runs them as
 * above and exits.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/io_uring.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *connect_path;
static const char *arg;		/* NAME:ARG */
static char result[512];	/* a probe's own answer, instead of OK */

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

/* A terminal for the child of pty_ioctl: a new pty, or where none can be
 * made (the Landlock backend grants no /dev/ptmx) the one on stdin, if
 * it is no session's controlling terminal yet. */
static int child_tty(void)
{
	int pty = posix_openpt(O_RDWR | O_NOCTTY), tty;

	if (pty >= 0 && grantpt(pty) == 0 && unlockpt(pty) == 0 &&
	    (tty = open(ptsname(pty), O_RDWR)) >= 0)
		return tty;
	if (isatty(0) && ioctl(0, TIOCSCTTY, 0) == 0)
		return 0;
	return -1;
}

/* ioctl TRACEs: with no tracer it fails with ENOSYS, unexecuted, and an
 * older filter's ERRNO outranks it (test/census.c does the same). */
static int trace_ioctl(void)
{
	static struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		    offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_ioctl, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(insns) / sizeof(*insns), insns };

	return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ? -1 :
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

/* CMD on a pseudo-terminal made the controlling terminal of a child in
 * a session of its own, so the kernel itself allows TIOCSTI. Where no
 * terminal can be made (sbexec's ioctl allow-list refuses TIOCGPTN,
 * TIOCSPTLCK and TIOCSCTTY too) CMD is asked on stdin under
 * trace_ioctl: EPERM is then the filter's answer, ENOSYS means CMD got
 * past it. */
static long pty_ioctl(unsigned long cmd)
{
	int status, tty;
	char c = 'x';
	pid_t pid;

	if ((pid = fork()) == 0) {
		setsid();
		if ((tty = child_tty()) < 0 && trace_ioctl() == 0)
			tty = 0;
		if (tty < 0)
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

/* A datagram socket needs no socket() and no connect(): sendto() any
 * path it can see (a host's syslog or journald socket). */
static long p_unix_dgram(void)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) < 0)
		return -1;
	if (connect_path == NULL)
		return 0;
	strncpy(sun.sun_path, connect_path, sizeof(sun.sun_path) - 1);
	return sendto(sv[0], "HELLO\n", 6, 0, (struct sockaddr *)&sun,
	    sizeof(sun));
}

/* Each way of giving a file in the cwd a setuid or setgid bit. */
static long p_setuid_chmod(void)
{
	close(creat("suid_chmod", 0755));
	return chmod("suid_chmod", 04755);
}

static long p_setuid_fchmod(void)
{
	int fd = creat("suid_fchmod", 0755);

	return fd < 0 ? -1 : fchmod(fd, 04755);
}

static long p_setuid_fchmodat2(void)
{
	close(creat("suid_fchmodat2", 0755));
	return syscall(452, AT_FDCWD, "suid_fchmodat2", 04755, 0);
}

static long p_setuid_open(void)
{
	int fd = open("suid_open", O_CREAT | O_WRONLY, 04755);

	return fd < 0 ? -1 : close(fd);
}

static long p_setuid_openat2(void)
{
	struct open_how how = { .flags = O_CREAT | O_WRONLY, .mode = 04755 };
	long fd = syscall(SYS_openat2, AT_FDCWD, "suid_openat2", &how,
	    sizeof(how));

	return fd < 0 ? -1 : close((int)fd);
}

static long p_setuid_mknod(void)
{
	return mknod("suid_mknod", S_IFREG | 04755, 0);
}

static long p_setgid_mkdir(void)
{
	return mkdir("sgid_mkdir", 02755);
}

/* A POSIX ACL needs no capability, only ownership: a minimal one
 * (user::rwx group::r-x other::r-x). */
static long p_setxattr_acl(void)
{
	const unsigned int acl[] = { 2, 1 | 7 << 16, ~0u, 4 | 5 << 16, ~0u,
	    0x20 | 5 << 16, ~0u };

	close(creat("acl_file", 0755));
	return setxattr("acl_file", "system.posix_acl_access", acl,
	    sizeof(acl), 0);
}

/* File capabilities (VFS_CAP_REVISION_2, cap_setuid permitted). */
static long p_setxattr_caps(void)
{
	const unsigned int caps[] = { 0x02000000, 1u << 7, 0, 0, 0 };

	close(creat("caps_file", 0755));
	return setxattr("caps_file", "security.capability", caps,
	    sizeof(caps), 0);
}

/* A directory opened to every local user. */
static long p_chmod_world(void)
{
	mkdir("world", 0755);
	return chmod("world", 0777);
}

/* AF_VSOCK reaches a VM's hypervisor whatever the network namespace. */
static long p_vsock(void)
{
	int fd = socket(AF_VSOCK, SOCK_STREAM, 0);

	return fd < 0 ? -1 : close(fd);
}

/* Every family, with a type the kernel refuses before it looks at the
 * family (EINVAL): the answer lists the families the filter let through
 * (any answer but EPERM). */
static long p_families(void)
{
	size_t n = 0;

	for (int f = 0; f < 64; f++)
		if (socket(f, 15, 0) >= 0 || errno != EPERM)
			n += (size_t)snprintf(result + n, sizeof(result) - n,
			    "%s%d", n ? "," : "", f);
	if (n == 0)
		snprintf(result, sizeof(result), "none");
	return 0;
}

/* Create .git (absent when this run started, so not protected in it)
 * and a link to ../secret, and swap the two for ARG seconds. */
static long p_flip(void)
{
	time_t end = time(NULL) + (arg ? atoi(arg) : 5);

	if (mkdir(".git", 0755) < 0 || symlink("../secret", "lnk") < 0)
		return -1;
	while (time(NULL) < end)
		if (syscall(SYS_renameat2, AT_FDCWD, ".git", AT_FDCWD, "lnk",
		    2 /* RENAME_EXCHANGE */) < 0)
			return -1;
	return 0;
}

/* Write up to 64 MiB into the file ARG: OK only if all of it went. */
static long p_fill(void)
{
	static char buf[1 << 20];
	int fd = open(arg, O_CREAT | O_WRONLY | O_TRUNC, 0600);

	if (fd < 0)
		return -1;
	memset(buf, 'x', sizeof(buf));
	for (int i = 0; i < 64; i++, errno = 0)
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf)) {
			if (errno == 0)
				errno = ENOSPC;
			close(fd);
			return -1;
		}
	return close(fd);
}

/* Copy the file ARG to stdout. */
static long p_read(void)
{
	char buf[4096];
	ssize_t n;
	int fd = open(arg, O_RDONLY);

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, stdout);
	close(fd);
	return n < 0 ? -1 : 0;
}

/* A TCP connection of its own to ARG, "ADDRESS:PORT" (IPv4 or IPv6),
 * past any proxy: the network allow-list's namespace has no route. */
static long p_tcp(void)
{
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6 };
	struct sockaddr_in s4 = { .sin_family = AF_INET };
	const char *colon = strrchr(arg, ':');
	char host[64];
	int fd, port, rc;

	snprintf(host, sizeof(host), "%.*s", (int)(colon - arg), arg);
	port = atoi(colon + 1);
	s4.sin_port = s6.sin6_port = htons((uint16_t)port);
	if (inet_pton(AF_INET, host, &s4.sin_addr) == 1) {
		fd = socket(AF_INET, SOCK_STREAM, 0);
		rc = fd < 0 ? -1 : connect(fd, (struct sockaddr *)&s4,
		    sizeof(s4));
	} else {
		inet_pton(AF_INET6, host, &s6.sin6_addr);
		fd = socket(AF_INET6, SOCK_STREAM, 0);
		rc = fd < 0 ? -1 : connect(fd, (struct sockaddr *)&s6,
		    sizeof(s6));
	}
	if (fd >= 0)
		close(fd);
	return rc;
}

/* ARG as a shell command, its output the probe's: what a payload runs
 * once it has the process (test/net.bats's TLS clients). OK when it
 * exits 0, else "exit N". */
static long p_run(void)
{
	int status;
	pid_t pid;

	fflush(stdout);
	if ((pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", arg, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		snprintf(result, sizeof(result), "exit %d", WIFEXITED(status) ?
		    WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return 0;
}

/* The second review's escapes: root's powers, other processes and the
 * host's IPC. Each set is to the current value, so that a probe run
 * without sbexec, as its positive control, changes nothing. */

/* ARG's content written back into it (a sysctl: /proc/sys/...). */
static long p_rewrite(void)
{
	char buf[4096];
	ssize_t n;
	int fd = open(arg, O_RDONLY);

	if (fd < 0 || (n = read(fd, buf, sizeof(buf))) < 0)
		return -1;
	close(fd);
	if ((fd = open(arg, O_WRONLY)) < 0)
		return -1;
	n = write(fd, buf, (size_t)n);
	close(fd);
	return n < 0 ? -1 : 0;
}

/* ARG emptied by path: truncate(2). */
static long p_truncate(void)
{
	return truncate(arg, 0);
}

/* ARG emptied by an open that asks for no write access: O_TRUNC with
 * O_RDONLY, or with the access mode 3 (neither read nor write). */
static long trunc_open(int mode)
{
	int fd = open(arg, mode | O_TRUNC);

	return fd < 0 ? -1 : close(fd);
}

static long p_trunc_rdonly(void)
{
	return trunc_open(O_RDONLY);
}

static long p_trunc_mode3(void)
{
	return trunc_open(3);
}

/* ARG opened for writing, then emptied through its descriptor. */
static long p_ftruncate(void)
{
	int fd = open(arg, O_WRONLY);

	if (fd < 0 || ftruncate(fd, 0) < 0)
		return -1;
	return close(fd);
}

/* ARG/a/f renamed to ARG/b/f: across directories (Landlock's REFER). */
static long p_rename_across(void)
{
	char from[PATH_MAX], to[PATH_MAX];

	snprintf(from, sizeof(from), "%s/a/f", arg);
	snprintf(to, sizeof(to), "%s/b/f", arg);
	return rename(from, to);
}

/* ARG opened for reading, nothing read (a block device, a terminal). */
static long p_open(void)
{
	int fd = open(arg, O_RDONLY | O_NONBLOCK | O_NOCTTY);

	return fd < 0 ? -1 : close(fd);
}

static long p_sethostname(void)
{
	char name[256] = "";

	if (gethostname(name, sizeof(name) - 1) < 0)
		return -1;
	return sethostname(name, strlen(name));
}

/* Past CAP_SYS_BOOT's check, an unknown command is EINVAL. */
static long p_reboot(void)
{
	return syscall(SYS_reboot, 0xfee1deadL, 0x28121969L, 0xdeadbeefL,
	    NULL);
}

/* ARG's owner and group given again. */
static long p_chown(void)
{
	struct stat st;

	if (lstat(arg, &st) < 0)
		return -1;
	return fchownat(AT_FDCWD, arg, st.st_uid, st.st_gid,
	    AT_SYMLINK_NOFOLLOW);
}

static long p_utimes(void)
{
	struct stat st;

	if (lstat(arg, &st) < 0)
		return -1;
	return utimensat(AT_FDCWD, arg, (struct timespec[]){ st.st_atim,
	    st.st_mtim }, AT_SYMLINK_NOFOLLOW);
}

/* ARG's mode, or "PATH=MODE" (octal): chmod of a hidden key to 0644. */
static long p_chmod(void)
{
	char path[4096];
	const char *eq = strchr(arg, '=');
	struct stat st;

	snprintf(path, sizeof(path), "%.*s", (int)(eq ? eq - arg :
	    (long)strlen(arg)), arg);
	if (eq == NULL && lstat(path, &st) < 0)
		return -1;
	return chmod(path, eq ? (mode_t)strtoul(eq + 1, NULL, 8) :
	    st.st_mode & 07777);
}

static long p_removexattr(void)
{
	return lremovexattr(arg, "user.sbexec-absent");
}

static long p_setflags(void)
{
	int fd = open(arg, O_RDONLY | O_NONBLOCK), flags = 0;
	long rc;

	if (fd < 0)
		return -1;
	rc = ioctl(fd, 0x80086601UL, &flags);	/* FS_IOC_GETFLAGS */
	if (rc == 0)
		rc = ioctl(fd, 0x40086602UL, &flags);	/* FS_IOC_SETFLAGS */
	close(fd);
	return rc;
}

/* ARG, or the parent: the process a probe reaches for. */
static pid_t target(void)
{
	return arg ? (pid_t)atoi(arg) : getppid();
}

static long p_pidfd(void)
{
	long fd = syscall(SYS_pidfd_open, target(), 0);

	return fd < 0 ? -1 : close((int)fd);
}

/* Descriptor 0 of the target, taken: bwrap's init once lost its eventfd
 * so. */
static long p_pidfd_getfd(void)
{
	long pfd = syscall(SYS_pidfd_open, target(), 0), fd;

	if (pfd < 0)
		return -1;
	fd = syscall(SYS_pidfd_getfd, pfd, 0, 0);
	close((int)pfd);
	return fd < 0 ? -1 : close((int)fd);
}

static long p_kcmp(void)
{
	return syscall(SYS_kcmp, getpid(), target(), 1 /* KCMP_FILES */,
	    0, 0);
}

/* An invalid descriptor: EBADF unless the filter answers first. */
static long p_process_madvise(void)
{
	return syscall(SYS_process_madvise, -1, NULL, 0, 0, 0);
}

static long p_prlimit(void)
{
	struct rlimit rl;

	if (prlimit(target(), RLIMIT_NOFILE, NULL, &rl) < 0)
		return -1;
	return prlimit(target(), RLIMIT_NOFILE, &rl, NULL);
}

static long p_renice(void)
{
	int prio;

	errno = 0;
	prio = getpriority(PRIO_PROCESS, (id_t)target());
	if (prio == -1 && errno != 0)
		return -1;
	return setpriority(PRIO_PROCESS, (id_t)target(), prio);
}

static long p_affinity(void)
{
	cpu_set_t set;

	if (sched_getaffinity(target(), sizeof(set), &set) < 0)
		return -1;
	return sched_setaffinity(target(), sizeof(set), &set);
}

static long p_ioprio(void)
{
	long prio = syscall(SYS_ioprio_get, 1 /* IOPRIO_WHO_PROCESS */,
	    target());

	return prio < 0 ? -1 : syscall(SYS_ioprio_set, 1, target(), prio);
}

/* A System V object of the host, by id: attached, or its status read. */
static long p_shm(void)
{
	void *p = shmat(atoi(arg), NULL, SHM_RDONLY);

	return p == (void *)-1 ? -1 : shmdt(p);
}

static long p_msg(void)
{
	struct msqid_ds ds;

	return msgctl(atoi(arg), IPC_STAT, &ds);
}

static long p_sem(void)
{
	struct semid_ds ds;

	return semctl(atoi(arg), 0, IPC_STAT, &ds);
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
	{ "unix_dgram", p_unix_dgram },
	{ "setuid_chmod", p_setuid_chmod },
	{ "setuid_fchmod", p_setuid_fchmod },
	{ "setuid_fchmodat2", p_setuid_fchmodat2 },
	{ "setuid_open", p_setuid_open },
	{ "setuid_openat2", p_setuid_openat2 },
	{ "setuid_mknod", p_setuid_mknod },
	{ "setgid_mkdir", p_setgid_mkdir },
	{ "setxattr_acl", p_setxattr_acl },
	{ "setxattr_caps", p_setxattr_caps },
	{ "chmod_world", p_chmod_world },
	{ "vsock", p_vsock },
	{ "families", p_families },
	{ "flip", p_flip },
	{ "fill", p_fill },
	{ "read", p_read },
	{ "tcp", p_tcp },
	{ "run", p_run },
	{ "rewrite", p_rewrite },
	{ "open", p_open },
	{ "truncate", p_truncate },
	{ "trunc_rdonly", p_trunc_rdonly },
	{ "trunc_mode3", p_trunc_mode3 },
	{ "ftruncate", p_ftruncate },
	{ "rename_across", p_rename_across },
	{ "sethostname", p_sethostname },
	{ "reboot", p_reboot },
	{ "chown", p_chown },
	{ "utimes", p_utimes },
	{ "chmod", p_chmod },
	{ "removexattr", p_removexattr },
	{ "setflags", p_setflags },
	{ "pidfd", p_pidfd },
	{ "pidfd_getfd", p_pidfd_getfd },
	{ "kcmp", p_kcmp },
	{ "process_madvise", p_process_madvise },
	{ "prlimit", p_prlimit },
	{ "renice", p_renice },
	{ "affinity", p_affinity },
	{ "ioprio", p_ioprio },
	{ "shm", p_shm },
	{ "msg", p_msg },
	{ "sem", p_sem },
};

static int run(int argc, char **argv)
{
	const struct probe *p;
	size_t len;
	int i = 1;

	if (argc > 2 && strcmp(argv[1], "-c") == 0) {
		connect_path = argv[2];
		i = 3;
	}
	for (; i < argc; i++) {
		len = strcspn(argv[i], ":");
		arg = argv[i][len] ? argv[i] + len + 1 : NULL;
		for (p = probes; p < probes + sizeof(probes) / sizeof(*probes);
		    p++)
			if (strncmp(p->name, argv[i], len) == 0 &&
			    p->name[len] == '\0')
				break;
		if (p == probes + sizeof(probes) / sizeof(*probes)) {
			fprintf(stderr, "probe_syscalls: %s: no such probe\n",
			    argv[i]);
			return 2;
		}
		errno = 0;
		result[0] = '\0';
		printf("%.*s=%s\n", (int)len, p->name, p->fn() < 0 ?
		    strerrorname_np(errno) : result[0] ? result : "OK");
		fflush(stdout);
	}
	return 0;
}

#include "payload.h"
PROBE_MAIN(run, "payload")
