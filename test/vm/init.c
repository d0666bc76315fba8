/*
 * init.c: process 1 of a test/vm guest. test/vm/run boots one of
 * Debian's own kernels with this program as the whole initramfs, beside
 * the modules it needs; init loads them, makes the host's tree (shared
 * read-only over 9p, tag "root") the root under a tmpfs overlay, mounts
 * what a Debian host mounts, runs the one command of the job and powers
 * off.
 *
 * The job and the results travel through the control share (9p, tag
 * "ctl", a directory of the host's run): init reads "job", NUL-separated
 * KEY=VALUE records (uid, gid, cwd, work, modules, sysctl, arg); it
 * writes the command's stdout and stderr, read from pipes, into "stdout"
 * and "stderr", then "status": "exit N", "signal N", or "fail REASON" when
 * the guest could not run the command. A write to a 9p file returns once
 * the host has done it, so after qemu exits the host reads it all.
 *
 * The command runs in a session of its own with /dev/null as stdin, a
 * fixed environment (PATH, HOME, USER, LOGNAME, LANG=C; no TERM), as
 * root or as the job's uid and gid; when it exits, everything it left
 * running is killed, the pipes are drained, and the guest powers off.
 */

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <net/if.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

/* Bounds on what the host writes: a job is an argv and a few settings. */
#define JOB_MAX (1 << 20)
#define ARGS_MAX 4096
#define SYSCTLS_MAX 64

#define P9_OPTS "trans=virtio,version=9p2000.L,msize=262144"
#define PATH_VALUE "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

struct job {
	uid_t uid;
	gid_t gid;
	int has_uid, has_gid;
	const char *cwd, *work, *modules;
	const char *sysctl[SYSCTLS_MAX];
	size_t nsysctl;
	char *argv[ARGS_MAX + 1];
	size_t argc;
};

struct mountpoint {
	const char *source, *target, *type;
	unsigned long flags;
	const char *data;
};

/* What a Debian host mounts (systemd's options), in the new root. */
static const struct mountpoint sysmounts[] = {
	{ "proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL },
	{ "sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL },
	{ "cgroup2", "/sys/fs/cgroup", "cgroup2",
	  MS_NOSUID | MS_NODEV | MS_NOEXEC, "nsdelegate,memory_recursiveprot" },
	{ "devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC,
	  "gid=5,mode=620,ptmxmode=000" },
	{ "tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777" },
	{ "mqueue", "/dev/mqueue", "mqueue", MS_NOSUID | MS_NODEV | MS_NOEXEC,
	  NULL },
	{ "tmpfs", "/run", "tmpfs", MS_NOSUID | MS_NODEV, "mode=755" },
};
/* No tmpfs on /tmp: the overlay's /tmp is writable already, and a
 * checkout under the host's /tmp (a CI clone) stays in view, with the
 * rig's own cache in it. */

/* udev's links, which bash's process substitution needs (/dev/fd/N). */
static const char *const devlinks[][2] = {
	{ "/proc/self/fd", "/dev/fd" },
	{ "/proc/self/fd/0", "/dev/stdin" },
	{ "/proc/self/fd/1", "/dev/stdout" },
	{ "/proc/self/fd/2", "/dev/stderr" },
};

/* The control share, open from the start to the power-off. */
static int ctlfd = -1;

static noreturn void poweroff(void)
{
	sync();
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}

static int write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len > 0) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* put_status TEXT: "status", whole or not at all (written, then renamed). */
static void put_status(const char *text)
{
	int fd;

	if (ctlfd < 0)
		return;
	fd = openat(ctlfd, "status.new", O_WRONLY | O_CREAT | O_TRUNC |
	    O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (write_all(fd, text, strlen(text)) == 0 && fsync(fd) == 0)
		renameat(ctlfd, "status.new", ctlfd, "status");
	close(fd);
}

/* die: the reason on the console and as the status, then power off. */
static noreturn void __attribute__((format(printf, 1, 2)))
die(const char *fmt, ...)
{
	char msg[512], status[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	dprintf(2, "vm-init: %s\n", msg);
	snprintf(status, sizeof status, "fail %s\n", msg);
	put_status(status);
	poweroff();
}

/* mkdir_p PATH: PATH and its parents, as mkdir -p (PATH is absolute). */
static void mkdir_p(const char *path)
{
	char dir[PATH_MAX];
	size_t i, len = strlen(path);

	if (len >= sizeof dir)
		die("%.40s...: path too long", path);
	memcpy(dir, path, len + 1);
	for (i = 1; i <= len; i++) {
		if (dir[i] != '/' && dir[i] != '\0')
			continue;
		dir[i] = '\0';
		if (mkdir(dir, 0755) < 0 && errno != EEXIST)
			die("mkdir %s: %s", dir, strerror(errno));
		dir[i] = path[i];
	}
}

static void mount_or_die(const char *src, const char *dst, const char *type,
    unsigned long flags, const char *data)
{
	mkdir_p(dst);
	if (mount(src, dst, type, flags, data) < 0)
		die("mount %s on %s: %s", type ? type : src, dst,
		    strerror(errno));
}

/* Console first: the kernel opened /dev/console only if it was there. */
static void early_setup(void)
{
	int fd;

	mount_or_die("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, "mode=755");
	if (fcntl(2, F_GETFD) < 0) {
		fd = open("/dev/console", O_RDWR | O_NOCTTY);
		if (fd < 0)
			poweroff();
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
}

/* The modules of /modules/order, one file name a line, in that order. */
static void load_modules(void)
{
	char list[4096], path[PATH_MAX], *name, *save;
	ssize_t n;
	int fd;

	fd = open("/modules/order", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("open /modules/order: %s", strerror(errno));
	n = read(fd, list, sizeof list - 1);
	close(fd);
	if (n < 0)
		die("read /modules/order: %s", strerror(errno));
	list[n] = '\0';
	for (name = strtok_r(list, "\n", &save); name;
	    name = strtok_r(NULL, "\n", &save)) {
		snprintf(path, sizeof path, "/modules/%s", name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			die("open %s: %s", path, strerror(errno));
		if (syscall(SYS_finit_module, fd, "", 0) < 0 && errno != EEXIST)
			die("load %s: %s", name, strerror(errno));
		close(fd);
	}
}

/* The control share stays reachable through ctlfd alone. */
static void open_ctl(void)
{
	mount_or_die("ctl", "/ctl", "9p", MS_NOSUID | MS_NODEV,
	    P9_OPTS ",cache=none");
	ctlfd = open("/ctl", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (ctlfd < 0)
		die("open /ctl: %s", strerror(errno));
	umount2("/ctl", MNT_DETACH);
}

static int parse_id(const char *s, unsigned long *id)
{
	char *end;

	errno = 0;
	*id = strtoul(s, &end, 10);
	return errno || end == s || *end || *id >= UINT_MAX ? -1 : 0;
}

/* add_record JOB REC: one KEY=VALUE record into JOB. */
static void add_record(struct job *job, char *rec)
{
	unsigned long id;

	if (strncmp(rec, "arg=", 4) == 0 && job->argc < ARGS_MAX)
		job->argv[job->argc++] = rec + 4;
	else if (strncmp(rec, "sysctl=", 7) == 0 && job->nsysctl < SYSCTLS_MAX)
		job->sysctl[job->nsysctl++] = rec + 7;
	else if (strncmp(rec, "cwd=", 4) == 0 && rec[4] == '/')
		job->cwd = rec + 4;
	else if (strncmp(rec, "work=", 5) == 0 && rec[5] == '/')
		job->work = rec + 5;
	else if (strncmp(rec, "modules=", 8) == 0 && rec[8] == '/')
		job->modules = rec + 8;
	else if (strncmp(rec, "uid=", 4) == 0 && parse_id(rec + 4, &id) == 0) {
		job->uid = (uid_t)id;
		job->has_uid = 1;
	} else if (strncmp(rec, "gid=", 4) == 0 && parse_id(rec + 4, &id) == 0) {
		job->gid = (gid_t)id;
		job->has_gid = 1;
	} else
		die("job: bad or too many records at \"%.40s\"", rec);
}

static void read_job(struct job *job)
{
	static char buf[JOB_MAX + 1];
	size_t len = 0;
	ssize_t n;
	char *p;
	int fd;

	fd = openat(ctlfd, "job", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("open job: %s", strerror(errno));
	while (len < JOB_MAX && (n = read(fd, buf + len, JOB_MAX - len)) > 0)
		len += (size_t)n;
	close(fd);
	if (len == 0 || len >= JOB_MAX || buf[len - 1] != '\0')
		die("job: empty, too long or not NUL-terminated");
	memset(job, 0, sizeof *job);
	for (p = buf; p < buf + len; p += strlen(p) + 1)
		add_record(job, p);
	if (job->argc == 0 || !job->cwd)
		die("job: no command or no cwd");
}

/* The host's tree read-only under a tmpfs, overlaid at /new. */
static void mount_root(void)
{
	mount_or_die("root", "/lower", "9p", MS_RDONLY,
	    P9_OPTS ",cache=loose");
	mount_or_die("tmpfs", "/rw", "tmpfs", 0, "mode=755");
	if (mkdir("/rw/upper", 0755) < 0 || mkdir("/rw/work", 0755) < 0)
		die("mkdir /rw: %s", strerror(errno));
	mount_or_die("overlay", "/new", "overlay", 0,
	    "lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work");
	umount2("/lower", MNT_DETACH);
	umount2("/rw", MNT_DETACH);
}

/*
 * switch_root's way (initramfs cannot be pivoted): move the new root
 * over "/" and chroot to it, so the kernel does not count the processes
 * as chrooted, which would refuse them user namespaces.
 */
static void enter_root(void)
{
	if (chdir("/new") < 0 ||
	    mount("/dev", "/new/dev", NULL, MS_MOVE, NULL) < 0 ||
	    mount(".", "/", NULL, MS_MOVE, NULL) < 0 ||
	    chroot(".") < 0 || chdir("/") < 0)
		die("switch to the new root: %s", strerror(errno));
}

static void mount_system(void)
{
	const struct mountpoint *m;
	size_t i;

	for (m = sysmounts; m < sysmounts + sizeof sysmounts / sizeof *m; m++)
		mount_or_die(m->source, m->target, m->type, m->flags, m->data);
	for (i = 0; i < sizeof devlinks / sizeof *devlinks; i++)
		if (symlink(devlinks[i][0], devlinks[i][1]) < 0 &&
		    errno != EEXIST)
			die("symlink %s: %s", devlinks[i][1], strerror(errno));
}

/* set_sysctl NAME=VALUE: /proc/sys/NAME with its dots as slashes. */
static void set_sysctl(const char *rec)
{
	char path[256], *p;
	const char *eq = strchr(rec, '=');
	int fd, n;

	n = eq ? snprintf(path, sizeof path, "/proc/sys/%.*s",
	    (int)(eq - rec), rec) : -1;
	if (n < 0 || (size_t)n >= sizeof path || strstr(path, ".."))
		die("sysctl: bad record \"%.40s\"", rec);
	for (p = path + 10; *p; p++)
		if (*p == '.')
			*p = '/';
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write_all(fd, eq + 1, strlen(eq + 1)) < 0)
		die("sysctl %s: %s", rec, strerror(errno));
	close(fd);
}

/* The loopback interface up, as every host has it (127.0.0.1, ::1). */
static void loopback_up(void)
{
	struct ifreq ifr;
	int s;

	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	memset(&ifr, 0, sizeof ifr);
	strcpy(ifr.ifr_name, "lo");
	if (s < 0 || ioctl(s, SIOCGIFFLAGS, &ifr) < 0)
		die("lo: %s", strerror(errno));
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(s, SIOCSIFFLAGS, &ifr) < 0)
		die("lo up: %s", strerror(errno));
	close(s);
}

/* The kernel's module tree, read-only, where modprobe looks for it. */
static void mount_modules(const char *tree)
{
	char dst[PATH_MAX];
	struct utsname u;

	uname(&u);
	snprintf(dst, sizeof dst, "/lib/modules/%s", u.release);
	mount_or_die(tree, dst, NULL, MS_BIND, NULL);
	if (mount(NULL, dst, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL) < 0)
		die("remount %s read-only: %s", dst, strerror(errno));
}

static void setup_guest(const struct job *job)
{
	size_t i;

	mount_system();
	if (job->modules)
		mount_modules(job->modules);
	if (job->work)
		mount_or_die("work", job->work, "9p", 0, P9_OPTS ",cache=none");
	for (i = 0; i < job->nsysctl; i++)
		set_sysctl(job->sysctl[i]);
	if (sethostname("sbexec-vm", 9) < 0)
		die("sethostname: %s", strerror(errno));
	loopback_up();
}

/* ==================================================== the command */

static noreturn void __attribute__((format(printf, 2, 3)))
child_fail(int status, const char *fmt, ...)
{
	va_list ap;

	dprintf(2, "vm-init: ");
	va_start(ap, fmt);
	vdprintf(2, fmt, ap);
	va_end(ap);
	dprintf(2, "\n");
	_exit(status);
}

/* become JOB: its uid and gid (the user's own groups when it has an entry). */
static const struct passwd *become(const struct job *job)
{
	const struct passwd *pw = getpwuid(job->has_uid ? job->uid : 0);
	gid_t gid;

	if (!job->has_uid)
		return pw;
	gid = job->has_gid ? job->gid : pw ? pw->pw_gid : (gid_t)job->uid;
	if ((pw ? initgroups(pw->pw_name, gid) : setgroups(0, NULL)) < 0 ||
	    setgid(gid) < 0 || setuid(job->uid) < 0)
		child_fail(125, "uid %u gid %u: %s", (unsigned)job->uid,
		    (unsigned)gid, strerror(errno));
	return pw;
}

/* exec_path ARGV ENVP: execve through PATH_VALUE, as execvp does. */
static noreturn void exec_path(char *const argv[], char *const envp[])
{
	char path[PATH_MAX];
	const char *dir = PATH_VALUE, *colon;
	int err = ENOENT;

	if (strchr(argv[0], '/')) {
		execve(argv[0], argv, envp);
		err = errno;
	}
	for (; !strchr(argv[0], '/') && *dir; dir = *colon ? colon + 1 : colon) {
		colon = strchrnul(dir, ':');
		snprintf(path, sizeof path, "%.*s/%s", (int)(colon - dir), dir,
		    argv[0]);
		execve(path, argv, envp);
		if (errno != ENOENT)
			err = errno;
	}
	child_fail(err == ENOENT ? 127 : 126, "%s: %s", argv[0], strerror(err));
}

static noreturn void child(const struct job *job, int out, int err,
    const sigset_t *mask)
{
	static char home[PATH_MAX + 8], user[64], logname[64];
	char *envp[] = { "PATH=" PATH_VALUE, home, user, logname, "LANG=C",
	    NULL };
	const struct passwd *pw;
	const char *name;
	struct stat st;
	int null;

	sigprocmask(SIG_SETMASK, mask, NULL);
	null = open("/dev/null", O_RDONLY);
	if (null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 ||
	    dup2(err, 2) < 0)
		_exit(125);
	setsid();
	umask(022);
	pw = become(job);
	snprintf(home, sizeof home, "HOME=%s", pw && stat(pw->pw_dir, &st) == 0
	    && S_ISDIR(st.st_mode) ? pw->pw_dir : job->has_uid ? "/tmp" :
	    "/root");
	name = pw ? pw->pw_name : "nobody";
	snprintf(user, sizeof user, "USER=%s", name);
	snprintf(logname, sizeof logname, "LOGNAME=%s", name);
	if (chdir(job->cwd) < 0)
		child_fail(125, "cd %s: %s", job->cwd, strerror(errno));
	exec_path(job->argv, envp);
}

/* reap: every child that exited; 1 once PID has, its status in *st. */
static int reap(pid_t pid, int *st)
{
	int status, done = 0;
	pid_t p;

	while ((p = waitpid(-1, &status, WNOHANG)) > 0)
		if (p == pid) {
			*st = status;
			done = 1;
		}
	return done;
}

/* copy FROM TO: one read's worth; -1 at end of file. */
static int copy(int from, int to)
{
	char buf[65536];
	ssize_t n = read(from, buf, sizeof buf);

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n <= 0)
		return -1;
	return write_all(to, buf, (size_t)n) < 0 ? -1 : 0;
}

/*
 * pump: the pipes into the files until both are at their end. Once the
 * command has exited, what it left running is killed, so that nothing
 * holding a pipe keeps the guest up.
 */
static int pump(pid_t pid, int sfd, const int pipes[2], const int files[2])
{
	struct pollfd p[3] = { { sfd, POLLIN, 0 }, { pipes[0], POLLIN, 0 },
	    { pipes[1], POLLIN, 0 } };
	struct signalfd_siginfo si;
	int status = 0, done = 0, i;

	while (p[1].fd >= 0 || p[2].fd >= 0) {
		if (poll(p, 3, -1) < 0 && errno != EINTR)
			die("poll: %s", strerror(errno));
		if (p[0].revents && read(sfd, &si, sizeof si) > 0 && !done &&
		    (done = reap(pid, &status)))
			kill(-1, SIGKILL);
		for (i = 1; i < 3; i++)
			if (p[i].fd >= 0 && p[i].revents &&
			    copy(p[i].fd, files[i - 1]) < 0) {
				close(p[i].fd);
				p[i].fd = -1;
			}
	}
	if (!done && waitpid(pid, &status, 0) < 0)
		die("wait: %s", strerror(errno));
	kill(-1, SIGKILL);
	return status;
}

static int open_result(const char *name)
{
	int fd = openat(ctlfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0644);

	if (fd < 0)
		die("open %s: %s", name, strerror(errno));
	return fd;
}

/* run JOB: its command, supervised; its wait status. */
static int run(const struct job *job)
{
	int out[2], err[2], pipes[2], files[2], sfd, status;
	sigset_t chld, old;
	pid_t pid;

	files[0] = open_result("stdout");
	files[1] = open_result("stderr");
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);
	sfd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0 || pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0)
		die("pipes: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0)
		child(job, out[1], err[1], &old);
	close(out[1]);
	close(err[1]);
	pipes[0] = out[0];
	pipes[1] = err[0];
	status = pump(pid, sfd, pipes, files);
	if (fsync(files[0]) < 0 || fsync(files[1]) < 0 ||
	    close(files[0]) < 0 || close(files[1]) < 0)
		die("results: %s", strerror(errno));
	return status;
}

int main(void)
{
	static struct job job;
	char status[32];
	int st;

	early_setup();
	load_modules();
	open_ctl();
	read_job(&job);
	mount_root();
	enter_root();
	setup_guest(&job);
	st = run(&job);
	if (WIFSIGNALED(st))
		snprintf(status, sizeof status, "signal %d\n", WTERMSIG(st));
	else
		snprintf(status, sizeof status, "exit %d\n", WEXITSTATUS(st));
	put_status(status);
	poweroff();
}
