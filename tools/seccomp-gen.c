/* seccomp-gen: run at build time on the build host. Builds sbexec's
 * seccomp filter with libseccomp, modelled on Flatpak's
 * (flatpak-run.c, setup_seccomp), and prints it as C arrays that are
 * compiled into the static binary: no libseccomp at run time.
 *
 * One variant for each combination of the flags of filter.h that a
 * backend uses: AF_UNIX (allowUnixSockets), AF_INET/AF_INET6 (always
 * under bwrap, whose network namespace has loopback only; under Landlock
 * only for network "host"), the Landlock rules (no namespaces, no inode
 * metadata, no host IPC, no other process by PID: under Landlock nothing
 * else stops them), no signals at all (Landlock below ABI 6, which
 * cannot scope them), and no truncation of a file not open for writing
 * (Landlock below ABI 3, which cannot refuse it). Every rule answers EPERM (openat2 ENOSYS, so that libc
 * falls back to openat); a syscall of any ABI but the native one kills
 * the process.
 *
 * The threat is native code in the sandbox (DESIGN 3), so the rules are
 * about what code can do, not what ffmpeg's options can ask for. */
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "filter.h"

/* Each of these lets a sandboxed process reach outside it: another
 * process's memory, the kernel's keyring, mounts, BPF, kernel code. */
static const char *const denied[] = {
	"ptrace", "process_vm_readv", "process_vm_writev", "keyctl",
	"add_key", "request_key", "bpf", "userfaultfd", "perf_event_open",
	"mount", "umount2", "pivot_root", "kexec_load", "kexec_file_load",
	"init_module", "finit_module", "delete_module",
	/* The new mount API, as Flatpak denies it. */
	"open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick",
	"mount_setattr", "open_tree_attr",
	/* Another process's descriptors (bwrap's init holds the eventfd
	 * that tells sbexec whether the command ran), its memory advice,
	 * and a probe of what it shares. */
	"pidfd_getfd", "process_madvise", "kcmp",
	/* io_uring opens sockets without socket(2) (IORING_OP_SOCKET), out
	 * of the reach of the family rules. */
	"io_uring_setup", "io_uring_enter", "io_uring_register",
	/* security.capability gives a file capabilities; a POSIX ACL opens
	 * it to others. The name is behind a pointer the filter cannot
	 * read: every setter goes. */
	"setxattr", "lsetxattr", "fsetxattr", "setxattrat",
};

/* Socket families a sandboxed command may create: IPv4 and IPv6 under
 * FILTER_INET, AF_UNIX under FILTER_UNIX. Everything else, AF_VSOCK
 * (the hypervisor, whatever the namespace), AF_NETLINK, AF_PACKET,
 * AF_ALG..., is EPERM: an allow-list, so a family nobody thought of is
 * refused too. */
#define FAMILY_LIMIT 64		/* above every AF_ the kernel knows */

/* Without Landlock's signal scope (ABI 6) nothing tells the command's
 * own processes from others: no signal at all. */
static const char *const signals[] = {
	"kill", "tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo",
	"pidfd_send_signal",
};

/* Under Landlock, as Docker's default profile: no new namespace, none
 * joined; clone3 is ENOSYS, so that libc falls back to clone, whose
 * flags the filter can read. */
static const unsigned long ns_flags[] = {
	CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC,
	CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWTIME,
};

/* When root runs sbexec, uid 0 in the sandbox owns what it writes: a
 * setuid or setgid bit set there is a root (or user) shell for anyone
 * on the host afterwards. Each call that sets a mode, and the argument
 * that holds it. */
static const struct { const char *name; unsigned arg; int chmod; } modes[] = {
	{ "chmod", 1, 1 }, { "fchmod", 1, 1 }, { "fchmodat", 2, 1 },
	{ "fchmodat2", 2, 1 }, { "open", 2, 0 }, { "openat", 3, 0 },
	{ "creat", 1, 0 }, { "mkdir", 1, 0 }, { "mkdirat", 2, 0 },
	{ "mknod", 1, 0 }, { "mknodat", 2, 0 },
};

/* Under Landlock nothing but this filter stands between the command and
 * the host's own objects (no mount, IPC or PID namespace), and Landlock
 * mediates no inode metadata: refused outright, since seccomp cannot
 * tell paths apart and media tools call none of them. Mode, owner,
 * times, extended attributes and inode flags, then System V IPC and
 * POSIX message queues (the host's, else), then a descriptor for any
 * process by PID. */
static const char *const landlock_denied[] = {
	"chmod", "fchmod", "fchmodat", "fchmodat2", "chown", "fchown",
	"lchown", "fchownat", "utime", "utimes", "utimensat", "futimesat",
	"removexattr", "lremovexattr", "fremovexattr", "removexattrat",
	"file_setattr",
	"shmget", "shmat", "shmctl", "shmdt", "semget", "semop", "semtimedop",
	"semctl", "msgget", "msgsnd", "msgrcv", "msgctl", "mq_open",
	"mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_notify",
	"mq_getsetattr",
	"pidfd_open",
};

/* The inode flags (immutable, append-only) and attributes set by ioctl
 * on any open file; compared on the low 32 bits, as the kernel does. */
static const unsigned long setflags[] = {
	0x40086602,	/* FS_IOC_SETFLAGS */
	0x40046602,	/* FS_IOC32_SETFLAGS */
	0x401c5820,	/* FS_IOC_FSSETXATTR */
	0x40087602,	/* FS_IOC_SETVERSION */
	0x40047602,	/* FS_IOC32_SETVERSION */
};

/* Calls that name a process by PID (argument PID) and, for some, a kind
 * of target (argument WHICH must be OWN): allowed on the caller only
 * (PID 0), so that without a PID namespace the command cannot renice,
 * move, limit or inspect sbexec, its guard or any other process
 * (prlimit64 with RLIMIT_NOFILE 0 once blinded the guard's tree walk).
 * which < 0: no such argument. */
static const struct { const char *name; int which, own, pid; } by_pid[] = {
	{ "prlimit64", -1, 0, 0 }, { "sched_setaffinity", -1, 0, 0 },
	{ "sched_getaffinity", -1, 0, 0 }, { "sched_setparam", -1, 0, 0 },
	{ "sched_getparam", -1, 0, 0 }, { "sched_setscheduler", -1, 0, 0 },
	{ "sched_getscheduler", -1, 0, 0 }, { "sched_setattr", -1, 0, 0 },
	{ "sched_getattr", -1, 0, 0 }, { "sched_rr_get_interval", -1, 0, 0 },
	{ "getpgid", -1, 0, 0 }, { "getsid", -1, 0, 0 },
	{ "migrate_pages", -1, 0, 0 }, { "move_pages", -1, 0, 0 },
	{ "get_robust_list", -1, 0, 0 },
	{ "setpriority", 0, 0, 1 }, { "getpriority", 0, 0, 1 },	/* PRIO_PROCESS */
	{ "ioprio_set", 0, 1, 1 }, { "ioprio_get", 0, 1, 1 },	/* IOPRIO_WHO_PROCESS */
};

/* Below Landlock ABI 3 (no LANDLOCK_ACCESS_FS_TRUNCATE) Landlock checks
 * an open by the access it asks for, and truncate(2) not at all: a file
 * the command may only read, but that DAC lets it write (root, or the
 * user's own), is emptied by truncate(2) or by open(O_TRUNC) with the
 * access mode O_RDONLY, or 3 (neither read nor write). Both go; an
 * O_TRUNC open for writing needs the write right Landlock does check,
 * and ftruncate(2) a descriptor open for writing. openat2 is ENOSYS in
 * every variant (deny_modes). Each open call and its flags argument. */
static const struct { const char *name; unsigned arg; } trunc_opens[] = {
	{ "open", 1 }, { "openat", 2 },
};

/* Syscalls newer than Debian 12's libseccomp: numbers from 424 on are
 * the same on every architecture. */
static const struct { const char *name; int nr; } newer[] = {
	{ "setxattrat", 463 }, { "removexattrat", 466 },
	{ "open_tree_attr", 467 }, { "file_setattr", 469 },
};

static void fail(const char *what, int rc)
{
	fprintf(stderr, "seccomp-gen: %s: error %d\n", what, rc);
	exit(1);
}

static int syscall_nr(const char *name)
{
	int nr = seccomp_syscall_resolve_name(name);

	for (size_t i = 0; nr == __NR_SCMP_ERROR &&
	    i < sizeof(newer) / sizeof(*newer); i++)
		if (strcmp(newer[i].name, name) == 0)
			nr = newer[i].nr;
	if (nr == __NR_SCMP_ERROR)
		fail(name, 0);
	return nr;
}

static void deny_errno(scmp_filter_ctx ctx, int err, const char *name,
    unsigned n, const struct scmp_arg_cmp *arg)
{
	int rc = seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO((unsigned)err),
	    syscall_nr(name), n, arg);

	if (rc < 0)
		fail(name, rc);
}

static void deny(scmp_filter_ctx ctx, const char *name, unsigned n,
    const struct scmp_arg_cmp *arg)
{
	deny_errno(ctx, EPERM, name, n, arg);
}

static int family_allowed(int f, int flags)
{
	if (f == AF_INET || f == AF_INET6)
		return (flags & FILTER_INET) != 0;
	return (flags & FILTER_UNIX) && f == AF_UNIX;
}

/* The kernel reads the domain as an int; a value with any bit above the
 * families' range, the high 32 among them, is refused whole, so that
 * (1 << 32 | AF_UNIX) cannot pass for an allowed family. */
static void deny_families(scmp_filter_ctx ctx, int flags)
{
	struct scmp_arg_cmp c = SCMP_A0(SCMP_CMP_GE, FAMILY_LIMIT);

	deny(ctx, "socket", 1, &c);
	for (int f = 0; f < FAMILY_LIMIT; f++) {
		c = (struct scmp_arg_cmp)SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)f);
		if (!family_allowed(f, flags))
			deny(ctx, "socket", 1, &c);
	}
	/* socketpair(AF_UNIX, SOCK_DGRAM) can sendto() any socket path it
	 * sees: the only family socketpair makes is AF_UNIX, so it goes. */
	if (!(flags & FILTER_UNIX))
		deny(ctx, "socketpair", 0, NULL);
}

/* No setuid or setgid bit from any mode argument; chmod may not make
 * anything writable by others (a writable directory opened to every
 * local user), which no media tool needs. Creation modes keep the
 * caller's umask: ffmpeg's files are created as they would be. */
static void deny_modes(scmp_filter_ctx ctx)
{
	static const scmp_datum_t bits[] = { S_ISUID, S_ISGID, S_IWOTH };
	struct scmp_arg_cmp c;

	for (size_t i = 0; i < sizeof(modes) / sizeof(*modes); i++)
		for (size_t b = 0; b < (modes[i].chmod ? 3 : 2); b++) {
			c = (struct scmp_arg_cmp){ modes[i].arg,
			    SCMP_CMP_MASKED_EQ, bits[b], bits[b] };
			deny(ctx, modes[i].name, 1, &c);
		}
	/* Its mode is inside a struct the filter cannot read. */
	deny_errno(ctx, ENOSYS, "openat2", 0, NULL);
}

static void deny_namespaces(scmp_filter_ctx ctx)
{
	struct scmp_arg_cmp c;

	deny(ctx, "unshare", 0, NULL);
	deny(ctx, "setns", 0, NULL);
	deny_errno(ctx, ENOSYS, "clone3", 0, NULL);
	for (size_t i = 0; i < sizeof(ns_flags) / sizeof(*ns_flags); i++) {
		c = (struct scmp_arg_cmp)SCMP_A0(SCMP_CMP_MASKED_EQ,
		    ns_flags[i], ns_flags[i]);
		deny(ctx, "clone", 1, &c);
	}
}

static void deny_host_reach(scmp_filter_ctx ctx)
{
	struct scmp_arg_cmp c;

	for (size_t i = 0; i < sizeof(landlock_denied) /
	    sizeof(*landlock_denied); i++)
		deny(ctx, landlock_denied[i], 0, NULL);
	for (size_t i = 0; i < sizeof(setflags) / sizeof(*setflags); i++) {
		c = (struct scmp_arg_cmp)SCMP_A1(SCMP_CMP_MASKED_EQ,
		    0xffffffffu, setflags[i]);
		deny(ctx, "ioctl", 1, &c);
	}
	for (size_t i = 0; i < sizeof(by_pid) / sizeof(*by_pid); i++) {
		c = (struct scmp_arg_cmp){ (unsigned)by_pid[i].pid,
		    SCMP_CMP_NE, 0, 0 };
		deny(ctx, by_pid[i].name, 1, &c);
		if (by_pid[i].which < 0)
			continue;
		c = (struct scmp_arg_cmp){ (unsigned)by_pid[i].which,
		    SCMP_CMP_NE, (scmp_datum_t)by_pid[i].own, 0 };
		deny(ctx, by_pid[i].name, 1, &c);
	}
}

static void deny_truncation(scmp_filter_ctx ctx)
{
	static const scmp_datum_t modes_[] = { O_RDONLY, 3 };
	struct scmp_arg_cmp c;

	deny(ctx, "truncate", 0, NULL);
	for (size_t i = 0; i < sizeof(trunc_opens) / sizeof(*trunc_opens); i++)
		for (size_t m = 0; m < 2; m++) {
			c = (struct scmp_arg_cmp){ trunc_opens[i].arg,
			    SCMP_CMP_MASKED_EQ, O_ACCMODE | O_TRUNC,
			    O_TRUNC | modes_[m] };
			deny(ctx, trunc_opens[i].name, 1, &c);
		}
}

/* The combinations a backend uses: bwrap always allows AF_INET and
 * never needs the Landlock-only rules. */
static int used(int flags)
{
	if (!(flags & FILTER_LANDLOCK))
		return (flags & FILTER_INET) &&
		    !(flags & (FILTER_NOSIGNAL | FILTER_NOTRUNC));
	/* Below ABI 3 is below ABI 6. */
	return !(flags & FILTER_NOTRUNC) || (flags & FILTER_NOSIGNAL);
}

static scmp_filter_ctx build(int flags)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	/* TIOCSTI pushes input into the terminal's queue; TIOCLINUX can
	 * do the same on a virtual console. The argument is compared on
	 * its low 32 bits, as the kernel does (CVE-2019-10063). */
	struct scmp_arg_cmp sti = SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu,
	    TIOCSTI);
	struct scmp_arg_cmp linux_ = SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu,
	    TIOCLINUX);

	if (ctx == NULL)
		fail("seccomp_init", 0);
	if (seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
	    SCMP_ACT_KILL_PROCESS) < 0)
		fail("badarch", 0);
	for (size_t i = 0; i < sizeof(denied) / sizeof(*denied); i++)
		deny(ctx, denied[i], 0, NULL);
	deny(ctx, "ioctl", 1, &sti);
	deny(ctx, "ioctl", 1, &linux_);
	/* A Unix socket on a read-only bind can still be connected to:
	 * /run/docker.sock is root on the host. */
	deny_families(ctx, flags);
	deny_modes(ctx);
	for (size_t i = 0; (flags & FILTER_NOSIGNAL) &&
	    i < sizeof(signals) / sizeof(*signals); i++)
		deny(ctx, signals[i], 0, NULL);
	if (flags & FILTER_LANDLOCK) {
		deny_namespaces(ctx);
		deny_host_reach(ctx);
	}
	if (flags & FILTER_NOTRUNC)
		deny_truncation(ctx);
	return ctx;
}

static void emit(int flags)
{
	scmp_filter_ctx ctx = build(flags);
	FILE *f = tmpfile();
	long len;
	int c;

	if (f == NULL || seccomp_export_bpf(ctx, fileno(f)) < 0)
		fail("seccomp_export_bpf", 0);
	lseek(fileno(f), 0, SEEK_SET);
	printf("static const unsigned char filter_%d[] = {", flags);
	for (len = 0; (c = fgetc(f)) != EOF; len++)
		printf("%s0x%02x,", len % 12 ? " " : "\n\t", c);
	printf("\n};\n\n");
	fclose(f);
	seccomp_release(ctx);
}

int main(void)
{
	printf("/* Generated by tools/seccomp-gen.c at build time. */\n"
	    "#include \"filter.h\"\n\n");
	for (int i = 0; i < FILTER_VARIANTS; i++)
		if (used(i))
			emit(i);
	printf("const unsigned char *const seccomp_filters[] = {");
	for (int i = 0; i < FILTER_VARIANTS; i++)
		printf(used(i) ? " filter_%d," : " 0,", i);
	printf(" };\nconst unsigned long seccomp_filter_lens[] = {");
	for (int i = 0; i < FILTER_VARIANTS; i++)
		printf(used(i) ? " sizeof(filter_%d)," : " 0,", i);
	printf(" };\n");
	return 0;
}
