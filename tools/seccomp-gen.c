/* seccomp-gen: run at build time on the build host. Builds sbexec's
 * seccomp filter with libseccomp, modelled on Flatpak's
 * (flatpak-run.c, setup_seccomp), and prints it as C arrays that are
 * compiled into the static binary: no libseccomp at run time.
 *
 * One program for each combination of filter.h's FILTER_BASE flags that
 * a backend uses: the Landlock rules (no namespaces, no inode metadata,
 * no host IPC, no other process by PID: under Landlock nothing else
 * stops them), and no truncation of a file not open for writing
 * (Landlock below ABI 3, which cannot refuse it). What the other flags
 * decide returns a mark that filter.c turns into ALLOW or EPERM: AF_UNIX
 * and socketpair (allowUnixSockets), AF_INET/AF_INET6 (always under
 * bwrap, whose network namespace has loopback only; under Landlock only
 * for network "host"), every signal (refused below Landlock ABI 6, which
 * cannot scope them), and the drivers' ioctl types of the policy's
 * devices. Every rule answers EPERM
 * (openat2 ENOSYS, so that libc falls back to openat); a syscall of any
 * ABI but the native one kills the process. ioctl requests are an
 * allow-list, in a block written here (ioctl_block).
 *
 * The threat is native code in the sandbox (DESIGN 3), so the rules are
 * about what code can do, not what ffmpeg's options can ask for. */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sandbox/filter.h"

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

/* ioctl requests are an allow-list (issue 29): Landlock mediates none
 * on files and directories, and some filesystems act on a directory
 * opened read-only (btrfs makes, snapshots and flips subvolumes), so
 * no list of bad requests can be complete. These are the requests
 * ffmpeg, ffprobe, their libraries and the tools the suites run in the
 * sandbox (sh, stty, python3) were seen to make, measured with strace
 * -f -e trace=ioctl over test/compat.bats, terminal.bats, net.bats and
 * devices.bats on both backends, transcodes and probes of mp4, webm,
 * mp3, gif, HLS, AV1 and HEVC, -f alsa, jack, oss, v4l2 and fbdev
 * failures, and http and udp inputs resolving names. Every other
 * request is EPERM, TIOCSTI and TIOCLINUX among them. Compared on all
 * 64 bits: the kernel reads the low 32, so a value with any high bit
 * set is refused rather than taken for the allowed one below it. (musl
 * passes the request as a sign-extended int: of these only TCGETS2 has
 * bit 31, which musl's tcgetattr does not use.) */
static const struct { uint32_t req; const char *who; } ioctls[] = {
	{ 0x5401, "TCGETS: isatty and tcgetattr (ffmpeg, ffprobe, sh, stty)" },
	{ 0x5402, "TCSETS: ffmpeg's raw stdin on a terminal, and back" },
	{ 0x5403, "TCSETSW: stty" },
	{ 0x5413, "TIOCGWINSZ: stty size" },
	{ 0x541b, "FIONREAD: glibc's resolver, waiting for an answer" },
	{ 0x5421, "FIONBIO: python3 (net.bats), CPython's socket timeouts" },
	{ 0x5450, "FIONCLEX: python3, CPython's set_inheritable" },
	{ 0x5451, "FIOCLEX: python3, every descriptor CPython opens" },
	{ 0x802c542a, "TCGETS2: TCGETS from glibc 2.42 on" },
	{ 0x402c542b, "TCSETS2: TCSETS from glibc 2.42 on" },
	{ 0x402c542c, "TCSETSW2: TCSETSW from glibc 2.42 on" },
};

/* With the policy's devices (FILTER_DEVICES) their drivers' requests,
 * by the type byte (bits 8-15) each driver's header gives them: still
 * an allow-list, so that a node of another driver (V4L2, FUSE) gets
 * none of its requests, and no filesystem takes these types. The tty's
 * own type 'T' is allowed only from TUN's numbers (200 on) up. */
static const struct { uint8_t type; uint8_t from; const char *who; }
    device_types[] = {
	{ 'd', 0, "DRM: /dev/dri/renderD* (VAAPI, QSV, Vulkan)" },
	{ 'b', 0, "dma-buf: buffers the DRM drivers export" },
	{ '>', 0, "sync_file: their fences" },
	{ 0xae, 0, "KVM: /dev/kvm" },
	{ 'T', 200, "TUN: /dev/net/tun (TUNSETIFF 202...)" },
	{ 'F', 0, "NVIDIA: /dev/nvidiactl, /dev/nvidiaN" },
	{ 'm', 0, "NVIDIA: /dev/nvidia-modeset" },
};

/* nvidia-uvm's requests have no type: plain numbers (uvm_ioctl.h's
 * UVM_IOCTL_BASE(i) is i, its test commands from 200 on are left out),
 * and UVM_INITIALIZE, UVM_DEINITIALIZE. Type 0 holds only FIBMAP (it
 * needs CAP_SYS_RAWIO) and FIGETBSZ besides. */
#define UVM_PLAIN_LIMIT 0x100
static const uint32_t uvm_ioctls[] = { 0x30000001, 0x30000002 };

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

/* NAME, whatever its arguments, returns MARK, which filter.c turns into
 * ALLOW or EPERM by the run's flags: no other rule may name NAME, or
 * the mark could stand in front of a refusal. */
static void marked(scmp_filter_ctx ctx, int mark, const char *name)
{
	if (seccomp_rule_add(ctx, SCMP_ACT_TRACE((uint32_t)mark),
	    syscall_nr(name), 0) < 0)
		fail(name, 0);
}

/* libseccomp cannot say "EPERM unless one of these": a rule may not
 * have the default action (ALLOW); EPERM rules on the gaps between the
 * allowed values need two comparisons on one argument, which 2.5.4
 * refuses (EINVAL), and would cost a rule per value besides; and a
 * driver's type is no range of values at all. So its program sends
 * ioctl to a mark (a TRACE action no rule uses), and emit() turns the
 * mark into a jump to this block, appended at the end: the request's
 * high word must be 0, its low word one of ioctls[], or with
 * FILTER_DEVICES of a device type; else EPERM. A hand-written program
 * of a few dozen instructions, what each variant lets through listed by
 * the census (test/census.c, ioctl section). */
#define IOCTL_MARK 0x10c7
#define SOCKET_MARK 0x50c7
#define ARG0_LO offsetof(struct seccomp_data, args[0])
#define ARG0_HI (ARG0_LO + 4)
#define ARG1_LO offsetof(struct seccomp_data, args[1])
#define ARG1_HI (ARG1_LO + 4)
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "ARG1_LO assumes a little-endian host"
#endif

/* A jump's target: a return at the block's end, one of filter.h's
 * marks among them (-3 - (mark - MARK_FIRST)); else an offset. */
enum { ALLOW = -1, DENY = -2 };
#define MARKED(m) (-3 - ((m) - MARK_FIRST))

struct prog {
	struct sock_filter insn[BPF_MAXINSNS];
	int to[BPF_MAXINSNS][2];	/* jt, jf of the block's jumps */
	size_t n, block;		/* the block starts at insn[block] */
};

static void put(struct prog *p, uint16_t code, uint32_t k, int jt, int jf)
{
	if (p->n == BPF_MAXINSNS)
		fail("filter too long", 0);
	p->insn[p->n] = (struct sock_filter){ code, 0, 0, k };
	p->to[p->n][0] = jt;
	p->to[p->n][1] = jf;
	p->n++;
}

#define LD(p, off) put(p, BPF_LD | BPF_W | BPF_ABS, (uint32_t)(off), 0, 0)
#define ALU(p, op, k) put(p, BPF_ALU | op | BPF_K, k, 0, 0)
#define JMP(p, op, k, jt, jf) put(p, BPF_JMP | op | BPF_K, k, jt, jf)

#define DEV MARKED(MARK_DEVICES)

static void device_block(struct prog *p)
{
	JMP(p, BPF_JGE, UVM_PLAIN_LIMIT, 0, DEV);
	for (size_t i = 0; i < sizeof(uvm_ioctls) / sizeof(*uvm_ioctls); i++)
		JMP(p, BPF_JEQ, uvm_ioctls[i], DEV, 0);
	for (size_t i = 0; i < sizeof(device_types) / sizeof(*device_types);
	    i++) {
		LD(p, ARG1_LO);
		ALU(p, BPF_AND, 0xff00);
		if (device_types[i].from == 0) {
			JMP(p, BPF_JEQ, (uint32_t)device_types[i].type << 8,
			    DEV, 0);
			continue;
		}
		JMP(p, BPF_JEQ, (uint32_t)device_types[i].type << 8, 0, 3);
		LD(p, ARG1_LO);
		ALU(p, BPF_AND, 0xff);
		JMP(p, BPF_JGE, device_types[i].from, DEV, 0);
	}
}

/* A block's end: DENY, ALLOW and a return for each mark, and its jumps
 * resolved. */
static void block_end(struct prog *p)
{
	size_t end = p->n, at[2 + MARK_LAST - MARK_FIRST + 1];

	at[0] = p->n;
	put(p, BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM, 0, 0);
	at[1] = p->n;
	put(p, BPF_RET | BPF_K, SECCOMP_RET_ALLOW, 0, 0);
	for (int m = MARK_FIRST; m <= MARK_LAST; m++) {
		at[2 + m - MARK_FIRST] = p->n;
		put(p, BPF_RET | BPF_K, SECCOMP_RET_TRACE | (uint32_t)m, 0, 0);
	}
	for (size_t i = p->block; i < end; i++)
		for (int j = 0; j < 2; j++) {
			int t = p->to[i][j];
			size_t off = t == ALLOW ? at[1] - i - 1 :
			    t == DENY ? at[0] - i - 1 : t < 0 ?
			    at[2 - 3 - t] - i - 1 : (size_t)t;

			if (off > 255)
				fail("ioctl block: jump too far", (int)off);
			if (j == 0)
				p->insn[i].jt = (uint8_t)off;
			else
				p->insn[i].jf = (uint8_t)off;
		}
}

/* The drivers' requests return MARK_DEVICES: allowed with the policy's
 * devices, else EPERM (filter.c). */
static void ioctl_block(struct prog *p)
{
	p->block = p->n;
	LD(p, ARG1_HI);
	JMP(p, BPF_JEQ, 0, 0, DENY);
	LD(p, ARG1_LO);
	for (size_t i = 0; i < sizeof(ioctls) / sizeof(*ioctls); i++)
		JMP(p, BPF_JEQ, ioctls[i].req, ALLOW, 0);
	device_block(p);
	block_end(p);
}

/* Socket families are an allow-list too, in a block of their own: the
 * kernel reads the domain as an int, and a value with any bit of the
 * high word set is refused whole, so that (1 << 32 | AF_UNIX) cannot
 * pass for an allowed family. IPv4 and IPv6 return MARK_INET, AF_UNIX
 * MARK_UNIX (filter.c decides them), every other family EPERM. */
static void socket_block(struct prog *p)
{
	p->block = p->n;
	LD(p, ARG0_HI);
	JMP(p, BPF_JEQ, 0, 0, DENY);
	LD(p, ARG0_LO);
	JMP(p, BPF_JEQ, AF_INET, MARKED(MARK_INET), 0);
	JMP(p, BPF_JEQ, AF_INET6, MARKED(MARK_INET), 0);
	JMP(p, BPF_JEQ, AF_UNIX, MARKED(MARK_UNIX), 0);
	block_end(p);
}

/* libseccomp's program with its one MARK turned into a jump to the
 * block BLOCK appends after it. */
static void splice(struct prog *p, uint32_t mark,
    void (*block)(struct prog *))
{
	size_t at = 0, marks = 0;

	for (size_t i = 0; i < p->n; i++)
		if (p->insn[i].code == (BPF_RET | BPF_K) &&
		    p->insn[i].k == SCMP_ACT_TRACE(mark)) {
			at = i;
			marks++;
		}
	if (marks != 1)
		fail("mark: not exactly one", (int)marks);
	p->insn[at] = (struct sock_filter)BPF_STMT(BPF_JMP | BPF_JA,
	    (uint32_t)(p->n - at - 1));
	block(p);
}

/* socket goes to socket_block. */
static void deny_families(scmp_filter_ctx ctx)
{
	if (seccomp_rule_add(ctx, SCMP_ACT_TRACE(SOCKET_MARK),
	    syscall_nr("socket"), 0) < 0)
		fail("socket", 0);
	/* socketpair(AF_UNIX, SOCK_DGRAM) can sendto() any socket path it
	 * sees: the only family socketpair makes is AF_UNIX, so it goes
	 * with it. */
	marked(ctx, MARK_UNIX, "socketpair");
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

/* A program for each combination of the flags of FILTER_BASE that a
 * backend uses: bwrap never needs the Landlock-only rules. The other
 * flags are marks in every program. */
static int used(int flags)
{
	return (flags & ~FILTER_BASE) == 0 &&
	    (flags == 0 || (flags & FILTER_LANDLOCK));
}

static scmp_filter_ctx build(int flags)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);

	if (ctx == NULL)
		fail("seccomp_init", 0);
	if (seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
	    SCMP_ACT_KILL_PROCESS) < 0)
		fail("badarch", 0);
	/* A binary tree on the syscall number, not a list: the kernel
	 * runs the program once per syscall to fill its cache of the ones
	 * always allowed when the filter is loaded, so a list costs that
	 * load a walk of the whole list for each of them. */
	if (seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2) < 0)
		fail("optimize", 0);
	for (size_t i = 0; i < sizeof(denied) / sizeof(*denied); i++)
		deny(ctx, denied[i], 0, NULL);
	/* Every ioctl goes to the allow-list of ioctl_block, every socket
	 * to socket_block's. */
	if (seccomp_rule_add(ctx, SCMP_ACT_TRACE(IOCTL_MARK),
	    syscall_nr("ioctl"), 0) < 0)
		fail("ioctl", 0);
	/* A Unix socket on a read-only bind can still be connected to:
	 * /run/docker.sock is root on the host. */
	deny_families(ctx);
	deny_modes(ctx);
	for (size_t i = 0; i < sizeof(signals) / sizeof(*signals); i++)
		marked(ctx, MARK_SIGNAL, signals[i]);
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
	static struct prog p;
	scmp_filter_ctx ctx = build(flags);
	FILE *f = tmpfile();
	size_t len;

	if (f == NULL || seccomp_export_bpf(ctx, fileno(f)) < 0)
		fail("seccomp_export_bpf", 0);
	lseek(fileno(f), 0, SEEK_SET);
	len = fread(p.insn, 1, sizeof(p.insn), f);
	if (len % sizeof(*p.insn) != 0 || !feof(f))
		fail("seccomp_export_bpf: length", (int)len);
	p.n = len / sizeof(*p.insn);
	splice(&p, IOCTL_MARK, ioctl_block);
	splice(&p, SOCKET_MARK, socket_block);
	for (size_t i = 0; i < p.n; i++)
		if (p.insn[i].code == (BPF_RET | BPF_K) &&
		    (p.insn[i].k & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_TRACE &&
		    ((p.insn[i].k & SECCOMP_RET_DATA) < MARK_FIRST ||
		    (p.insn[i].k & SECCOMP_RET_DATA) > MARK_LAST))
			fail("a TRACE that is no mark of filter.h", (int)i);
	printf("static const unsigned char filter_%d[] = {", flags);
	len = p.n * sizeof(*p.insn);
	for (size_t i = 0; i < len; i++)
		printf("%s0x%02x,", i % 12 ? " " : "\n\t",
		    ((const unsigned char *)p.insn)[i]);
	printf("\n};\n\n");
	fclose(f);
	seccomp_release(ctx);
}

int main(void)
{
	printf("/* Generated by tools/seccomp-gen.c at build time. */\n"
	    "#include \"sandbox/filter.h\"\n\n");
	for (int i = 0; i < FILTER_VARIANTS; i++)
		if (used(i))
			emit(i);
	printf("const unsigned char *const seccomp_bases[] = {");
	for (int i = 0; i < FILTER_VARIANTS; i++)
		printf(used(i) ? " filter_%d," : " 0,", i);
	printf(" };\nconst unsigned long seccomp_base_lens[] = {");
	for (int i = 0; i < FILTER_VARIANTS; i++)
		printf(used(i) ? " sizeof(filter_%d)," : " 0,", i);
	printf(" };\n");
	return 0;
}
