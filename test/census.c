/* census: from inside a sandbox, list what the process can reach (issue
 * 18, DESIGN 12), so that test/census.bats can compare each list with a
 * short expected one. Each section prints sorted lines "SECTION ITEM...":
 *
 *	fd	open descriptors above 2 (bar the census's own): "fd N
 *		TARGET", TARGET what /proc/self/fd/N links to
 *	dev	device nodes under /dev that open: "dev PATH r|w|rw"
 *	procfs	files of /proc that open for reading (nothing is read):
 *		the process's own /proc/self/... (its threads' task/TID
 *		written task/TID) and /proc's others but the other PIDs:
 *		"procfs PATH"
 *	write	non-directories under /proc (not the per-process ones), /sys
 *		and /dev that open for writing: "write PATH"; directories
 *		under /dev that take a new entry: "writedir PATH"
 *	meta	no-op metadata changes to the files named by meta=PATH
 *		that pass the permission check: "meta CALL PATH"
 *	proc	processes outside its own tree (itself and its threads), pid
 *		1..pidmax=N: "proc PID HOWS", HOWS a list of see (a read
 *		of it, or stat of /proc/PID, succeeds), signal, pidfd,
 *		prlimit, renice, affinity, ioprio
 *	ipc	System V and POSIX IPC objects: "ipc KIND KEY|NAME"
 *	cap	capability sets, securebits, no_new_privs, uid: "cap WHAT V"
 *	family	socket families the filter lets through: "family N"
 *	syscalls the syscalls the seccomp filters refuse, without executing
 *		any: "syscall-denied NAME ERRNO ARGS" (ARGS 0, 1 or 0,1: the
 *		value of all six arguments); "syscall-enosys NAME" for a
 *		filter that answers ENOSYS itself (told by a direct call)
 *	ioctl	the ioctl requests of a broad list (CENSUS_IOCTLS) that the
 *		filters let through, without executing any, on a regular
 *		file, a directory and stderr: "ioctl NAME VALUE FDS"; and
 *		a request that passes with bit 32 set, or with the high
 *		word all ones: "ioctl-hibits NAME hibits|signext"
 *	exec	mounts whose own flags (/proc/self/mountinfo) leave out
 *		noexec: "exec MOUNTPOINT", octal escapes as mountinfo has
 *		them
 *	map	the files of a short list that map executable: the
 *		command's binary, libc, a file the census writes in the
 *		cwd (removed after): "map WHAT"
 *	run	the programs of a short list that a child of the command
 *		can start, by execve or by execveat on a descriptor: "run
 *		PATH" or "run fd:PATH"
 *
 * Nothing is changed for real: a file opened is closed at once and never
 * written, every "set" sets the current value, a directory made is
 * removed. /dev/watchdog* is never opened (opening arms it).
 *
 *	census [pidmax=N] [meta=PATH]... [key=KEY]... [mq=/NAME]... [SECTION]...
 *
 * key=KEY is tried as a message queue, segment and semaphore set; no
 * SECTION means all of them, in the order above; each section's time
 * goes to stderr. Built with -shared -fPIC -DPAYLOAD it is the code a
 * hostile "-af ladspa=file=" loads: the arguments are the lines of
 * ./payload.args, and the process exits once it has printed.
 *
 * -DCENSUS_NAMES='"FILE"' includes { NR, "NAME" }, lines for the syscall
 * names (census.bats makes them from <sys/syscall.h>); -DCENSUS_IOCTLS
 * the ioctl requests (from the uapi headers).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <linux/filter.h>
#include <linux/fs.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
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
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#define ARGS_MAX	32	/* meta=, key=, mq= each; the test passes a few */
#define NR_PROBE	512	/* above every x86_64 syscall number */
#define IPC_SCAN	256	/* indices tried when *_INFO is refused */
#define WALK_FDS	32	/* nftw's descriptors */

#define NR_fchmodat2	452	/* numbers from 424 on are the same on */
#define NR_file_getattr	468	/* every arch; file_*attr are Linux 6.17 */
#define NR_file_setattr	469

struct file_attr_ {		/* struct file_attr, FILE_ATTR_SIZE_VER0 */
	uint64_t xflags;
	uint32_t extsize, nextents, projid, cowextsize;
};

static struct {
	char **v;
	size_t n, cap;
} out;

static const char *metas[ARGS_MAX], *mqs[ARGS_MAX];
static long keys[ARGS_MAX];
static size_t nmeta, nkey, nmq;
static long pid_max = 32768;

/* ------------------------------------------------------------ output */

__attribute__((format(printf, 1, 2)))
static void line(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	if (out.n == out.cap) {
		out.cap = out.cap ? 2 * out.cap : 256;
		if ((out.v = realloc(out.v, out.cap * sizeof(*out.v))) == NULL)
			abort();
	}
	out.v[out.n++] = s;
}

static int bytext(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The section's lines, sorted as LC_ALL=C sort does, once each. */
static void flush(void)
{
	qsort(out.v, out.n, sizeof(*out.v), bytext);
	for (size_t i = 0; i < out.n; i++)
		if (i == 0 || strcmp(out.v[i], out.v[i - 1]) != 0)
			puts(out.v[i]);
	for (size_t i = 0; i < out.n; i++)
		free(out.v[i]);
	out.n = 0;
	fflush(stdout);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---------------------------------------------------------------- fd */

static int all_digits(const char *s);

/* Whatever the process holds besides its standard streams came from
 * outside (sbexec, bwrap, the caller): SECURITY.md says none does. */
static void s_fd(void)
{
	char path[64], target[PATH_MAX];
	struct dirent *e;
	DIR *d = opendir("/proc/self/fd");
	ssize_t n;
	long fd;

	if (d == NULL) {
		line("fd ? /proc/self/fd: %s", strerror(errno));
		return;
	}
	while ((e = readdir(d)) != NULL) {
		if (!all_digits(e->d_name) || (fd = strtol(e->d_name, NULL,
		    10)) <= 2 || fd == dirfd(d))
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%ld", fd);
		n = readlink(path, target, sizeof(target) - 1);
		target[n < 0 ? 0 : n] = '\0';
		line("fd %ld %s", fd, n < 0 ? "?" : target);
	}
	closedir(d);
}

/* ----------------------------------------------------- dev and write */

static int watchdog(const char *path)
{
	const char *base = strrchr(path, '/');

	return strncmp(base ? base + 1 : path, "watchdog", 8) == 0;
}

/* PATH opens with MODE: closed at once, nothing read or written. */
static int opens(const char *path, int mode)
{
	int fd = open(path, mode | O_NONBLOCK | O_NOCTTY | O_CLOEXEC |
	    O_NOFOLLOW);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

static int dev_visit(const char *path, const struct stat *st, int type,
    struct FTW *ftw)
{
	int r, w;

	(void)ftw;
	if (type != FTW_F || !(S_ISCHR(st->st_mode) ||
	    S_ISBLK(st->st_mode)) || watchdog(path))
		return FTW_CONTINUE;
	r = opens(path, O_RDONLY);
	w = opens(path, O_WRONLY);
	if (r || w)
		line("dev %s %s", path, r && w ? "rw" : r ? "r" : "w");
	return FTW_CONTINUE;
}

static void s_dev(void)
{
	nftw("/dev", dev_visit, WALK_FDS, FTW_PHYS | FTW_ACTIONRETVAL);
}

/* A new entry in DIR, a directory or else a file (mqueue and some
 * other filesystems make no directories), removed at once. */
static void try_create(const char *dir)
{
	char p[PATH_MAX];
	int fd;

	snprintf(p, sizeof(p), "%s/.census.%d", dir, (int)getpid());
	if (mkdir(p, 0700) == 0) {
		rmdir(p);
		line("writedir %s", dir);
	} else if ((fd = open(p, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC |
	    O_NOFOLLOW, 0600)) >= 0) {
		close(fd);
		unlink(p);
		line("writedir %s", dir);
	}
}

static int all_digits(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

static int write_visit(const char *path, const struct stat *st, int type,
    struct FTW *ftw)
{
	const char *base = path + ftw->base;

	(void)st;
	if (type == FTW_D && ftw->level == 1 && strncmp(path, "/proc/", 6) ==
	    0 && (all_digits(base) || strcmp(base, "self") == 0 ||
	    strcmp(base, "thread-self") == 0))
		return FTW_SKIP_SUBTREE;
	if (type == FTW_D && strncmp(path, "/dev", 4) == 0)
		try_create(path);
	if (type == FTW_F && !watchdog(path) && opens(path, O_WRONLY))
		line("write %s", path);
	return FTW_CONTINUE;
}

static void s_write(void)
{
	static const char *const roots[] = { "/proc", "/sys", "/dev" };
	long t;

	for (size_t i = 0; i < sizeof(roots) / sizeof(*roots); i++) {
		t = now_ms();
		nftw(roots[i], write_visit, WALK_FDS,
		    FTW_PHYS | FTW_ACTIONRETVAL);
		fprintf(stderr, "census: write: %s walked in %ld ms\n",
		    roots[i], now_ms() - t);
	}
}

/* ------------------------------------------------------------ procfs */

static char self_dir[32];	/* "/proc/PID" of this process */

/* PATH as the section names it: /proc/self for this process's own
 * directory, task/TID for each of its threads, so the list is the same
 * from run to run. */
static void procfs_line(const char *path)
{
	size_t n = strlen(self_dir);
	const char *rest = path, *t;
	char tid[PATH_MAX];

	if (strncmp(path, self_dir, n) == 0 && (path[n] == '/' || !path[n]))
		rest = path + n;
	else
		return (void)line("procfs %s", path);
	if (strncmp(rest, "/task/", 6) == 0) {
		t = rest + 6 + strspn(rest + 6, "0123456789");
		snprintf(tid, sizeof(tid), "/task/TID%s", t);
		rest = tid;
	}
	line("procfs /proc/self%s", rest);
}

static int procfs_visit(const char *path, const struct stat *st, int type,
    struct FTW *ftw)
{
	const char *base = path + ftw->base;

	(void)st;
	if (type == FTW_D && ftw->level == 1 && strncmp(path, "/proc/", 6) ==
	    0 && all_digits(base))
		return FTW_SKIP_SUBTREE;	/* other processes: proc */
	if (type == FTW_F && opens(path, O_RDONLY))
		procfs_line(path);
	return FTW_CONTINUE;
}

/* /proc/self and /proc/thread-self are links, not walked: the own
 * directory is walked by its number. FTW_MOUNT keeps out of
 * binfmt_misc, which an automount would mount. */
static void s_procfs(void)
{
	snprintf(self_dir, sizeof(self_dir), "/proc/%d", (int)getpid());
	nftw(self_dir, procfs_visit, WALK_FDS,
	    FTW_PHYS | FTW_MOUNT | FTW_ACTIONRETVAL);
	nftw("/proc", procfs_visit, WALK_FDS,
	    FTW_PHYS | FTW_MOUNT | FTW_ACTIONRETVAL);
}

/* -------------------------------------------------------------- meta */

#define ABSENT_XATTR "user.sbexec-census-absent"

/* A removexattr of an absent name that fails with ENODATA got past the
 * permission check. */
static int reached(long rc)
{
	return rc == 0 || errno == ENODATA;
}

/* The calls on a path, each setting what the file has now. */
static void meta_path(const char *path, const struct stat *st)
{
	struct timespec ts[2] = { st->st_atim, st->st_mtim };
	mode_t mode = st->st_mode & 07777;

	if (fchmodat(AT_FDCWD, path, mode, 0) == 0)
		line("meta fchmodat %s", path);
	if (syscall(NR_fchmodat2, AT_FDCWD, path, mode,
	    AT_SYMLINK_NOFOLLOW) == 0)
		line("meta fchmodat2 %s", path);
	if (fchownat(AT_FDCWD, path, st->st_uid, st->st_gid,
	    AT_SYMLINK_NOFOLLOW) == 0)
		line("meta fchownat %s", path);
	if (utimensat(AT_FDCWD, path, ts, AT_SYMLINK_NOFOLLOW) == 0)
		line("meta utimensat %s", path);
	if (reached(lremovexattr(path, ABSENT_XATTR)))
		line("meta lremovexattr %s", path);
}

/* The same through a descriptor, and the inode flags, if it opens. */
static void meta_fd(const char *path, const struct stat *st)
{
	struct timespec ts[2] = { st->st_atim, st->st_mtim };
	struct fsxattr fx;
	int fd, flags;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
	    O_CLOEXEC);
	if (fd < 0)
		return;
	if (fchmod(fd, st->st_mode & 07777) == 0)
		line("meta fchmod %s", path);
	if (fchown(fd, st->st_uid, st->st_gid) == 0)
		line("meta fchown %s", path);
	if (futimens(fd, ts) == 0)
		line("meta futimens %s", path);
	if (reached(fremovexattr(fd, ABSENT_XATTR)))
		line("meta fremovexattr %s", path);
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0 &&
	    ioctl(fd, FS_IOC_SETFLAGS, &flags) == 0)
		line("meta FS_IOC_SETFLAGS %s", path);
	if (ioctl(fd, FS_IOC_FSGETXATTR, &fx) == 0 &&
	    ioctl(fd, FS_IOC_FSSETXATTR, &fx) == 0)
		line("meta FS_IOC_FSSETXATTR %s", path);
	close(fd);
}

/* The attributes of PATH: file_getattr, or FS_IOC_FSGETXATTR (the same
 * fields in the same order) where a filter refuses file_getattr. */
static int get_fattr(const char *path, struct file_attr_ *fa)
{
	struct fsxattr fx;
	int fd, rc;

	memset(fa, 0, sizeof(*fa));
	if (syscall(NR_file_getattr, AT_FDCWD, path, fa, sizeof(*fa),
	    AT_SYMLINK_NOFOLLOW) == 0)
		return 0;
	if (errno == ENOSYS)
		return -1;
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_NOCTTY | O_CLOEXEC)) < 0)
		return -1;
	rc = ioctl(fd, FS_IOC_FSGETXATTR, &fx);
	close(fd);
	fa->xflags = fx.fsx_xflags;
	fa->extsize = fx.fsx_extsize;
	fa->projid = fx.fsx_projid;
	fa->cowextsize = fx.fsx_cowextsize;
	return rc;
}

/* file_setattr with the attributes the file has; where the kernel has
 * none (ENOSYS, before 6.17) there is nothing to try. */
static void meta_fattr(const char *path)
{
	struct file_attr_ fa;

	if (get_fattr(path, &fa) < 0)
		return;
	if (syscall(NR_file_setattr, AT_FDCWD, path, &fa, sizeof(fa),
	    AT_SYMLINK_NOFOLLOW) == 0)
		line("meta file_setattr %s", path);
}

static void s_meta(void)
{
	struct stat st;

	for (size_t i = 0; i < nmeta; i++) {
		if (lstat(metas[i], &st) < 0)
			continue;
		meta_path(metas[i], &st);
		meta_fd(metas[i], &st);
		meta_fattr(metas[i]);
	}
}

/* -------------------------------------------------------------- proc */

#define IOPRIO_WHO_PROCESS 1

/* The census's own tree: itself and its threads (it has no children
 * while it scans). */
static int own(pid_t pid)
{
	char path[64];
	struct stat st;

	if (pid == getpid())
		return 1;
	snprintf(path, sizeof(path), "/proc/self/task/%d", (int)pid);
	return stat(path, &st) == 0;
}

/* The cheap calls: 0 where PID exists (or the call succeeds), else its
 * errno. */
static int c_kill(pid_t pid)
{
	return kill(pid, 0) == 0 ? 0 : errno;
}

static int c_getpgid(pid_t pid)
{
	return getpgid(pid) >= 0 ? 0 : errno;
}

static int c_getpriority(pid_t pid)
{
	errno = 0;
	return getpriority(PRIO_PROCESS, (id_t)pid) != -1 || errno == 0 ?
	    0 : errno;
}

static int c_stat(pid_t pid)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	return stat(path, &st) == 0 ? 0 : errno;
}

#define NO_PID 0x3fffffff	/* above PID_MAX_LIMIT: never a process */

/* In this order: kill sees every task of the pid namespace, /proc may
 * hide some (hidepid). */
static int (*const cheap[])(pid_t) = {
	c_kill, c_getpgid, c_getpriority, c_stat,
};
static int (*tell)(pid_t);
static int tell_none;

/* The first cheap call that tells a pid that does not exist (ESRCH or
 * ENOENT for NO_PID): a filter's refusal (EPERM for every pid) says
 * nothing. With none, every pid is asked in full. */
static void cheap_calibrate(void)
{
	tell = NULL;
	for (size_t i = 0; tell == NULL &&
	    i < sizeof(cheap) / sizeof(*cheap); i++) {
		tell_none = cheap[i](NO_PID);
		if (tell_none == ESRCH || tell_none == ENOENT)
			tell = cheap[i];
	}
}

static int absent(pid_t pid)
{
	return tell != NULL && tell(pid) == tell_none;
}

static long stat_only;		/* pids seen by stat of /proc/PID alone */

struct reads {
	int prio, io, fd, see;
	int prio_ok, aff_ok, rl_ok;
	cpu_set_t aff;
	struct rlimit rl;
};

/* Every read that "see" counts (information from the kernel about PID,
 * not only that it exists); each value kept for the sets. */
static void proc_read(pid_t pid, struct reads *r)
{
	char path[64];
	struct stat st;

	errno = 0;
	r->prio = getpriority(PRIO_PROCESS, (id_t)pid);
	r->prio_ok = r->prio != -1 || errno == 0;
	r->aff_ok = sched_getaffinity(pid, sizeof(r->aff), &r->aff) == 0;
	r->io = (int)syscall(SYS_ioprio_get, IOPRIO_WHO_PROCESS, pid);
	r->rl_ok = prlimit(pid, RLIMIT_NOFILE, NULL, &r->rl) == 0;
	r->fd = (int)syscall(SYS_pidfd_open, pid, 0);
	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	r->see = r->prio_ok || r->aff_ok || r->io >= 0 || r->rl_ok ||
	    r->fd >= 0 || getsid(pid) >= 0 || getpgid(pid) >= 0;
	/* Landlock has no right for stat: the Landlock backend shows every
	 * host process's /proc/PID to stat (its existence and owner), a
	 * documented difference. Counted apart, not as "see". */
	if (!r->see && stat(path, &st) == 0)
		stat_only++;
	if (r->fd >= 0)
		close(r->fd);
}

static void how(char *hows, size_t len, int ok, const char *name)
{
	if (ok)
		snprintf(hows + strlen(hows), len - strlen(hows), "%s%s",
		    hows[0] ? "," : "", name);
}

/* What the census can do to PID; every set is to the current value. */
static void proc_one(pid_t pid)
{
	struct reads r;
	char hows[128] = "";

	proc_read(pid, &r);
	how(hows, sizeof(hows), r.see, "see");
	how(hows, sizeof(hows), kill(pid, 0) == 0, "signal");
	how(hows, sizeof(hows), r.fd >= 0, "pidfd");
	how(hows, sizeof(hows), r.rl_ok &&
	    prlimit(pid, RLIMIT_NOFILE, &r.rl, NULL) == 0, "prlimit");
	how(hows, sizeof(hows), r.prio_ok &&
	    setpriority(PRIO_PROCESS, (id_t)pid, r.prio) == 0, "renice");
	how(hows, sizeof(hows), r.aff_ok &&
	    sched_setaffinity(pid, sizeof(r.aff), &r.aff) == 0, "affinity");
	how(hows, sizeof(hows), r.io >= 0 && syscall(SYS_ioprio_set,
	    IOPRIO_WHO_PROCESS, pid, r.io) == 0, "ioprio");
	if (hows[0])
		line("proc %d %s", (int)pid, hows);
}

static void s_proc(void)
{
	cheap_calibrate();
	stat_only = 0;
	for (long pid = 1; pid <= pid_max; pid++)
		if (!absent((pid_t)pid) && !own((pid_t)pid))
			proc_one((pid_t)pid);
	fprintf(stderr, "census: proc: %ld seen by stat of /proc/PID alone\n",
	    stat_only);
}

/* --------------------------------------------------------------- ipc */

/* The highest index in use of one kind (*_INFO), or a fixed range where
 * that is refused. */
static int sysv_max(int kind)
{
	struct msginfo mi;
	struct shm_info si;
	struct seminfo se;
	union { int val; void *p; } arg = { .p = &se };
	int n;

	if (kind == 0)
		n = msgctl(0, MSG_INFO, (struct msqid_ds *)(void *)&mi);
	else if (kind == 1)
		n = shmctl(0, SHM_INFO, (struct shmid_ds *)(void *)&si);
	else
		n = semctl(0, 0, SEM_INFO, arg);
	return n < 0 ? IPC_SCAN : n;
}

/* The key of the object at index I of one kind, if it can stat it. */
static int sysv_stat(int kind, int i, key_t *key)
{
	struct msqid_ds m;
	struct shmid_ds s;
	struct semid_ds e;
	union { int val; void *p; } arg = { .p = &e };

	if (kind == 0 && msgctl(i, MSG_STAT_ANY, &m) >= 0)
		*key = m.msg_perm.__key;
	else if (kind == 1 && shmctl(i, SHM_STAT_ANY, &s) >= 0)
		*key = s.shm_perm.__key;
	else if (kind == 2 && semctl(i, 0, SEM_STAT_ANY, arg) >= 0)
		*key = e.sem_perm.__key;
	else
		return -1;
	return 0;
}

static const char *const sysv_kinds[] = { "sysv-msg", "sysv-shm",
    "sysv-sem" };

static void s_sysv(void)
{
	key_t key;
	int n;

	for (int kind = 0; kind < 3; kind++) {
		n = sysv_max(kind);
		for (int i = 0; i <= n; i++)
			if (sysv_stat(kind, i, &key) == 0)
				line("ipc %s 0x%08x", sysv_kinds[kind],
				    (unsigned)key);
	}
	for (size_t i = 0; i < nkey; i++) {
		key = (key_t)keys[i];
		if (msgget(key, 0) >= 0)
			line("ipc sysv-msg 0x%08x", (unsigned)key);
		if (shmget(key, 0, 0) >= 0)
			line("ipc sysv-shm 0x%08x", (unsigned)key);
		if (semget(key, 0, 0) >= 0)
			line("ipc sysv-sem 0x%08x", (unsigned)key);
	}
}

/* mq_open by the system call: no librt, and it takes the name without
 * its leading slash. */
static void try_mq(const char *name)
{
	const char *bare = name[0] == '/' ? name + 1 : name;
	long fd = syscall(SYS_mq_open, bare, O_RDONLY | O_NONBLOCK, 0, NULL);

	if (fd >= 0) {
		close((int)fd);
		line("ipc mq /%s", bare);
	}
}

static void s_posix(void)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d;

	if ((d = opendir("/dev/shm")) != NULL) {
		while ((e = readdir(d)) != NULL) {
			snprintf(path, sizeof(path), "/dev/shm/%s", e->d_name);
			if (e->d_name[0] != '.' && opens(path, O_RDONLY))
				line("ipc posix-shm %s", e->d_name);
		}
		closedir(d);
	}
	for (size_t i = 0; i < nmq; i++)
		try_mq(mqs[i]);
	if ((d = opendir("/dev/mqueue")) != NULL) {
		while ((e = readdir(d)) != NULL)
			if (e->d_name[0] != '.')
				try_mq(e->d_name);
		closedir(d);
	}
}

static void s_ipc(void)
{
	s_sysv();
	s_posix();
}

/* --------------------------------------------------------------- cap */

static void s_cap(void)
{
	static const char *const sets[] = { "CapInh", "CapPrm", "CapEff",
	    "CapBnd", "CapAmb" };
	char buf[256];
	FILE *f = fopen("/proc/self/status", "r");

	while (f != NULL && fgets(buf, sizeof(buf), f) != NULL)
		for (size_t i = 0; i < sizeof(sets) / sizeof(*sets); i++)
			if (strncmp(buf, sets[i], 6) == 0 && buf[6] == ':') {
				buf[strcspn(buf, "\n")] = '\0';
				line("cap %s %s", sets[i], buf + 7 +
				    strspn(buf + 7, " \t"));
			}
	if (f != NULL)
		fclose(f);
	line("cap securebits 0x%x", (unsigned)prctl(PR_GET_SECUREBITS));
	line("cap nnp %d", prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
	line("cap uid %u", (unsigned)getuid());
}

/* ------------------------------------------------------------ family */

#define FAMILY_LIMIT 64		/* above every AF_ the kernel knows */

static void s_family(void)
{
	static const int types[] = { SOCK_STREAM, SOCK_DGRAM, SOCK_RAW,
	    SOCK_SEQPACKET };
	int fd, through;

	for (int f = 0; f < FAMILY_LIMIT; f++) {
		through = 0;
		for (size_t t = 0; t < sizeof(types) / sizeof(*types); t++) {
			fd = socket(f, types[t] | SOCK_CLOEXEC, 0);
			if (fd >= 0)
				close(fd);
			through |= fd >= 0 || errno != EPERM;
		}
		if (through)
			line("family %d", f);
	}
}

/* ---------------------------------------------------------- syscalls */

/* Names for the syscall numbers: the build's list, then those newer
 * than the build host's headers may be (the first match is taken). */
static const struct sysname {
	int nr;
	const char *name;
} sysnames[] = {
#ifdef CENSUS_NAMES
#include CENSUS_NAMES
#endif
	{ 452, "fchmodat2" }, { 453, "map_shadow_stack" },
	{ 454, "futex_wake" }, { 455, "futex_wait" },
	{ 456, "futex_requeue" }, { 457, "statmount" }, { 458, "listmount" },
	{ 459, "lsm_get_self_attr" }, { 460, "lsm_set_self_attr" },
	{ 461, "lsm_list_modules" }, { 462, "mseal" }, { 463, "setxattrat" },
	{ 464, "getxattrat" }, { 465, "listxattrat" },
	{ 466, "removexattrat" }, { 467, "open_tree_attr" },
	{ 468, "file_getattr" }, { 469, "file_setattr" },
};

static const char *sysname(int nr)
{
	for (size_t i = 0; i < sizeof(sysnames) / sizeof(*sysnames); i++)
		if (sysnames[i].nr == nr)
			return sysnames[i].name;
	return NULL;
}

/* An answer: an errno name, OK for a filter's ERRNO(0), or the signal
 * (a negative number) that killed the process. */
static const char *answer(int e)
{
	static char buf[32];

	if (e < 0)
		snprintf(buf, sizeof(buf), "SIG%s", sigabbrev_np(-e));
	else if (e == 0)
		return "OK";
	else
		snprintf(buf, sizeof(buf), "%s", strerrorname_np(e) ?
		    strerrorname_np(e) : "E?");
	return buf;
}

/* Every syscall but these TRACE: with no tracer it fails with ENOSYS,
 * unexecuted, and any older filter's ERRNO, TRAP or KILL outranks it
 * (seccomp(2)), so what is not ENOSYS is another filter's answer. */
static struct sock_filter trace_insns[] = {
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_write, 3, 0),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_exit, 2, 0),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_exit_group, 1, 0),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
};

/* Only the numbers with a name: the kernel has nothing at the others,
 * and some hosts' hypervisors answer a few of them before seccomp does
 * (seen here: 335 raises SIGILL, 336 fails with ENXIO, filter or not). */
static int probed(int nr)
{
	return nr != SYS_write && nr != SYS_exit && nr != SYS_exit_group &&
	    sysname(nr) != NULL;
}

/* In the child: each number from FROM with all six arguments ARG, and
 * its answer, "nr errno" (0 for a success), written to FD at once. */
static void trace_child(int fd, int from, long arg)
{
	struct sock_fprog prog = {
		sizeof(trace_insns) / sizeof(*trace_insns), trace_insns
	};
	int res[2];

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0)
		_exit(2);
	for (int nr = from; nr < NR_PROBE; nr++) {
		if (!probed(nr))
			continue;
		res[0] = nr;
		res[1] = syscall(nr, arg, arg, arg, arg, arg, arg) < 0 ?
		    errno : 0;
		if (write(fd, res, sizeof(res)) != (ssize_t)sizeof(res))
			_exit(3);
	}
	_exit(0);
}

/* One child's run from FROM; the number it stopped at (NR_PROBE when
 * it finished), and that number marked with the signal if it died. */
static int trace_from(int from, long arg, int *errs)
{
	int p[2], res[2], status, last = from - 1;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0 || (pid = fork()) < 0)
		return NR_PROBE;
	if (pid == 0) {
		close(p[0]);
		trace_child(p[1], from, arg);
	}
	close(p[1]);
	while (read(p[0], res, sizeof(res)) == (ssize_t)sizeof(res))
		if (res[0] >= 0 && res[0] < NR_PROBE)
			errs[last = res[0]] = res[1];
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status)) {
		if (WEXITSTATUS(status) != 0)
			line("syscall-error trace-child-exit-%d",
			    WEXITSTATUS(status));
		return NR_PROBE;
	}
	for (last++; last < NR_PROBE && !probed(last); last++)
		;
	if (last < NR_PROBE)
		errs[last] = -WTERMSIG(status);
	return last;
}

static void trace_all(long arg, int *errs)
{
	for (int nr = 0; nr < NR_PROBE; nr++)
		errs[nr] = ENOSYS;
	for (int from = 0; from < NR_PROBE; )
		from = trace_from(from, arg, errs) + 1;
}

static void deny_line(int nr, int e, const char *args)
{
	const char *name = sysname(nr);

	line("syscall-denied %s %s %s", name ? name : "?", answer(e), args);
}

/* A filter rule that answers ENOSYS itself looks like no rule to the
 * trace; these are asked directly with arguments the kernel refuses
 * (EINVAL: a size below the first version) before doing anything. */
static void s_enosys(void)
{
	if (syscall(SYS_openat2, AT_FDCWD, NULL, NULL, 0) < 0 &&
	    errno == ENOSYS)
		line("syscall-enosys openat2");
	if (syscall(SYS_clone3, NULL, 0) < 0 && errno == ENOSYS)
		line("syscall-enosys clone3");
}

static void s_syscalls(void)
{
	static int e0[NR_PROBE], e1[NR_PROBE];

	fflush(stdout);
	trace_all(0, e0);
	trace_all(1, e1);
	for (int nr = 0; nr < NR_PROBE; nr++) {
		if (e0[nr] != ENOSYS && e0[nr] == e1[nr]) {
			deny_line(nr, e0[nr], "0,1");
			continue;
		}
		if (e0[nr] != ENOSYS)
			deny_line(nr, e0[nr], "0");
		if (e1[nr] != ENOSYS)
			deny_line(nr, e1[nr], "1");
	}
	s_enosys();
}

/* ------------------------------------------------------------- ioctl */

/* The requests tried: every one the build host's uapi headers name for
 * files, directories, terminals, sockets, loop and block devices and
 * the drivers "devices" reaches (CENSUS_IOCTLS, which census.bats makes
 * with the table's struct), then those whose headers are not there. */
#ifdef CENSUS_IOCTLS
#include CENSUS_IOCTLS
#else
struct ioctl_req {
	unsigned long req;
	const char *name;
};
static const struct ioctl_req header_ioctls[] = { { 0x5412, "TIOCSTI" } };
#endif

#define IOC_(dir, type, nr, size) ((unsigned long)(dir) << 30 | \
	(unsigned long)(size) << 16 | (unsigned long)(type) << 8 | (nr))
#define W_ 1UL			/* _IOC_WRITE */
#define R_ 2UL			/* _IOC_READ */

static const struct ioctl_req extra_ioctls[] = {
	/* termios2 (glibc 2.42 on), whose struct glibc's headers hide */
	{ IOC_(R_, 'T', 0x2a, 44), "TCGETS2" },
	{ IOC_(W_, 'T', 0x2b, 44), "TCSETS2" },
	{ IOC_(W_, 'T', 0x2c, 44), "TCSETSW2" },
	{ IOC_(W_, 'T', 0x2d, 44), "TCSETSF2" },
	/* ext4's own (fs/ext4/ext4.h) */
	{ IOC_(R_, 'f', 3, 8), "EXT4_IOC_GETVERSION" },
	{ IOC_(W_, 'f', 4, 8), "EXT4_IOC_SETVERSION" },
	{ IOC_(W_, 'f', 7, 8), "EXT4_IOC_GROUP_EXTEND" },
	{ IOC_(W_, 'f', 8, 40), "EXT4_IOC_GROUP_ADD" },
	{ IOC_(0, 'f', 9, 0), "EXT4_IOC_MIGRATE" },
	{ IOC_(0, 'f', 12, 0), "EXT4_IOC_ALLOC_DA_BLKS" },
	{ IOC_(R_ | W_, 'f', 15, 40), "EXT4_IOC_MOVE_EXT" },
	{ IOC_(W_, 'f', 16, 8), "EXT4_IOC_RESIZE_FS" },
	{ IOC_(0, 'f', 17, 0), "EXT4_IOC_SWAP_BOOT" },
	{ IOC_(0, 'f', 18, 0), "EXT4_IOC_PRECACHE_EXTENTS" },
	{ IOC_(0, 'f', 40, 0), "EXT4_IOC_CLEAR_ES_CACHE" },
	{ IOC_(W_, 'f', 41, 4), "EXT4_IOC_GETSTATE" },
	{ IOC_(R_ | W_, 'f', 42, 32), "EXT4_IOC_GET_ES_CACHE" },
	{ IOC_(W_, 'f', 43, 4), "EXT4_IOC_CHECKPOINT" },
	{ IOC_(W_, 'f', 44, 8), "EXT4_IOC_SETFSUUID" },
	{ IOC_(R_, 'X', 125, 4), "EXT4_IOC_SHUTDOWN" },
	/* XFS's own (xfs/xfs_fs.h; sizes of x86_64) */
	{ IOC_(W_, 'X', 110, 16), "XFS_IOC_FSGROWFSDATA" },
	{ IOC_(R_, 'X', 113, 32), "XFS_IOC_FSCOUNTS" },
	{ IOC_(R_ | W_, 'X', 114, 16), "XFS_IOC_SET_RESBLKS" },
	{ IOC_(R_, 'X', 115, 16), "XFS_IOC_GET_RESBLKS" },
	{ IOC_(W_, 'X', 116, 8), "XFS_IOC_ERROR_INJECTION" },
	{ IOC_(R_, 'X', 126, 256), "XFS_IOC_FSGEOMETRY" },
	/* DRM's (drm/drm.h, i915_drm.h: libdrm's headers) */
	{ IOC_(R_ | W_, 'd', 0x00, 64), "DRM_IOCTL_VERSION" },
	{ IOC_(R_, 'd', 0x02, 4), "DRM_IOCTL_GET_MAGIC" },
	{ IOC_(W_, 'd', 0x09, 8), "DRM_IOCTL_GEM_CLOSE" },
	{ IOC_(R_ | W_, 'd', 0x2d, 12), "DRM_IOCTL_PRIME_HANDLE_TO_FD" },
	{ IOC_(R_ | W_, 'd', 0x46, 16), "DRM_IOCTL_I915_GETPARAM" },
	/* NVIDIA's (open-gpu-kernel-modules: nv-ioctl-numbers.h,
	 * uvm_linux_ioctl.h, uvm_ioctl.h) */
	{ IOC_(R_ | W_, 'F', 200 + 0x2b, 48), "NV_ESC_RM_ALLOC" },
	{ IOC_(R_ | W_, 'F', 200 + 0x2a, 32), "NV_ESC_RM_CONTROL" },
	{ 0x30000001, "UVM_INITIALIZE" },
	{ 0x30000002, "UVM_DEINITIALIZE" },
	{ 0x25, "UVM_REGISTER_GPU" },
};

#define HIBITS (1UL << 32)
#define SIGNEXT 0xffffffff00000000UL

/* ioctl alone TRACEs: with no tracer it fails with ENOSYS, unexecuted,
 * and any older filter's ERRNO outranks it, as for the syscalls. */
static struct sock_filter ioctl_trace_insns[] = {
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_ioctl, 0, 1),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
};

enum { ON_FILE = 1, ON_DIR = 2, ON_STDIO = 4, ON_HIBITS = 8, ON_SIGNEXT = 16 };

static int passes(int fd, unsigned long req)
{
	return syscall(SYS_ioctl, fd, req, 0) < 0 && errno == ENOSYS;
}

/* In the child: which of the five forms of REQ got past the filters. */
static unsigned char ioctl_forms(int file, int dir, unsigned long req)
{
	return (unsigned char)((passes(file, req) ? ON_FILE : 0) |
	    (passes(dir, req) ? ON_DIR : 0) |
	    (passes(STDERR_FILENO, req) ? ON_STDIO : 0) |
	    (passes(file, req | HIBITS) ? ON_HIBITS : 0) |
	    (passes(file, (req & 0xffffffffUL) | SIGNEXT) ? ON_SIGNEXT : 0));
}

static void ioctl_child(int fd, const struct ioctl_req *reqs, size_t n)
{
	struct sock_fprog prog = {
		sizeof(ioctl_trace_insns) / sizeof(*ioctl_trace_insns),
		ioctl_trace_insns
	};
	int file = open("/etc/passwd", O_RDONLY | O_CLOEXEC);
	int dir = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	unsigned char res;

	if (file < 0 || dir < 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0)
		_exit(2);
	for (size_t i = 0; i < n; i++) {
		res = ioctl_forms(file, dir, reqs[i].req);
		if (write(fd, &res, 1) != 1)
			_exit(3);
	}
	_exit(0);
}

static void ioctl_lines(const struct ioctl_req *r, unsigned char res)
{
	static const char *const fds[] = { "file", "dir", "stdio" };
	char how[32] = "";

	for (int b = 0; b < 3; b++)
		if (res & (1 << b))
			snprintf(how + strlen(how), sizeof(how) - strlen(how),
			    "%s%s", how[0] ? "," : "", fds[b]);
	if (how[0])
		line("ioctl %s 0x%lx %s", r->name, r->req, how);
	if (res & (ON_HIBITS | ON_SIGNEXT))
		line("ioctl-hibits %s%s%s", r->name,
		    res & ON_HIBITS ? " hibits" : "",
		    res & ON_SIGNEXT ? " signext" : "");
}

/* Each list tried in a child under the TRACE filter; one byte of forms
 * per request back through a pipe. */
static void ioctl_list(const struct ioctl_req *reqs, size_t n)
{
	unsigned char res;
	size_t i = 0;
	int p[2], status;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0 || (pid = fork()) < 0) {
		line("ioctl-error fork");
		return;
	}
	if (pid == 0) {
		close(p[0]);
		ioctl_child(p[1], reqs, n);
	}
	close(p[1]);
	for (; i < n && read(p[0], &res, 1) == 1; i++)
		ioctl_lines(&reqs[i], res);
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (i < n || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		line("ioctl-error child-%d-of-%zu", (int)i, n);
}

static void s_ioctl(void)
{
	fflush(stdout);
	ioctl_list(header_ioctls, sizeof(header_ioctls) /
	    sizeof(*header_ioctls));
	ioctl_list(extra_ioctls, sizeof(extra_ioctls) /
	    sizeof(*extra_ioctls));
}

/* -------------------------------------------------------------- exec */

/* The code a process may map executable lies on mounts without noexec
 * (issue 30): under bwrap only the executable trees. Fields 5 and 6 of
 * a mountinfo line are the mount point and the mount's own options. */
static void s_exec(void)
{
	char *buf = NULL, *f[6], *save, *opt;
	size_t cap = 0;
	FILE *fp = fopen("/proc/self/mountinfo", "re");
	int noexec;

	while (fp != NULL && getline(&buf, &cap, fp) > 0) {
		f[0] = strtok_r(buf, " \n", &save);
		for (int i = 1; i < 6 && f[i - 1] != NULL; i++)
			f[i] = strtok_r(NULL, " \n", &save);
		if (f[0] == NULL || f[5] == NULL)
			continue;
		noexec = 0;
		for (opt = strtok_r(f[5], ",", &save); opt != NULL;
		    opt = strtok_r(NULL, ",", &save))
			noexec |= strcmp(opt, "noexec") == 0;
		if (!noexec)
			line("exec %s", f[4]);
	}
	free(buf);
	if (fp != NULL)
		fclose(fp);
}

/* --------------------------------------------------------------- map */

/* 1 when FD maps PROT_READ|PROT_EXEC (a private mapping, unmapped). */
static int maps_exec(int fd)
{
	void *p;

	if (fd < 0)
		return 0;
	p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return 0;
	munmap(p, 4096);
	return 1;
}

/* What code a process may map comes from the executable trees alone
 * (issue 30): under bwrap, noexec mounts; under Landlock, sbexec's look
 * at each such mapping (mapwatch.c). */
static void s_map(void)
{
	static const char tmp[] = "census-map.tmp";
	int fd;

	if (maps_exec(open("/proc/self/exe", O_RDONLY | O_CLOEXEC)))
		line("map exe");
	if (maps_exec(open("/lib/x86_64-linux-gnu/libc.so.6",
	    O_RDONLY | O_CLOEXEC)))
		line("map libc");
	fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0 && write(fd, "\xc3", 1) == 1 &&
	    maps_exec(open(tmp, O_RDONLY | O_CLOEXEC)))
		line("map cwd");
	if (fd >= 0) {
		close(fd);
		unlink(tmp);
	}
}

/* --------------------------------------------------------------- run */

/* Programs anyone could want to start from inside: a shell, an
 * interpreter, the dynamic loader (which runs any program it is given),
 * a plain one, and the command itself. */
static const char *const run_list[] = {
	"/bin/sh", "/usr/bin/python3", "/usr/bin/true", "/usr/bin/env",
	"/lib64/ld-linux-x86-64.so.2", "/proc/self/exe",
};

/* 1 when a child starts PATH (by descriptor with BY_FD): the exec
 * closes the pipe's O_CLOEXEC end unwritten. Whatever started is
 * killed at once; it gets --version and /dev/null for 0-2. */
static int starts(const char *path, int by_fd)
{
	char *const argv[] = { (char *)path, "--version", NULL };
	char *const envp[] = { NULL };
	int p[2], nul, fd;
	ssize_t n;
	pid_t pid;
	char c;

	if (pipe2(p, O_CLOEXEC) < 0)
		return 0;
	if ((pid = fork()) == 0) {
		nul = open("/dev/null", O_RDWR);
		for (int i = 0; i < 3; i++)
			dup2(nul, i);
		fd = by_fd ? open(path, O_PATH | O_CLOEXEC) : -1;
		if (by_fd)
			syscall(SYS_execveat, fd, "", argv, envp, AT_EMPTY_PATH);
		else
			execve(path, argv, envp);
		(void)!write(p[1], "x", 1);
		_exit(127);
	}
	close(p[1]);
	n = pid < 0 ? 1 : read(p[0], &c, 1);
	close(p[0]);
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	return n == 0;
}

static void s_run(void)
{
	for (size_t i = 0; i < sizeof(run_list) / sizeof(*run_list); i++) {
		if (starts(run_list[i], 0))
			line("run %s", run_list[i]);
		if (starts(run_list[i], 1))
			line("run fd:%s", run_list[i]);
	}
}

/* -------------------------------------------------------------- main */

static const struct section {
	const char *name;
	void (*fn)(void);
} sections[] = {
	{ "fd", s_fd }, { "dev", s_dev }, { "procfs", s_procfs },
	{ "write", s_write }, { "meta", s_meta },
	{ "proc", s_proc }, { "ipc", s_ipc }, { "cap", s_cap },
	{ "family", s_family }, { "syscalls", s_syscalls },
	{ "ioctl", s_ioctl }, { "exec", s_exec }, { "map", s_map },
	{ "run", s_run },
};

#define NSECTIONS (sizeof(sections) / sizeof(*sections))

static void run_section(const struct section *s)
{
	long t = now_ms();

	s->fn();
	flush();
	fprintf(stderr, "census: %s: %ld ms\n", s->name, now_ms() - t);
}

/* NAME=VALUE; 0 when ARG is not an option. */
static int option(const char *arg)
{
	const char *v = strchr(arg, '=');

	if (v == NULL)
		return 0;
	v++;
	if (strncmp(arg, "pidmax=", 7) == 0)
		pid_max = strtol(v, NULL, 0);
	else if (strncmp(arg, "meta=", 5) == 0 && nmeta < ARGS_MAX)
		metas[nmeta++] = v;
	else if (strncmp(arg, "key=", 4) == 0 && nkey < ARGS_MAX)
		keys[nkey++] = strtol(v, NULL, 0);
	else if (strncmp(arg, "mq=", 3) == 0 && nmq < ARGS_MAX)
		mqs[nmq++] = v;
	else
		return -1;
	return 1;
}

static int run(int argc, char **argv)
{
	int chosen[NSECTIONS] = { 0 }, any = 0, rc;
	size_t s;

	for (int i = 1; i < argc; i++) {
		if ((rc = option(argv[i])) > 0)
			continue;
		for (s = 0; rc == 0 && s < NSECTIONS; s++)
			if (strcmp(argv[i], sections[s].name) == 0)
				break;
		if (rc < 0 || s == NSECTIONS) {
			fprintf(stderr, "census: %s: no such section or "
			    "option\n", argv[i]);
			return 2;
		}
		chosen[s] = any = 1;
	}
	for (s = 0; s < NSECTIONS; s++)
		if (chosen[s] || !any)
			run_section(&sections[s]);
	return 0;
}

#include "payload.h"
PROBE_MAIN(run, "census")
